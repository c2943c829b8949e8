"""Importer: relative paths, cache, cycles, URLs refused, resolver hook."""

import os

import pytest

from toskit.diagnostics import Diagnostic
from toskit.source import Importer, YamlDocument, load_yaml_file


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "main.yaml").write_text("imports:\n  - lib/types.yaml\n")
    (tmp_path / "lib" / "types.yaml").write_text("imports: [common.yaml]\nnode_types: {}\n")
    (tmp_path / "lib" / "common.yaml").write_text("data_types: {}\n")
    (tmp_path / "a.yaml").write_text("imports: [b.yaml]\n")
    (tmp_path / "b.yaml").write_text("imports: [a.yaml]\n")
    (tmp_path / "latin1.yaml").write_bytes("a: caf\xe9\n".encode("latin-1"))
    return tmp_path


def test_relative_to_the_importing_file(tree):
    importer = Importer()
    main = load_yaml_file(tree / "main.yaml")
    types = importer.load_import("lib/types.yaml", main)
    assert isinstance(types, YamlDocument)
    assert types.value == {"imports": ["common.yaml"], "node_types": {}}
    common = importer.load_import("common.yaml", types, [main.name])
    assert isinstance(common, YamlDocument)
    assert os.path.samefile(common.name, tree / "lib" / "common.yaml")


def test_each_file_is_parsed_once(tree):
    importer = Importer()
    main = load_yaml_file(tree / "main.yaml")
    first = importer.load_import("lib/types.yaml", main)
    again = importer.load_import("./lib/../lib/types.yaml", main)
    assert again is first


def test_cycle_is_reported(tree):
    importer = Importer()
    a = load_yaml_file(tree / "a.yaml")
    b = importer.load_import("b.yaml", a, [a.name])
    assert isinstance(b, YamlDocument)
    back = importer.load_import("a.yaml", b, [a.name, b.name], parts=("imports", 0))
    assert isinstance(back, Diagnostic)
    assert back.code == "import-cycle"
    assert "a.yaml" in back.message and "b.yaml" in back.message
    assert (back.file, back.line, back.column) == (b.name, 1, 11)


def test_self_import_is_a_cycle(tree):
    a = load_yaml_file(tree / "a.yaml")
    diag = Importer().load_import("a.yaml", a)
    assert isinstance(diag, Diagnostic) and diag.code == "import-cycle"


def test_missing_file_is_import_error(tree):
    main = load_yaml_file(tree / "main.yaml")
    diag = Importer().load_import("nope.yaml", main, parts=("imports", 0))
    assert isinstance(diag, Diagnostic)
    assert diag.code == "import-error"
    assert "no such file" in diag.message
    assert (diag.line, diag.column) == (2, 5)


def test_not_utf8_is_import_error(tree):
    main = load_yaml_file(tree / "main.yaml")
    diag = Importer().load_import("latin1.yaml", main)
    assert isinstance(diag, Diagnostic) and diag.code == "import-error"
    assert "UTF-8" in diag.message


@pytest.mark.parametrize(
    "url", ["https://example.com/types.yaml", "http://x/y.yaml", "ftp://host/f.yaml"]
)
def test_urls_are_never_fetched(tree, url):
    main = load_yaml_file(tree / "main.yaml")
    diag = Importer().load_import(url, main)
    assert isinstance(diag, Diagnostic)
    assert diag.code == "import-error"
    assert "remote imports are disabled" in diag.message
    assert "resolver" in diag.hint


def test_resolver_supplies_url_text(tree):
    calls = []

    def resolver(url, importing):
        calls.append((url, importing))
        return "node_types: {remote: {}}\n"

    importer = Importer(resolver=resolver)
    main = load_yaml_file(tree / "main.yaml")
    doc = importer.load_import("https://example.com/t.yaml", main)
    assert isinstance(doc, YamlDocument)
    assert doc.name == "https://example.com/t.yaml"
    assert doc.value == {"node_types": {"remote": {}}}
    assert importer.load_import("https://example.com/t.yaml", main) is doc
    assert calls == [("https://example.com/t.yaml", main.name)]


@pytest.mark.parametrize(
    ("resolver", "fragment"),
    [
        (lambda url, imp: None, "has no text"),
        (lambda url, imp: 1 / 0, "resolver failed"),
        (lambda url, imp: b"bytes", "returned bytes"),
    ],
    ids=["none", "raises", "wrong-type"],
)
def test_resolver_problems_are_import_errors(tree, resolver, fragment):
    main = load_yaml_file(tree / "main.yaml")
    diag = Importer(resolver=resolver).load_import("https://x/y.yaml", main)
    assert isinstance(diag, Diagnostic) and diag.code == "import-error"
    assert fragment in diag.message


def test_limits_apply_to_imports(tree):
    (tree / "deep.yaml").write_text("[[[[1]]]]\n")
    main = load_yaml_file(tree / "main.yaml")
    doc = Importer(max_depth=2).load_import("deep.yaml", main)
    assert isinstance(doc, YamlDocument)
    assert [d.code for d in doc.diagnostics] == ["limit-exceeded"]


def test_empty_reference_is_import_error(tree):
    main = load_yaml_file(tree / "main.yaml")
    diag = Importer().load_import("", main)
    assert isinstance(diag, Diagnostic) and diag.code == "import-error"


def test_bad_limit_is_refused_when_the_importer_is_made():
    with pytest.raises(TypeError):
        Importer(max_nodez=3)


def test_relative_import_inside_a_resolved_url_goes_through_the_resolver(tree):
    texts = {
        "https://example.com/lib/main.yaml": "imports: [types.yaml]\n",
        "https://example.com/lib/types.yaml": "node_types: {}\n",
    }
    asked = []

    def resolver(url, importing):
        asked.append(url)
        return texts.get(url)

    importer = Importer(resolver=resolver)
    local = load_yaml_file(tree / "main.yaml")
    remote = importer.load_import("https://example.com/lib/main.yaml", local)
    assert isinstance(remote, YamlDocument)
    types = importer.load_import("types.yaml", remote, [local.name, remote.name])
    assert isinstance(types, YamlDocument)
    assert types.name == "https://example.com/lib/types.yaml"
    assert asked == ["https://example.com/lib/main.yaml", "https://example.com/lib/types.yaml"]


def test_relative_import_inside_a_url_without_resolver_is_refused(tree):
    remote = Importer(resolver=lambda url, imp: "imports: [t.yaml]\n").load_import(
        "https://example.com/a.yaml", load_yaml_file(tree / "main.yaml")
    )
    diag = Importer().load_import("t.yaml", remote)
    assert isinstance(diag, Diagnostic)
    assert diag.code == "import-error"
    assert "https://example.com/t.yaml" in diag.message


def test_cycle_message_shows_the_loop(tree):
    (tree / "c.yaml").write_text("imports: [d.yaml]\n")
    (tree / "d.yaml").write_text("imports: [c.yaml]\n")
    importer = Importer()
    main = load_yaml_file(tree / "main.yaml")
    c = importer.load_import("c.yaml", main, [main.name])
    d = importer.load_import("d.yaml", c, [main.name, c.name])
    diag = importer.load_import("c.yaml", d, [main.name, c.name, d.name])
    assert isinstance(diag, Diagnostic)
    # an info; absolute names are shown relative to the working directory (#38)
    cn, dn = os.path.relpath(c.name), os.path.relpath(d.name)
    assert diag.severity == "info"
    assert diag.message == f"import cycle (each file is read once): {cn} → {dn} → {cn}"
