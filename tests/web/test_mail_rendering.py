"""Every kind of mail of every variant, drawn by Debian's chromium as a mail client would show its HTML part.

Each is kept as a screenshot in test-artefacts/mail/ (to look at), and every piece of text in it is checked
for contrast against what it stands on (WCAG 2: 4.5:1, or 3:1 for large text and for the pieces, which are
graphical objects), as drawn and as Gmail's dark mode draws it, which inverts the colours.
"""

from __future__ import annotations

import random
from email import message_from_bytes
from email.policy import default
from pathlib import Path

import pytest

from app.present.registry import DECLARATIONS
from app.rules.registry import VARIANTS, get_variant
from tests.conftest import make_server
from tests.server.harness import ALICE, BOB, Table

pytestmark = pytest.mark.browser
ARTEFACTS = Path(__file__).parent.parent.parent / "test-artefacts" / "mail"
GLYPHS = "".join(chr(code) for code in range(0x2654, 0x2660))

# For every element with text of its own: its text colour, the colour it stands on (the first ancestor with a
# background, a bgcolor attribute counting as one), its font size and weight.
SAMPLE = """() => {
  const colour = (element) => {
    for (let at = element; at; at = at.parentElement) {
      const style = getComputedStyle(at);
      if (style.backgroundColor && style.backgroundColor !== "rgba(0, 0, 0, 0)") return style.backgroundColor;
    }
    return "rgb(255, 255, 255)";
  };
  const found = [];
  for (const element of document.body.querySelectorAll("*")) {
    const own = [...element.childNodes].some((node) => node.nodeType === 3 && node.textContent.trim());
    const style = getComputedStyle(element);
    if (!own || style.display === "none" || style.visibility === "hidden" || element.offsetParent === null) continue;
    found.push([element.tagName, element.textContent.trim().slice(0, 30), style.color, colour(element),
                parseFloat(style.fontSize), parseInt(style.fontWeight, 10), parseFloat(style.opacity)]);
  }
  return found;
}"""


def rgb(text: str) -> tuple[int, int, int]:
    return tuple(int(part) for part in text[text.index("(") + 1:text.index(")")].split(",")[:3])  # type: ignore


def luminance(colour: tuple[int, int, int]) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(value) for value in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(first: tuple[int, int, int], second: tuple[int, int, int]) -> float:
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def inverted(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    return tuple(255 - value for value in colour)  # type: ignore


def play_every_kind(table: Table, name: str) -> None:
    """A game that makes every kind of mail there is for this variant."""
    variant, rng = get_variant(name), random.Random(7)
    game_id = table.start(**DECLARATIONS[name].sample.options)
    table.reply(ALICE, "e2-e9 please", kind="request")  # unreadable
    table.reply(ALICE, "help", kind="request")
    table.reply(ALICE, "rules", kind="request")
    table.reply(BOB, "say Good luck!", kind="started")
    table.reply(BOB, "offer draw", kind="started")
    table.reply(ALICE, "decline draw", kind="draw-offer")
    for _ply in range(6):
        state = variant.from_json(table.game(game_id).state)
        side = variant.orderer(state)
        table.reply(ALICE if side == "white" else BOB, rng.choice(variant.legal_orders(state)))
    table.reply(BOB, "board", kind="request")
    table.reply(ALICE, "history")
    table.reply(ALICE, "vacation 2")
    table.reply(BOB, "resign", kind="request")
    table.reply(BOB, "e2-e4", kind="game-over")  # after the end


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_kind_of_mail_is_drawn_readable_in_light_and_dark(browser, tmp_path, name):
    server = make_server(tmp_path, f"sqlite:///{tmp_path / 'mail.sqlite3'}")
    table = Table(server, name)
    play_every_kind(table, name)
    latest = {(mail.recipient, mail.kind): mail for mail in table.mails(ALICE) + table.mails(BOB)}
    server.db.engine.dispose()
    kinds = {kind for _recipient, kind in latest}
    assert {"invitation", "request", "move-received", "error", "help", "rules", "said", "draw-offer", "game-over",
            "vacation", "history"} <= kinds, kinds
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 720, "height": 900})
    faint = []
    for (recipient, kind), mail in sorted(latest.items()):
        html = message_from_bytes(mail.raw, policy=default).get_body(("html",)).get_content()
        page.set_content(html)
        who = recipient.split("@")[0]
        page.screenshot(path=str(ARTEFACTS / f"{name}-{kind}-{who}.png"), full_page=True)
        for tag, text, colour, background, size, weight, opacity in page.evaluate(SAMPLE):
            large = size >= 24 or (size >= 18.66 and weight >= 700)
            glyph = text[:1] in GLYPHS  # a piece is a graphical object: 3:1 (WCAG 2, 1.4.11)
            needed = 3.0 if large or glyph else 4.5
            assert opacity == 1, (kind, tag, text)  # nothing is faded: a stale notebook entry is told by its label
            for light in (True, False):
                ink, ground = rgb(colour), rgb(background)
                if not light:
                    ink, ground = inverted(ink), inverted(ground)
                if contrast(ink, ground) < needed:
                    faint.append((kind, tag, text, colour, background, light, round(contrast(ink, ground), 2)))
    page.close()
    assert faint == [], sorted({found[1:] for found in faint})
