"""What transforms, scales, clips and filters leave of an element's text, worked out from plain values.

Text scaled below a tenth (``transform: scale(.01)``, ``scale: 0``, ``zoom``, a ``matrix()`` that flattens it,
a turn about an axis in the page's plane), moved a thousand pixels away (``translateX(-9999px)``, ``translate``),
clipped to nothing (``clip: rect(0 0 0 0)``, ``clip-path: inset(50%)`` or ``circle(0)``) or made transparent
by a filter (``filter: opacity(0)``) cannot be read. Each is worked out when written plainly; what is written
otherwise (a ``calc()``, a 3-D transform, a polygon, a filter that changes colours) cannot be, and raises
``Unresolved``: nothing of that HTML part is then read as an order.
"""

from __future__ import annotations

import math
import re

from app.inbound.css import PIXELS, TINY_FONT, is_zero
from app.inbound.variables import Unresolved

REFERENCE = 1000.0  # pixels a percentage of an unknown box is taken of (a page's width, roughly)
ANGLES = {"deg": 1.0, "rad": 180 / math.pi, "turn": 360.0, "grad": 0.9, "": 1.0}
VALUE_LIMIT = 1000  # characters of one such value worked out
_FUNCTION = re.compile(r"\s*([a-z0-9-]+)\(([^()]*)\)\s*")
_NUMBER = re.compile(r"^([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)([a-z%]*)$")


def functions(name: str, value: str) -> list[tuple[str, list[str]]]:
    """``f(a, b) g(c)`` as [(f, [a, b]), (g, [c])]; Unresolved when the value is anything else."""
    if len(value) > VALUE_LIMIT:
        raise Unresolved(f"a {name} value too long")
    found, at = [], 0
    for match in _FUNCTION.finditer(value):
        if match.start() != at:
            break
        found.append((match.group(1), match.group(2).replace(",", " ").split()))
        at = match.end()
    if at != len(value) or not found:
        raise Unresolved(f"a {name} value the referee cannot work out")
    return found


def quantity(name: str, token: str) -> tuple[float, str]:
    found = _NUMBER.match(token)
    if not found:
        raise Unresolved(f"a {name} value the referee cannot work out")
    return float(found.group(1)), found.group(2)


def factor(name: str, token: str) -> float:
    """A number or a percentage, as a factor (``50%``: 0.5)."""
    number, unit = quantity(name, token)
    if unit not in ("", "%"):
        raise Unresolved(f"a {name} value the referee cannot work out")
    return number / 100 if unit == "%" else number


def pixels(name: str, token: str, font: float) -> float:
    """A length in pixels (``em`` of the element's font, a percentage of ``REFERENCE``)."""
    number, unit = quantity(name, token)
    if unit in ("em", "ex", "ch"):
        return number * font * (1 if unit == "em" else 0.5)
    if unit == "%":
        return number * REFERENCE / 100
    if unit in PIXELS:  # a bare number as pixels, as browsers read old mail
        return number * PIXELS[unit]
    raise Unresolved(f"a {name} value the referee cannot work out")


def degrees(name: str, token: str) -> float:
    number, unit = quantity(name, token)
    if unit not in ANGLES or (not unit and number != 0):
        raise Unresolved(f"a {name} value the referee cannot work out")
    return number * ANGLES[unit]


def boxed_out(found: list[tuple[str, str, bool]], font: float) -> bool:
    """Whether the element's box, its overflow hidden, is too small to show a letter (zero, or the 1x1 pixel
    box of "visually hidden" text)."""
    values = [(name, value) for name, value, _ in found]
    if not any(name in ("overflow", "overflow-x", "overflow-y") and value.split()[:1] in (["hidden"], ["clip"])
               for name, value in values):
        return False
    return any(tiny_box(name, value, font) for name, value in values
               if name in ("height", "max-height", "width", "max-width"))


def tiny_box(name: str, value: str, font: float) -> bool:
    """Whether a size leaves a box with its overflow hidden too small to show a letter (the 1x1 pixel box of
    "visually hidden" text); a size that cannot be worked out raises ``Unresolved``."""
    if is_zero(value):
        return True
    if value in ("auto", "none", "initial", "unset", "inherit", "revert", "fit-content", "max-content",
                 "min-content", "stretch", "100%"):
        return False
    return pixels(name, value, font) < TINY_FONT


def transform(value: str, font: float) -> tuple[float, float]:
    """(how much a ``transform`` shrinks the element at most, how far it moves it at most, in pixels)."""
    if value in ("none", "initial", "unset", "inherit", "revert"):
        return 1.0, 0.0
    shrink, moved = 1.0, 0.0
    name = "transform"
    for function, arguments in functions(name, value):
        if function in ("translate", "translatex", "translatey") and 1 <= len(arguments) <= 2:
            moved = max(moved, *(abs(pixels(name, each, font)) for each in arguments))
        elif function in ("scale", "scalex", "scaley") and 1 <= len(arguments) <= 2:
            shrink *= min(abs(factor(name, each)) for each in arguments)
        elif function in ("rotate", "rotatez") and len(arguments) == 1:
            degrees(name, arguments[0])  # turns in the page's plane: all of it still shows
        elif function in ("rotatex", "rotatey") and len(arguments) == 1:
            shrink *= abs(math.cos(math.radians(degrees(name, arguments[0]))))
        elif function in ("skew", "skewx", "skewy") and 1 <= len(arguments) <= 2:
            if any(abs(math.cos(math.radians(degrees(name, each)))) < 0.1 for each in arguments):
                shrink = 0.0  # sheared flat
        elif function == "matrix" and len(arguments) == 6:
            a, b, c, d = (factor(name, each) for each in arguments[:4])
            shrink *= smallest_stretch(a, b, c, d)
            moved = max(moved, abs(factor(name, arguments[4])), abs(factor(name, arguments[5])))
        else:
            raise Unresolved(f"a {name} value the referee cannot work out")
    return shrink, moved


def smallest_stretch(a: float, b: float, c: float, d: float) -> float:
    """The smallest singular value of the matrix [[a, c], [b, d]]: how thin it makes the thinnest thing."""
    total, determinant = a * a + b * b + c * c + d * d, a * d - b * c
    return math.sqrt(max(0.0, (total - math.sqrt(max(0.0, total * total - 4 * determinant * determinant))) / 2))


def scale(value: str) -> float:
    """How much the ``scale`` property shrinks the element (``scale: 0``, ``scale: 1 0``)."""
    if value in ("none", "initial", "unset", "inherit", "revert"):
        return 1.0
    tokens = value.split()
    if not 1 <= len(tokens) <= 3:
        raise Unresolved("a scale value the referee cannot work out")
    return min(abs(factor("scale", each)) for each in tokens[:2])


def zoom(value: str) -> float:
    if value in ("normal", "reset", "initial", "unset", "inherit", "revert"):
        return 1.0
    return abs(factor("zoom", value))


def translate(value: str, font: float) -> float:
    """How far the ``translate`` property moves the element (``translate: -9999px``)."""
    if value in ("none", "initial", "unset", "inherit", "revert"):
        return 0.0
    tokens = value.split()
    if not 1 <= len(tokens) <= 3:
        raise Unresolved("a translate value the referee cannot work out")
    return max(abs(pixels("translate", each, font)) for each in tokens[:2])


def clipped(name: str, value: str, font: float, tiny: float) -> bool:
    """Whether ``clip`` or ``clip-path`` leaves less than ``tiny`` pixels of the element to see."""
    if value in ("auto", "none", "initial", "unset", "inherit", "revert") or value.endswith("-box"):
        return False
    ((function, arguments),) = functions(name, value) if "(" in value else [("", [])]
    if name == "clip" and function == "rect" and len(arguments) == 4:
        top, right, bottom, left = (None if each == "auto" else pixels(name, each, font) for each in arguments)
        return (bottom is not None and bottom - (top or 0) < tiny) or (right is not None and right - (left or 0) < tiny)
    if name == "clip-path" and function == "inset" and arguments:
        edges = [inset_edge(each) for each in arguments[:arguments.index("round") if "round" in arguments else 4]]
        top = edges[0]
        right = edges[1] if len(edges) > 1 else top
        bottom = edges[2] if len(edges) > 2 else top
        left = edges[3] if len(edges) > 3 else right
        return top + bottom >= 0.99 or left + right >= 0.99
    if name == "clip-path" and function in ("circle", "ellipse"):
        radii = [each for each in arguments[:arguments.index("at") if "at" in arguments else None]]
        if not radii or any(each in ("closest-side", "farthest-side") for each in radii):
            return False
        return min(REFERENCE * factor(name, each) if each.endswith("%") else pixels(name, each, font)
                   for each in radii) < tiny / 2
    raise Unresolved(f"a {name} value the referee cannot work out")


def inset_edge(token: str) -> float:
    """An edge of ``inset()`` as a fraction of the box: a percentage, or zero (a length of a box whose size is
    not known cannot be worked out)."""
    if token.endswith("%"):
        return factor("clip-path", token)
    if pixels("clip-path", token, 16) == 0:
        return 0.0
    raise Unresolved("a clip-path value the referee cannot work out")


def opacity_filter(value: str) -> float:
    """How opaque a ``filter`` leaves the element (``opacity(0)``); one that changes colours cannot be worked out."""
    if value in ("none", "initial", "unset", "inherit", "revert"):
        return 1.0
    opaque = 1.0
    for function, arguments in functions("filter", value):
        if function == "opacity" and len(arguments) <= 1:
            opaque *= factor("filter", arguments[0]) if arguments else 0.0
        elif function == "drop-shadow" or (function == "blur" and all(pixels("filter", each, 16) == 0
                                                                       for each in arguments)):
            continue
        else:
            raise Unresolved("a filter value the referee cannot work out")
    return opaque
