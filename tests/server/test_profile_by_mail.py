"""``profile private`` by mail, once confirmed by a reply, hides the player's page; a wrong word is answered with
the two that work."""

from __future__ import annotations

from app.games.models import Player
from app.inbound.clients import fresh
from tests.server.smtp_game import ALICE, REFEREE
from tests.web_helpers import client_for


def test_profile_private_by_mail_once_confirmed_hides_the_page(game):
    game.send(ALICE, fresh(ALICE, REFEREE, "profile private", subject="my page"), REFEREE)
    assert "please confirm" in game.subject(ALICE)
    assert "hide your player page" in game.text(ALICE)
    with game.server.db.sessions() as session:
        player = session.query(Player).filter_by(email=ALICE).one()
        assert player.profile_public
    game.reply(ALICE, "")
    assert "Your page is private" in game.text(ALICE)
    assert client_for(game.server).get(f"/players/{player.id}").status_code == 404
    game.send(ALICE, fresh(ALICE, REFEREE, "profile secret", subject="my page"), REFEREE)
    assert "write: profile private, or profile public" in game.text(ALICE)
