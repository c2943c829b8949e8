"""What ``toskit check`` imports (issue #31 item 1): only what it runs.

Start-up is what a user of the command feels first (pre-commit hooks, CI,
the editor). These tests assert *which* modules a real ``toskit check``
process imports, never how long it takes (bench/bench_startup.py measures
that).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import toskit
from toskit import cli
from toskit.source import shadow

TOSCA = """\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    web:
      type: tosca.nodes.WebServer
      requirements:
        - host: box
    box:
      type: tosca.nodes.Compute
"""
ROLES = "roles_metadata:\n  controller:\n    name: Controller\n"

# Run the command as `toskit check ...` does (argv from the command line),
# then list every module the process holds.
# The modules are listed before the probe imports json to report them.
_PROBE = """\
import io, sys
from toskit.cli import main
sys.argv = ["toskit", *sys.argv[1:]]
out = io.StringIO()
real = sys.stdout
sys.stdout = out
status = main()
sys.stdout = real
modules = sorted(sys.modules)
import json
print(json.dumps({"status": status, "out": out.getvalue(), "modules": modules}))
"""

# Nothing of these is needed to check a file: the views, pandas and widgets,
# the other subcommands (diff's comparison, the language server, the report
# formats, --fix), the other kinds' checkers, the DSL.
NEVER_FOR_CHECK = (
    "pandas",
    "ipywidgets",
    "anywidget",
    "grandalf",
    "pygls",
    "toskit.display",
    "toskit.widgets",
    "toskit.compare",
    "toskit.lsp",
    "toskit.report",
    "toskit.fix",
    "toskit.dsl",
)


def _modules_of(argv: list[str], cwd: Path) -> tuple[int, str, set[str]]:
    # `make test` runs this file in shadow mode (both YAML parse paths, which
    # imports PyYAML): the command a user runs has no such variable.
    env = {key: value for key, value in os.environ.items() if key != shadow.ENV_VAR}
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *argv],
        capture_output=True,
        text=True,
        check=True,
        cwd=cwd,
        env=env,
    )
    record = json.loads(done.stdout.splitlines()[-1])
    return record["status"], record["out"], set(record["modules"])


def _loaded(modules: set[str], prefix: str) -> list[str]:
    return sorted(m for m in modules if m == prefix or m.startswith(prefix + "."))


def test_check_of_a_template_imports_only_the_tosca_checker(tmp_path: Path) -> None:
    (tmp_path / "t.yaml").write_text(TOSCA)
    status, out, modules = _modules_of(["check", "t.yaml"], tmp_path)
    assert (status, out) == (0, "checked t.yaml as TOSCA 1.3 template: 0 errors, 0 warnings\n")
    # It did run the TOSCA checks...
    assert "toskit.tosca.load.loader" in modules
    # ...and nothing else.
    for prefix in (*NEVER_FOR_CHECK, "toskit.conditions", "toskit.schema"):
        assert _loaded(modules, prefix) == [], prefix
    # One file: no worker processes, so no multiprocessing either.
    assert _loaded(modules, "multiprocessing") == []
    # A clean file read by rapidyaml needs no PyYAML (locations, syntax errors
    # and dsl_definitions' anchors import it).
    for prefix in ("yaml", "toskit.source.compose", "toskit.source.hints"):
        assert _loaded(modules, prefix) == [], prefix
    # argparse's formatter finds the width without shutil, and zipfile comes
    # only with an archive (both bring shutil, bz2 and lzma: #31).
    for prefix in ("shutil", "zipfile", "bz2", "lzma"):
        assert _loaded(modules, prefix) == [], prefix
    # Imported on first use only (#31): RE2 with a template's first pattern,
    # difflib with the first spelling hint, pathlib and urllib.parse (with
    # ipaddress) with a URL or `file:` import or a caller's Path, json with
    # --format json or a text quoted for YAML or JSON.
    for prefix in ("re2", "difflib", "pathlib", "urllib", "ipaddress", "json"):
        assert _loaded(modules, prefix) == [], prefix
    # A template without `functions:` sections or validation clauses needs
    # neither (toskit.functions' lazy names, #31).
    for prefix in (
        "toskit.functions.signatures",
        "toskit.functions.validation",
        "toskit.functions.compare",
        "toskit.functions.builtins",
    ):
        assert _loaded(modules, prefix) == [], prefix
    # Nor a profile catalog: it is built on the first `- profile:` import.
    assert "toskit.tosca.load.catalog" not in modules
    # Nor toskit.values (with base64): scalar-units, versions, timestamps, ranges.
    for prefix in ("toskit.values", "base64"):
        assert _loaded(modules, prefix) == [], prefix
    # Records are toskit.records' (no dataclasses, which imports inspect with
    # ast, dis and tokenize), locks and thread-locals _thread's (#31).
    for prefix in ("dataclasses", "inspect", "ast", "dis", "tokenize", "threading"):
        assert _loaded(modules, prefix) == [], prefix
    # rapidyaml is imported without its `deprecation` dependency (which brings
    # packaging, textwrap and datetime); a template without timestamps needs
    # no datetime either.
    assert "ryml" in modules
    for prefix in ("deprecation", "packaging", "textwrap", "datetime"):
        assert _loaded(modules, prefix) == [], prefix


# A pattern constraint broken by a value, and a misspelt property: RE2 and
# difflib are imported when the check needs them.
PATTERN_AND_TYPO = """\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.Box:
    derived_from: tosca.nodes.Root
    properties:
      code:
        type: string
        constraints:
          - pattern: "[a-z]+"
topology_template:
  node_templates:
    box:
      type: my.Box
      properties:
        code: ABC
        cdoe: abc
"""


def test_the_lazy_imports_happen_when_a_check_needs_them(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text(PATTERN_AND_TYPO)
    status, out, modules = _modules_of(["check", "p.yaml"], tmp_path)
    assert status == 1, out
    assert "error[constraint-violation]" in out and "pattern" in out, out
    assert "did you mean 'code'?" in out, out
    assert "re2" in modules and "difflib" in modules


VALIDATION_2_0 = """\
tosca_definitions_version: tosca_2_0
node_types:
  my.Box:
    derived_from: Root
    properties:
      size:
        type: integer
        validation: { $greater_than: [ $value, 10 ] }
service_template:
  node_templates:
    box:
      type: my.Box
      properties:
        size: 3
"""


def test_a_validation_clause_imports_the_clause_evaluator_on_use(tmp_path: Path) -> None:
    (tmp_path / "v.yaml").write_text(VALIDATION_2_0)
    status, out, modules = _modules_of(["check", "v.yaml"], tmp_path)
    assert status == 1 and "v.yaml:14:15: error[validation-failed]" in out, out
    assert "toskit.functions.validation" in modules


PROFILE_IMPORTS = """\
tosca_definitions_version: tosca_2_0
imports:
  - profile: org.oasis-open.simple:2.0
  - profile: example.com:nope
service_template:
  node_templates:
    box:
      type: Compute
"""


SCALAR_UNITS = """\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    box:
      type: tosca.nodes.Compute
      capabilities:
        host:
          properties:
            mem_size: 12 XB
            disk_size: 10 GB
"""


def test_a_scalar_unit_imports_the_value_parsers_on_use(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(SCALAR_UNITS)
    status, out, modules = _modules_of(["check", "s.yaml"], tmp_path)
    assert status == 1 and "1 error, 0 warnings" in out, out
    assert "s.yaml:9:23: error[type-mismatch]" in out and "scalar-unit.size" in out, out
    assert "toskit.values" in modules


def test_a_profile_import_builds_the_catalog_on_use(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text(PROFILE_IMPORTS)
    status, out, modules = _modules_of(["check", "p.yaml"], tmp_path)
    assert status == 0 and "0 errors, 1 warning" in out, out
    assert "p.yaml:4:14: warning[unknown-profile]" in out, out
    assert "toskit.tosca.load.catalog" in modules


def test_toskit_functions_lazy_names_resolve_as_before() -> None:
    # Run in a fresh process: this one may have imported them already.
    code = (
        "import toskit.functions as f, sys\n"
        "lazy = ['FunctionDefinition', 'load_function_definitions', 'refine',\n"
        "        'check_value', 'constraint_clause', 'validate']\n"
        "before = [m in sys.modules for m in ('toskit.functions.signatures',\n"
        "                                     'toskit.functions.validation')]\n"
        "listed = all(n in dir(f) and n in f.__all__ for n in lazy)\n"
        "star = {}\n"
        "exec('from toskit.functions import *', star)\n"
        "from toskit.functions.signatures import FunctionDefinition\n"
        "from toskit.functions.validation import CONSTRAINT_OPERATORS, validate\n"
        "from toskit.functions.registry import CONSTRAINT_OPERATORS as table\n"
        "print(before, listed, sorted(set(f.__all__) - set(star)),\n"
        "      f.FunctionDefinition is FunctionDefinition, f.validate is validate,\n"
        "      callable(f.evaluate) and not isinstance(f.evaluate, type(f)),\n"
        "      CONSTRAINT_OPERATORS is table)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[False, False] True [] True True True True"
    import toskit.functions

    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        toskit.functions.nope  # noqa: B018


def test_check_imports_pyyaml_when_a_finding_needs_its_locations(tmp_path: Path) -> None:
    # The lazy import still happens where it is needed: an error is located
    # through PyYAML's positions (line 9, column 13), a syntax error through its parser.
    (tmp_path / "bad.yaml").write_text(TOSCA.replace("tosca.nodes.Compute", "tosca.nodes.Nope"))
    status, out, modules = _modules_of(["check", "bad.yaml"], tmp_path)
    assert status == 1 and "bad.yaml:9:13: error[unknown-type]" in out, out
    assert "yaml" in modules and "toskit.source.compose" in modules
    (tmp_path / "broken.yaml").write_text("a: [1,\n")
    status, out, modules = _modules_of(["check", "broken.yaml"], tmp_path)
    assert status == 1 and "yaml-syntax" in out, out
    assert "toskit.source.hints" in modules


def test_dsl_anchors_still_checked_with_pyyaml_imported_on_demand(tmp_path: Path) -> None:
    text = TOSCA.replace(
        "topology_template:", "dsl_definitions:\n  plain: {a: 1}\ntopology_template:"
    )
    (tmp_path / "d.yaml").write_text(text)
    status, out, modules = _modules_of(["check", "d.yaml"], tmp_path)
    assert "missing-anchor" in out and "plain" in out, out
    assert "yaml" in modules


def test_check_of_a_roles_document_imports_no_tosca(tmp_path: Path) -> None:
    (tmp_path / "r.yaml").write_text(ROLES)
    status, _, modules = _modules_of(["check", "r.yaml"], tmp_path)
    assert status == 0
    assert "toskit.conditions" in modules
    for prefix in (*NEVER_FOR_CHECK, "toskit.tosca", "toskit.schema", "multiprocessing"):
        assert _loaded(modules, prefix) == [], prefix


def test_check_in_parallel_still_imports_no_views(tmp_path: Path) -> None:
    for name in ("a.yaml", "b.yaml", "c.yaml"):
        (tmp_path / name).write_text(TOSCA)
    status, out, modules = _modules_of(["check", "-q", "-j", "2", "."], tmp_path)
    assert (status, out) == (0, "")
    for prefix in NEVER_FOR_CHECK:
        assert _loaded(modules, prefix) == [], prefix


def test_diff_is_built_in_full_only_when_run(capsys: pytest.CaptureFixture[str]) -> None:
    # The top-level help still lists diff with its help line...
    assert cli.main(["--help"]) == 0
    assert "what changed between two versions of a template" in capsys.readouterr().out
    # ...and `toskit diff` gets its real parser (its options), from any position.
    assert cli.main(["diff", "--help"]) == 0
    assert "--fail-on" in capsys.readouterr().out
    assert cli.main(["diff"]) == 2
    assert "OLD" in capsys.readouterr().err


def test_a_parser_built_for_check_still_names_diff(capsys: pytest.CaptureFixture[str]) -> None:
    parser = cli._parser(["check", "x.yaml"])
    assert parser.parse_args(["check", "x.yaml"]).files == ["x.yaml"]
    # diff is a name with a help line there: asking it for its options is not possible,
    # but its name is a valid choice (no "invalid choice" for a known subcommand).
    assert "diff" in parser.format_help()
    # A parser built for nothing in particular (the default) has every subcommand in full.
    full = cli._parser()
    assert full.parse_args(["diff", "a.yaml", "b.yaml"]).fail_on == []


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    found = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(found[0].choices)


def test_only_the_subcommand_run_gets_its_options() -> None:
    # #31: `toskit check` builds no options of the other subcommands; their
    # names and help lines stay (the top-level help and "invalid choice" list them).
    for command, options in (
        ("check", "--max-per-code"),
        ("show", "--force"),
        ("explain", "--format"),
        ("blame", "--node"),
    ):
        built = _subparsers(cli._parser([command, "x.yaml"]))
        assert list(built) == ["check", "show", "diff", "upgrade-check", "lsp", "explain", "blame"]
        assert options in built[command].format_help(), command
        stubs = [name for name, sub in built.items() if len(sub._actions) == 1]  # only -h
        full = {command, "explain", "blame"} if command in ("explain", "blame") else {command}
        assert set(stubs) == set(built) - full, command  # lsp has only -h anyway
    # Each help line is the same whether its subcommand is built or not.
    everything = cli._parser()
    for command in ("check", "show", "lsp", "explain"):
        assert cli._parser([command]).format_help() == everything.format_help(), command


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["check", "a.yaml"], "check"),
        (["--version"], None),
        (["-h", "diff"], "diff"),
        (["--", "diff"], None),
        ([], None),
    ],
)
def test_the_command_named_by_argv(argv: list[str], command: str | None) -> None:
    assert cli._command_of(argv) == command


def test_the_makefiles_installs_compile_toskits_bytecode() -> None:
    # An editable install leaves toskit/ without .pyc files; with
    # PYTHONDONTWRITEBYTECODE every `toskit check` compiled ~90 modules again.
    makefile = (Path(__file__).resolve().parents[1] / "Makefile").read_text(encoding="utf-8")
    compile_line = next(
        line for line in makefile.splitlines() if line.startswith("COMPILE_BYTECODE =")
    )
    assert "-m compileall" in compile_line and "toskit" in compile_line.split("compileall", 1)[1]
    for stamp in ("$(STAMP):", "$(LAB_STAMP):"):
        recipe = makefile.split("\n" + stamp, 1)[1].split("\n\n", 1)[0].splitlines()
        installs = [i for i, line in enumerate(recipe) if "pip install" in line]
        compiles = [i for i, line in enumerate(recipe) if "$(COMPILE_BYTECODE)" in line]
        assert installs and compiles and compiles[0] > installs[0], stamp


def test_check_parses_a_tosca_file_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # toskit check reads a file's YAML to find its kind; the TOSCA checker builds
    # on that document instead of parsing the text again (#31).
    from toskit.source import document

    path = tmp_path / "t.yaml"
    path.write_text(TOSCA)
    assert cli.main(["check", "-q", str(path)]) == 0  # the normative profile, loaded once
    parsed: list[str] = []
    real = document.load_fast
    monkeypatch.setattr(
        document,
        "load_fast",
        lambda text, limits, keys=None: parsed.append(text) or real(text, limits, keys),
    )
    assert cli.main(["check", "-q", str(path)]) == 0
    assert parsed == [TOSCA]
    # The same findings as toskit.loads, which parses for itself.
    bad = TOSCA.replace("tosca.nodes.Compute", "tosca.nodes.Nope") + "      properties: {x: 1}\n"
    parsed.clear()
    kind, found = cli.check_text(bad, "bad.yaml")
    assert kind == "tosca" and parsed == [bad]
    expected = cli.cap_per_code(
        cli.sort_diagnostics(toskit.loads(bad, name="bad.yaml").diagnostics), cli.MAX_PER_CODE
    )
    assert found == expected and [d.code for d in found] == ["unknown-type"]


def test_a_grammars_keyname_table_is_built_only_for_a_document_of_its_version() -> None:
    # The tables are built on first use, not at import (#31): checking a 1.3
    # file builds the 1.x table (and the normative profile's), never 2.0's.
    code = (
        "import sys, toskit\n"
        "from toskit.tosca.load import grammar as g\n"
        "built = lambda: ['document' in vars(g.GRAMMAR_1), 'document' in vars(g.GRAMMAR_2)]\n"
        "before = built()\n"
        "st = toskit.loads(sys.argv[1], name='t.yaml')\n"
        "print(before, built(), st.ok)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, TOSCA], capture_output=True, text=True, check=True
    )
    assert done.stdout.split("\n")[0] == "[False, False] [True, False] True"


@pytest.mark.parametrize("columns", ["60", "132", "0", "x", None])
def test_the_help_is_as_wide_as_argparse_makes_it(
    columns: str | None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # cli._Formatter finds the width as argparse's own formatter does (shutil).
    import argparse

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    ours = cli._Formatter("toskit")
    theirs = argparse.HelpFormatter("toskit")
    assert ours._width == theirs._width
    assert ours._max_help_position == theirs._max_help_position
    # The help text itself, ours against argparse's formatter.
    assert cli.main(["check", "--help"]) == 0
    ours_text = capsys.readouterr().out
    monkeypatch.setattr(cli, "_Formatter", argparse.HelpFormatter)
    assert cli.main(["check", "--help"]) == 0
    assert ours_text == capsys.readouterr().out and "--max-per-code" in ours_text


def test_the_compiled_profiles_are_current() -> None:
    # toskit/tosca/load/compiled_profiles.py holds the profile files' values
    # as literals (#31: parsing 1.3's was ~1.6 ms of every check). After
    # editing a profile file: profile.write_compiled().
    from toskit.tosca.load import compiled_profiles, profile

    shipped = Path(compiled_profiles.__file__).read_text(encoding="utf-8")
    assert shipped == profile.compiled_source(), "run toskit.tosca.load.profile.write_compiled()"


def test_a_compiled_profile_is_the_document_parsing_gives() -> None:
    from toskit.source import load_yaml_file
    from toskit.tosca.load import compiled_profiles, profile
    from toskit.tosca.profiles import PROFILE_FILES, profile_file

    assert set(compiled_profiles.PROFILES) == set(PROFILE_FILES)
    for key in PROFILE_FILES:
        ours, parsed = profile.profile_document(key), load_yaml_file(profile_file(key))
        assert (ours.name, ours.text, ours.diagnostics) == (parsed.name, parsed.text, [])
        assert ours.value == parsed.value and ours.key_names == parsed.key_names
        # Locations come from the text, as for a document rapidyaml read.
        section = next(iter(ours.value))
        assert ours.locate((section,)) == parsed.locate((section,)) is not None
        assert ours.value is not profile.profile_document(key).value  # a fresh value each time


def test_a_stale_compiled_profile_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    # A profile file edited without regenerating: its text no longer has the
    # recorded length and CRC-32, so it is parsed (slower, never wrong).
    from toskit.tosca.load import compiled_profiles, profile

    length, crc, names, build = compiled_profiles.PROFILES["1.3"]
    monkeypatch.setitem(compiled_profiles.PROFILES, "1.3", (length, crc ^ 1, names, build))
    parsed: list[str] = []
    real = profile.load_yaml_file
    monkeypatch.setattr(profile, "load_yaml_file", lambda path: parsed.append(path) or real(path))
    doc = profile.profile_document("1.3")
    assert parsed == [doc.name] and doc.value == build()


def test_check_parses_no_profile_file() -> None:
    # In a fresh process (the profile registry is built once per process): the
    # template is the one YAML text parsed.
    code = (
        "import sys\n"
        "from toskit.source import document\n"
        "parsed = []\n"
        "real = document.load_fast\n"
        "document.load_fast = lambda text, *a: parsed.append(text) or real(text, *a)\n"
        "import toskit\n"
        "st = toskit.loads(sys.argv[1], name='t.yaml')\n"
        "print(st.ok, parsed == [sys.argv[1]], len(parsed))\n"
    )
    env = {key: value for key, value in os.environ.items() if key != shadow.ENV_VAR}
    done = subprocess.run(
        [sys.executable, "-c", code, TOSCA], capture_output=True, text=True, check=True, env=env
    )
    assert done.stdout.split() == ["True", "True", "1"]


def test_a_lazy_pattern_is_the_compiled_one_on_first_use() -> None:
    import re

    from toskit.patterns import lazy_pattern

    text = "a1 b22 c333"
    lazy, real = lazy_pattern(r"([a-z])(\d+)", re.ASCII), re.compile(r"([a-z])(\d+)", re.ASCII)
    assert "_compiled" not in vars(lazy)  # nothing compiled yet
    assert lazy.pattern == real.pattern and lazy.flags == real.flags and lazy.groups == 2
    assert "_compiled" in vars(lazy)
    assert lazy.match(text).groups() == real.match(text).groups()  # type: ignore[union-attr]
    assert lazy.fullmatch("z9") is not None and lazy.fullmatch(text) is None
    assert lazy.search(" q5").span() == real.search(" q5").span()  # type: ignore[union-attr]
    assert lazy.sub(r"\2\1", text) == real.sub(r"\2\1", text) == "1a 22b 333c"
    assert lazy.subn("", text) == ("  ", 3)
    assert lazy.split(text) == real.split(text)
    assert lazy.findall(text) == real.findall(text)
    assert [m.group() for m in lazy.finditer(text)] == ["a1", "b22", "c333"]
    assert lazy.groupindex == {} and "lazy_pattern" not in repr(real)


def test_check_compiles_only_the_patterns_it_uses(tmp_path: Path) -> None:
    # #31: a module-level pattern is compiled on first use (toskit.patterns);
    # a plain template's check leaves the scalar parsers' float, octal, hex,
    # inf and nan patterns uncompiled, a template with such values does not.
    code = (
        "import sys\n"
        "from toskit.cli import main\n"
        "main(['check', '-q', sys.argv[1]])\n"
        "from toskit.source import scalars\n"
        "names = ['_FLOAT', '_INT_OCT', '_INT_HEX', '_INF', '_NAN']\n"
        "print([n for n in names if '_compiled' in vars(getattr(scalars, n))])\n"
    )
    plain = tmp_path / "plain.yaml"
    plain.write_text(TOSCA)
    numbers = tmp_path / "numbers.yaml"
    numbers.write_text(
        TOSCA.replace("tosca.nodes.Compute", "tosca.nodes.Compute\n      metadata: {a: 1.5}")
    )
    env = {key: value for key, value in os.environ.items() if key != shadow.ENV_VAR}
    for path, compiled in ((plain, "[]"), (numbers, "['_FLOAT'")):
        done = subprocess.run(
            [sys.executable, "-c", code, str(path)], capture_output=True, text=True, env=env
        )
        assert done.stdout.startswith(compiled), (path.name, done.stdout, done.stderr)


def test_ryml_is_imported_with_its_deprecations_deferred() -> None:
    # toskit imports ryml with a stand-in for `deprecation` (#31): ryml's
    # deprecated functions still warn, through the real module, and
    # `import deprecation` afterwards is the real one.
    code = (
        "import sys, warnings\n"
        "from toskit.source import fast\n"
        "assert fast.available()\n"
        "before = 'deprecation' in sys.modules\n"
        "import ryml\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    try:\n"
        "        ryml.emit(None)\n"
        "    except Exception:\n"
        "        pass\n"
        "import deprecation\n"
        "print(before, [w.category.__name__ for w in caught],\n"
        "      issubclass(caught[0].category, deprecation.DeprecatedWarning),\n"
        "      deprecation.__file__.endswith('deprecation.py'), ryml.emit.__name__)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "['DeprecatedWarning']", "True", "True", "emit"]
    # Imported already: ryml is imported as it is, with the real decorator.
    code = (
        "import deprecation, sys\n"
        "from toskit.source import fast\n"
        "print(fast.available(), sys.modules['deprecation'] is deprecation)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "True"]


def test_ryml_is_imported_plainly_when_the_stand_in_is_not_enough() -> None:
    # A rapidyaml release that asks `deprecation` for more than `deprecated`
    # must cost only the faster start, never the fast parser: the first
    # import (under the stand-in) fails here, the plain one follows.
    code = (
        "import builtins, sys\n"
        "real_import = builtins.__import__\n"
        "refused = []\n"
        "def guarded(name, *args, **kwargs):\n"
        "    shown = sys.modules.get('deprecation')\n"
        "    if name == 'ryml' and shown is not None and 'stand-in' in (shown.__doc__ or ''):\n"
        "        refused.append(name)\n"
        "        raise ImportError('cannot import name fail_if_not_removed')\n"
        "    return real_import(name, *args, **kwargs)\n"
        "builtins.__import__ = guarded\n"
        "from toskit.source import fast\n"
        "ready = fast.available()\n"
        "import deprecation\n"
        "print(ready, refused, 'stand-in' in (deprecation.__doc__ or ''))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "['ryml']", "False"]
