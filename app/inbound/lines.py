"""Boxes of no height whose overflow is hidden: ``line-height:0``, ``height:0``, ``max-height:0``.

A line of text is as tall as its line height, and a box as tall as its lines unless a height says otherwise.
Where the overflow of the box, or of a box around it, is hidden (``hidden``, ``clip``, or scrolled: ``auto``,
``scroll``), text on lines of no height, or in a box of no height, is cut away: a box around takes its height
from what is in it, which is then nothing. Reading errs towards not reading: a box around with room of its own
still counts as cutting it away.

The line height is inherited as browsers do: a bare number as a factor of each element's own font size, a
length or a percentage as the pixels it came to where it was declared.
"""

from __future__ import annotations

from app.inbound import shapes
from app.inbound.css import MEDIUM, PIXELS, is_zero, length, shorthand_size
from app.inbound.variables import Unresolved

CLIPPING = frozenset({"hidden", "clip", "auto", "scroll", "overlay"})  # overflow values that show no overflow
NORMAL = 1.2  # the line height of ``normal``, as a factor of the font size
LineHeight = tuple[float, bool] | None  # (height, whether it is a factor of the font size); None: normal
KEPT = ("inherit", "unset", "revert", "revert-layer")
FACTORS = {"em": 1.0, "%": 0.01, "ex": 0.5, "ch": 0.5}


def line_height(line: LineHeight, font: float) -> float:
    """The height of a line of text, in pixels."""
    if line is None:
        return NORMAL * font
    height, scales = line
    return height * font if scales else height


def declared(found: list[tuple[str, str, bool]], inherited: LineHeight, font: float) -> LineHeight:
    """The element's line height: the last one its declarations give (the ``font`` shorthand's too, which
    sets ``normal`` when it names none), else the inherited one."""
    line = inherited
    for name, value, _important in sorted(found, key=lambda each: each[2]):
        if name == "line-height":
            line = parsed(value, inherited, font)
        elif name == "font" and shorthand_size(value):
            _size, slash, after = value.partition("/")
            line = parsed(after.split()[0], inherited, font) if slash and after.split() else None
    return line


def parsed(value: str, inherited: LineHeight, font: float) -> LineHeight:
    if value in ("normal", "initial"):
        return None
    if value in KEPT:
        return inherited
    if is_zero(value):
        return 0.0, False
    number = length(value)
    if number is None:
        raise Unresolved("a line-height value the referee cannot work out")
    amount, unit = number
    if unit == "":
        return amount, True
    if unit in FACTORS:
        return amount * FACTORS[unit] * font, False
    if unit == "rem":
        return amount * MEDIUM, False
    if unit in PIXELS:
        return amount * PIXELS[unit], False
    raise Unresolved("a line-height value the referee cannot work out")


def flat(found: list[tuple[str, str, bool]], font: float) -> bool:
    """Whether the element's ``height`` or ``max-height`` leaves it too low to show a line."""
    return any(shapes.tiny_box(name, value, font) for name, value, _ in found if name in ("height", "max-height"))
