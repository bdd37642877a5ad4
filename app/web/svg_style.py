"""Pictures fit for the pages' Content-Security-Policy: inline ``style`` attributes become SVG attributes.

The piece drawings carry ``style="fill:...; stroke:..."``, which a policy without ``'unsafe-inline'``
for styles makes the browser ignore (every piece would be drawn black). The same properties written as
SVG presentation attributes draw the same, and no policy blocks them.
"""

from __future__ import annotations

import re
from html import escape

STYLE = re.compile(r'\sstyle="([^"]*)"')
PRESENTATION = frozenset({"fill", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin", "opacity",
                          "fill-opacity", "stroke-opacity", "fill-rule", "stroke-miterlimit", "stroke-dasharray"})


def _attributes(match: re.Match[str]) -> str:
    written = []
    for declaration in match.group(1).split(";"):
        name, _, value = declaration.partition(":")
        name, value = name.strip().lower(), value.strip()
        if name in PRESENTATION and value:
            written.append(f' {name}="{escape(value)}"')
    return "".join(written)


def without_inline_style(svg: str) -> str:
    """The same picture with each ``style`` attribute written as presentation attributes (others dropped)."""
    return STYLE.sub(_attributes, svg)
