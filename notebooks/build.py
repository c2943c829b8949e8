"""Build the tutorial notebooks from their plain-text sources and execute them.

Each tutorial is written as ``notebooks/src/NN-name.py`` in the "percent"
format (the one Jupytext, VS Code and Spyder read)::

    # %% [markdown]
    # # A heading
    # Prose, one ``# `` comment per line.

    # %%
    # NBVAL_CHECK_OUTPUT
    st = toskit.loads(TEXT)
    st.node_templates["db"].properties

A code cell's leading ``# NBVAL_...`` marker lines are test markers, not
code a learner should read: they become the cell's nbval tag
(``metadata.tags``: ``nbval-check-output``, the form nbval reads besides
the comment) and are left out of the cell's source.

Plain text reviews and merges well; the ``.ipynb`` beside it is generated,
executed and stored WITH its outputs, so it reads well on GitHub and
nbviewer and so ``pytest --nbval-lax`` has outputs to compare.

Usage (``make notebooks`` runs the first form)::

    python notebooks/build.py             # every src/*.py
    python notebooks/build.py 03-schema   # one tutorial (name without .py)
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from toskit.widgets.snapshot import unhidden_view

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "src"
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}


def parse_percent(text: str) -> list[nbformat.NotebookNode]:
    """Split percent-format text into notebook cells (markdown and code)."""
    cells: list[nbformat.NotebookNode] = []
    kind: str | None = None
    lines: list[str] = []

    def flush() -> None:
        if kind is None:
            return
        body = "\n".join(lines).strip("\n")
        if kind == "markdown":
            body = "\n".join(_uncomment(line) for line in body.splitlines())
            cells.append(nbformat.v4.new_markdown_cell(body))
        elif body:
            tags, body = _markers(body)
            if body:
                cell = nbformat.v4.new_code_cell(body)
                if tags:
                    cell.metadata["tags"] = tags
                cells.append(cell)

    for line in text.splitlines():
        if line.startswith("# %%"):
            flush()
            kind = "markdown" if "[markdown]" in line else "code"
            lines = []
        else:
            lines.append(line)
    flush()
    return cells


# The comment markers nbval reads, and the cell tag that means the same
# (nbval's ``metadata_tags``: the tag form is kept in the cell's metadata,
# out of the learner's sight).
MARKER_TAGS = {
    "NBVAL_CHECK_OUTPUT": "nbval-check-output",
    "NBVAL_IGNORE_OUTPUT": "nbval-ignore-output",
    "NBVAL_SKIP": "nbval-skip",
    "NBVAL_RAISES_EXCEPTION": "raises-exception",
}


def _markers(body: str) -> tuple[list[str], str]:
    """The nbval tags of a code cell's leading ``# NBVAL_*`` lines, and the
    source without them."""
    lines = body.splitlines()
    tags: list[str] = []
    while (
        lines
        and lines[0].strip().removeprefix("#").strip() in MARKER_TAGS
        and lines[0].lstrip().startswith("#")
    ):
        tags.append(MARKER_TAGS[lines.pop(0).strip().removeprefix("#").strip()])
    return tags, "\n".join(lines).strip("\n")


def _uncomment(line: str) -> str:
    if line.startswith("# "):
        return line[2:]
    return "" if line.strip() == "#" else line


def build(source: Path) -> Path:
    """Write and execute the notebook for one source file; return its path."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.cells = parse_percent(source.read_text(encoding="utf-8"))
    # Stable cell ids keep diffs of re-executed notebooks small.
    for index, cell in enumerate(nb.cells):
        cell["id"] = f"{source.stem[:2]}-{index:03d}"
    client = NotebookClient(
        nb,
        timeout=300,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(HERE)}},
    )
    client.execute()
    store_snapshots(nb)
    target = HERE / f"{source.stem}.ipynb"
    nbformat.write(nb, target)
    return target


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def store_snapshots(nb: nbformat.NotebookNode) -> None:
    """Keep a widget's static snapshot, not its live view, in the stored file.

    toskit's widgets display a ``text/html`` snapshot beside the widget view
    (``toskit.widgets.snapshot``). A stored notebook has no kernel behind
    its widgets, so a view reference is a dead end (GitHub shows nothing,
    JupyterLab "model not found"): where an output has a snapshot, the
    reference and the saved widget state are dropped and every viewer
    shows the snapshot. Running the notebook brings the live widgets back.

    A tutorial is opened untrusted until it is run (JupyterLab trusts only
    notebooks the user signed), and JupyterLab's sanitizer then drops every
    ``<style>``: each toskit output is stored in the form that reads without
    its stylesheet (``unhidden_view``: the view shown, the plain-text repr
    hidden inline), so the rich view, not ``<ServiceTemplate …>``, shows before
    Run All. ``nbval.cfg`` maps both forms to one for the comparison.
    """
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET_VIEW in data and "text/html" in data:
                del data[WIDGET_VIEW]
            html = data.get("text/html")
            if isinstance(html, list):
                html = "".join(html)
            if isinstance(html, str) and "toskit-text-fallback" in html:
                data["text/html"] = unhidden_view(html)
    nb.metadata.pop("widgets", None)


def main(argv: list[str]) -> int:
    names = argv or sorted(p.stem for p in SOURCES.glob("*.py"))
    for name in names:
        source = SOURCES / f"{name.removesuffix('.py')}.py"
        if not source.exists():
            print(f"no such tutorial source: {source}", file=sys.stderr)
            return 2
        print(f"built {build(source).relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
