"""What is drawn behind an element's text: its background, and over that its inset shadows.

``background`` and ``box-shadow`` are read token by token with tinycss2, their colours by ``colours``. An image
(``url()``) makes what is behind the text unknown, and so does a gradient of several colours, text of whose
colours cannot be worked out; an inset shadow is drawn over the background
and under the text, so one that covers the whole box is what the text is seen on. Whether one covers the box
is known only for a spread of half the widest box (``COVERS``): a narrower one is a frame whose width against
the box's is not known, and text of its colour cannot be worked out (``looks``).
"""

from __future__ import annotations

from tinycss2 import parse_component_value_list
from tinycss2.ast import Node

from app.inbound import shapes
from app.inbound.colours import CURRENT, KEEP, Colour, close, colour

IMAGES = ("url", "image", "image-set", "-webkit-image-set", "element", "cross-fade", "paint")
COVERS = shapes.REFERENCE / 2  # pixels of spread past which an inset shadow covers any box in a mail
NOT_COLOURS = frozenset({
    "none", "repeat", "no-repeat", "repeat-x", "repeat-y", "space", "round", "scroll", "fixed", "local", "top",
    "bottom", "left", "right", "center", "border-box", "padding-box", "content-box", "text", "cover", "contain",
    "auto"})
GRADIENT_WORDS = frozenset({
    "to", "from", "at", "in", "left", "right", "top", "bottom", "center", "circle", "ellipse", "closest-side",
    "closest-corner", "farthest-side", "farthest-corner", "srgb", "srgb-linear", "display-p3", "a98-rgb",
    "prophoto-rgb", "rec2020", "lab", "oklab", "xyz", "xyz-d50", "xyz-d65", "hsl", "hwb", "lch", "oklch", "shorter",
    "longer", "increasing", "decreasing", "hue"})
Paint = Colour | str | bool  # a colour, CURRENT, KEEP (nothing said), or False: an image, unknown


def tokens(value: str) -> list[list[Node]]:
    """The value's comma-separated layers, each as its tokens without spaces or comments."""
    layers: list[list[Node]] = [[]]
    for token in parse_component_value_list(value, skip_comments=True):
        if token.type == "literal" and token.value == ",":
            layers.append([])
        elif token.type not in ("whitespace", "comment"):
            layers[-1].append(token)
    return layers


def is_image(token: Node) -> bool:
    return token.type == "url" or (token.type == "function" and
                                   (token.lower_name in IMAGES or token.lower_name.endswith("gradient")))


def background(value: str) -> tuple[Paint, tuple[Colour | str, ...]]:
    """What a ``background``, ``background-color`` or ``background-image`` paints behind the text: its colour
    (``KEEP`` when it paints none, False when it is not known: an image, or a gradient of several colours),
    and the colours that may be behind some of the text (a gradient's and the colour under it)."""
    paint: Paint = KEEP
    stops: list[Colour | str] = []
    for layer in tokens(value):
        for token in layer:
            if token.type == "function" and token.lower_name.endswith("gradient"):
                stops += [each for each in gradient_colours(token) if each is not None]
            elif is_image(token):
                return False, ()
            elif token.type in ("ident", "hash", "function") and \
                    not (token.type == "ident" and token.lower_value in NOT_COLOURS):
                found = colour(token)
                paint = KEEP if found is None else found
    if not stops:
        return paint, ()
    if all(isinstance(each, tuple) and isinstance(stops[0], tuple) and close(each, stops[0]) for each in stops):
        return stops[0], ()  # a gradient of one colour (that covers whatever is under it)
    return False, tuple(stops) + ((paint,) if paint != KEEP else ())


def gradient_colours(gradient: Node) -> list[Colour | str]:
    """The colours of a gradient's stops (None: transparent)."""
    found = []
    for token in gradient.arguments:
        if token.type in ("ident", "hash", "function") and \
                not (token.type == "ident" and token.lower_value in GRADIENT_WORDS):
            found.append(colour(token))
    return [each for each in found if each != KEEP]


def inset_shadows(value: str, font: float) -> list[tuple[Colour | str, float]]:
    """The inset shadows of a ``box-shadow``, the lowest first: (colour or ``CURRENT``, how far in it reaches
    from each edge, in pixels: its spread, or half its offset, which moves its hole out of the box)."""
    found: list[tuple[Colour | str, float]] = []
    for layer in reversed(tokens(value)):
        idents = [token.lower_value for token in layer if token.type == "ident"]
        if "inset" not in idents:
            continue
        lengths = [token for token in layer if token.type in ("number", "dimension", "percentage")]
        paints = [token for token in layer if token not in lengths and
                  not (token.type == "ident" and token.lower_value == "inset")]
        paint = colour(paints[0]) if paints else CURRENT
        sizes = [abs(shapes.pixels("box-shadow", token.serialize(), font)) for token in lengths[:4]]
        offset = max(sizes[:2], default=0.0)
        spread = sizes[3] if len(sizes) > 3 else 0.0
        if paint != KEEP:
            found.append((paint, max(spread, offset / 2)))
    return found
