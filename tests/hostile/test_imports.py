"""Imports that read what they should not, or never end (issue #19, #24).

Each case runs in a bounded subprocess (``bounded.py``: 500 MB counted, CPU a 10x hang guard).
Inputs are generated in ``tmp_path``; nothing large is stored.
"""

from __future__ import annotations

import os
import textwrap

import pytest

V2 = "tosca_definitions_version: tosca_2_0\n"


def _template(folder, imports: list[str], name: str = "t.yaml") -> str:
    body = V2 + "imports:\n" + "".join(f"  - url: {_q(u)}\n" for u in imports)
    path = folder / name
    path.write_text(body)
    return str(path)


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\0", "\\0") + '"'


LOAD_AND_REPORT = """
    def case():
        import toskit
        st = toskit.load({path!r}{extra})
        return [[d.code, d.message, d.hint or "", str(d)] for d in st.diagnostics]
"""


def _load(run_case, path: str, extra: str = "", cwd: str | None = None):
    out = run_case(LOAD_AND_REPORT.format(path=path, extra=extra), cwd=cwd)
    assert out.raised is None, (out.raised, out.message)
    return out.returned


@pytest.mark.parametrize(
    "target",
    [
        pytest.param("/dev/zero", id="dev-zero"),
        pytest.param("/dev/urandom", id="dev-urandom"),
        pytest.param("/proc/self/environ", id="proc-environ"),
        pytest.param("/proc/self/cmdline", id="proc-cmdline"),
        pytest.param("file:///proc/self/environ", id="file-url-proc"),
    ],
)
def test_special_files_are_not_read(run_case, tmp_path, target) -> None:
    diags = _load(run_case, _template(tmp_path, [target]))
    errors = [d for d in diags if d[0] == "import-error"]
    assert len(errors) == 1, diags
    assert "outside the import root" in errors[0][1]
    # nothing of the file is echoed (the environment holds secrets)
    assert "PATH=" not in repr(diags) and "python" not in errors[0][3].lower()


def test_special_files_refused_even_inside_a_wide_root(run_case, tmp_path) -> None:
    """With ``root='/'`` the import root allows them: they are still not read."""
    path = _template(tmp_path, ["/dev/zero", "/proc/self/environ"])
    diags = _load(run_case, path, extra=", root='/'")
    messages = [d[1] for d in diags if d[0] == "import-error"]
    assert len(messages) == 2, diags
    assert all("not a regular file" in m for m in messages), messages
    assert "PATH=" not in repr(diags)


def test_fifo_does_not_block(run_case, tmp_path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    diags = _load(run_case, _template(tmp_path, ["pipe.yaml"]))
    [error] = [d for d in diags if d[0] == "import-error"]
    assert "not a regular file" in error[1]


def test_a_fifo_as_the_template_is_a_toskit_error(run_case, tmp_path) -> None:
    fifo = tmp_path / "t.yaml"
    os.mkfifo(fifo)
    out = run_case(f"""
        def case():
            import toskit
            return toskit.load({str(fifo)!r}).ok
    """)
    assert out.toskit_error and "not a regular file" in out.message


@pytest.mark.parametrize(
    "reference",
    [
        pytest.param("../secret.yaml", id="dot-dot"),
        pytest.param("{outside}/secret.yaml", id="absolute"),
        pytest.param("file://{outside}/secret.yaml", id="file-url"),
        pytest.param("link/secret.yaml", id="symlink-out"),
    ],
)
def test_imports_outside_the_root_are_refused_without_content(run_case, tmp_path, reference):
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = "node_types: {SECRET_TOKEN_12345: {derived_from: [not, valid}}\n"
    (outside / "secret.yaml").write_text(secret)
    (tmp_path / "secret.yaml").write_text(secret)
    project = tmp_path / "project"
    project.mkdir()
    (project / "link").symlink_to(outside)
    path = _template(project, [reference.format(outside=outside)])
    diags = _load(run_case, path)
    [error] = [d for d in diags if d[0] == "import-error"]
    assert "outside the import root" in error[1]
    assert "--root" in error[2]
    assert "SECRET_TOKEN" not in repr(diags)


def test_root_option_widens_the_import_root(run_case, tmp_path) -> None:
    (tmp_path / "lib.yaml").write_text(V2 + "data_types: {Shared: {derived_from: string}}\n")
    project = tmp_path / "project"
    project.mkdir()
    path = _template(project, ["../lib.yaml"])
    out = run_case(f"""
        def case():
            import toskit
            narrow = toskit.load({path!r})
            wide = toskit.load({path!r}, root={str(tmp_path)!r})
            return [[d.code for d in narrow.diagnostics], [d.code for d in wide.diagnostics],
                    "Shared" in wide.types]
    """)
    narrow, wide, found = out.returned
    assert narrow == ["import-error"] and wide == [] and found


def test_imports_inside_the_root_still_work(run_case, tmp_path) -> None:
    sub = tmp_path / "lib"
    sub.mkdir()
    (sub / "a.yaml").write_text(V2 + "imports: [b.yaml]\ndata_types: {A: {derived_from: string}}\n")
    (sub / "b.yaml").write_text(V2 + "data_types: {B: {derived_from: string}}\n")
    diags = _load(run_case, _template(tmp_path, ["lib/a.yaml"]))
    assert diags == []


@pytest.mark.parametrize(
    "reference",
    [pytest.param("a\0b.yaml", id="nul"), pytest.param("file:a%00b.yaml", id="file-url-nul")],
)
def test_nul_byte_in_an_import_path_is_a_diagnostic(run_case, tmp_path, reference) -> None:
    diags = _load(run_case, _template(tmp_path, [reference]))
    [error] = [d for d in diags if d[0] == "import-error"]
    assert "NUL character" in error[1]


def test_nul_byte_in_the_template_path_is_a_toskit_error(run_case) -> None:
    out = run_case("""
        def case():
            import toskit
            toskit.load("a\\0b.yaml")
    """)
    assert out.toskit_error and "NUL" in out.message


def test_an_oversized_import_is_refused_at_the_bound(run_case, tmp_path) -> None:
    """A 300 MB import with max_size=50 MB: refused having read 50 MB + 1 byte at most."""
    big = tmp_path / "big.yaml"
    with open(big, "wb") as fh:  # sparse: costs no disk
        fh.truncate(300 << 20)
    diags = _load(run_case, _template(tmp_path, ["big.yaml"]))
    assert [d[0] for d in diags] == ["limit-exceeded"]


def test_a_500_mb_scalar_file_is_refused_within_the_memory_bound(run_case, tmp_path) -> None:
    big = tmp_path / "t.yaml"
    with open(big, "wb") as fh:
        fh.write(b"key: ")
        fh.truncate(500 << 20)
    out = run_case(f"""
        def case():
            import toskit
            st = toskit.load({str(big)!r})
            return [d.code for d in st.diagnostics]
    """)  # the 500 MB bound of #19 (was 970 MB)
    assert out.returned == ["limit-exceeded"]


def test_an_import_chain_of_5000_files_does_not_recurse(run_case, tmp_path) -> None:
    n = 5000
    for i in range(n):
        nxt = f"imports: [f{i + 1}.yaml]\n" if i + 1 < n else ""
        (tmp_path / f"f{i}.yaml").write_text(
            V2 + nxt + f"data_types: {{D{i}: {{derived_from: string}}}}\n"
        )
    out = run_case(
        f"""
        def case():
            import toskit
            st = toskit.load({str(tmp_path / "f0.yaml")!r})
            return [[d.code for d in st.diagnostics], len(st.types)]
    """,
        cpu=10,
    )
    codes, count = out.returned
    # The chain is cut at max_import_depth (1,000) with one diagnostic, not a RecursionError.
    assert codes == ["limit-exceeded"]
    assert count >= 1000


def test_an_import_chain_within_the_depth_bound_loads(run_case, tmp_path) -> None:
    n = 900
    for i in range(n):
        nxt = f"imports: [f{i + 1}.yaml]\n" if i + 1 < n else ""
        (tmp_path / f"f{i}.yaml").write_text(
            V2 + nxt + f"data_types: {{D{i}: {{derived_from: string}}}}\n"
        )
    out = run_case(f"""
        def case():
            import toskit
            st = toskit.load({str(tmp_path / "f0.yaml")!r})
            return [[d.code for d in st.diagnostics], "D899" in st.types]
    """)
    assert out.returned == [[], True]


def test_namespace_fan_out_parses_each_file_once(run_case, counted_load, tmp_path) -> None:
    """Files each importing every later one under two namespaces: each is parsed once,
    and registered once (#20 item 20: no copy of its types per namespace chain,
    of which there are about 3^n here).
    """
    n = 14
    for i in range(n):
        lines = [V2, "imports:\n"]
        for j in range(i + 1, n):
            lines.append(f"  - {{url: f{j}.yaml, namespace: a{j}}}\n")
            lines.append(f"  - {{url: f{j}.yaml, namespace: b{j}}}\n")
        lines.append(f"data_types: {{D{i}: {{derived_from: string}}}}\n")
        (tmp_path / f"f{i}.yaml").write_text("".join(lines) if i + 1 < n else V2 + lines[-1])
    out = run_case(counted_load(tmp_path, tmp_path / "f0.yaml"))
    assert out.returned["diagnostics"] == []
    assert out.returned["parsed"] == n
    assert out.returned["distinct"] == n  # each file parsed once
    assert out.returned["own_types"] == n  # and its one data type registered once


def test_remote_documents_import_only_through_the_resolver(run_case, tmp_path) -> None:
    local = tmp_path / "local.yaml"
    local.write_text(V2 + "data_types: {LOCAL_SECRET: {derived_from: string}}\n")
    top = V2 + "imports: [https://example.org/remote.yaml]\n"
    out = run_case(f"""
        def case():
            import toskit
            asked = []
            def resolver(url, base):
                asked.append(url)
                if url.endswith("remote.yaml"):
                    return ({V2!r} + "imports:\\n"
                            "  - file://{local}\\n"
                            "  - {local}\\n"
                            "  - ../../{local.name}\\n"
                            "  - other.yaml\\n")
                return {V2!r} + "data_types: {{Remote: {{derived_from: string}}}}\\n"
            st = toskit.loads({top!r}, name={str(tmp_path / "t.yaml")!r}, resolver=resolver)
            return [[[d.code, d.message] for d in st.diagnostics], asked,
                    "LOCAL_SECRET" in st.types, "Remote" in st.types]
    """)
    diags, asked, leaked, remote = out.returned
    errors = [m for code, m in diags if code == "import-error"]
    assert len(errors) == 2 and all("only through the resolver" in m for m in errors), diags
    assert not leaked and remote
    # the relative reference went to the resolver, joined to the remote URL
    assert "https://example.org/other.yaml" in asked and "https://example.org/x" not in asked


def test_stdin_is_read_with_a_bound(run_case) -> None:
    out = run_case(
        """
        def case():
            import io
            from toskit.source.document import read_text_stream, SizeExceeded
            class Endless(io.RawIOBase):
                def readable(self): return True
                def readinto(self, b):
                    b[:] = b"a" * len(b)
                    return len(b)
            try:
                read_text_stream(io.BufferedReader(Endless()), max_size=50_000_000)
            except SizeExceeded as exc:
                return str(exc)
    """,
        peak_mb=250,
    )
    assert "larger than 50000000 bytes" in out.returned


def test_check_dash_on_a_big_stdin_is_bounded(tmp_path) -> None:
    """``toskit check -`` with 300 MB on stdin: a limit-exceeded error, bounded memory."""
    import resource
    import subprocess
    import sys

    script = textwrap.dedent("""
        import subprocess, sys
        writer = subprocess.Popen([sys.executable, "-c",
            "import sys\\nblock = b'a' * (1 << 20)\\n"
            "try:\\n    [sys.stdout.buffer.write(block) for _ in range(300)]\\nexcept BrokenPipeError: pass"],
            stdout=subprocess.PIPE)
        check = subprocess.run([sys.executable, "-m", "toskit", "check", "-"], stdin=writer.stdout,
                               capture_output=True, text=True)
        writer.stdout.close(); writer.wait()
        import resource
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(check.returncode, round(peak), (check.stdout + check.stderr)[:300].replace("\\n", " | "))
    """)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    code, peak, text = proc.stdout.split(" ", 2)
    assert int(peak) < 500, proc.stdout
    assert code in ("1", "2") and "larger than" in text, proc.stdout + proc.stderr
    assert after.ru_utime - before.ru_utime < 10


FUZZ_IMPORTS = """
    def case():
        import os, time
        from hypothesis import given, settings, strategies as st, HealthCheck
        import toskit

        project = {project!r}
        secret = {secret!r}
        pieces = st.sampled_from([
            "a.yaml", "sub/", "../", "./", "/", "..", "\\\\0", "%00", "file:", "file://",
            "file:///", "/proc/self/environ", "/dev/zero", "/dev/stdin", "fifo.yaml",
            secret, "https://example.org/x.yaml", "?", "#", "%2e%2e/", "~", " ", "\\\\",
            "link/", "loop.yaml", "x" * 300,
        ])
        refs = st.one_of(st.lists(pieces, min_size=1, max_size=6).map("".join),
                         st.text(max_size=40))
        worst = [0.0]

        @settings(max_examples=120, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(st.lists(refs, min_size=1, max_size=4))
        def run(references):
            import json
            text = "tosca_definitions_version: tosca_2_0\\nimports:\\n" + "".join(
                "  - url: " + json.dumps(r) + "\\n" for r in references)
            start = time.process_time()
            st_ = toskit.loads(text, name=os.path.join(project, "t.yaml"))
            worst[0] = max(worst[0], time.process_time() - start)
            shown = repr([str(d) for d in st_.diagnostics])
            assert "SECRET_TOKEN" not in shown and "PATH=" not in shown
            assert {{d.code for d in st_.diagnostics}} <= {{
                "import-error", "import-cycle", "limit-exceeded", "yaml-syntax",
                "unknown-keyname", "type-mismatch", "missing-version"}}, shown

        run()
        return worst[0]
"""


def test_fuzz_import_references(run_case, tmp_path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.yaml"
    secret.write_text("SECRET_TOKEN: [unclosed\n")
    project = tmp_path / "project"
    (project / "sub").mkdir(parents=True)
    (project / "a.yaml").write_text(V2)
    (project / "sub" / "a.yaml").write_text(V2 + "imports: [../a.yaml]\n")
    (project / "loop.yaml").write_text(V2 + "imports: [loop.yaml]\n")
    (project / "link").symlink_to(outside)
    os.mkfifo(project / "fifo.yaml")
    out = run_case(FUZZ_IMPORTS.format(project=str(project), secret=str(secret)), cpu=30)
    assert out.raised is None, out.message
    assert (
        out.returned < 20.0
    )  # the slowest single load, CPU seconds: a hang guard (10x a quiet 2 s)


def test_loading_a_special_file_directly_is_a_toskit_error(run_case) -> None:
    out = run_case("""
        def case():
            import toskit
            from toskit.errors import ToskitError
            messages = []
            for path in ["/proc/self/environ", "/dev/zero", "/dev/stdin", "/sys/kernel/notes"]:
                try:
                    toskit.load(path)
                except ToskitError as exc:
                    messages.append(str(exc))
            return messages
    """)
    assert len(out.returned) == 4
    assert all("not a regular file" in m or "no such file" in m for m in out.returned), out.returned
    assert "PATH=" not in repr(out.returned)
