"""Structural checks of rendered HTML, shared by the display tests."""

from __future__ import annotations

from html.parser import HTMLParser

from toskit.display.html import SECTION_LINK_ONCLICK, css, esc
from toskit.display.links import FILE_LINK_ONCLICK

# Every tag a toskit view may emit.
ALLOWED_TAGS = frozenset(
    {
        "a",
        "b",
        "body",
        "br",
        "details",
        "div",
        "head",
        "html",
        "li",
        "main",
        "meta",
        "ol",
        "pre",
        "span",
        "style",
        "summary",
        "table",
        "tbody",
        "td",
        "th",
        "thead",
        "title",
        "tr",
        "ul",
        # A line-break opportunity between the names of a long path in a
        # trace (conditions_views._breakable); JupyterLab's sanitizer keeps it.
        "wbr",
    }
)
ALLOWED_ATTRIBUTES = frozenset(
    {
        "class",
        "style",
        "title",
        "open",
        "charset",
        "name",
        "content",
        "lang",
        "colspan",
        "href",
        "id",
        "role",
        "tabindex",
        "data-toskit-type",
    }
)
# The topology view's inline SVG (toskit.display.topology_svg): drawing tags and
# their geometry and data attributes; still no script and no event attribute.
ALLOWED_TAGS |= {"svg", "g", "rect", "path", "text", "defs", "marker", "circle"}
# A stored snapshot's picture of a drawing (toskit.widgets.snapshot.unhidden_view):
# an <img> of a data:image/svg+xml file, checked below; an SVG in an image runs nothing.
ALLOWED_TAGS |= {"img"}
ALLOWED_ATTRIBUTES |= {"src", "alt"}
ALLOWED_ATTRIBUTES |= {
    "role", "width", "height", "viewbox", "transform", "x", "y", "rx", "d", "marker-end",
    "text-anchor", "id", "refx", "refy", "markerwidth", "markerheight", "orient", "cx", "cy",
    "r", "tabindex", "data-node", "data-source", "data-target", "data-requirement",
}  # fmt: skip

HOSTILE = (
    "<script>alert(1)</script>",
    "</style><img src=x onerror=alert(2)>",
    '"onmouseover="alert(3)',
    "'><svg onload=alert(4)>",
)
PAYLOAD = "".join(HOSTILE)


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str, str | None]] = []
        self.styles: list[str] = []
        self._in_style = False
        self._in_fallback = False
        self.text: list[str] = []  # visible text of the HTML view
        self.fallback: list[str] = []  # text of the plain-text fallback

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes.extend((tag, k, v) for k, v in attrs)
        self._in_style = tag == "style"
        if tag == "pre" and ("class", "toskit-text-fallback") in attrs:
            self._in_fallback = True

    def handle_endtag(self, tag):
        if tag == "style":
            self._in_style = False
        if tag == "pre":
            self._in_fallback = False

    def handle_data(self, data):
        if self._in_style:
            self.styles.append(data)
        elif self._in_fallback:
            self.fallback.append(data)
        else:
            self.text.append(data)


def parse(html: str) -> _Collector:
    collector = _Collector()
    collector.feed(html)
    collector.close()
    return collector


def assert_safe(html: str, *, styles: int = 1) -> _Collector:
    """No script, no event attribute but the in-page links' constant one,
    no ``javascript:`` link, only known tags, our stylesheet only."""
    assert "<script" not in html.lower()
    doc = parse(html)
    unknown = sorted(set(doc.tags) - ALLOWED_TAGS)
    assert not unknown, f"unexpected tags {unknown}"
    bad = [(t, k, v) for t, k, v in doc.attributes if k not in ALLOWED_ATTRIBUTES]
    # The one event attribute: the constant handler of a link into the same
    # view (html.section_link), on an in-page link only, never user text.
    bad = [
        (t, k, v)
        for t, k, v in bad
        if not (t == "a" and k == "onclick" and v in (SECTION_LINK_ONCLICK, FILE_LINK_ONCLICK))
    ]
    assert not bad, f"unexpected attributes {bad}"
    for _tag, k, v in doc.attributes:
        if k == "href":  # an in-page anchor or a relative file link, never a scheme
            assert v is not None and not v.lower().lstrip().startswith(("javascript:", "data:"))
        if k == "src":  # only a stored drawing's own SVG file
            assert v is not None and v.startswith("data:image/svg+xml;base64,")

    inline = [v for t, k, v in doc.attributes if k == "style"]
    assert all(v == "display:none" for v in inline), inline
    assert len(doc.styles) == styles
    for block in doc.styles:
        assert block == css()
    return doc


def assert_payload_is_text(html: str) -> None:
    """Each hostile string shows up as text, never as markup."""
    doc = assert_safe(html)
    text = "".join(doc.text)
    for piece in HOSTILE:
        assert piece in text, f"{piece!r} not rendered as text"


def body(html: str) -> str:
    """The HTML view of a fragment, without its stylesheet and text fallback."""
    marker = '<div class="toskit-wrap'
    assert marker in html
    return html[html.index(marker) :]


def plain_links(html: str) -> str:
    """``html`` without the in-page links' constant handler (what a sanitizer
    that strips event attributes leaves), so a test can spell a link out."""
    for handler in (SECTION_LINK_ONCLICK, FILE_LINK_ONCLICK):
        html = html.replace(f' onclick="{esc(handler)}"', "")
    return html
