"""The profile catalog (issue #36 item 1): ``- profile: name:version`` imports
resolved through folders given to ``toskit.load(..., profiles=[...])`` and
``toskit check --profiles DIR``."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

import pytest

import toskit
from toskit.cli import main
from toskit.tosca.load.catalog import HEAD_BYTES, ProfileCatalog

V20 = "tosca_definitions_version: tosca_2_0\n"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def base(version: str, extra: str = "") -> str:
    return (
        V20
        + f"profile: org.base:{version}\n"
        + "capability_types:\n  Host: {}\n"
        + "node_types:\n  Machine:\n    capabilities:\n      host: {type: Host}\n"
        + "    properties:\n      size: {type: integer, default: 1}\n"
        + extra
    )


def codes(st: toskit.ServiceTemplate) -> list[str]:
    return [d.code for d in st.diagnostics]


def test_a_profile_import_resolves_through_the_catalog_and_its_types_are_checked(
    tmp_path: Path,
) -> None:
    write(tmp_path / "lib" / "base.yaml", base("v1"))
    text = V20 + (
        "imports: [{profile: 'org.base:v1', namespace: b}]\n"
        "service_template:\n  node_templates:\n"
        "    m: {type: b:Machine, properties: {size: 2, colour: red}}\n"
    )
    st = toskit.loads(text, name=str(tmp_path / "t.yaml"), profiles=[tmp_path / "lib"])
    # Names in the namespace are known now: a misspelt property is found.
    assert codes(st) == ["unknown-property"]
    assert st.node_templates["m"].type.name == "b:Machine"
    # Without the catalog the namespace is opaque: nothing to check, one warning.
    plain = toskit.loads(text, name=str(tmp_path / "t.yaml"))
    assert codes(plain) == ["unknown-profile"]


def test_versions_are_exact_and_two_versions_are_two_namespaces(tmp_path: Path) -> None:
    write(tmp_path / "lib" / "v1.yaml", base("v1"))
    write(tmp_path / "lib" / "v2.yaml", base("v2"))
    text = V20 + (
        "imports:\n"
        "- {profile: 'org.base:v1', namespace: one}\n"
        "- {profile: 'org.base:v2', namespace: two}\n"
        "relationship_types: {Uses: {}}\n"
        "node_types:\n  App:\n    requirements:\n"
        "    - host: {capability: two:Host, relationship: Uses}\n"
        "service_template:\n  node_templates:\n"
        "    old: {type: one:Machine}\n    new: {type: two:Machine}\n"
        "    app1: {type: App, requirements: [{host: new}]}\n"
        "    app2: {type: App, requirements: [{host: old}]}\n"
    )
    st = toskit.loads(text, name=str(tmp_path / "t.yaml"), profiles=[tmp_path / "lib"])
    one = st.registry.lookup("capability", "one:Host")
    two = st.registry.lookup("capability", "two:Host")
    assert one is not None and two is not None and not one.is_a(two) and not two.is_a(one)
    found = [d for d in st.diagnostics if d.severity == "error"]
    assert [d.code for d in found] == ["invalid-requirement-target"]
    assert "'app2'" in found[0].message and "two:Host" in found[0].message

    # ``org.base`` (no version) is not ``org.base:v1``; the hint lists the versions.
    st = toskit.loads(
        V20 + "imports: [{profile: org.base}]\n",
        name=str(tmp_path / "u.yaml"),
        profiles=[tmp_path / "lib"],
    )
    (d,) = st.diagnostics
    assert d.code == "unknown-profile" and d.severity == "warning"
    assert "org.base:v1, org.base:v2" in (d.hint or "")


def test_an_absent_profile_names_the_folders_searched(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    text = V20 + "imports: [{profile: 'org.nope:1', namespace: n}]\n"
    st = toskit.loads(
        text, name=str(tmp_path / "t.yaml"), profiles=[tmp_path / "a", tmp_path / "b"]
    )
    (d,) = st.diagnostics
    assert d.code == "unknown-profile"
    assert os.path.relpath(tmp_path / "a") in d.hint and os.path.relpath(tmp_path / "b") in d.hint
    bare = toskit.loads(text, name=str(tmp_path / "t.yaml"))
    assert "no profile folders were given" in bare.diagnostics[0].hint


def test_the_same_profile_in_two_folders_is_an_error_naming_both(tmp_path: Path) -> None:
    first = write(tmp_path / "a" / "base.yaml", base("v1"))
    second = write(tmp_path / "b" / "nested" / "copy.yaml", base("v1"))
    catalog = ProfileCatalog([tmp_path / "a", tmp_path / "b"])
    (d,) = catalog.diagnostics
    assert d.code == "duplicate-profile" and d.severity == "error"
    assert os.path.relpath(first) in d.message and os.path.relpath(second) in d.message
    assert [r.file for r in d.related] == [str(second)]
    # At the import too, and the first one (folder order) is used.
    st = toskit.loads(
        V20 + "imports: [{profile: 'org.base:v1', namespace: b}]\n",
        name=str(tmp_path / "t.yaml"),
        profiles=catalog,
    )
    (found,) = [x for x in st.diagnostics if x.code == "duplicate-profile"]
    assert found.file == str(tmp_path / "t.yaml") and found.line == 2
    assert st.registry.lookup("node", "b:Machine").doc.name == str(first)


def test_a_cycle_between_profiles_loads_each_once(tmp_path: Path) -> None:
    write(
        tmp_path / "lib" / "a.yaml",
        V20 + "profile: org.a:1\nimports: [{profile: 'org.b:1', namespace: b}]\n"
        "node_types:\n  A: {derived_from: b:B}\n",
    )
    write(
        tmp_path / "lib" / "b.yaml",
        V20 + "profile: org.b:1\nimports: [{profile: 'org.a:1', namespace: a}]\n"
        "node_types:\n  B: {}\n  C: {derived_from: a:A}\n",
    )
    catalog = ProfileCatalog([tmp_path / "lib"])
    st = toskit.loads(
        V20 + "imports: [{profile: 'org.a:1', namespace: x}]\n"
        "service_template:\n  node_templates:\n    n: {type: x:A}\n",
        name=str(tmp_path / "t.yaml"),
        profiles=catalog,
    )
    assert [(d.severity, d.code) for d in st.diagnostics] == [("info", "import-cycle")]
    assert "org" not in st.diagnostics[0].message or "a.yaml" in st.diagnostics[0].message
    assert st.node_templates["n"].type.is_a(st.registry.lookup("node", "x:b:B"))
    assert catalog.documents_parsed == 2


def test_a_profile_inside_a_csar_with_its_own_file_import(tmp_path: Path) -> None:
    archive = tmp_path / "lib" / "types.csar"
    archive.parent.mkdir()
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("TOSCA.meta", "CSAR-Version: 2.0\nEntry-Definitions: base.yaml\n")
        zf.writestr("base.yaml", base("v3", "imports: [extra/more.yaml]\n"))
        zf.writestr("extra/more.yaml", V20 + "node_types:\n  Extra: {derived_from: Machine}\n")
    st = toskit.loads(
        V20 + "imports: [{profile: 'org.base:v3', namespace: b}]\n"
        "service_template:\n  node_templates:\n    e: {type: b:Extra, properties: {size: 4}}\n",
        name=str(tmp_path / "t.yaml"),
        profiles=[tmp_path / "lib"],
    )
    assert codes(st) == []
    assert st.node_templates["e"].type.is_a(st.registry.lookup("node", "b:Machine"))
    entry = ProfileCatalog([tmp_path / "lib"]).lookup("org.base:v3")
    assert entry is not None and entry.archive == str(archive) and entry.entry == "base.yaml"


def test_thousands_of_files_are_indexed_lazily_by_their_head(tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    for i in range(3000):
        (lib / f"f{i:04}.yaml").write_text(
            V20 + f"profile: org.many:{i}\nnode_types: {{T{i}: {{}}}}\n"
        )
    # A profile line past the head is not seen (only the head is read).
    (lib / "late.yaml").write_text(V20 + "#" * HEAD_BYTES + "\nprofile: org.late:1\n")
    catalog = ProfileCatalog([lib])
    st = toskit.loads(V20, name=str(tmp_path / "t.yaml"), profiles=catalog)
    assert codes(st) == [] and not catalog.indexed and catalog.heads_read == 0
    st = toskit.loads(
        V20 + "imports: [{profile: 'org.many:1234', namespace: m}]\n"
        "service_template:\n  node_templates:\n    n: {type: m:T1234}\n",
        name=str(tmp_path / "t.yaml"),
        profiles=catalog,
    )
    assert codes(st) == []
    assert catalog.heads_read == 3001 and catalog.documents_parsed == 1
    toskit.loads(
        V20 + "imports: [{profile: 'org.many:7'}]\n",
        name=str(tmp_path / "u.yaml"),
        profiles=catalog,
    )
    assert catalog.heads_read == 3001 and catalog.documents_parsed == 2  # indexed once
    assert catalog.lookup("org.late:1") is None
    # The number of files looked at is bounded.
    small = ProfileCatalog([lib], max_files=100)
    (d,) = small.diagnostics
    assert d.code == "limit-exceeded" and "more than 100 files" in d.message
    assert small.heads_read == 100


def test_unreadable_files_are_findings_not_crashes(tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    write(lib / "base.yaml", base("v1"))
    (lib / "broken.csar").write_bytes(b"PK\x03\x04 not really a zip")
    os.symlink(lib / "gone.yaml", lib / "dangling.yaml")
    write(lib / "odd.yaml", V20 + "profile: [a, list]\n")
    (lib / "binary.yaml").write_bytes(b"\x00\x01profile: x\n")
    (lib / "latin1.yaml").write_bytes(V20.encode() + b"profile: org.caf\xe9:1\n")
    catalog = ProfileCatalog([lib])
    found = sorted((d.code, os.path.basename(d.file or "")) for d in catalog.diagnostics)
    assert found == [
        ("profile-catalog", "broken.csar"),
        ("profile-catalog", "dangling.yaml"),
        ("profile-catalog", "odd.yaml"),
    ]
    # A load that uses the catalog reports them (once) and still resolves the rest.
    st = toskit.loads(
        V20 + "imports: [{profile: 'org.base:v1', namespace: b}, {profile: 'org.c:2'}]\n",
        name=str(tmp_path / "t.yaml"),
        profiles=catalog,
    )
    assert sorted(codes(st)) == ["profile-catalog"] * 3 + ["unknown-profile"]


def test_a_folder_nested_deeper_than_the_recursion_limit(tmp_path: Path) -> None:
    import sys

    folder = tmp_path / "lib"
    folder.mkdir()
    here = os.getcwd()
    os.chdir(folder)  # paths stay short: each level is one step down
    try:
        for _ in range(sys.getrecursionlimit() + 100):
            os.mkdir("d")
            os.chdir("d")
        Path("deep.yaml").write_text(base("deep"))
    finally:
        os.chdir(here)
    try:
        catalog = ProfileCatalog([folder])
        entry = catalog.lookup("org.base:deep")
        assert entry is not None and catalog.diagnostics == []
    finally:
        # Removed here, deepest first: pytest's clean-up of old temporary
        # folders (shutil.rmtree) recurses and would fail on it.
        path = str(folder)
        while os.path.isdir(os.path.join(path, "d")):
            path = os.path.join(path, "d")
        for name in os.listdir(path):
            os.remove(os.path.join(path, name))
        while path != str(folder):
            os.rmdir(path)
            path = os.path.dirname(path)


def test_a_profile_file_that_does_not_parse_is_reported(tmp_path: Path) -> None:
    write(tmp_path / "lib" / "bad.yaml", V20 + "profile: org.bad:1\nnode_types: [\n")
    st = toskit.loads(
        V20 + "imports: [{profile: 'org.bad:1', namespace: b}]\n"
        "service_template:\n  node_templates:\n    n: {type: b:Anything}\n",
        name=str(tmp_path / "t.yaml"),
        profiles=[tmp_path / "lib"],
    )
    assert sorted(codes(st)) == ["unknown-profile", "yaml-syntax"]


def test_the_normative_profiles_are_builtin_entries(tmp_path: Path) -> None:
    catalog = ProfileCatalog([])
    builtin = {e.profile for e in catalog.entries() if e.builtin}
    assert {"org.oasis-open.simple:2.0", "org.oasis-open.simple:1.3"} <= builtin
    assert all(Path(e.location).is_file() for e in catalog.entries())
    st = toskit.loads(V20 + "imports: [{profile: 'org.oasis-open.simple:2.0'}]\n", profiles=catalog)
    assert codes(st) == []
    # A folder declaring a built-in name is a duplicate; the built-in one is used.
    write(tmp_path / "lib" / "fake.yaml", V20 + "profile: org.oasis-open.simple:2.0\n")
    (d,) = ProfileCatalog([tmp_path / "lib"]).diagnostics
    assert d.code == "duplicate-profile" and "toskit's tosca-2.0.yaml" in d.message


def test_profile_files_may_import_files_of_the_catalog_folder(tmp_path: Path) -> None:
    write(tmp_path / "lib" / "p" / "main.yaml", base("v1", "imports: [../common/more.yaml]\n"))
    write(tmp_path / "lib" / "common" / "more.yaml", V20 + "node_types:\n  More: {}\n")
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)  # the template's import root: the project
    st = toskit.loads(
        V20 + "imports: [{profile: 'org.base:v1', namespace: b}]\n"
        "service_template:\n  node_templates:\n    n: {type: b:More}\n",
        name=str(project / "t.yaml"),
        profiles=[tmp_path / "lib"],
    )
    assert codes(st) == []
    # The template itself still may not leave its root.
    st = toskit.loads(
        V20 + "imports: [../lib/common/more.yaml]\n",
        name=str(project / "t.yaml"),
        profiles=[tmp_path / "lib"],
    )
    assert codes(st) == ["import-error"]


def test_bad_arguments_are_toskit_errors(tmp_path: Path) -> None:
    with pytest.raises(toskit.ToskitError, match="does not exist"):
        ProfileCatalog([tmp_path / "nope"])
    with pytest.raises(toskit.ToskitError, match="profiles must be"):
        toskit.loads(V20, profiles=42)
    with pytest.raises(toskit.ToskitError, match="max_files"):
        ProfileCatalog([], max_files=0)


def test_toskit_check_profiles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path / "lib" / "base.yaml", base("v1"))
    template = write(
        tmp_path / "t.yaml",
        V20 + "imports: [{profile: 'org.base:v1', namespace: b}]\n"
        "service_template:\n  node_templates:\n    m: {type: b:Machine, properties: {size: x}}\n",
    )
    assert main(["check", "-j", "1", str(template)]) == 0  # unknown profile: a warning
    assert "unknown-profile" in capsys.readouterr().out
    assert main(["check", "-j", "1", "--profiles", str(tmp_path / "lib"), str(template)]) == 1
    assert "type-mismatch" in capsys.readouterr().out
    # Forked workers (-j 2) see the catalog too.
    other = write(tmp_path / "u.yaml", template.read_text().replace("size: x", "size: 3"))
    assert (
        main(["check", "-j", "2", "--profiles", str(tmp_path / "lib"), str(template), str(other)])
        == 1
    )
    assert "1 error" in capsys.readouterr().out
    assert main(["check", "--profiles", str(tmp_path / "missing"), str(template)]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_loading_a_csar_template_uses_the_catalog(tmp_path: Path) -> None:
    write(tmp_path / "lib" / "base.yaml", base("v1"))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(
            "main.yaml",
            V20 + "imports: [{profile: 'org.base:v1', namespace: b}]\n"
            "service_template:\n  node_templates:\n    m: {type: b:Machine}\n",
        )
    (tmp_path / "app.csar").write_bytes(buf.getvalue())
    st = toskit.load(tmp_path / "app.csar", profiles=[tmp_path / "lib"])
    assert codes(st) == [] and st.node_templates["m"].type.name == "b:Machine"
