"""20,000 copies of one mistake (issue #19): listed 100 per code, counted in full.

``ServiceTemplate.diagnostics``, ``toskit check`` (text and JSON) and the
``toskit show`` page list the first diagnostics of each code and one
summary for the rest; every count (``.ok``, ``.counts``, the per-file and
summary lines, the exit status, the page's badges) includes the hidden
ones. Each case runs bounded (tests/hostile/bounded.py: 500 MB counted, CPU a 10x hang guard).
"""

from __future__ import annotations

import json
import re

V2 = "tosca_definitions_version: tosca_2_0\n"


def _unknown_properties(n: int) -> str:
    """One node template with ``n`` undeclared properties, one per line (line 7 on)."""
    props = "".join(f"        bogus{i}: {i}\n" for i in range(n))
    return (
        V2
        + "service_template:\n  node_templates:\n    a:\n      type: Root\n      properties:\n"
        + props
    )


def _unknown_types(n: int) -> str:
    """``n`` node templates of unknown types, all on one line."""
    line = "{" + ", ".join(f"n{i}: {{type: Unknown{i}Type}}" for i in range(n)) + "}"
    return V2 + "service_template:\n  node_templates: " + line + "\n"


def _nodes_with_a_mistake(n: int) -> str:
    """``n`` node templates, each with one undeclared property."""
    nodes = "".join(
        f"    n{i}:\n      type: Root\n      properties: {{bogus: {i}}}\n" for i in range(n)
    )
    return V2 + "service_template:\n  node_templates:\n" + nodes


def _unanchored_dsl(n: int, error: bool = False) -> str:
    """A 1.3 template with ``n`` dsl_definitions without anchors (``missing-anchor`` warnings)."""
    entries = "".join(f"  d{i}: {{a: {i}}}\n" for i in range(n))
    broken = "  node_templates:\n    x: {type: NoSuchType}\n" if error else ""
    return (
        "tosca_definitions_version: tosca_simple_yaml_1_3\ndsl_definitions:\n"
        + entries
        + "topology_template:\n"
        + (broken or "  node_templates: {}\n")
    )


def test_twenty_thousand_of_one_code_are_100_and_a_summary(run_case) -> None:
    text = _unknown_properties(20_000)
    out = run_case(f"""
        def case():
            import toskit
            from toskit.diagnostics import sort_diagnostics
            st = toskit.loads({text!r})
            summary = st.diagnostics[-1]
            try:
                st.raise_for_errors()
            except toskit.TemplateError as exc:
                raised = [str(exc).splitlines()[0], len(exc.diagnostics)]
            return [len(st.diagnostics), st.ok, st.counts, st.omitted, repr(st),
                    sort_diagnostics(st.diagnostics) == list(st.diagnostics),
                    [d.line for d in st.diagnostics[:100]],
                    [summary.severity, summary.code, summary.omitted, summary.message,
                     summary.hint, summary.line],
                    sum(d.omitted for d in st.diagnostics[:100]), raised]
    """)
    (
        count,
        ok,
        counts,
        omitted,
        text_repr,
        in_source_order,
        lines,
        summary,
        first_omitted,
        raised,
    ) = out.returned
    assert count == 101
    assert ok is False  # the hidden ones are errors: the template does not look valid
    assert counts == {"error": 20_000, "warning": 0, "info": 0}
    assert omitted == {"unknown-property": 19_900}
    assert text_repr.endswith("1 node template, 20000 errors>")
    assert in_source_order and lines == list(range(7, 107))
    severity, code, n, message, hint, line = summary
    assert (severity, code, n, line) == ("error", "unknown-property", 19_900, 107)
    assert message.startswith("19,900 more 'unknown-property' diagnostics not shown")
    assert "max_per_code=None" in hint and "--max-per-code 0" in hint
    assert first_omitted == 0  # the listed ones are the template's own
    assert raised == ["<string>: 20000 errors", 101]


def test_max_per_code_lists_more_or_every_one(run_case) -> None:
    text = _unknown_properties(20_000)
    out = run_case(f"""
        def case():
            import toskit
            every = toskit.loads({text!r}, max_per_code=None)
            few = toskit.loads({text!r}, max_per_code=5)
            return [len(every.diagnostics), every.omitted, every.counts["error"],
                    len(few.diagnostics), few.omitted, few.diagnostics[-1].line]
    """)
    assert out.returned == [20_000, {}, 20_000, 6, {"unknown-property": 19_995}, 12]


def test_a_bad_max_per_code_is_a_toskit_error() -> None:
    import pytest

    import toskit

    for bad in (0, -1, True, "5", 2.5):
        with pytest.raises(toskit.ToskitError, match="max_per_code"):
            toskit.loads(V2, max_per_code=bad)


def test_warnings_hidden_by_the_cap_are_counted_and_stay_warnings() -> None:
    import toskit

    st = toskit.loads(_unanchored_dsl(300))
    assert st.ok  # only warnings, listed or not
    assert st.counts == {"error": 0, "warning": 300, "info": 0}
    assert len(st.diagnostics) == 101 and len(st.warnings) == 101
    assert (st.diagnostics[-1].severity, st.diagnostics[-1].omitted) == ("warning", 200)
    assert repr(st).endswith("ok, 300 warnings>")
    # one error beside them: not ok, and the warnings are still counted
    mixed = toskit.loads(_unanchored_dsl(300, error=True))
    assert not mixed.ok and mixed.counts == {"error": 1, "warning": 300, "info": 0}


def test_every_property_row_still_shows_its_problem(run_case) -> None:
    """The cap is on the list; the node's property rows see every diagnostic."""
    text = _unknown_properties(20_000)
    out = run_case(f"""
        def case():
            import toskit
            st = toskit.loads({text!r})
            frame = st.node_templates["a"].property_table().to_frame()
            return sorted(set(frame["status"])), len(frame)
    """)
    statuses, rows = out.returned
    assert statuses == ["unknown"] and rows == 20_000


def _check(path: str, *options: str) -> str:
    """Source of a case running ``toskit check`` on ``path`` in a child process."""
    argv = ["check", *options, path]
    return f"""
        def case():
            import resource, subprocess, sys
            proc = subprocess.run([sys.executable, "-m", "toskit", *{argv!r}],
                                  capture_output=True, text=True)
            used = resource.getrusage(resource.RUSAGE_CHILDREN)
            return [proc.returncode, proc.stdout, proc.stderr,
                    used.ru_utime + used.ru_stime, used.ru_maxrss / 1024]
    """


def test_check_text_counts_every_one_and_lists_100(run_case, tmp_path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(_unknown_properties(20_000))
    code, stdout, stderr, child_cpu, child_mb = run_case(_check(str(path))).returned
    assert (
        child_mb < 500 and child_cpu < 40
    )  # memory counted; CPU only a hang guard (10x a quiet 4 s)
    assert code == 1
    assert (
        stdout.splitlines()[0] == f"checked {path} as TOSCA 2.0 template: 20000 errors, 0 warnings"
    )
    assert stderr.strip() == "1 file checked: 20000 errors, 0 warnings"
    assert len(re.findall(r"error\[unknown-property\]", stdout)) == 101
    assert (
        f"{path}:107:9: error[unknown-property]: 19,900 more 'unknown-property' diagnostics not shown"
        in stdout
    )
    assert len(stdout) < 40_000


def test_check_max_per_code(run_case, tmp_path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(_unknown_properties(2_000))
    code, stdout, stderr, *_ = run_case(_check(str(path), "--max-per-code", "0")).returned
    assert code == 1 and len(re.findall(r"error\[unknown-property\]", stdout)) == 2_000
    assert "not shown" not in stdout
    code, stdout, stderr, *_ = run_case(_check(str(path), "--max-per-code", "3")).returned
    assert len(re.findall(r"error\[unknown-property\]", stdout)) == 4
    assert "1,997 more 'unknown-property' diagnostics not shown" in stdout
    assert stderr.strip() == "1 file checked: 2000 errors, 0 warnings"


def test_check_refuses_a_negative_max_per_code(tmp_path, capsys) -> None:
    from toskit.cli import main

    path = tmp_path / "t.yaml"
    path.write_text(V2)
    assert main(["check", "--max-per-code", "-1", str(path)]) == 2
    assert "--max-per-code" in capsys.readouterr().err


def test_check_json_says_how_many_were_dropped(run_case, tmp_path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(_unknown_properties(20_000))
    code, stdout, *_ = run_case(_check(str(path), "--format", "json")).returned
    (entry,) = json.loads(stdout)
    assert code == 1
    assert entry["counts"] == {"error": 20_000, "warning": 0, "info": 0}
    assert entry["omitted"] == {"unknown-property": 19_900}
    assert len(entry["diagnostics"]) == 101
    summary = entry["diagnostics"][-1]
    assert summary["omitted"] == 19_900 and summary["line"] == 107
    assert all("omitted" not in d for d in entry["diagnostics"][:100])
    assert len(stdout) < 100_000


def test_check_counts_yaml_errors_the_parser_only_counted(tmp_path, capsys) -> None:
    """20,000 bad tags: the YAML layer lists 100 and counts the rest; check says 20,000."""
    from toskit.cli import main

    path = tmp_path / "tags.yaml"
    path.write_text("a: [" + ", ".join(f"!t{i} x" for i in range(20_000)) + "]\n")
    assert main(["check", "--format", "json", str(path)]) == 1
    (entry,) = json.loads(capsys.readouterr().out)
    assert entry["counts"]["error"] == 20_000
    assert entry["omitted"] == {"yaml-syntax": 19_900}


def _show(text: str) -> str:
    """Source of a case loading ``text`` and rendering its page (what ``toskit show`` writes)."""
    return f"""
        def case():
            import re, toskit
            from toskit.display import render_page
            page = render_page(toskit.loads({text!r}, name="t.yaml"))
            targets = set(re.findall(r'id="([^"]+)"', page))
            links = set(re.findall(r'href="#([^"]+)"', page))
            return [len(page), sorted(links - targets),
                    re.findall(r"[0-9,]+ more &#x27;[a-z-]+&#x27; diagnostics not shown", page),
                    re.findall(r"toskit-badge[^>]*>([0-9]+ errors)<", page)[:1],
                    re.findall(r"… ([0-9,]+ more node templates[^<]*)<", page)]
    """


def test_show_of_twenty_thousand_mistakes_is_a_small_page(run_case) -> None:
    """52 MB before (one line of 20,000 unknown types); now well under 3 MB."""
    size, dangling, summaries, badge, more = run_case(_show(_unknown_types(10_000))).returned
    assert size < 3_000_000
    assert dangling == []  # every link of the page has its target
    assert summaries == ["9,900 more &#x27;unknown-type&#x27; diagnostics not shown"]
    assert badge == ["10000 errors"]
    assert more == ["9,000 more node templates"]


def test_show_of_one_node_with_twenty_thousand_mistakes(run_case) -> None:
    size, dangling, summaries, badge, _ = run_case(_show(_unknown_properties(20_000))).returned
    assert size < 3_000_000 and dangling == []
    # in the Diagnostics section, and in node a's (which counts all of its own)
    assert summaries == ["19,900 more &#x27;unknown-property&#x27; diagnostics not shown"] * 2
    assert badge == ["20000 errors"]


def test_show_of_many_nodes_stops_at_the_page_budget(run_case) -> None:
    size, dangling, summaries, badge, more = run_case(_show(_nodes_with_a_mistake(10_000))).returned
    assert size < 3_000_000 and dangling == []
    assert summaries == ["9,900 more &#x27;unknown-property&#x27; diagnostics not shown"]
    assert badge == ["10000 errors"]
    [note] = more
    assert note.endswith("more node templates not shown (the page is bounded)")


def test_the_page_caps_per_code_even_when_the_load_did_not() -> None:
    import toskit
    from toskit.display import render_page

    st = toskit.loads(_unknown_properties(3_000), max_per_code=None)
    page = render_page(st)
    assert "2,900 more &#x27;unknown-property&#x27; diagnostics not shown" in page
    assert "this view lists the first 100 of each code" in page
    # 100 and a summary in the Diagnostics section and in node a's section,
    # and one in each of the 500 property rows the page shows
    assert page.count("toskit-diag toskit-diag-error") == 2 * 101 + 500
    every = render_page(
        st, per_code=None, max_diagnostics=None, max_rows=None, budget=None, max_chars=None
    )
    assert every.count("toskit-diag toskit-diag-error") == 3 * 3_000


# ---- long texts: a 1 MB key is named in messages and paths --------------------


def _long_keys(n: int, length: int) -> str:
    # Explicit keys ("? key"): YAML allows an implicit key of at most 1,024
    # characters (PyYAML refuses longer ones, and so does toskit, #30 item 1).
    props = "".join(f"        ? {'k' * length}{i}\n        : {i}\n" for i in range(n))
    return (
        V2
        + "service_template:\n  node_templates:\n    a:\n      type: Root\n      properties:\n"
        + props
    )


def test_a_diagnostic_naming_a_huge_key_is_abbreviated_in_every_output(tmp_path, capsys) -> None:
    """Ten 1 MB keys: `toskit check` printed 10 MB (JSON 20 MB), the page was 90 MB (here 200 kB keys)."""
    import toskit
    from toskit.cli import main
    from toskit.diagnostics import MAX_TEXT
    from toskit.display import render_page

    text = _long_keys(10, 200_000)
    st = toskit.loads(text)
    d = st.diagnostics[0]
    assert len(d.message) > 200_000  # the diagnostic itself keeps its text
    shown = str(d)
    assert len(shown) < 3 * MAX_TEXT and "characters not shown]…" in shown
    assert shown.splitlines()[0].endswith("0' (not declared by Root)")  # the end is kept

    path = tmp_path / "t.yaml"
    path.write_text(text)
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert len(out) < 10 * 3 * MAX_TEXT + 1_000 and out.count("characters not shown") >= 10
    assert main(["check", "--format", "json", str(path)]) == 1
    (entry,) = json.loads(capsys.readouterr().out)
    assert all(
        len(d["message"]) <= MAX_TEXT + 50 and len(d["path"]) <= MAX_TEXT + 50
        for d in entry["diagnostics"]
    )

    page = render_page(st)
    assert len(page) < 500_000
    assert "more than the page's bound leaves for it" in page  # node a's section
    assert page.count("toskit-diag toskit-diag-error") == 10  # every diagnostic still listed


def test_abbreviate() -> None:
    from toskit.diagnostics import abbreviate

    assert abbreviate("short") == "short"
    assert abbreviate("a" * 1000) == "a" * 1000
    cut = abbreviate("a" * 600 + "b" * 600)
    assert cut == "a" * 500 + "…[200 characters not shown]…" + "b" * 500


def test_the_whole_page_stays_within_max_chars() -> None:
    """Each part is charged to the page's bound; what would cross it is a note, links stay valid."""
    import toskit
    from toskit.display import render_page

    types = "".join(
        f"  T{i}:\n    derived_from: Root\n    properties:\n"
        + "".join(f"      p{j}: {{type: string, default: v{j}}}\n" for j in range(20))
        for i in range(200)
    )
    nodes = "".join(f"    n{i}: {{type: T{i}, properties: {{bogus: 1}}}}\n" for i in range(200))
    st = toskit.loads(
        V2 + "node_types:\n" + types + "service_template:\n  node_templates:\n" + nodes
    )
    full = render_page(st)
    small = render_page(st, max_chars=200_000)
    assert len(small) < 200_000 + 120_000 < len(full)  # the stylesheet comes on top
    targets = set(re.findall(r'id="([^"]+)"', small))
    assert set(re.findall(r'href="#([^"]+)"', small)) <= targets
    assert "more node templates not shown (the page is bounded)" in small
    assert "more types not shown (the page is bounded)" in small


def test_the_notebook_view_of_a_diagnostic_list_counts_every_one(run_case) -> None:
    text = _unknown_properties(20_000)
    out = run_case(f"""
        def case():
            import toskit
            from toskit.display import to_html
            capped = to_html(toskit.loads({text!r}).diagnostics)
            every = to_html(toskit.loads({text!r}, max_per_code=None).diagnostics)
            return [len(capped), "20,000 found" in capped, len(every), "20,000 found" in every]
    """)
    capped_size, capped_counts, every_size, every_counts = out.returned
    assert capped_counts and every_counts
    assert capped_size < 100_000 and every_size < 100_000


def test_show_of_a_fuel_file_with_many_releases_is_bounded(run_case, tmp_path) -> None:
    """2,000 releases in a 600 kB file: the file was read again for each (over 300 s);
    now the first 50 (SHOW_MAX_RELEASES) are drawn."""
    records = "".join(
        f"- pk: {i + 1}\n  model: nailgun.release\n  fields:\n    name: rel{i}\n"
        "    version: '1'\n    state: available\n"
        "    roles_metadata: {controller: {name: Controller, description: c, limits: {min: 1}}}\n"
        for i in range(2_000)
    )
    source, page = tmp_path / "fuel.yaml", tmp_path / "fuel.html"
    source.write_text(records)
    out = run_case(f"""
        def case():
            from toskit.cli import main
            status = main(["show", {str(source)!r}, "-o", {str(page)!r}])
            return status
    """)
    assert out.returned == 0
    html = page.read_text()
    assert len(html) < 3_000_000
    assert "… 1,950 more releases not shown (the page is bounded)" in html
    assert "rel0" in html and "rel49" in html and "rel50" not in html


def test_toskit_show_of_twenty_thousand_mistakes_end_to_end(run_case, tmp_path) -> None:
    """The command itself, in a child process: 55 MB and 527 MB peak before."""
    source, page = tmp_path / "t.yaml", tmp_path / "t.html"
    source.write_text(_unknown_properties(20_000))
    out = run_case(f"""
        def case():
            import resource, subprocess, sys
            proc = subprocess.run([sys.executable, "-m", "toskit", "show", {str(source)!r},
                                   "-o", {str(page)!r}], capture_output=True, text=True)
            used = resource.getrusage(resource.RUSAGE_CHILDREN)
            return [proc.returncode, used.ru_utime + used.ru_stime, used.ru_maxrss / 1024]
    """)
    code, child_cpu, child_mb = out.returned
    assert code == 0
    assert (
        child_mb < 300 and child_cpu < 40
    )  # memory counted; CPU only a hang guard (10x a quiet 4 s)
    assert len(page.read_bytes()) < 1_500_000


def test_a_schema_with_ten_thousand_mistakes_is_located_in_linear_time(run_case) -> None:
    """Each diagnostic's item was found by a scan of the types list: 20,000 took minutes."""
    text = "types:\n" + "".join(
        f"  - name: T{i}\n    fields:\n      - {{name: a, type: string}}\n" for i in range(10_000)
    )
    out = run_case(
        f"""
        def case():
            from toskit import schema
            from toskit.errors import SchemaError
            try:
                schema.load({text!r})
            except SchemaError as exc:
                last = exc.diagnostics[-1]
                return [len(exc.diagnostics), last.path, last.line]
    """,
        max_calls=11_000_000,
    )  # ~5.3 M counted: linear in the 20,000 diagnostics
    assert out.returned == [20_000, '.types[name="T9999"]', 2 + 3 * 9_999]


def test_check_of_ten_thousand_bad_conditions_is_linear(run_case, tmp_path) -> None:
    """A roles document with 10,000 broken conditions: 2.4 s with the cyclic GC
    running over the checker's many small objects, 0.7 s with it paused."""
    roles = "".join(
        f"  r{i}:\n    name: R{i}\n    restrictions:\n"
        '      - condition: "settings:a.b.value =="\n        message: m\n'
        for i in range(10_000)
    )
    path = tmp_path / "roles.yaml"
    path.write_text("roles_metadata:\n" + roles)
    out = run_case(
        f"""
        def case():
            import contextlib, io
            from toskit.cli import main
            buffer = io.StringIO()
            with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(io.StringIO()):
                status = main(["check", "-j", "1", {str(path)!r}])
            return [status, buffer.getvalue().splitlines()[0]]
    """,
        cpu=1.8,
        max_calls=13_000_000,
    )  # ~6.4 M counted
    assert out.returned == [1, f"checked {path} as roles document: 10000 errors, 0 warnings"]
