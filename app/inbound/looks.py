"""Whether an HTML element's text is shown: its look, worked out from its parent's and its own CSS (``css``).

The walk over the tree (``html_text``) asks for each element's look as it goes down, so the
whole is one pass. Most elements of a mail repeat a few sets of attributes, so a look is
remembered by its parent's look and the attributes that decide it (a bounded memo), and an
element with no attribute that no rule can name has its parent's look at once.

A look carries what its children inherit or build on: the font size in pixels, how much transforms
have shrunk the text so far, the colour and the background behind it, and the CSS variables. An
element whose styles cannot be worked out within the bounds raises ``Unresolved`` (``variables``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from lxml import etree

from app.inbound import shapes
from app.inbound.css import (
    MEDIUM,
    OFF_PAGE,
    PAPER,
    TINY_FONT,
    Colour,
    StyleSheet,
    colour,
    declarations,
    font_size,
    hides_subtree,
    unseen_on,
)
from app.inbound.variables import Unresolved, Variables, declared, used

NEVER_SHOWN = frozenset({"template", "iframe", "object", "embed", "noembed", "noframes", "datalist", "desc",
                         "frameset"})
OWN_RULES = NEVER_SHOWN | {"details", "dialog", "summary"}  # tags whose look their name decides in part
DECIDING = ("class", "id", "style", "color", "bgcolor")  # attributes a look depends on (with hidden and open)
MEMO_LIMIT = 4096


@dataclass(frozen=True)
class Look:
    """How an element's own text is shown."""

    font: float = MEDIUM  # the font size, in pixels
    shrink: float = 1.0  # how much the transforms around have shrunk the text (0.5: half its size)
    color: Colour | bool = (0, 0, 0)  # False: not known
    backdrop: Colour | bool = PAPER  # the nearest background declared around it; False: not known
    folded: bool = False  # in a closed <details>, outside its summary
    closes: bool = False  # a closed <details>: its summary shows
    variables: Variables = ()  # the CSS variables in force, without var() left in their values

    @property
    def shows_text(self) -> bool:
        return not (self.font * self.shrink < TINY_FONT or self.folded or unseen_on(self.color, self.backdrop))


class Looks:
    """The looks of one document's elements: its style sheets read once, looks remembered."""

    def __init__(self, root: etree._Element) -> None:
        self.sheet = StyleSheet([style.text or "" for style in root.iter("style")])
        self.memo: dict[tuple[object, ...], Look | None] = {}

    def of(self, element: etree._Element, tag: str, parent: Look) -> Look | None:
        """The element's look, or None when nothing in it is shown."""
        attributes = element.attrib
        if not attributes and not parent.closes and tag not in OWN_RULES and not self.sheet.names_tag(tag):
            return parent
        key = (parent, tag, "hidden" in attributes, "open" in attributes,
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
        attributes = [(name, (element.get(attribute) or "").lower(), False)
                      for name, attribute in (("color", "color"), ("background", "bgcolor")) if element.get(attribute)]
        if not found and not attributes:
            return look
        variables = declared(look.variables, [(name, value) for name, value, important in
                                              sorted(found, key=lambda each: each[2]) if name.startswith("--")])
        found = [(name, used(value, variables), important) for name, value, important in found
                 if not name.startswith("--")]
        if hides_subtree(found):
            return None
        font = font_size(found, look.font)
        shrink = look.shrink * shrunk(found, font)
        if shrink == 0 or moved(found, font) >= OFF_PAGE or clipped(found, font) or shapes.boxed_out(found, font):
            return None
        found = [*attributes, *found]  # HTML's presentational attributes count below any CSS
        color, backdrop = look.color, look.backdrop
        for name, value, _important in sorted(found, key=lambda each: each[2]):  # stable: !important ones last
            if name in ("color", "-webkit-text-fill-color") and colour(value) is not False:
                color = colour(value)
            elif name in ("background", "background-color"):
                named = [each for each in map(colour, value.split()) if each not in (False, None)]  # not transparent
                backdrop = False if "url(" in value else named[0] if named else backdrop
            elif name == "background-image" and "url(" in value:
                backdrop = False
        return replace(look, font=font, shrink=shrink, color=color, backdrop=backdrop, variables=variables)


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


def moved(found: list[tuple[str, str, bool]], font: float) -> float:
    """How far the element's ``transform`` or ``translate`` moves it, in pixels (the most any one declares)."""
    return max([0.0, *(shapes.transform(value, font)[1] for name, value, _ in found if name == "transform"),
                *(shapes.translate(value, font) for name, value, _ in found if name == "translate")])


def clipped(found: list[tuple[str, str, bool]], font: float) -> bool:
    return any(shapes.clipped(name, value, font, TINY_FONT) for name, value, _ in found
               if name in ("clip", "clip-path"))


__all__ = ["Look", "Looks", "Unresolved"]
