"""Whether an HTML element's text is shown: its look, worked out from its parent's and its own CSS (``css``).

The walk over the tree (``html_text``) asks for each element's look as it goes down, so the
whole is one pass. Most elements of a mail repeat a few sets of attributes, so a look is
remembered by its parent's look and the attributes that decide it (a bounded memo), and an
element with no attribute that no rule can name has its parent's look at once.

A look carries what its children inherit or build on: the font size in pixels, how much transforms
have shrunk the text so far, the colour and the background behind it (and the inset shadows over that),
the line height and whether a box around cuts off what overflows it, and the CSS variables. An element
whose styles cannot be worked out for certain within the bounds raises ``Unresolved`` (``variables``), as
does a page that lets the client draw it in a dark colour scheme (whose colours, its own and the system's,
then cannot be known).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from lxml import etree

from app.inbound import backdrops, lines, shapes
from app.inbound.colours import (
    CURRENT,
    FAINT,
    INK,
    KEEP,
    KEYWORDS,
    LINK,
    LINK_COLOURS,
    PAPER,
    VISITED,
    Colour,
    colour,
    indistinct,
    unseen_on,
)
from app.inbound.css import (
    MEDIUM,
    OFF_PAGE,
    TINY_FONT,
    StyleSheet,
    computed_by_browser,
    declarations,
    font_size,
    hides_subtree,
    length,
)
from app.inbound.lines import CLIPPING, LineHeight, line_height
from app.inbound.variables import Unresolved, Variables, declared, used

# content a mail client does not draw: the fallback of what it cannot play or draw, a gauge's, a ruby's
# parentheses, SVG (which mail clients mostly do not show, and whose text many attributes hide)
NEVER_SHOWN = frozenset({"template", "iframe", "object", "embed", "noembed", "noframes", "datalist", "desc",
                         "frameset", "rp", "video", "audio", "canvas", "meter", "progress", "svg"})
OWN_RULES = NEVER_SHOWN | {"details", "dialog", "summary"}  # tags whose look their name decides in part
DECIDING = ("class", "id", "style", "color", "bgcolor", "text")  # attributes a look depends on (with hidden, open
# and href)
MEMO_LIMIT = 4096
PAINTING = frozenset({"color", "-webkit-text-fill-color", "background", "background-color", "background-image",
                      "box-shadow"})
SHADES = 8  # partial inset shadows remembered under an element


@dataclass(frozen=True)
class Look:
    """How an element's own text is shown."""

    font: float = MEDIUM  # the font size, in pixels
    shrink: float = 1.0  # how much the transforms around have shrunk the text (0.5: half its size)
    opacity: float = 1.0  # how opaque it and the elements around leave it (each multiplies)
    color: Colour | str | bool = INK  # LINK: a link's, the client's choice; False: not known
    backdrop: Colour | str | bool = PAPER  # the nearest background declared around it; False: not known
    shades: tuple[Colour | str, ...] = ()  # inset shadows over the backdrop that may or may not reach the text
    line: LineHeight = None  # the line height it inherits (None: normal)
    clipped: bool = False  # it or a box around it hides what overflows it
    folded: bool = False  # in a closed <details>, outside its summary
    closes: bool = False  # a closed <details>: its summary shows
    variables: Variables = ()  # the CSS variables in force, without var() left in their values
    doubt: str = ""  # why whether its text shows cannot be worked out (text there leaves the part unread)

    @property
    def shows_text(self) -> bool:
        return not (self.font * self.shrink < TINY_FONT or self.folded or unseen_on(self.color, self.backdrop)
                    or (self.clipped and line_height(self.line, self.font) < TINY_FONT))


class Looks:
    """The looks of one document's elements: its style sheets read once, looks remembered."""

    def __init__(self, root: etree._Element) -> None:
        if any(dark(meta.get("content")) for meta in root.iter("meta")
               if (meta.get("name") or "").lower() in ("color-scheme", "supported-color-schemes")):
            raise Unresolved("a dark colour scheme")
        body = root.find(".//body")
        self.links = link_colours(body if body is not None else root)
        self.sheet = StyleSheet([style.text or "" for style in root.iter("style")])
        self.memo: dict[tuple[object, ...], Look | None] = {}

    def of(self, element: etree._Element, tag: str, parent: Look) -> Look | None:
        """The element's look, or None when nothing in it is shown."""
        attributes = element.attrib
        if not attributes and not parent.closes and tag not in OWN_RULES and not self.sheet.names_tag(tag):
            return parent
        key = (parent, tag, "hidden" in attributes, "open" in attributes, "href" in attributes,
               *(attributes.get(name) for name in DECIDING))
        if key not in self.memo:
            if len(self.memo) >= MEMO_LIMIT:
                self.memo.clear()
            self.memo[key] = self._work_out(element, tag, parent)
        return self.memo[key]

    def _work_out(self, element: etree._Element, tag: str, parent: Look) -> Look | None:
        if element.get("hidden") is not None or tag in NEVER_SHOWN or \
                (tag == "dialog" and element.get("open") is None):
            return None
        classes = set((element.get("class") or "").lower().split())
        from_sheet = self.sheet.declarations_for(tag, classes, (element.get("id") or "").lower())
        if from_sheet is None:
            return None
        inline = element.get("style")
        found = [*from_sheet, *(declarations(inline) if inline else ())]
        look = parent if not parent.closes else replace(parent, closes=False, folded=tag != "summary")
        if tag == "details" and element.get("open") is None and not look.folded:
            look = replace(look, folded=True, closes=True)
        if tag == "a" and element.get("href") is not None:
            look = replace(look, color=LINK)  # not its parent's colour: the client's for links
        attributes = [(name, legacy(element.get(attribute) or ""), False)
                      for name, attribute in (("color", "color"), ("background", "bgcolor"), ("color", "text"))
                      if element.get(attribute) and (attribute != "text" or tag == "body")]
        if not found and not attributes:
            return self.checked(look)
        variables = declared(look.variables, [(name, value) for name, value, important in
                                              sorted(found, key=lambda each: each[2]) if name.startswith("--")])
        found = [(name, used(value, variables), important) for name, value, important in found
                 if not name.startswith("--")]
        if hides_subtree(found):
            return None
        computed_by_browser(found)
        if any(dark(value) for name, value, _ in found if name == "color-scheme"):
            raise Unresolved("a dark colour scheme")
        font = font_size(found, look.font)
        shrink = look.shrink * shrunk(found, font)
        opacity = look.opacity * opaque(found)
        if shrink == 0 or opacity < FAINT or moved(found, font) >= OFF_PAGE or clipped(found, font) or \
                shapes.boxed_out(found, font):
            return None
        if any(name == "mix-blend-mode" and value not in ("normal", *KEYWORDS) for name, value, _ in found):
            raise Unresolved("a blend mode the referee cannot work out")
        line = lines.declared(found, look.line, font)
        clips = look.clipped or any(name.startswith("overflow") and CLIPPING & set(value.split())
                                    for name, value, _ in found)
        if clips and lines.flat(found, font):
            return None  # a box of no height whose overflow, or whose container's, is hidden
        found = sorted([*attributes, *found], key=lambda each: each[2])  # attributes below any CSS; stable
        look = replace(look, font=font, shrink=shrink, opacity=opacity, line=line, clipped=clips,
                       variables=variables)
        if any(name in PAINTING for name, _value, _important in found):
            look = painted(look, found, parent.color)
        return self.checked(look)

    def checked(self, look: Look) -> Look:
        """The look, its text made unseen where it is a link's colour that none of the client's shows on what is
        behind, and in doubt where whether it shows depends on what is not known: which colour the client gives
        links, how far an inset shadow reaches, which part of a gradient is behind it."""
        look = replace(look, doubt="") if look.doubt else look
        if look.color == LINK == look.backdrop:
            return look  # text on its own colour: unseen
        if LINK in (look.color, look.backdrop) and look.color is not False and look.backdrop not in (False, None):
            verdict = indistinct(look.color, look.backdrop, self.links)
            if verdict is None:
                return replace(look, doubt="a link on a background of a colour links may have")
            if verdict:
                return replace(look, color=None)
        if look.color is not False and not unseen_on(look.color, look.backdrop) and \
                any(indistinct(look.color, shade, self.links) is not False for shade in look.shades):
            return replace(look, doubt="text the colour of a shadow or gradient that may be behind it")
        return look


def painted(look: Look, found: list[tuple[str, str, bool]], inherited: Colour | str | bool) -> Look:
    """The look with the colours these declarations (the !important ones last) give its text and what is behind
    (``inherited``: the parent's text colour, which a link's ``color: inherit`` takes)."""
    color = look.color
    for name, value, _important in found:
        if name in ("color", "-webkit-text-fill-color"):
            paint = colour(value)
            if value in ("inherit", "unset", "initial"):
                color = INK if value == "initial" else inherited
            elif paint not in (KEEP, CURRENT):
                color = paint
    backdrop, shades = look.backdrop, look.shades
    for name, value, _important in found:
        if name in ("background", "background-color", "background-image"):
            paint, under = backdrops.background(value)
            if paint != KEEP or under:
                backdrop = color if paint == CURRENT else paint
                shades = tuple(color if each == CURRENT else each for each in under)
    for name, value, _important in found:
        if name == "box-shadow":
            for paint, reach in backdrops.inset_shadows(value, look.font):
                paint = color if paint == CURRENT else paint
                if paint is None:
                    continue
                if reach >= backdrops.COVERS:
                    backdrop, shades = paint, ()
                else:
                    shades = (*shades, paint)[-SHADES:]
    return replace(look, color=color, backdrop=backdrop, shades=shades)


def link_colours(body: etree._Element) -> tuple[Colour, ...]:
    """The colours the client may give a link whose mail sets none: the body's ``link`` and ``vlink``, or the
    usual ones."""
    unvisited, visited = [each for each in LINK_COLOURS if each != VISITED], [VISITED]
    for name, chosen in (("link", unvisited), ("vlink", visited)):
        found = colour(legacy(body.get(name) or "")) if body.get(name) else KEEP
        if found not in (KEEP, CURRENT):
            chosen[:] = [found]
    return (*unvisited, *visited)


def legacy(value: str) -> str:
    """An HTML colour attribute as CSS: the hex digits old mail writes without ``#`` (``color="ffffff"``) with it."""
    value = value.strip().lower()
    return f"#{value}" if len(value) in (3, 6) and all(char in "0123456789abcdef" for char in value) else value


def dark(value: str | None) -> bool:
    """Whether a ``color-scheme`` lets the client draw the page dark (its colours then cannot be worked out)."""
    return "dark" in (value or "").lower()


def shrunk(found: list[tuple[str, str, bool]], font: float) -> float:
    """How much the element's ``transform``, ``scale`` and ``zoom`` shrink it (the most any one declares)."""
    shrink = 1.0
    for name, value, _ in found:
        if name == "transform":
            shrink = min(shrink, shapes.transform(value, font)[0])
        elif name in ("scale", "zoom"):
            shrink = min(shrink, shapes.scale(value) if name == "scale" else shapes.zoom(value))
        elif name == "filter" and shapes.opacity_filter(value) < 0.1:
            shrink = 0.0
    return shrink


def opaque(found: list[tuple[str, str, bool]]) -> float:
    """How opaque the element's ``opacity`` and ``filter: opacity()`` leave it (each multiplies)."""
    opaque = 1.0
    for name, value, _ in found:
        if name == "opacity" and value not in KEYWORDS:
            number = length(value.rstrip("%"))
            if number is None or number[1]:
                raise Unresolved("an opacity value the referee cannot work out")
            opaque *= min(max(number[0] / (100 if value.endswith("%") else 1), 0.0), 1.0)
        elif name == "filter":
            opaque *= min(max(shapes.opacity_filter(value), 0.0), 1.0)
    return opaque


def moved(found: list[tuple[str, str, bool]], font: float) -> float:
    """How far the element's ``transform`` or ``translate`` moves it, in pixels (the most any one declares)."""
    return max([0.0, *(shapes.transform(value, font)[1] for name, value, _ in found if name == "transform"),
                *(shapes.translate(value, font) for name, value, _ in found if name == "translate")])


def clipped(found: list[tuple[str, str, bool]], font: float) -> bool:
    return any(shapes.clipped(name, value, font, TINY_FONT) for name, value, _ in found
               if name in ("clip", "clip-path"))


__all__ = ["Look", "Looks", "Unresolved"]
