"""Every node keeps file/line/column (1-based), through aliases and merges."""

import pytest

from toskit.source import Location, YamlDocument, load_yaml

TEXT = """\
base: &base
  host: db.local
  port: 5432
service:
  <<: *base
  port: 6543
  tags: [a, b, {c: d}]
copy: *base
list:
  - x
  - - nested
"""


@pytest.fixture
def doc(parser):
    return load_yaml(TEXT, name="svc.yaml", parser=parser)


@pytest.mark.parametrize(
    ("path", "line", "column"),
    [
        ((), 1, 1),
        (("base",), 1, 7),  # a node starts at its properties (&base)
        (("base", "host"), 2, 9),
        (("base", "port"), 3, 9),
        (("service", "port"), 6, 9),
        (("service", "host"), 2, 9),  # merged: where it is written
        (("service", "tags"), 7, 9),
        (("service", "tags", 1), 7, 13),
        (("service", "tags", 2, "c"), 7, 20),
        (("copy",), 8, 7),  # an alias value: the alias itself
        (("copy", "port"), 3, 9),  # through the alias into the anchor
        (("list", 1, 0), 11, 7),
        (("service", "missing", "deeper"), 5, 3),  # deepest existing ancestor
        (("list", 7), 10, 3),
        (("list", "x"), 10, 3),
        (("base", "host", "not-a-map"), 2, 9),
    ],
    ids=lambda v: None if isinstance(v, int) else "/".join(map(str, v)) or "root",
)
def test_locate(doc, path, line, column):
    assert doc.locate(path) == Location("svc.yaml", line, column)


@pytest.mark.parametrize(
    ("path", "line", "column"),
    [
        (("service",), 4, 1),
        (("service", "port"), 6, 3),
        (("service", "host"), 2, 3),  # merged key: the key in the anchor
        (("copy", "port"), 3, 3),
        (("list", 1), 11, 5),  # list item: the item itself
        (("service", "nope"), 5, 3),  # missing key: like locate()
        ((), 1, 1),
    ],
    ids=lambda v: None if isinstance(v, int) else "/".join(map(str, v)) or "root",
)
def test_locate_key(doc, path, line, column):
    assert doc.locate_key(path) == Location("svc.yaml", line, column)


def test_unhashable_path_part_is_not_an_error(doc):
    assert doc.locate(("service", ["x"])) == Location("svc.yaml", 5, 3)


def test_bool_is_not_a_list_index(doc):
    assert doc.locate(("list", True)) == Location("svc.yaml", 10, 3)


def test_complex_key_path(parser):
    doc = load_yaml("? [a, b]\n: {x: 1}\n", parser=parser)
    assert doc.locate((("a", "b"), "x")) == Location("<string>", 2, 7)


def test_diagnostic_is_located_with_source_line(doc):
    diag = doc.diagnostic("error", "type-mismatch", "bad port", ("service", "port"), hint="x")
    assert (diag.file, diag.line, diag.column, diag.path) == ("svc.yaml", 6, 9, "service.port")
    assert diag.source_line == "  port: 6543"
    # The range is the whole scalar (issue #28): carets under all of it.
    assert (diag.end_line, diag.end_column) == (6, 13)
    assert str(diag).splitlines()[-1] == "      |         ^^^^"


def test_diagnostic_at_key(doc):
    diag = doc.diagnostic("error", "unknown-property", "x", ("service", "tags"), at_key=True)
    assert (diag.line, diag.column) == (7, 3)


def test_line_text_uses_yaml_line_breaks(parser):
    doc = load_yaml("a: 1\r\nb: 2\rc: 3\n", parser=parser)
    assert [doc.line_text(n) for n in (1, 2, 3, 4, 5)] == ["a: 1", "b: 2", "c: 3", "", None]
    assert doc.locate(("c",)) == Location("<string>", 3, 4)


def test_columns_count_characters_not_bytes(parser):
    doc = load_yaml("é: [ü, x]\n", parser=parser)
    assert doc.locate(("é", 1)) == Location("<string>", 1, 8)


def test_document_with_errors_has_no_locations(parser):
    doc = load_yaml("a: [\n", parser=parser)
    assert doc.value is None
    assert doc.locate(("a",)) is None


def test_document_built_directly_locates_from_its_text():
    doc = YamlDocument("built.yaml", "a:\n  b: 1\n", {"a": {"b": 1}}, [])
    assert doc.locate(("a", "b")) == Location("built.yaml", 2, 6)


def test_byte_order_mark_is_not_a_column(parser):
    doc = load_yaml("\ufeffa: 1\n", parser=parser)
    assert doc.value == {"a": 1}
    assert doc.locate(("a",)) == Location("<string>", 1, 4)
    assert doc.line_text(1) == "a: 1"


def test_string_path_is_one_key(doc):
    assert doc.locate("service") == doc.locate(("service",))
    assert doc.locate_key("service") == Location("svc.yaml", 4, 1)


def test_location_str():
    assert str(Location("a.yaml", 3, 7)) == "a.yaml:3:7"
    assert str(Location(None, 1, 1)) == "<unknown>:1:1"


def test_diagnostic_with_a_string_path(doc):
    diag = doc.diagnostic("error", "c", "m", "service")
    assert (diag.path, diag.line, diag.column) == ("service", 5, 3)
