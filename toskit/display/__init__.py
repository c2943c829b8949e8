"""HTML views and widgets (PROVISIONAL STUB, replaced by the views issue).

Core result objects get their notebook view through one seam::

    def _repr_html_(self) -> str:
        from toskit.display import to_html
        return to_html(self)

``to_html`` dispatches on the object's type; nothing below ``toskit.display``
imports it at module level.
"""

from __future__ import annotations

import html
from typing import Any

__all__ = ["to_html"]


def to_html(obj: Any) -> str:
    """A self-contained HTML fragment for ``obj`` (fallback: its escaped repr)."""
    return f'<pre class="toskit-fallback">{html.escape(repr(obj), quote=True)}</pre>'
