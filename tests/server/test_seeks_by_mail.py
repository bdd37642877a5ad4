"""Seeks over real SMTP on loopback: posted and confirmed, listed, joined by a second player (the game starts at
once, the players know each other by name only), withdrawn; and every bad seek or join answered clearly, with
nothing changed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select, update

from app.club.models import Rating, Seek
from app.db import utcnow
from app.games.models import Game as GameRow
from app.inbound.clients import fresh
from app.rules.registry import VARIANTS
from tests.server.smtp_game import ALICE, BOB, MALLORY, REFEREE

THE_GAMES = "the games: " + ", ".join(sorted(VARIANTS))  # every variant the registry serves


def said(message) -> str:
    """Every text part of a mail (attachments too), whitespace run together."""
    parts = [part.get_content() for part in message.walk() if part.get_content_maintype() == "text"]
    return " ".join(" ".join(parts).split())


def ask(game, player: str, line: str) -> str:
    """A line mailed to the bare address; what the referee answered."""
    count = len(game.sink.to(player))
    game.send(player, fresh(player, REFEREE, line, subject="club"), REFEREE)
    assert len(game.sink.to(player)) > count, "no answer"
    return said(game.sink.to(player)[-1])


def confirmed(game, player: str, line: str) -> str:
    """A held command, confirmed by a reply to the "please confirm" mail; what the referee answered then."""
    asked = ask(game, player, line)
    assert "please confirm" in game.subject(player), asked
    count = len(game.sink.to(player))
    game.reply(player, "", style="gmail")
    return " ".join(said(message) for message in game.sink.to(player)[count:])


def seeks(game) -> list:
    with game.server.db.sessions() as session:
        return list(session.scalars(select(Seek).order_by(Seek.id)))


def games(game) -> list:
    with game.server.db.sessions() as session:
        return list(session.scalars(select(GameRow).order_by(GameRow.id)))


def test_a_seek_posted_by_mail_is_listed_joined_and_its_game_starts_at_once_with_names_only(game):
    answer = confirmed(game, ALICE, "seek side-view days=2")
    (seek,) = seeks(game)
    assert f"Your seek {seek.id} is open" in answer and "a rated game of Side View Chess" in answer
    assert "Player" in answer  # Alice chose no name: the club calls her by a name of its own
    listed = ask(game, BOB, "seeks")
    assert f"Seek {seek.id}: Side View Chess, 2 days a move" in listed and "rated" in listed and "(1500?)" in listed
    assert "alice" not in listed.lower()

    before = len(game.sink.received)
    confirmed(game, BOB, f"join {seek.id}")
    (started,) = games(game)
    assert started.status == "active" and started.names_only and started.rated and started.days == 2
    assert seeks(game)[0].status == "taken" and seeks(game)[0].game_id == started.id
    (mover,) = [player for player in (ALICE, BOB) if "your move" in game.subject(player)]
    assert "joined seek" in game.text(mover)
    for player, other in ((ALICE, BOB), (BOB, ALICE)):
        for _sender, recipients, raw in game.sink.received[before:]:
            if player in recipients:  # every header and part, raw
                whole = raw.decode("utf-8", "replace").lower()
                assert other not in whole and other.split("@")[0] not in whole, (player, whole[:300])


def test_a_seek_is_withdrawn_by_its_owner_only(game):
    confirmed(game, ALICE, "seek palindromic unrated")
    (seek,) = seeks(game)
    assert "you have no seek" in ask(game, BOB, f"cancel seek {seek.id}")  # refused at once, nothing held
    assert seeks(game)[0].status == "open"
    assert f"Your seek {seek.id} is withdrawn" in confirmed(game, ALICE, f"cancel seek {seek.id}")
    assert seeks(game)[0].status == "cancelled"
    assert "There are no open seeks" in ask(game, BOB, "seeks")


@pytest.mark.parametrize(("line", "told"), [
    ("seek chess-with-dragons", THE_GAMES),
    ("seek side-view dragons=3", "unknown option the option given for side-view; known: physics, setup"),
    ("seek side-view rating 1800-1500", "low end comes first"),
    ("seek side-view rating abc", "two whole numbers"),
    ("seek side-view rating 1500-18000", "two whole numbers"),
    ("seek side-view rating 1500-9000", "two whole numbers from 0 to 4000"),
    ("seek side-view color=white", "colours are drawn when someone takes it"),
    ("seek side-view rated unrated", "rated or unrated, not both"),
    ("cancel seek 99", "you have no seek 99"),
    ("cancel seek", "write the seek's number, as 'seeks' lists it: cancel seek 12"),
    ("seek side-view unrated rating 1400-1800", "for rated seeks only"),
    ("seek side-view days=99", "days must be a whole number"),
])
def test_a_seek_written_wrong_is_answered_with_what_is_valid_and_nothing_is_posted(game, line, told):
    answer = ask(game, ALICE, line)
    assert "not carried out" in game.subject(ALICE) and told in answer, answer
    assert seeks(game) == []


def test_a_sixth_open_seek_is_refused(game):
    confirmed(game, ALICE, "seek side-view")
    (first,) = seeks(game)
    with game.server.db.transaction() as session:  # four more, as if posted the same way
        for _ in range(4):
            session.add(Seek(player_id=first.player_id, variant=first.variant, options=first.options,
                             days=first.days, rated=True, status="open", lapses_at=first.lapses_at))
    answer = ask(game, ALICE, "seek side-view")
    assert "5 open seeks, the most at once" in answer
    assert len(seeks(game)) == 5


def test_joining_an_unknown_own_taken_or_lapsed_seek_or_one_out_of_range_is_refused_and_changes_nothing(game):
    assert "there is no seek 99" in ask(game, BOB, "join 99")
    assert "write the seek's number" in ask(game, BOB, "join soon")
    confirmed(game, ALICE, "seek side-view")
    confirmed(game, ALICE, "seek palindromic")
    confirmed(game, ALICE, "seek quasi-alice-4d rating 1700-1900")
    own, lapsing, ranged = (seek.id for seek in seeks(game))
    assert f"seek {own} is your own" in ask(game, ALICE, f"join {own}")
    with game.server.db.transaction() as session:
        session.execute(update(Seek).where(Seek.id == lapsing).values(lapses_at=utcnow() - timedelta(minutes=1)))
    assert f"seek {lapsing} has lapsed" in ask(game, BOB, f"join {lapsing}")
    assert f"seek {ranged} is for players rated 1700-1900" in ask(game, BOB, f"join {ranged}")
    assert "your rating there is 1500?" in said(game.sink.to(BOB)[-1])
    confirmed(game, BOB, f"join {own}")
    assert f"seek {own} was taken" in ask(game, MALLORY, f"join {own}")
    with game.server.db.sessions() as session:
        assert session.scalar(select(func.count()).select_from(GameRow)) == 1
        assert session.scalar(select(func.count()).select_from(Rating)) == 0


def test_a_seek_taken_between_the_request_and_its_confirmation_is_told_so(game):
    confirmed(game, ALICE, "seek side-view")
    (seek,) = seeks(game)
    ask(game, BOB, f"join {seek.id}")  # Bob asked, and has not confirmed yet
    confirmed(game, MALLORY, f"join {seek.id}")
    count = len(game.sink.to(BOB))
    game.reply(BOB, "")
    assert f"seek {seek.id} was taken" in " ".join(said(mail) for mail in game.sink.to(BOB)[count:])
    assert len(games(game)) == 1
