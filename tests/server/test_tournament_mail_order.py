"""A tournament goes on only once the game that made it go on is told over: in the outbox, which is sent in queue
order, the game-over mails of the game that ends a round (or the tournament) come before the next round's pairings
and its games' first mails, or before the final standings, whichever way the game ended."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from sqlalchemy import select

from app.club.models import Tournament, TournamentPairing
from app.club.tournaments.jobs import Tournaments
from app.games.errors import ServiceError
from app.games.models import Game
from app.outbound.models import OutboundMessage
from app.server import Server
from app.service import Service
from app.tokens import ReplyToken
from app.worker import Worker
from tests.server.digest_helpers import digest_on, send_digests
from tests.server.harness import Table
from tests.server.test_ratings import KNIGHTS_OUT_AND_BACK, play, send
from tests.server.test_tournaments import PLAYERS, act, announce, emails_by_id, enter, known_in_reverse, resign, rows

FOOLS_MATE = ("f2-f3", "e7-e5", "g2-g4", "d8-h4")  # Black mates on the fourth order


def queued(server: Server) -> list[OutboundMessage]:
    """The outbox in queue order (the order it is sent in)."""
    with server.db.sessions() as session:
        return list(session.scalars(select(OutboundMessage).order_by(OutboundMessage.id)))


def game_over_ids(server: Server, game_id: int) -> list[int]:
    found = [mail.id for mail in queued(server) if mail.game_id == game_id and mail.kind == "game-over"]
    assert len(found) == 2, found  # one to each player
    return found


def lose_on_time(server: Server, game_id: int) -> None:
    """The worker's clock round just after the deadline of the player to move."""
    deadline = rows(server, Game, id=game_id)[0].deadline
    assert Worker(server).clocks(deadline + timedelta(seconds=1)) == 1


def resign_from_the_digest(server: Server, game_id: int, address: str) -> None:
    """The player reads their games once a day and resigns in a reply to their digest."""
    digest_on(server, address)
    assert send_digests(server) >= 1
    assert Table(server).reply(address, f"Game {game_id}: resign", kind="digest").startswith("done")


# How the last game ends: given the game, its White and Black, and the tournament's number.
ENDINGS: dict[str, Callable[[Server, int, str, str, int], object]] = {
    "a move (mate)": lambda server, game_id, white, black, number: play(server, game_id, FOOLS_MATE),
    "a resignation": lambda server, game_id, white, black, number: send(server, game_id, "white", "resign"),
    "a draw agreed": lambda server, game_id, white, black, number: (
        send(server, game_id, "white", "offer draw"), send(server, game_id, "black", "accept draw")),
    "a draw by repetition": lambda server, game_id, white, black, number: play(
        server, game_id, KNIGHTS_OUT_AND_BACK * 4),
    "a loss on time": lambda server, game_id, white, black, number: lose_on_time(server, game_id),
    "a withdrawal": lambda server, game_id, white, black, number: act(
        server, lambda service: service.tournaments.withdraw(service.player(white), number)),
    "a reply to the digest": lambda server, game_id, white, black, number: resign_from_the_digest(
        server, game_id, white),
}


@pytest.mark.parametrize("ending", list(ENDINGS))
def test_the_last_game_of_a_round_robin_is_told_over_before_the_final_standings_however_it_ends(server, ending):
    known_in_reverse(server, PLAYERS[:3])
    number = announce(server, PLAYERS[0], "side-view players=3")
    for player in PLAYERS[1:3]:
        enter(server, player, number)
    emails = emails_by_id(server)
    *first, last = [pairing for pairing in rows(server, TournamentPairing, tournament_id=number) if pairing.game_id]
    for pairing in first:
        resign(server, pairing.game_id, emails[pairing.black_id])
    ENDINGS[ending](server, last.game_id, emails[last.white_id], emails[last.black_id], number)
    assert rows(server, Game, id=last.game_id)[0].status == "over"
    assert rows(server, Tournament, id=number)[0].status == "finished"  # the end was not left out
    standings = [mail for mail in queued(server) if mail.kind == "tournament" and "has ended" in mail.subject]
    assert len(standings) == 3  # one to each entrant
    over = game_over_ids(server, last.game_id)
    assert max(over) < min(mail.id for mail in standings)
    for mail in queued(server):
        if mail.id in over:  # the tournament's line is still in them
            assert f"This was round {last.round} of Tournament {number}" in " ".join(mail.body_text.split())


def swiss_round_one(server: Server) -> tuple[int, TournamentPairing]:
    """A Swiss of four in two rounds, started, the first game of round 1 resigned: the tournament's number, and
    the last game of the round, still being played."""
    known_in_reverse(server, PLAYERS[:4])
    number = announce(server, PLAYERS[0], "side-view swiss players=4 rounds=2")
    for player in PLAYERS[1:4]:
        enter(server, player, number)
    emails = emails_by_id(server)
    first, last = rows(server, TournamentPairing, tournament_id=number, round=1)
    resign(server, first.game_id, emails[first.black_id])
    assert rows(server, Tournament, id=number)[0].round == 1
    return number, last


def assert_round_two_follows_the_game_over_mails(server: Server, number: int, game_id: int) -> None:
    """Round 2 is paired, and every mail of it (the pairings to each entrant, its games' first mails) comes after
    the game-over mails of the game that ended round 1."""
    tournament = rows(server, Tournament, id=number)[0]
    assert (tournament.status, tournament.round) == ("running", 2)  # the tournament went on
    second = {pairing.game_id for pairing in rows(server, TournamentPairing, tournament_id=number, round=2)}
    assert len(second) == 2 and all(rows(server, Game, id=each)[0].status == "active" for each in second)
    pairings = [mail.id for mail in queued(server) if mail.kind == "tournament" and ": round 2 of 2" in mail.subject]
    first_mails = [mail.id for mail in queued(server) if mail.game_id in second]
    assert len(pairings) == 4 and len(first_mails) >= 4
    assert max(game_over_ids(server, game_id)) < min(pairings + first_mails)


def test_a_swiss_rounds_last_game_is_told_over_before_the_next_rounds_pairings(server):
    number, last = swiss_round_one(server)
    play(server, last.game_id, FOOLS_MATE)
    assert rows(server, Game, id=last.game_id)[0].result == "0-1"
    assert_round_two_follows_the_game_over_mails(server, number, last.game_id)


def test_a_swiss_rounds_last_game_lost_on_time_by_the_clock_is_told_over_and_the_swiss_goes_on(server):
    number, last = swiss_round_one(server)
    lose_on_time(server, last.game_id)
    game = rows(server, Game, id=last.game_id)[0]
    assert (game.status, game.reason) == ("over", "time")
    assert_round_two_follows_the_game_over_mails(server, number, last.game_id)


def test_a_failure_of_what_follows_a_games_end_keeps_nothing_of_the_reply(server, monkeypatch):
    """Pairing the next round is the server's work, not the player's: should it fail, the reply that ended the round
    is not kept as done with the tournament left stuck (and the player sent a refusal); the whole transaction is
    undone, for an operator to look at, and the game is as it was."""
    number, last = swiss_round_one(server)

    def broken(self, row):
        raise ServiceError("the pairing failed")

    monkeypatch.setattr(Tournaments, "next_round", broken)
    before = len(queued(server))
    with pytest.raises(RuntimeError, match="the pairing failed"), server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        game = service.lock(last.game_id)
        service.submit_text(game, game.player("white"), "resign", ReplyToken(game.id, "white", game.ply))
    assert rows(server, Game, id=last.game_id)[0].status != "over"
    assert len(queued(server)) == before and rows(server, Tournament, id=number)[0].round == 1
