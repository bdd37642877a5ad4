"""Just enough CSS to tell which text of an HTML mail a reader cannot see.

Only text a mail client shows is read (``html_text``). CSS hides text in many spellings:
``display:none``, ``visibility:hidden``, ``opacity:0``, a zero font size, a zero height with
the overflow hidden, ``mso-hide:all``, a transparent colour or one the same as what is behind it,
text pushed a thousand pixels off the page (sizes, transforms and clips are worked out by ``looks``
and ``shapes``, line heights by ``lines``, colours by ``colours``, backgrounds and shadows by ``backdrops``,
variables by ``variables``; a value only a browser works out, ``calc()``, ``env()``, ``attr()``, cannot be
and leaves the part unread); each in upper or lower case, with
spaces, comments, escapes or ``!important`` anywhere, inline or from a ``<style>`` sheet by tag,
class or id. Reading errs towards not reading: a rule of a sheet counts wherever its selector's
last part matches (its ancestors, attribute tests and structural pseudo-classes are not checked),
within a ``@media`` block or not, and one declaration that hides is enough, whatever else says
it shows. A reply whose order is not read gets an answer saying so; an order the sender never saw
would have been played.

Linear in the HTML: each style text is read once, a sheet's rules are indexed by the id, class
or tag their selector names (at most ``RULE_LIMIT`` of them, only those that can hide text), and
an element is checked against at most ``CANDIDATE_LIMIT`` rules, beyond which it counts as hidden.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.inbound.variables import Unresolved

RULE_LIMIT = 2000  # rules of an element's style sheets that can hide text
CANDIDATE_LIMIT = 64  # rules looked at for one element; more, and it counts as hidden
CLASS_LIMIT = 16  # classes of one element looked up
WATCHED = frozenset({
    "display", "visibility", "opacity", "font-size", "font", "height", "max-height", "width", "max-width",
    "overflow", "overflow-x", "overflow-y", "mso-hide", "color", "-webkit-text-fill-color", "background",
    "background-color", "background-image", "text-indent", "left", "top", "margin-left", "margin-top",
    "transform", "content-visibility", "scale", "zoom", "translate", "filter", "clip", "clip-path", "line-height",
    "box-shadow", "color-scheme", "mix-blend-mode",
})
COMPUTED = ("calc(", "min(", "max(", "clamp(", "env(", "attr(", "round(", "mod(", "rem(", "sin(", "cos(", "tan(",
            "pow(", "sqrt(", "hypot(", "log(", "exp(", "abs(", "sign(")  # worked out only by a browser
DYNAMIC = frozenset({"hover", "focus", "active", "visited", "focus-within", "focus-visible", "target"})
OFF_PAGE = 1000  # pixels to the left or above: text put there is off any page
PIXELS = {"px": 1.0, "pt": 4 / 3, "pc": 16.0, "em": 16.0, "rem": 16.0, "ex": 8.0, "ch": 8.0, "cm": 37.8,
          "mm": 3.78, "q": 0.945, "in": 96.0, "vw": 10.0, "vh": 10.0, "": 1.0}
TINY_FONT = 2.0  # pixels: a font smaller than this is no text anyone reads
FONT_SIZES = {"xx-small": 9.0, "x-small": 10.0, "small": 13.0, "medium": 16.0, "large": 18.0, "x-large": 24.0,
              "xx-large": 32.0, "xxx-large": 48.0, "initial": 16.0}
MEDIUM = 16.0  # pixels: the font size of a page that sets none

_COMMENT_START, _COMMENT_END = "/*", "*/"
_ESCAPE = re.compile(r"\\(?:([0-9a-fA-F]{1,6})[ \t\r\n\f]?|(.))", re.DOTALL)
_IMPORTANT = re.compile(r"!\s*important\b")
_NUMBER = re.compile(r"^([+-]?(?:\d+\.?\d*|\.\d+))([a-z%]*)$")
_CUSTOM_NAME = re.compile(r"(--[\w-]*)")  # a variable's name, in a declaration or in var(): case kept
_TOKEN = re.compile(r"::?(?:[\w-]|\\.)+(?:\([^)]*\))?|[.#](?:[\w-]|\\[0-9a-fA-F]{1,6}\s?|\\.)+|\[[^\]]*\]"
                    r"|(?:[\w-]|\\.)+|\*")
_COMBINATORS = re.compile(r"(?<!\\)(?:\s*[>+~]\s*|\s+)")
_ATTRIBUTE_TEST = re.compile(r"\[[^\]]*\]")


def without_comments(text: str) -> str:
    """CSS with its comments taken out (an unclosed one runs to the end), in one pass."""
    if _COMMENT_START not in text:
        return text
    kept, at = [], 0
    while True:
        start = text.find(_COMMENT_START, at)
        if start < 0:
            kept.append(text[at:])
            return "".join(kept)
        kept.append(text[at:start])
        end = text.find(_COMMENT_END, start + 2)
        if end < 0:
            return "".join(kept)
        at = end + 2


def unescaped(text: str) -> str:
    """CSS escapes (``\\6e``, ``\\n``) read as the characters they stand for."""
    if "\\" not in text:
        return text

    def one(found: re.Match[str]) -> str:
        if found.group(1):
            code = int(found.group(1), 16)
            return chr(code) if 0 < code < 0x110000 and not 0xD800 <= code < 0xE000 else "\ufffd"
        return found.group(2)

    return _ESCAPE.sub(one, text)


def simple_escapes(selector: str) -> str:
    """A selector with each escape of a name's character (``\\67 one``: "gone") written as the character, and
    every other escape as a backslash and the one character: the selector's parts are then told apart by
    the characters between them alone."""
    if "\\" not in selector:
        return selector

    def one(found: re.Match[str]) -> str:
        char = unescaped(found.group())
        return char if char.isalnum() or char in "-_" or not char.isascii() else "\\" + char

    return _ESCAPE.sub(one, selector)


Declaration = tuple[str, str, bool]  # (property, value, important), both lower case, spaces run together


def lowered(text: str) -> str:
    """``text`` in lower case but for the names of variables (``--Ink`` and ``--ink`` are two)."""
    if "--" not in text:
        return text.lower()
    return "".join(part if index % 2 else part.lower() for index, part in enumerate(_CUSTOM_NAME.split(text)))


def declarations(text: str) -> list[Declaration]:
    """The declarations of a style attribute or rule body, in order, only those that can hide text and the
    variables (``--name``) they may use."""
    found = []
    for item in lowered(unescaped(without_comments(text))).split(";"):
        name, colon, value = item.partition(":")
        name = "".join(name.split())
        if not colon or not (name in WATCHED or name.startswith("--")):
            continue
        important = bool(_IMPORTANT.search(value))
        found.append((name, " ".join(_IMPORTANT.sub(" ", value).split()), important))
    return found


@dataclass(frozen=True)
class Rule:
    tag: str | None
    classes: frozenset[str]
    ids: frozenset[str]
    declarations: tuple[Declaration, ...]

    def matches(self, tag: str, classes: set[str], element_id: str) -> bool:
        return (self.tag is None or self.tag == tag) and self.classes <= classes and \
            all(each == element_id for each in self.ids)


class StyleSheet:
    """The rules of a mail's ``<style>`` elements that can hide text, indexed by what their selectors name."""

    def __init__(self, texts: list[str]) -> None:
        self.index: dict[str, list[Rule]] = {}
        self.count = 0
        for text in texts:
            self._read(text)

    def _read(self, text: str) -> None:
        for chunk in without_comments(text).split("}"):
            parts = chunk.split("{")
            if len(parts) < 2 or self.count >= RULE_LIMIT:
                continue
            selectors, body = parts[-2].strip(), parts[-1]
            if not selectors or selectors.startswith("@"):
                continue
            found = tuple(declarations(body))
            if found:
                for selector in selectors.split(","):
                    self._add(selector, found)

    def _add(self, selector: str, found: tuple[Declaration, ...]) -> None:
        selector = _ATTRIBUTE_TEST.sub("[]", simple_escapes(selector.strip().lower()))  # spaces in [a="b c"]
        compound = _COMBINATORS.split(selector)[-1]
        tag, classes, ids = None, set(), set()
        for token in _TOKEN.findall(compound):
            if token.startswith(":"):
                name = token.lstrip(":").split("(")[0]
                if name in DYNAMIC or ((token.startswith("::") or name in ("before", "after")) and \
                        name not in ("first-line", "first-letter")):
                    return  # styles a state the reader is not in, or text of its own, not the element's
            elif token.startswith("."):
                classes.add(unescaped(token[1:]))
            elif token.startswith("#"):
                ids.add(unescaped(token[1:]))
            elif token not in ("*",) and not token.startswith("["):
                tag = unescaped(token)
        rule = Rule(tag, frozenset(classes), frozenset(ids), found)
        key = f"#{min(ids)}" if ids else f".{min(classes)}" if classes else tag or "*"
        self.index.setdefault(key, []).append(rule)
        self.count += 1

    def names_tag(self, tag: str) -> bool:
        """Whether a rule may apply to an element of this tag with no attribute (a rule for the tag, or for any)."""
        return bool(self.index) and (tag in self.index or "*" in self.index)

    def declarations_for(self, tag: str, classes: set[str], element_id: str) -> list[Declaration] | None:
        """What the sheet declares for an element, in the sheet's order; None when too many rules would need
        looking at (the element then counts as hidden)."""
        if not self.index:
            return []
        keys = ["*", tag, *(f".{name}" for name in sorted(classes)[:CLASS_LIMIT])]
        if element_id:
            keys.append(f"#{element_id}")
        lists = [self.index[key] for key in keys if key in self.index]
        if sum(map(len, lists)) > CANDIDATE_LIMIT:
            return None
        candidates = [rule for rules in lists for rule in rules]
        return [each for rule in candidates if rule.matches(tag, classes, element_id) for each in rule.declarations]


def length(value: str) -> tuple[float, str] | None:
    """A CSS length's number and unit, or None when it is not a plain length."""
    found = _NUMBER.match(value.strip())
    return (float(found.group(1)), found.group(2)) if found else None


def is_zero(value: str) -> bool:
    """Whether a value is zero however written (``0``, ``0px``, ``.0em``, ``calc(0px)``): no digit but 0."""
    return any(char.isdigit() for char in value) and not any(char in "123456789" for char in value)


def hides_subtree(found: list[Declaration]) -> bool:
    """Whether these declarations leave nothing of the element to see (what its size, transforms, clips and
    filters leave of it: ``shapes``)."""
    values: dict[str, list[str]] = {}
    for name, value, _important in found:
        values.setdefault(name, []).append(value)
    if any(value.startswith("none") for value in values.get("display", ())):
        return True
    if any(value in ("hidden", "collapse") for value in values.get("visibility", ())):
        return True
    if "hidden" in values.get("content-visibility", ()) or "all" in values.get("mso-hide", ()):
        return True
    for value in values.get("opacity", ()):
        number = length(value.rstrip("%"))
        if number is not None and number[0] / (100 if value.endswith("%") else 1) < 0.1:
            return True
    for name in ("text-indent", "left", "top", "margin-left", "margin-top"):
        for value in values.get(name, ()):
            number = length(value.split()[0]) if value else None
            if number and number[0] < 0 and number[1] in PIXELS and -number[0] * PIXELS[number[1]] >= OFF_PAGE:
                return True
    return False


def font_size(found: list[Declaration], inherited: float) -> float:
    """The element's font size in pixels: the smallest size declared here (the shorthand's too), worked out
    from the parent's (``em``, ``%``, ``smaller``), else the parent's. A size that cannot be worked out raises
    ``Unresolved``."""
    sizes = [value for name, value, _ in found if name == "font-size"]
    sizes += [shorthand_size(value) for name, value, _ in found if name == "font"]
    known = [size_in_pixels(value, inherited) for value in sizes if value]
    return min(known) if known else inherited


def shorthand_size(value: str) -> str:
    """The size in a ``font`` shorthand: its first word that is a size, before any ``/line-height`` ("" if
    none: a system font, or a keyword for all of it)."""
    for token in re.sub(r"\"[^\"]*\"|'[^']*'", " ", value).split("/")[0].split():
        number = length(token)
        if token in FONT_SIZES or token in ("smaller", "larger") or (number and (number[1] or number[0] == 0)):
            return token
    return ""


def size_in_pixels(value: str, inherited: float) -> float:
    if is_zero(value):
        return 0.0
    if value in FONT_SIZES:
        return FONT_SIZES[value]
    if value in ("inherit", "unset", "revert", "revert-layer", "math"):
        return inherited
    if value in ("smaller", "larger"):
        return inherited / 1.2 if value == "smaller" else inherited * 1.2
    number = length(value)
    if number is not None and number[1] in ("em", "%", "ex", "ch"):
        return number[0] * inherited * {"em": 1, "%": 0.01, "ex": 0.5, "ch": 0.5}[number[1]]
    if number is not None and number[1] == "rem":
        return number[0] * MEDIUM
    if number is not None and number[1] in PIXELS:  # a bare number as pixels, as browsers read old mail
        return number[0] * PIXELS[number[1]]
    raise Unresolved("a font size value the referee cannot work out")


def computed_by_browser(found: list[Declaration]) -> None:
    """Raises ``Unresolved`` for a value a browser works out when it shows the mail (``calc()``, ``env()``,
    ``attr()``, ...), which this reading cannot; a zero written so (``calc(0px)``) is a zero."""
    for name, value, _important in found:
        if "(" in value and not is_zero(value) and any(function in value for function in COMPUTED):
            raise Unresolved(f"a {name} value the referee cannot work out")
