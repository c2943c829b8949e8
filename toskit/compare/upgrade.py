"""Upgrade impact: what moving templates to a new version of their type library does.

>>> impact = upgrade_check("lib-v1", "lib-v2", ["service.yaml"])   # doctest: +SKIP
>>> impact.breaking                                                 # doctest: +SKIP

Each template is loaded twice, once with the old profile folders as its
catalog (``profiles=``) and once with the new ones, and the two loads are
compared with :func:`toskit.compare.compare` (the model of ``toskit
diff``). What differs can only come from the library, since the template's
text is the same; :class:`TemplateImpact` sorts it into:

* ``breaking``: errors the new library introduces (a new required property
  without a default, a narrowed constraint or ``valid_values``, a removed
  type, a changed requirement capability, a property whose type changed...),
  each an introduced :class:`~toskit.Diagnostic` located in the template;
* ``orphaned``: values the template sets for a property the new library no
  longer declares (removed, or renamed: the did-you-mean names the new name);
* ``defaults``: effective values that change only because a type default
  changed (no line of the template touched), with both layers;
* ``fixed``: errors the new library removes (for the record).

``--fail-on breaking`` (:meth:`UpgradeImpact.fails`) fails on the first two.

**Versions.** A template imports its profiles by name and version
(``org.acme.db:1.0``). When the new folders do not declare that exact
version but declare other versions of the same name, the template's import
is read as the newest of them (``retargeted``, by the version's string order
with numbers compared as numbers): that is the upgrade being asked about. A
library kept under one version across its revisions needs no retargeting.

``toskit diff --types OLD NEW TEMPLATE…`` and ``toskit upgrade-check OLD NEW
TEMPLATE…`` are the command line (OLD and NEW: folders, or
``git:REV:FOLDER`` for a folder at a revision of the current repository).
See docs/profiles.md.
"""

from __future__ import annotations

import html
import json
import os
import re
from collections.abc import Iterable, Sequence
from typing import Any

from toskit.compare.compute import compare
from toskit.compare.model import TemplateDiff, ValueChange
from toskit.diagnostics import Diagnostic
from toskit.errors import ToskitError
from toskit.records import field, record

__all__ = [
    "ORPHAN_CODES",
    "TemplateImpact",
    "UpgradeImpact",
    "retargets",
    "upgrade_check",
]

#: Introduced codes that mean "a value the template sets lost its declaration".
ORPHAN_CODES = frozenset({"unknown-property"})


@record(frozen=True)
class Orphan:
    """A value the template sets for a property the new library does not declare."""

    diagnostic: Diagnostic
    renamed_to: str | None = None

    @property
    def location(self) -> str:
        d = self.diagnostic
        return f"{d.file}:{d.line}:{d.column}" if d.line is not None else str(d.file)


@record(frozen=True)
class TemplateImpact:
    """The impact of the new library on one template (see the module docstring)."""

    template: str
    diff: TemplateDiff
    breaking: tuple[Diagnostic, ...] = ()
    orphaned: tuple[Orphan, ...] = ()
    defaults: tuple[ValueChange, ...] = ()
    fixed: tuple[Diagnostic, ...] = ()

    @property
    def ok(self) -> bool:
        """True when nothing breaks and no value is orphaned."""
        return not self.breaking and not self.orphaned

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "template": self.template,
            "breaking": [_diag(d) for d in self.breaking],
            "orphaned": [
                {**_diag(o.diagnostic), "renamed_to": o.renamed_to} for o in self.orphaned
            ],
            "defaults": [
                {
                    "entity": v.entity,
                    "path": v.path,
                    "old": v.old,
                    "new": v.new,
                    "old_source": v.old_source,
                    "new_source": v.new_source,
                    "old_location": v.old_location,
                    "new_location": v.new_location,
                }
                for v in self.defaults
            ],
            "fixed": [_diag(d) for d in self.fixed],
        }


@record(frozen=True)
class UpgradeImpact:
    """What the new type library does to each template (``toskit.compare.upgrade``)."""

    old: tuple[str, ...]
    new: tuple[str, ...]
    templates: tuple[TemplateImpact, ...] = ()
    retargeted: dict[str, str] = field(default_factory=dict)

    @property
    def breaking(self) -> list[Diagnostic]:
        """Every template's breaking errors, in template order."""
        return [d for t in self.templates for d in t.breaking]

    @property
    def orphaned(self) -> list[Orphan]:
        """Every template's orphaned values."""
        return [o for t in self.templates for o in t.orphaned]

    @property
    def defaults(self) -> list[ValueChange]:
        """Every value that changes only through a type default."""
        return [v for t in self.templates for v in t.defaults]

    def fails(self, fail_on: Iterable[str]) -> bool:
        """``"breaking"`` in ``fail_on`` and something breaks or is orphaned."""
        return "breaking" in set(fail_on) and not all(t.ok for t in self.templates)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "old": list(self.old),
            "new": list(self.new),
            "retargeted": dict(self.retargeted),
            "templates": [t.to_dict() for t in self.templates],
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        """JSON text of :meth:`to_dict`."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False, default=str)

    def __str__(self) -> str:
        return render_text(self)

    def __repr__(self) -> str:
        return (
            f"<UpgradeImpact {len(self.templates)} templates: {len(self.breaking)} breaking, "
            f"{len(self.orphaned)} orphaned, {len(self.defaults)} default changes>"
        )

    def _repr_html_(self) -> str:
        return render_html(self)


def _diag(d: Diagnostic) -> dict[str, Any]:
    return {
        "code": d.code,
        "severity": d.severity,
        "message": d.message,
        "file": d.file,
        "line": d.line,
        "column": d.column,
    }


_NUMBER = re.compile(r"(\d+)")


def _version_key(profile: str) -> list[Any]:
    """Order versions with their numbers compared as numbers (2.10 after 2.9)."""
    version = profile.rpartition(":")[2]
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in _NUMBER.split(version) if p]


def retargets(old: Any, new: Any) -> dict[str, str]:
    """``{old profile: new profile}`` for each profile of ``old`` that ``new`` has
    under another version only (the newest of them)."""
    out: dict[str, str] = {}
    for entry in old.entries():
        if entry.builtin or new.lookup(entry.profile) is not None:
            continue
        versions = new.versions_of(entry.name)
        if versions:
            out[entry.profile] = max(versions, key=_version_key)
    return out


def upgrade_check(
    old: Any,
    new: Any,
    templates: Sequence[str | os.PathLike],
    *,
    inputs: Any = None,
) -> UpgradeImpact:
    """Load each of ``templates`` against the ``old`` and the ``new`` profile
    folders (a folder, a list of folders or a
    :class:`~toskit.tosca.load.catalog.ProfileCatalog`) and sort what differs.
    A catalog passed as ``new`` keeps the retargeting in its ``aliases``.

    ``ToskitError`` when a folder or a template cannot be read.
    """
    from toskit.tosca import load
    from toskit.tosca.load.catalog import as_catalog

    old_catalog = as_catalog(old)
    new_catalog = as_catalog(new)
    if old_catalog is None or new_catalog is None:
        raise ToskitError("upgrade_check needs the old and the new profile folders")
    if isinstance(templates, str | os.PathLike):
        templates = [templates]
    if not templates:
        raise ToskitError("upgrade_check needs at least one template")
    mapping = retargets(old_catalog, new_catalog)
    new_catalog.aliases.update(mapping)
    out = []
    for path in templates:
        before = load(path, profiles=old_catalog, inputs=inputs)
        after = load(path, profiles=new_catalog, inputs=inputs)
        out.append(_impact(os.fspath(path), compare(before, after)))
    return UpgradeImpact(
        tuple(old_catalog.folders), tuple(new_catalog.folders), tuple(out), mapping
    )


def _impact(name: str, diff: TemplateDiff) -> TemplateImpact:
    breaking: list[Diagnostic] = []
    orphaned: list[Orphan] = []
    for d in diff.introduced:
        if d.code in ORPHAN_CODES:
            renamed = next((f.replacement for f in d.fixes if f.replacement), None)
            orphaned.append(Orphan(d, renamed))
        elif d.severity == "error":
            breaking.append(d)
    # A template whose type is gone loses its defaults with it: that is the
    # removed type (breaking), not a default that changed.
    typeless = {
        d.subject.name for d in breaking if d.code == "unknown-type" and d.subject is not None
    }
    defaults = tuple(
        v
        for v in diff.values
        if v.template_untouched
        and v.entity not in typeless
        and any((src or "").startswith("default") for src in (v.old_source, v.new_source))
    )
    fixed = tuple(d for d in diff.fixed if d.severity == "error")
    return TemplateImpact(name, diff, tuple(breaking), tuple(orphaned), defaults, fixed)


# -- rendering --------------------------------------------------------------------------


def render_text(impact: UpgradeImpact) -> str:
    """The report as plain text (what ``toskit upgrade-check`` prints)."""
    lines = [f"upgrade impact: {', '.join(impact.old) or '-'} -> {', '.join(impact.new) or '-'}"]
    for old, new in sorted(impact.retargeted.items()):
        lines.append(f"  profile {old} read as {new}")
    for t in impact.templates:
        lines.append(f"{t.template}:")
        if not (t.breaking or t.orphaned or t.defaults):
            lines.append("  no impact")
        for d in t.breaking:
            lines.append(f"  breaking  {_where(d)}: [{d.code}] {d.message}")
        for o in t.orphaned:
            more = f" (renamed to '{o.renamed_to}'?)" if o.renamed_to else ""
            lines.append(f"  orphaned  {o.location}: {o.diagnostic.message}{more}")
        for v in t.defaults:
            lines.append(
                f"  default   {v.entity}.{v.path}: {_value(v.old)} "
                f"{_layer(v.old_source, v.old_location)}"
                f" -> {_value(v.new)} {_layer(v.new_source, v.new_location)}"
            )
    n_b, n_o, n_d = len(impact.breaking), len(impact.orphaned), len(impact.defaults)
    lines.append(f"{n_b} breaking, {n_o} orphaned, {n_d} default changes")
    return "\n".join(lines)


def _where(d: Diagnostic) -> str:
    return f"{d.file}:{d.line}:{d.column}" if d.line is not None else str(d.file)


def _layer(source: str | None, location: str | None) -> str:
    """``(default: Type, file:line:col)``; ``(unset)`` for a side without the value."""
    if source is None:
        return "(unset)"
    return f"({source}, {location})" if location else f"({source})"


def _value(value: Any) -> str:
    if value is None:
        return "-"
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 80 else text[:79] + "…"


def render_html(impact: UpgradeImpact) -> str:
    """A self-contained HTML fragment (every text escaped) for notebooks."""
    e = html.escape
    rows = []
    for t in impact.templates:
        for d in t.breaking:
            rows.append(("breaking", t.template, _where(d), f"[{d.code}] {d.message}"))
        for o in t.orphaned:
            more = f" (renamed to '{o.renamed_to}'?)" if o.renamed_to else ""
            rows.append(("orphaned", t.template, o.location, o.diagnostic.message + more))
        for v in t.defaults:
            rows.append(
                (
                    "default",
                    t.template,
                    f"{v.entity}.{v.path}",
                    f"{_value(v.old)} {_layer(v.old_source, v.old_location)} → "
                    f"{_value(v.new)} {_layer(v.new_source, v.new_location)}",
                )
            )
    body = (
        "".join(
            f'<tr class="toskit-upgrade-{e(kind)}"><td>{e(kind)}</td><td>{e(tpl)}</td>'
            f"<td><code>{e(where)}</code></td><td>{e(what)}</td></tr>"
            for kind, tpl, where, what in rows
        )
        or '<tr><td colspan="4">no impact</td></tr>'
    )
    retarget = "".join(
        f"<li>profile <code>{e(a)}</code> read as <code>{e(b)}</code></li>"
        for a, b in sorted(impact.retargeted.items())
    )
    return (
        '<div class="toskit toskit-upgrade">'
        "<style>.toskit-upgrade table{border-collapse:collapse}"
        ".toskit-upgrade td,.toskit-upgrade th{padding:2px 8px;text-align:left;"
        "border-bottom:1px solid var(--jp-border-color2,#ddd)}"
        ".toskit-upgrade-breaking td:first-child{color:var(--jp-error-color1,#c62828)}"
        ".toskit-upgrade-orphaned td:first-child{color:var(--jp-warn-color1,#ef6c00)}</style>"
        f"<p>Upgrade impact: {e(', '.join(impact.old))} → {e(', '.join(impact.new))}: "
        f"{len(impact.breaking)} breaking, {len(impact.orphaned)} orphaned, "
        f"{len(impact.defaults)} default changes</p>"
        + (f"<ul>{retarget}</ul>" if retarget else "")
        + "<table><thead><tr><th>kind</th><th>template</th><th>where</th><th>what</th></tr>"
        f"</thead><tbody>{body}</tbody></table></div>"
    )


# -- command line -----------------------------------------------------------------------

#: Bytes a ``git:REV:FOLDER`` library may unpack to, at most.
MAX_GIT_LIBRARY = 200_000_000


def library_side(spec: str, into: str) -> str:
    """The folder of one library side: ``spec`` itself, or for ``git:REV:FOLDER``
    that folder at revision REV unpacked under ``into`` (``git archive``, a local
    command; no link, device or path outside the folder is written).

    ``ToskitError`` for a bad revision or path.
    """
    import io
    import tarfile

    from toskit.compare.cli import GIT_PREFIX, _git, parse_git_spec

    if not spec.startswith(GIT_PREFIX):
        if not os.path.exists(spec):
            raise ToskitError(f"type library '{spec}' does not exist")
        return spec
    rev, path = parse_git_spec(spec)
    # Measured before anything is unpacked (or held in memory): the blobs' sizes.
    listed = _git(["ls-tree", "-r", "-l", f"{rev}:{path}"], spec).decode("utf-8", "replace")
    size = sum(
        int(fields[3])
        for line in listed.splitlines()
        if len(fields := line.split(None, 4)) == 5 and fields[3].isdigit()
    )
    if size > MAX_GIT_LIBRARY:
        raise ToskitError(f"{spec}: the folder holds more than {MAX_GIT_LIBRARY} bytes")
    data = _git(["archive", "--format=tar", f"{rev}:{path}"], spec)
    target = os.path.join(into, f"side-{len(os.listdir(into))}")
    os.makedirs(target)
    total = 0
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        members = []
        for member in tar.getmembers():
            if not (member.isfile() or member.isdir()):
                continue  # links and devices are not part of a type library
            total += member.size
            if total > MAX_GIT_LIBRARY:
                raise ToskitError(
                    f"{spec}: the folder unpacks to more than {MAX_GIT_LIBRARY} bytes"
                )
            members.append(member)
        tar.extractall(target, members=members, filter="data")
    return target


def add_upgrade_arguments(parser: Any) -> None:
    """The arguments of ``toskit upgrade-check``."""
    parser.add_argument(
        "old", metavar="OLD", help="the old type library: a folder or git:REV:FOLDER"
    )
    parser.add_argument(
        "new", metavar="NEW", help="the new type library: a folder or git:REV:FOLDER"
    )
    parser.add_argument("templates", metavar="TEMPLATE", nargs="+", help="templates to check")
    parser.add_argument("--format", choices=("text", "json", "html"), default="text")
    parser.add_argument(
        "--fail-on",
        choices=("breaking",),
        action="append",
        default=[],
        help="exit 1 when the new library breaks a template or orphans a value",
    )


def run_upgrade(
    old: str,
    new: str,
    templates: Sequence[str],
    fmt: str,
    fail_on: Sequence[str],
    out: Any,
    err: Any,
    command: str = "toskit upgrade-check",
) -> int:
    """Run the upgrade check and print its report; the exit status (0, 1, 2)."""
    import tempfile

    from toskit.records import replace
    from toskit.terminal import terminal_safe  # as toskit diff prints

    try:
        with tempfile.TemporaryDirectory(prefix="toskit-upgrade-") as tmp:
            old_dir = library_side(old, tmp)
            new_dir = library_side(new, tmp)
            impact = upgrade_check(old_dir, new_dir, list(templates))
            impact = replace(impact, old=(old,), new=(new,))
            if fmt == "json":
                text = impact.to_json() + "\n"
            elif fmt == "html":
                text = (
                    "<!DOCTYPE html><html><head><meta charset='utf-8'><title>toskit upgrade "
                    f"impact</title></head><body>{render_html(impact)}</body></html>\n"
                )
            else:
                text = render_text(impact) + "\n"
            # Temporary folders are named by the side as given.
            for side, folder in ((old, old_dir), (new, new_dir)):
                if folder != side:
                    text = text.replace(folder, side.rstrip("/"))
    except ToskitError as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"{command}: {terminal_safe(first)}", file=err)
        return 2
    if fmt == "text":  # control characters of template text shown, line by line
        text = "".join(terminal_safe(line) + "\n" for line in text.splitlines())
    out.write(text)
    if impact.fails(fail_on):
        n = len(impact.breaking) + len(impact.orphaned)
        print(f"{command}: the new library breaks {n} thing{'s' if n != 1 else ''}", file=err)
        return 1
    return 0


def _cmd_upgrade(args: Any, out: Any, err: Any) -> int:
    return run_upgrade(args.old, args.new, args.templates, args.format, args.fail_on, out, err)


def add_upgrade_parser(commands: Any) -> Any:
    """Add ``toskit upgrade-check`` to ``commands`` (an argparse subparsers action)."""
    parser = commands.add_parser(
        "upgrade-check",
        help=UPGRADE_HELP,
        description="Load each template against the old and the new type library (profile "
        "folders, or git:REV:FOLDER) and report the errors the new one introduces, the values "
        "it orphans and the values that change only through a type default "
        "(docs/profiles.md). Exit status: 0; 1 with --fail-on breaking when something breaks; "
        "2 could not run.",
    )
    add_upgrade_arguments(parser)
    parser.set_defaults(run=_cmd_upgrade)
    return parser


#: What ``toskit --help`` says of ``upgrade-check``.
UPGRADE_HELP = "what a new version of a type library does to templates (errors, orphans, defaults)"
