"""Output that explodes, and YAML that costs too much (issue #19).

Bounded subprocesses (500 MB counted; CPU a 10x hang guard) around generated inputs.
"""

from __future__ import annotations

from toskit.diagnostics import SEE_ALL_HINT

V2 = "tosca_definitions_version: tosca_2_0\n"


def _one_line_of_mistakes(n: int) -> str:
    line = "{" + ", ".join(f"n{i}: {{type: Unknown{i}Type}}" for i in range(n)) + "}"
    return V2 + "service_template:\n  node_templates: " + line + "\n"


def test_a_long_line_is_echoed_as_a_window(run_case) -> None:
    """A 100 kB one-line template with thousands of mistakes: the text report stays small."""
    text = _one_line_of_mistakes(3500)
    assert len(text) > 100_000
    out = run_case(f"""
        def case():
            import toskit
            st = toskit.loads({text!r}, max_per_code=None)  # every one: 3,500 windows
            rendered = [str(d) for d in st.diagnostics]
            return [len(st.diagnostics), max(map(len, rendered)), sum(map(len, rendered)),
                    rendered[1000]]
    """)
    count, longest, total, sample = out.returned
    assert count >= 3500
    assert longest < 600 and total < 3500 * 600
    assert "…" in sample and "^" in sample.splitlines()[-1]
    # the caret is under the mistake: the character above it starts the type name
    gutter_line, caret_line = sample.splitlines()[-2:]
    assert gutter_line[caret_line.index("^")] == "U"


def test_a_long_line_is_windowed_in_html_too(run_case) -> None:
    text = _one_line_of_mistakes(3500)
    out = run_case(f"""
        def case():
            import toskit
            from toskit.display.diagnostics_view import diagnostic_html
            st = toskit.loads({text!r})
            return max(len(diagnostic_html(d)) for d in st.diagnostics[:200])
    """)
    assert out.returned < 3000


def test_did_you_mean_is_bounded_work_per_hint(run_case) -> None:
    """1,000 declared types and 1,000 misspelt references: every hint within the bound."""
    n = 1000
    types = "{" + ", ".join(f"Type{i}Name: {{}}" for i in range(n)) + "}"
    refs = "{" + ", ".join(f"n{i}: {{type: Typ{i}Nam}}" for i in range(n)) + "}"
    text = V2 + "node_types: " + types + "\nservice_template:\n  node_templates: " + refs + "\n"
    out = run_case(f"""
        def case():
            import toskit
            st = toskit.loads({text!r}, max_per_code=None)  # every hint is computed
            return [len(st.diagnostics), sum(1 for d in st.diagnostics if d.hint)]
    """)
    count, hinted = out.returned
    assert count == n and hinted > n // 2


def test_did_you_mean_still_finds_the_close_name_in_a_large_pool() -> None:
    from toskit.diagnostics import closest

    pool = [f"Type{i}Name" for i in range(5000)] + ["tosca.nodes.Compute", "DatabaseServer"]
    assert closest("DatabaseServr", pool) == "DatabaseServer"
    assert closest("nodes.Compute", pool) == "tosca.nodes.Compute"
    assert closest("type17name", pool) == "Type17Name"
    assert closest("x" * 100_000, pool) is None


def test_one_edit_typos_in_a_large_pool_find_their_own_name() -> None:
    """Every one-letter typo (changed, dropped, added) finds exactly its name among 4,000.

    Before the one-edit index, the pool of a long bucket was cut before
    ranking, so ``Typo400`` was offered ``Type340``.
    """
    from toskit.diagnostics import closest

    pool = [f"Type{i}" for i in range(4000)]
    for i in range(0, 4000, 7):
        assert closest(f"Typo{i}", pool) == f"Type{i}"  # a letter changed
        assert closest(f"Tpe{i}", pool) == f"Type{i}"  # a letter dropped
        assert closest(f"Typpe{i}", pool) == f"Type{i}"  # a letter added


def test_names_past_the_one_edit_index_bound_still_get_a_hint(monkeypatch) -> None:
    from toskit import diagnostics

    monkeypatch.setattr(diagnostics, "HINT_MAX_DELETES", 50)  # only the first few names indexed
    pool = [f"Alpha{i}" for i in range(200)] + ["DatabaseServer"]
    assert diagnostics.closest("DatabaseServr", pool) == "DatabaseServer"
    assert diagnostics.closest("Alpah150", pool) == "Alpha150"


def test_thousands_of_tag_errors_are_capped_per_kind(run_case) -> None:
    text = "a: [" + ", ".join(f"!t{i} x" for i in range(20_000)) + "]\n"
    out = run_case(f"""
        def case():
            from toskit.source import load_yaml
            doc = load_yaml({text!r})
            return [[d.code, d.message] for d in doc.diagnostics]
    """)
    diags = out.returned
    assert len(diags) == 101
    assert diags[-1] == [
        "yaml-syntax",
        "and 19900 more yaml-syntax problem(s) in this document (only the first 100 are listed)",
    ]


def test_hash_colliding_integer_keys_are_limit_exceeded(run_case) -> None:
    out = run_case("""
        def setup():
            modulus = (1 << 61) - 1
            return "\\n".join(f"{i * modulus}: 1" for i in range(1, 100_001))

        def case(text):
            from toskit.source import load_yaml
            doc = load_yaml(text)
            return [[d.code, d.message] for d in doc.diagnostics]
    """)
    [(code, message)] = out.returned
    assert code == "limit-exceeded" and "integer keys" in message


def test_a_few_huge_integer_keys_still_load(run_case) -> None:
    out = run_case("""
        def case():
            from toskit.source import load_yaml
            modulus = (1 << 61) - 1
            doc = load_yaml("\\n".join(f"{i * modulus}: 1" for i in range(1, 501)))
            return [doc.diagnostics == [], len(doc.value)]
    """)
    assert out.returned == [True, 500]


def test_a_500_mb_scalar_text_is_refused_before_parsing(run_case) -> None:
    out = run_case(
        """
        def setup():
            return "key: ".ljust(500 << 20, "x")  # one allocation

        def case(text):
            from toskit.source import load_yaml
            doc = load_yaml(text)
            return [d.code for d in doc.diagnostics]
    """,
        peak_mb=700,
    )  # the 500 MB text itself, and no copy of it
    assert out.returned == ["limit-exceeded"]


def test_check_prints_100_of_a_kind_then_a_count(run_case, tmp_path) -> None:
    """``toskit check`` on 5,000 mistakes in one 160 kB line: a short report."""
    path = tmp_path / "t.yaml"
    path.write_text(_one_line_of_mistakes(5_000))
    out = run_case(f"""
        def case():
            import resource, subprocess, sys
            proc = subprocess.run([sys.executable, "-m", "toskit", "check", {str(path)!r}],
                                  capture_output=True, text=True)
            used = resource.getrusage(resource.RUSAGE_CHILDREN)
            return [proc.returncode, len(proc.stdout), proc.stdout.splitlines()[-1],
                    used.ru_utime + used.ru_stime, used.ru_maxrss / 1024, proc.stdout]
    """)
    code, size, last, child_cpu, child_mb, stdout = out.returned
    # the CLI process itself: interpreter start, 5,000 diagnostics found, 101 printed
    assert (
        child_mb < 500 and child_cpu < 40
    )  # memory counted; CPU only a hang guard (10x a quiet 4 s)
    assert code == 1
    assert size < 100 * 600  # 100 windowed diagnostics, not 20,000 whole lines
    assert last == "  hint: " + SEE_ALL_HINT  # the summary closes the list
    assert "error[unknown-type]: 4,900 more 'unknown-type' diagnostics not shown" in stdout
