"""A player's rating in one variant over their rated games, drawn as a small SVG line (no script, no style
attribute: the pages' Content-Security-Policy allows neither)."""

from __future__ import annotations

from html import escape

from markupsafe import Markup

WIDTH, HEIGHT = 320, 120
LEFT, RIGHT, TOP, BOTTOM = 44, 8, 10, 22  # room for the axis labels
LINE, GRID, INK = "#7a4a00", "#d8d2c4", "#5c574d"


def rating_chart(ratings: list[float], first: str, last: str, title: str) -> Markup:
    """The ratings in order (the start of the first game's period first), between the dates ``first`` and
    ``last``; ``title`` is the picture's accessible name."""
    low, high = min(ratings), max(ratings)
    if high - low < 50:  # a flat line is drawn in the middle of a band of 50 points, not across the whole height
        low, high = (low + high) / 2 - 25, (low + high) / 2 + 25
    inner_width, inner_height = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = inner_width / max(len(ratings) - 1, 1)
    points = " ".join(f"{LEFT + index * step:.1f},{TOP + (high - value) / (high - low) * inner_height:.1f}"
                      for index, value in enumerate(ratings))
    last_x = LEFT + (len(ratings) - 1) * step
    last_y = TOP + (high - ratings[-1]) / (high - low) * inner_height
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
        f'role="img" aria-label="{escape(title)}" class="rating-chart"><title>{escape(title)}</title>',
        f'<line x1="{LEFT}" y1="{TOP}" x2="{WIDTH - RIGHT}" y2="{TOP}" stroke="{GRID}"/>',
        f'<line x1="{LEFT}" y1="{TOP + inner_height}" x2="{WIDTH - RIGHT}" y2="{TOP + inner_height}" '
        f'stroke="{GRID}"/>',
        f'<text x="{LEFT - 4}" y="{TOP + 4}" text-anchor="end" font-size="11" fill="{INK}">{round(high)}</text>',
        f'<text x="{LEFT - 4}" y="{TOP + inner_height + 4}" text-anchor="end" font-size="11" fill="{INK}">'
        f'{round(low)}</text>',
        f'<text x="{LEFT}" y="{HEIGHT - 6}" font-size="11" fill="{INK}">{escape(first)}</text>',
        f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 6}" text-anchor="end" font-size="11" fill="{INK}">'
        f'{escape(last)}</text>',
        f'<polyline points="{points}" fill="none" stroke="{LINE}" stroke-width="2" stroke-linejoin="round"/>',
        f'<circle cx="{last_x:.1f}" cy="{last_y:.1f}" r="3" fill="{LINE}"/>',
        "</svg>",
    ]
    return Markup("".join(parts))
