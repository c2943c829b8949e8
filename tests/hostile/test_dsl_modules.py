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
    "sys-path-deleted": (
        "import sys\ndel sys.path[:]\nimport tosca\nclass A(tosca.DataEntity):\n    x: int = 1\n",
        None,
    ),
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
    out = run_case(
        f"""
        def case():
            import os, sys
            from toskit import dsl
            cwd, path, limit = os.getcwd(), list(sys.path), sys.getrecursionlimit()
            st = dsl.load_module({str(path)!r}, timeout=1)
            return [[[d.code, d.message] for d in st.diagnostics],
                    os.getcwd() == cwd, sys.path == path, sys.getrecursionlimit() == limit]
    """,
        cpu=3,
    )
    diags, same_cwd, same_path, same_limit = out.returned
    assert same_cwd and same_path and same_limit
    if fragment is not None:
        assert any(code == "python-error" and fragment in message for code, message in diags), diags
    else:
        assert all(
            code in ("python-error", "type-mismatch", "limit-exceeded") for code, _ in diags
        ), diags


def test_a_slow_module_does_not_block_other_loads(run_case, tmp_path) -> None:
    slow = tmp_path / "slow.py"
    slow.write_text("import time\ntime.sleep(3)\n")
    quick = tmp_path / "quick.py"
    quick.write_text("import tosca\nclass A(tosca.DataEntity):\n    x: int = 1\n")
    out = run_case(
        f"""
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
    """,
        cpu=3,
    )
    ok, took = out.returned
    assert ok and took < 2.5


def test_a_module_that_changes_directory_leaves_the_caller_alone(run_case, tmp_path) -> None:
    path = tmp_path / "mod.py"
    path.write_text(
        textwrap.dedent(f"""\
        import os, sys
        os.chdir({str(tmp_path)!r})
        sys.path.insert(0, "/nowhere")
        import tosca
        class A(tosca.DataEntity):
            x: int = 1
        """)
    )
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


# --- #30 item 5: process groups, forged replies, bounded output -------------

_DEAD = """
def dead(pid):
    # Gone, or a zombie waiting for init to reap it: either way not running.
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in "ZX"
    except FileNotFoundError:
        return True
"""


@pytest.mark.parametrize("ending", ["returns", "times-out", "os-exit"])
def test_processes_the_module_starts_do_not_outlive_it(run_case, tmp_path, ending) -> None:
    marker = tmp_path / "pids"
    tail = {"returns": "", "times-out": "while True:\n    pass\n", "os-exit": "os._exit(0)\n"}[
        ending
    ]
    module = tmp_path / "mod.py"
    module.write_text(
        textwrap.dedent(f"""\
        import os, time
        pids = []
        for _ in range(2):
            pid = os.fork()
            if pid == 0:
                if os.fork() == 0:  # a grandchild of the module, too
                    time.sleep(120)
                    os._exit(0)
                time.sleep(120)
                os._exit(0)
            pids.append(pid)
        with open({str(marker)!r}, "w") as out:
            out.write(" ".join(map(str, pids)))
        """)
        + tail
    )
    out = run_case(
        _DEAD
        + f"""
def case():
    import time
    from toskit import dsl
    st = dsl.load_module({str(module)!r}, timeout=3)
    pids = [int(p) for p in open({str(marker)!r}).read().split()]
    time.sleep(0.2)
    return [[d.code for d in st.diagnostics], [dead(pid) for pid in pids]]
""",
        cpu=3,
    )
    codes, dead = out.returned
    assert dead == [True, True], out
    assert codes == ([] if ending == "returns" else ["python-error"])


FORGERIES = {
    "not-json": b"not json",
    "a-list": b"[1, 2]",
    "wrong-fields": b'{"text": "x"}',
    "text-not-a-string": b'{"text": 1, "locations": {}, "run": [], "emitted": [], "default_file": null}',
    "bad-diagnostic": b'{"text": "x", "locations": {}, "run": [["bad"]], "emitted": [], "default_file": null}',
    "bad-severity": (
        b'{"text": "x", "locations": {}, "run": [["fatal", "c", "m", null, null, null, null,'
        b' null, null]], "emitted": [], "default_file": null}'
    ),
    "bad-location": b'{"text": "x", "locations": {"a": [1, 2]}, "run": [], "emitted": [], "default_file": null}',
    "crash-not-text": b'{"crash": 5}',
    "invalid-utf8": b"\xff\xfe",
}


@pytest.mark.parametrize("payload", list(FORGERIES.values()), ids=list(FORGERIES))
def test_a_module_that_forges_its_reply_gets_a_clear_toskit_error(
    run_case, tmp_path, payload
) -> None:
    module = tmp_path / "mod.py"
    module.write_text(
        textwrap.dedent(f"""\
        import gc, os
        from multiprocessing.connection import Connection
        for obj in gc.get_objects():
            if isinstance(obj, Connection) and obj.writable:
                obj.send_bytes({payload!r})
                os._exit(0)
        """)
    )
    out = run_case(f"""
def case():
    from toskit import dsl
    dsl.load_module({str(module)!r}, timeout=5)
""")
    assert out.toskit_error and out.raised == "ForgedReply", out
    assert "sent a reply toskit cannot read" in out.message, out.message


def test_a_well_formed_forgery_is_only_data(run_case, tmp_path) -> None:
    # A module runs its own code anyway: a reply it forges well is a document, nothing more.
    module = tmp_path / "mod.py"
    module.write_text(
        textwrap.dedent("""\
        import gc, json, os
        from multiprocessing.connection import Connection
        reply = {"text": "tosca_definitions_version: tosca_simple_yaml_1_3\\ndescription: forged\\n",
                 "locations": {}, "run": [], "emitted": [], "default_file": None}
        for obj in gc.get_objects():
            if isinstance(obj, Connection) and obj.writable:
                obj.send_bytes(json.dumps(reply).encode())
                os._exit(0)
        """)
    )
    out = run_case(f"""
def case():
    from toskit import dsl
    st = dsl.load_module({str(module)!r}, timeout=5)
    return [st.ok, st.description]
""")
    assert out.returned == [True, "forged"]


@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_what_a_module_prints_is_relayed_bounded(run_case, tmp_path, stream) -> None:
    flood = tmp_path / "flood.py"
    flood.write_text(
        f"import sys\nprint('first line', file=sys.{stream})\n"
        f"while True:\n    sys.{stream}.write('x' * 65536)\n"
    )
    polite = tmp_path / "polite.py"
    polite.write_text(f"import sys\nprint('hello from the module', file=sys.{stream})\n")
    out = run_case(
        f"""
def case():
    import subprocess, sys
    run = lambda path: subprocess.run(
        [sys.executable, "-c", "import sys; from toskit import dsl; "
         "st = dsl.load_module(sys.argv[1], timeout=2); print('CODES', [d.code for d in st.diagnostics])",
         path], capture_output=True, timeout=60)
    flood, polite = run({str(flood)!r}), run({str(polite)!r})
    return [len(flood.stdout), len(flood.stderr), flood.stdout[:11].decode(),
            flood.stdout[-400:].decode(errors="replace"), polite.stdout.decode()]
""",
        cpu=3,
    )
    size, err_size, head, tail, polite_out = out.returned
    from toskit.dsl.loader import MAX_RELAYED_OUTPUT

    assert MAX_RELAYED_OUTPUT <= size < MAX_RELAYED_OUTPUT + 2000, size
    assert err_size < 2000
    assert head == "first line\n"
    assert "more bytes of output, not shown" in tail and "CODES ['python-error']" in tail
    assert polite_out == "hello from the module\nCODES []\n"
