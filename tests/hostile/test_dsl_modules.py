"""``toskit.dsl.load_module`` on hostile modules (issue #19, #24).

Loading a module runs its code, in a separate process with a wall-clock
timeout: every way a module can misbehave is a ``python-error`` diagnostic,
and the caller's process (current directory, ``sys.path``, recursion
limit) is untouched. Each case runs in a bounded subprocess itself.
"""

from __future__ import annotations

import textwrap

import pytest

CASES = {
    "infinite-loop": ("while True:\n    pass\n", "did not finish within 1 s"),
    "sleep": ("import time\ntime.sleep(60)\n", "did not finish within 1 s"),
    "os-exit": ("import os\nos._exit(3)\n", "exit code 3"),
    "keyboard-interrupt": ("raise KeyboardInterrupt\n", "raised KeyboardInterrupt"),
    "generator-exit": ("raise GeneratorExit\n", "raised GeneratorExit"),
    "base-exception": ("class Boom(BaseException):\n    pass\nraise Boom('x')\n", "raised Boom: x"),
    "str-raises": (
        "class Bad(Exception):\n    def __str__(self):\n        raise RuntimeError\nraise Bad()\n",
        "could not be shown",
    ),
    "sys-exit": ("import sys\nsys.exit(2)\n", "raised SystemExit"),
    "recursion-limit": (
        "import sys\nimport tosca\nsys.setrecursionlimit(60)\n"
        "class A(tosca.DataEntity):\n    x: int = 1\n",
        None,  # fine or a diagnostic; the caller's limit is untouched
    ),
    "sys-path-deleted": ("import sys\ndel sys.path[:]\nimport tosca\n"
                         "class A(tosca.DataEntity):\n    x: int = 1\n", None),
    "deep-default": (
        "import tosca\nv = 0\nfor _ in range(600):\n    v = [v]\n"
        "class A(tosca.DataEntity):\n    x: list = v\n",
        None,
    ),
}


@pytest.mark.parametrize(("source", "fragment"), list(CASES.values()), ids=list(CASES))
def test_hostile_module_is_a_diagnostic(run_case, tmp_path, source, fragment) -> None:
    path = tmp_path / "mod.py"
    path.write_text(source)
    out = run_case(f"""
        def case():
            import os, sys
            from toskit import dsl
            cwd, path, limit = os.getcwd(), list(sys.path), sys.getrecursionlimit()
            st = dsl.load_module({str(path)!r}, timeout=1)
            return [[[d.code, d.message] for d in st.diagnostics],
                    os.getcwd() == cwd, sys.path == path, sys.getrecursionlimit() == limit]
    """, cpu=3)
    diags, same_cwd, same_path, same_limit = out.returned
    assert same_cwd and same_path and same_limit
    if fragment is not None:
        assert any(code == "python-error" and fragment in message for code, message in diags), diags
    else:
        assert all(code in ("python-error", "type-mismatch") for code, _ in diags), diags


def test_a_slow_module_does_not_block_other_loads(run_case, tmp_path) -> None:
    slow = tmp_path / "slow.py"
    slow.write_text("import time\ntime.sleep(3)\n")
    quick = tmp_path / "quick.py"
    quick.write_text("import tosca\nclass A(tosca.DataEntity):\n    x: int = 1\n")
    out = run_case(f"""
        def case():
            import threading, time
            from toskit import dsl
            dsl.load_module({str(quick)!r})  # warm the process pool
            slow = threading.Thread(target=dsl.load_module, args=({str(slow)!r},),
                                    kwargs={{"timeout": 5}})
            slow.start()
            time.sleep(0.2)
            start = time.monotonic()
            st = dsl.load_module({str(quick)!r})
            took = time.monotonic() - start
            slow.join()
            return [st.ok, took]
    """, cpu=3)
    ok, took = out.returned
    assert ok and took < 2.5


def test_a_module_that_changes_directory_leaves_the_caller_alone(run_case, tmp_path) -> None:
    path = tmp_path / "mod.py"
    path.write_text(textwrap.dedent(f"""\
        import os, sys
        os.chdir({str(tmp_path)!r})
        sys.path.insert(0, "/nowhere")
        import tosca
        class A(tosca.DataEntity):
            x: int = 1
        """))
    out = run_case(f"""
        def case():
            import os, sys
            from toskit import dsl
            cwd, path = os.getcwd(), list(sys.path)
            st = dsl.load_module({str(path)!r})
            return [st.ok, os.getcwd() == cwd, sys.path == path, "A" in st.types]
    """)
    assert out.returned == [True, True, True, True]


def test_check_never_executes_python(run_case, tmp_path) -> None:
    marker = tmp_path / "ran"
    module = tmp_path / "evil.py"
    module.write_text(f"open({str(marker)!r}, 'w').write('x')\n")
    out = run_case(f"""
        def case():
            import subprocess, sys
            proc = subprocess.run([sys.executable, "-m", "toskit", "check", {str(module)!r}],
                                  capture_output=True, text=True)
            import os
            return os.path.exists({str(marker)!r})
    """)
    assert out.returned is False
