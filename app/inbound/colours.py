"""Colours in every CSS spelling, as the sRGB a screen shows, read by tinycss2's CSS Color 4 reader.

tinycss2 reads every named colour, hex, ``rgb()``, ``hsl()``, ``hwb()``, ``lab()``, ``lch()``, ``oklab()``,
``oklch()`` and ``color()``; what it reads is brought to sRGB here (the CSS Color 4 matrices, the channels
clipped to the screen's range). A colour that is not known for certain raises ``Unresolved``: one tinycss2 does
not read (``color-mix()``, a ``calc()`` inside, relative colours, a word no one knows), a wide-gamut space
(``display-p3``, ...), and the system colours but two. ``Canvas`` and ``CanvasText`` (and the old names CSS
Color 4 makes them, ``Window``, ``WindowText``, ...) are the colours of a page that sets none, which the
reading takes as black on white (``PAPER``, ``INK``) for any page a light colour scheme draws (a dark one
cannot be worked out: ``looks``); the other system colours are the reader's own choice.
"""

from __future__ import annotations

from tinycss2 import parse_one_component_value
from tinycss2.ast import Node
from tinycss2.color4 import Color, parse_color

from app.inbound.variables import Unresolved

Colour = tuple[int, int, int] | None  # None: transparent
PAPER = (255, 255, 255)  # what a mail is shown on where it says nothing else
INK = (0, 0, 0)  # the colour of its text where it says nothing else
LINK = "link"  # the colour of a link whose mail sets none: the reader's client chooses it
VISITED = (85, 26, 139)  # browsers' colour of a link visited
LINK_COLOURS = ((0, 0, 238), VISITED, (17, 85, 204), (5, 99, 193))  # browsers' (unvisited, visited), Gmail's, Outlook's
CLOSE = 24  # summed channel difference below which a colour cannot be told from its background
FAINT = 0.1  # an alpha below this leaves a colour unseen
HEX = frozenset("0123456789abcdefABCDEF")
KEEP = "keep"  # a keyword that leaves the colour as it was (inherit, initial, ...)
CURRENT = "currentcolor"
KEYWORDS = frozenset({"inherit", "initial", "unset", "revert", "revert-layer"})
PAGE_COLOURS = {name: PAPER for name in ("canvas", "window", "activecaption", "appworkspace", "background",
                                         "inactivecaption", "infobackground", "menu", "scrollbar")}
PAGE_COLOURS |= {name: INK for name in ("canvastext", "windowtext", "captiontext", "infotext", "menutext")}
D50_TO_D65 = ((0.955473421488075, -0.02309845494876471, 0.06325924320057072),
              (-0.0283697093338637, 1.0099953980813041, 0.021041441191917323),
              (0.012314014864481998, -0.020507649298898964, 1.330365926242124))
XYZ_TO_LINEAR_SRGB = ((3.2409699419045226, -1.537383177570094, -0.4986107602930034),
                      (-0.9692436362808796, 1.8759675015077202, 0.04155505740717559),
                      (0.05563007969699366, -0.20397695888897652, 1.0569715142428786))


def colour(value: str | Node) -> Colour | str:
    """The colour a CSS value names (None: transparent), ``KEEP`` for a keyword that keeps the one before,
    ``CURRENT`` for ``currentcolor``; ``Unresolved`` for a colour not known for certain."""
    if isinstance(value, str):
        if value.startswith("#") and len(value) in (4, 5, 7, 9) and all(char in HEX for char in value[1:]):
            return hexadecimal(value[1:])
        value = parse_one_component_value(value, skip_comments=True)
    token = value
    if token.type == "ident" and token.lower_value in KEYWORDS:
        return KEEP
    if token.type == "ident" and token.lower_value in PAGE_COLOURS:
        return PAGE_COLOURS[token.lower_value]
    read = parse_color(token) if token.type in ("ident", "hash", "function") else None
    if read == CURRENT:
        return CURRENT
    if not isinstance(read, Color):
        raise Unresolved("a colour the referee cannot work out")
    if read.alpha is not None and read.alpha < FAINT:
        return None
    return screen(read)


def hexadecimal(digits: str) -> Colour:
    """``#rgb``, ``#rgba``, ``#rrggbb`` or ``#rrggbbaa``, read at once (the most common spelling by far)."""
    if len(digits) < 5:
        digits = "".join(char * 2 for char in digits)
    if len(digits) == 8 and int(digits[6:], 16) / 255 < FAINT:
        return None
    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)


def screen(read: Color) -> tuple[int, int, int]:
    """A colour tinycss2 read, in the sRGB channels of a screen (0-255)."""
    if read.space in ("hsl", "hwb"):
        read = read.to("srgb")
    elif read.space in ("lab", "lch"):
        read = Color("xyz-d65", times(D50_TO_D65, read.to("xyz-d50").coordinates), read.alpha)
    elif read.space in ("oklab", "oklch", "xyz-d50"):
        read = read.to("xyz-d65") if read.space != "xyz-d50" else \
            Color("xyz-d65", times(D50_TO_D65, read.coordinates), read.alpha)
    coordinates = tuple(each or 0.0 for each in read.coordinates)
    if read.space == "xyz-d65":
        coordinates, read = times(XYZ_TO_LINEAR_SRGB, coordinates), Color("srgb-linear", (), read.alpha)
    if read.space == "srgb-linear":
        coordinates = tuple(map(gamma, coordinates))
    elif read.space != "srgb":
        raise Unresolved("a colour space the referee cannot work out")
    red, green, blue = (round(min(max(each, 0.0), 1.0) * 255) for each in coordinates)
    return red, green, blue


def times(matrix: tuple[tuple[float, ...], ...], vector: tuple[float, ...]) -> tuple[float, ...]:
    return tuple(sum(weight * (each or 0.0) for weight, each in zip(row, vector, strict=True)) for row in matrix)


def gamma(linear: float) -> float:
    """A linear-light sRGB channel as the screen's (the sRGB transfer function)."""
    size = abs(linear)
    encoded = 12.92 * size if size <= 0.0031308 else 1.055 * size ** (1 / 2.4) - 0.055
    return encoded if linear >= 0 else -encoded


def unseen_on(text: Colour | str | bool, backdrop: Colour | str | bool) -> bool:
    """Whether text of this colour cannot be seen on this backdrop (False: the backdrop is not known; a link's
    colour against another is worked out by ``indistinct``)."""
    if text is None:
        return True
    if text is False or backdrop is False or backdrop is None:
        return False
    if isinstance(text, str) or isinstance(backdrop, str):
        return text == backdrop
    return close(text, backdrop)


def indistinct(text: Colour | str, backdrop: Colour | str, links: tuple[Colour, ...]) -> bool | None:
    """Whether text of this colour cannot be told from this backdrop, either of which may be ``LINK`` (one of
    ``links``): True for every colour it may be, False for none, None when it depends on which (not known)."""
    texts = links if text == LINK else (text,)
    backdrops = links if backdrop == LINK else (backdrop,)
    verdicts = {each is None or (other is not None and close(each, other)) for each in texts for other in backdrops}
    return verdicts.pop() if len(verdicts) == 1 else None


def close(one: tuple[int, int, int], other: tuple[int, int, int]) -> bool:
    """Whether two colours cannot be told apart."""
    return sum(abs(mine - theirs) for mine, theirs in zip(one, other, strict=True)) < CLOSE
