"""A digest of ten games of mixed variants, drawn by Debian's chromium as a mail client would show its HTML part.

Kept as screenshots in test-artefacts/mail/ (wide and on a phone), and checked as every mail is (the contrast of
every piece of text, as drawn and in dark mode); its contents list's links lead to the games' sections.
"""

from __future__ import annotations

from email import message_from_bytes
from email.policy import default

import pytest

from tests.server.test_digest_size import MIXES, digest_of
from tests.web.test_mail_rendering import ARTEFACTS, GLYPHS, SAMPLE, contrast, inverted, rgb

pytestmark = pytest.mark.browser


def test_a_digest_of_ten_games_is_drawn_readable_with_a_contents_list_that_leads_to_each_game(browser, tmp_path):
    games, mail = digest_of(tmp_path, MIXES["every variant twice"])
    html = message_from_bytes(mail.raw, policy=default).get_body(("html",)).get_content()
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    faint = []
    for width, name in ((720, "digest-ten-games"), (380, "digest-ten-games-phone")):
        page = browser.new_page(viewport={"width": width, "height": 900})
        page.set_content(html)
        page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=True)
        for tag, text, colour, background, size, weight, _opacity in page.evaluate(SAMPLE):
            large = size >= 24 or (size >= 18.66 and weight >= 700)
            needed = 3.0 if large or text[:1] in GLYPHS else 4.5
            for light in (True, False):
                ink, ground = rgb(colour), rgb(background)
                if not light:
                    ink, ground = inverted(ink), inverted(ground)
                if contrast(ink, ground) < needed:
                    faint.append((tag, text, colour, background, light))
        links = page.eval_on_selector_all("ul a[href^='#game-']", "links => links.map(link => link.hash)")
        assert links and all(page.locator(f"div{link}").count() == 1 for link in links)
        assert {f"#game-{game_id}" for game_id in games} >= set(links)
        widest = page.evaluate("Math.max(...[...document.querySelectorAll('body *')].map(e => e.scrollWidth))")
        assert widest <= max(width, 720) + 40  # nothing far wider than a mail client's column
        page.close()
    assert faint == [], sorted(set(faint))
