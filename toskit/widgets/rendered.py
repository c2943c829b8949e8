"""``RenderedHTML``: a widget's HTML view shown as a rendered notebook output.

The explorers used to show their views in an ``ipywidgets.HTML``, whose
front-end view sets the HTML as the ``innerHTML`` of a ``<div>``: nothing of
JupyterLab touches it, so a ``file:line`` link there (``href="shop.yaml
#line=11"``, :mod:`toskit.display.links`) led nowhere — JupyterLab opens a
file from a link only in a *rendered output*, where its HTML renderer hands
every relative link to the notebook's link handler.

An ``ipywidgets.Output`` is such an output. Read in the widget manager for
JupyterLab (``@jupyter-widgets/jupyterlab-manager`` 5.x, the
``OutputView`` of its ``output`` module, as shipped with ipywidgets 8):

* its view is a JupyterLab ``OutputArea`` built with
  ``this.model.widget_manager.rendermime``, and the notebook's widget
  manager is made with the notebook panel's own ``content.rendermime``: the
  registry JupyterLab clones for each document with the document's URL
  resolver, and whose ``linkHandler`` (set by the ``rendermime`` plugin)
  opens a local file in the document manager (``rendermime:handle-local-link``,
  the file editor reading ``#line=N``). A relative ``href`` is resolved
  against the notebook's folder, as in the notebook's own outputs;
* its model keeps its outputs in ``new OutputAreaModel({trusted: true})``:
  the HTML is not sanitized, so the view's ``<style>``, its inline handlers
  (:data:`~toskit.display.html.SECTION_LINK_ONCLICK`,
  :data:`~toskit.display.links.FILE_LINK_ONCLICK`), ``data-*`` attributes
  and ``tabindex`` stay as written.

So a :class:`RenderedHTML` is an ``Output`` that holds exactly one
``display_data`` output with the ``text/html`` of :attr:`RenderedHTML.value`
(set through the ``outputs`` trait: no capture, no kernel message, the
same in tests as in a notebook). Clicks still bubble out of it to the
widgets around it (a ``TypeTree`` follows the type links of the explorer
beside it that way). Outside JupyterLab (Voila) the same output area is
used; with no link handler there, the browser follows the link.
"""

from __future__ import annotations

from typing import Any

import ipywidgets
import traitlets

__all__ = ["RenderedHTML"]


# The output area's own spacing, which the view did not have in an
# ``ipywidgets.HTML`` (JupyterLab's rendered-HTML rules: 20 px padding on the
# right, half a line under the last element), taken off so the widget looks
# as before. Scoped to this widget's class; a constant (no user text).
_SPACING = (
    "<style>.toskit-rendered-html .jp-OutputArea-output{padding:0}"
    ".toskit-rendered-html .jp-OutputArea-output>:last-child{margin-bottom:0}</style>"
)


class RenderedHTML(ipywidgets.Output):
    """An ``ipywidgets.Output`` that shows :attr:`value` (HTML) as one
    rendered ``text/html`` output, where JupyterLab opens the file of a
    relative link (see the module docstring)."""

    #: The HTML shown; ``""`` shows nothing (no output at all). Kept on the
    #: Python side only: the front end gets it through ``outputs``.
    value = traitlets.Unicode("")

    def __init__(self, value: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("toskit-rendered-html")
        self.value = value  # "" is the default: no output, as ``outputs`` starts

    @traitlets.observe("value")
    def _on_value(self, change: dict[str, Any]) -> None:
        self._show(change["new"])

    def _show(self, html: str) -> None:
        self.outputs = (
            (
                {
                    "output_type": "display_data",
                    "data": {"text/html": _SPACING + html},
                    "metadata": {},
                },
            )
            if html
            else ()
        )
