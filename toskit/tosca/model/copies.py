"""TOSCA 2.0 ``copy: other`` between templates of one section, resolved once.

A template written with ``copy: other`` takes the other's keynames under its
own (its own win). The other may itself be a copy, so copies form chains;
:func:`resolve_copies` merges every template of a section in one pass,
each template once (a chain of 3,000 copies is linear, not cubic), and
reports what cannot be resolved:

* ``invalid-copy``: ``copy`` names no template of the section (or is not a
  name), reported on the template that wrote it;
* ``copy-cycle``: the copies loop (``a`` copies ``b``, ``b`` copies ``a``),
  reported on each template of the loop, naming the loop's templates.

A template whose chain ends in such a problem keeps what the chain gave up
to there (its own keynames first).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from toskit.plain import describe
from toskit.tosca.load.context import Reporting

__all__ = ["MAX_NAMED", "resolve_copies"]

MAX_NAMED = 8  # templates of a copy loop named in its message (then "and N more")


def resolve_copies(
    ctx: Reporting,
    items: list[tuple[str, Any, tuple[Hashable, ...]]],
    label: str,
) -> dict[str, Mapping]:
    """The merged raw form of every template of ``items`` written with ``copy``.

    ``items`` are a section's templates as ``(name, raw, parts)``; ``label``
    names their kind in messages (``node template``). Templates without
    ``copy`` are not in the result (they are used as written).
    """
    by_name: dict[str, Any] = {}
    parts_of: dict[str, tuple[Hashable, ...]] = {}
    for name, raw, parts in items:
        by_name[name] = raw
        parts_of[name] = parts
    done: dict[str, Mapping] = {}
    names: list[str] | None = None
    for name, raw, _ in items:
        if name in done or not isinstance(raw, Mapping) or "copy" not in raw:
            continue
        # Walk the links to a template that is merged already, has no copy,
        # or cannot be followed; then merge the walked path back to front.
        path = [name]
        position = {name: 0}
        base: Mapping = {}
        while True:
            source = by_name[path[-1]]
            other = source.get("copy")
            if not isinstance(other, str) or other not in by_name:
                if names is None:
                    names = list(by_name)  # once: a section of many bad copies stays linear
                _report_missing(ctx, names, path[-1], other, parts_of[path[-1]], label)
                break
            if other in position:
                _report_cycle(ctx, path[position[other] :], parts_of, label)
                break
            if other in done:
                base = done[other]
                break
            target = by_name[other]
            if not isinstance(target, Mapping):
                break  # reported by the keyname check
            if "copy" not in target:
                base = target
                break
            position[other] = len(path)
            path.append(other)
        for each in reversed(path):
            merged = dict(base)
            merged.update(by_name[each])
            merged.pop("copy", None)
            done[each] = base = merged
    return done


def _report_missing(
    ctx: Reporting,
    names: list[str],
    name: str,
    other: Any,
    parts: tuple[Hashable, ...],
    label: str,
) -> None:
    if not isinstance(other, str):
        # ``copy:`` empty, ``copy: true``...: not a name at all (no did-you-mean)
        ctx.diags.append(
            ctx.doc.diagnostic(
                "error",
                "invalid-copy",
                f"{label} '{name}': copy must name a {label} of this section, "
                f"got {describe(other)}",
                (*parts, "copy"),
            )
        )
        return
    ctx.diags.append(
        ctx.doc.diagnostic(
            "error",
            "invalid-copy",
            f"{label} '{name}': copy names '{other}', which does not exist",
            (*parts, "copy"),
            misspelt=str(other),
            candidates=names,
        )
    )


def _report_cycle(
    ctx: Reporting,
    loop: list[str],
    parts_of: Mapping[str, tuple[Hashable, ...]],
    label: str,
) -> None:
    size = len(loop)
    for at, name in enumerate(loop):
        # Each message starts the loop at its own template.
        shown = [f"'{loop[(at + k) % size]}'" for k in range(min(size, MAX_NAMED))]
        if size > MAX_NAMED:
            shown.append(f"… ({size - MAX_NAMED} more)")
        cycle = " -> ".join([*shown, f"'{name}'"])
        ctx.diags.append(
            ctx.doc.diagnostic(
                "error",
                "copy-cycle",
                f"{label} '{name}': copy loops: {cycle}",
                (*parts_of[name], "copy"),
                hint="a template may copy another only if that one does not copy it back",
                # The other side (issue #28): the copy it names, which goes on round the loop.
                related=(
                    ctx.doc.related(
                        f"'{loop[(at + 1) % size]}' copies on",
                        (*parts_of[loop[(at + 1) % size]], "copy"),
                    ),
                ),
            )
        )
