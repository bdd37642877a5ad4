"""The club end to end, through real SMTP on loopback and the web: a seek posted by mail, listed by mail and on
/seeks, joined by a second player on the web, played to the end; both ratings change as Glicko-2 says, and no
mail or page one player receives shows the other's address or any part of it."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from app import create_app
from app.games.club_rows import Rating, Seek
from app.games.glicko2 import Glicko, rate_game
from app.games.models import Game as GameRow
from app.games.models import Player
from app.inbound.clients import fresh
from tests.server.smtp_game import ALICE, BOB, REFEREE
from tests.web_helpers import csrf_of, sign_in_path

MATE = {"white": ("f2-f3", "g2-g4"), "black": ("e7-e5", "d8-h4")}  # Black mates on his second move


def said(message) -> str:
    parts = [part.get_content() for part in message.walk() if part.get_content_maintype() == "text"]
    return " ".join(" ".join(parts).split())


def signed_in(server, address: str):
    with server.db.sessions() as session:
        player_id = session.scalar(select(Player.id).where(Player.email == address))
    client = create_app(server).test_client()
    path = sign_in_path(server, player_id)
    assert client.post(path, data={"csrf_token": csrf_of(client.get(path).data)}).status_code == 302
    return client


def test_a_seek_posted_by_mail_joined_on_the_web_and_played_out_rates_both_and_shows_no_address(game):
    game.send(ALICE, fresh(ALICE, REFEREE, "seek side-view days=2", subject="a game, anyone?"), REFEREE)
    assert "please confirm" in game.subject(ALICE)
    game.reply(ALICE, "")
    with game.server.db.sessions() as session:
        number = session.scalar(select(Seek.id))
    assert f"Your seek {number} is open" in said(game.sink.to(ALICE)[-1])

    game.send(BOB, fresh(BOB, REFEREE, "seeks", subject="seeks"), REFEREE)
    assert f"Seek {number}: Side View Chess" in said(game.sink.to(BOB)[-1])
    public = create_app(game.server).test_client().get("/seeks").data.decode()
    assert f"<td>{number}</td>" in public

    bob = signed_in(game.server, BOB)
    listed = bob.get("/seeks")
    joined = bob.post(f"/seeks/{number}/join", data={"csrf_token": csrf_of(listed.data)}, follow_redirects=True)
    assert b"has started" in joined.data
    game.worker.run_once()  # the game's first mails go out

    with game.server.db.sessions() as session:
        played = session.scalars(select(GameRow)).one()
        white = session.get(Player, played.white_id).email
    sides = {"white": white, "black": BOB if white == ALICE else ALICE}
    for number_of_move in range(2):
        for side in ("white", "black"):
            game.reply(sides[side], MATE[side][number_of_move])
    assert "game over" in game.subject(sides["white"]).lower()
    assert "Your rating in Side View Chess: 1500? ->" in said(game.sink.to(sides["black"])[-1])

    expected = dict(zip(("white", "black"), rate_game(Glicko(), Glicko(), 0.0), strict=True))
    with game.server.db.sessions() as session:
        ids = {side: session.scalar(select(Player.id).where(Player.email == address))
               for side, address in sides.items()}
        for side, new in expected.items():
            row = session.get(Rating, (ids[side], "side-view"))
            assert row.games == 1
            assert (row.rating, row.deviation) == pytest.approx((new.rating, new.deviation), abs=1e-9)

    pages = {BOB: [bob.get(path).data for path in ("/games", f"/games/{played.id}", "/seeks")]}
    alice = signed_in(game.server, ALICE)
    pages[ALICE] = [alice.get(path).data for path in ("/games", f"/games/{played.id}", "/seeks")]
    for player, other in ((ALICE, BOB), (BOB, ALICE)):
        mails = [raw for _sender, recipients, raw in game.sink.received if player in recipients]
        for whole in [*mails, *pages[player]]:
            text = whole.decode("utf-8", "replace").lower()
            local = re.compile(rf"(?<![\w-]){other.split('@')[0]}(?![\w-])")  # not "quasi-alice", a game's name
            assert other not in text and not local.search(text), (player, text[:400])
