"""Tournaments through the service, on SQLite and PostgreSQL: announced, entered, started, played to the end,
withdrawn from; and every bad input answered with nothing changed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from app.club.models import Tournament, TournamentPairing
from app.db import utcnow
from app.games.commands.reading import MOVE, Command
from app.games.errors import ServiceError
from app.games.mail.mails import Mails
from app.games.models import Game, Player
from app.service import Service
from app.worker import Worker
from tests.server.harness import Table

PLAYERS = [f"p{index}@players.test" for index in range(1, 11)]


def act(server, what):
    """``what(service)`` in a transaction of its own, as a mail or a page does it."""
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        done = what(service)
        service.flush()
        return done


def announce(server, organiser: str, text: str) -> int:
    return act(server, lambda service: service.tournaments.announce(
        service.player(organiser), service.tournaments.check_announce(service.player(organiser), text)))


def enter(server, player: str, number: int) -> bool:
    return act(server, lambda service: service.tournaments.enter(service.player(player), number))


def resign(server, game_id: int, loser: str) -> None:
    """White's first move, then the loser's resignation: a game played (not won without play) and lost."""
    def play(service):
        game = service.lock(game_id)
        mails = Mails()
        service.turn.order(game, "white", Command(MOVE, "e2-e4"), mails)
        service.turn.send(game, mails)
        service.turn.resign_for(game, game.side_of(service.player(loser)), "test")
    act(server, play)


def known_in_reverse(server, players: list[str]) -> None:
    """The players known to the referee last first, so that no test reads a player's id from their place in
    ``PLAYERS``."""
    act(server, lambda service: [service.player(player) for player in reversed(players)])


def emails_by_id(server) -> dict[int, str]:
    with server.db.sessions() as session:
        return {player.id: player.email for player in session.scalars(select(Player))}


def rows(server, model, **where):
    with server.db.sessions() as session:
        return list(session.scalars(select(model).filter_by(**where).order_by(model.id)))


def test_a_round_robin_starts_when_full_and_ends_with_its_standings(server):
    known_in_reverse(server, PLAYERS[:4])
    number = announce(server, PLAYERS[0], "side-view players=4")
    assert not enter(server, PLAYERS[1], number)
    assert not enter(server, PLAYERS[2], number)
    assert enter(server, PLAYERS[3], number)  # the last place: it starts at once
    tournament = rows(server, Tournament, id=number)[0]
    assert tournament.status == "running" and tournament.total_rounds == 3
    pairings = rows(server, TournamentPairing, tournament_id=number)
    assert len(pairings) == 6 and {pairing.round for pairing in pairings} == {1, 2, 3}
    games = {pairing.game_id: pairing for pairing in pairings}
    for game in rows(server, Game):
        assert game.status == "active" and game.names_only and game.rated
        assert game.event == f"Tournament {number}, round {games[game.id].round}"
    table = Table(server)
    assert f"(Tournament {number}, round" in table.last(PLAYERS[0], "request").subject
    emails = emails_by_id(server)
    for pairing in pairings:  # White wins every game
        resign(server, pairing.game_id, emails[pairing.black_id])
    tournament = rows(server, Tournament, id=number)[0]
    assert tournament.status == "finished"
    final = table.text(PLAYERS[0], "tournament")
    assert "Final standings" in final and "Sonneborn-Berger" in final
    for address in PLAYERS[:4]:
        assert "has ended" in table.last(address, "tournament").subject
        assert "@" not in table.text(address, "tournament").replace(server.settings.server_email, "")


def test_a_swiss_pairs_each_round_when_the_last_game_ends_and_gives_a_bye(server):
    known_in_reverse(server, PLAYERS[:5])
    number = announce(server, PLAYERS[0], "kriegspiel swiss players=5 rounds=3")
    for player in PLAYERS[1:5]:
        enter(server, player, number)
    emails = emails_by_id(server)
    for round_number in (1, 2, 3):
        pairings = rows(server, TournamentPairing, tournament_id=number, round=round_number)
        assert len(pairings) == 3 and sum(pairing.game_id is None for pairing in pairings) == 1
        for pairing in pairings:
            if pairing.game_id is not None:
                assert rows(server, Tournament, id=number)[0].round == round_number
                resign(server, pairing.game_id, emails[pairing.white_id])
    byes = [pairing.white_id for pairing in rows(server, TournamentPairing) if pairing.game_id is None]
    assert len(set(byes)) == 3  # never twice to one player
    met = [frozenset((pairing.white_id, pairing.black_id)) for pairing in rows(server, TournamentPairing)
           if pairing.black_id]
    assert len(met) == len(set(met))  # nobody meets twice
    assert rows(server, Tournament, id=number)[0].status == "finished"


def test_withdrawing_after_the_start_resigns_the_players_games_and_a_swiss_pairs_them_no_more(server):
    known_in_reverse(server, PLAYERS[:4])
    number = announce(server, PLAYERS[0], "side-view swiss players=4 rounds=3")
    for player in PLAYERS[1:4]:
        enter(server, player, number)
    said = act(server, lambda service: service.tournaments.withdraw(service.player(PLAYERS[3]), number))
    assert "resigned" in said
    emails = emails_by_id(server)
    leaver = next(player_id for player_id, email in emails.items() if email == PLAYERS[3])
    for pairing in rows(server, TournamentPairing, tournament_id=number, round=1):
        game = rows(server, Game, id=pairing.game_id)[0]
        if game.status != "over":
            resign(server, game.id, emails[pairing.black_id])
    second = rows(server, TournamentPairing, tournament_id=number, round=2)
    assert len(second) == 2  # the three who stayed: one game and a bye
    assert all(leaver not in (pairing.white_id, pairing.black_id) for pairing in second)


@pytest.mark.parametrize("text, answer", [
    ("no-such-game", "there is no game by that name"),
    ("side-view frobs=2", "has no option by that name"),
    ("side-view knockout", "after the game come its terms"),
    ("side-view players=2", "a round robin has 3 to 16 players"),
    ("side-view swiss players=200", "a Swiss has 4 to 128 players"),
    ("side-view swiss players=8 rounds=9", "a Swiss of 8 players has 1 to 7 rounds"),
    ("side-view rounds=3", "leave out rounds="),
    ("side-view days=99", "days must be a whole number of days from 1 to 30"),
])
def test_a_bad_announcement_is_answered_and_nothing_is_made(server, text, answer):
    with pytest.raises(ServiceError, match=answer):
        announce(server, PLAYERS[0], text)
    assert rows(server, Tournament) == []


def test_bad_entries_withdrawals_and_starts_are_answered_and_change_nothing(server):
    number = announce(server, PLAYERS[0], "side-view players=3")
    with pytest.raises(ServiceError, match=f"^you have already entered tournament {number}$"):
        enter(server, PLAYERS[0], number)
    with pytest.raises(ServiceError, match="there is no tournament 99"):
        enter(server, PLAYERS[1], 99)
    with pytest.raises(ServiceError, match="have not entered"):
        act(server, lambda service: service.tournaments.withdraw(service.player(PLAYERS[1]), number))
    enter(server, PLAYERS[1], number)
    with pytest.raises(ServiceError, match="only the organiser"):
        act(server, lambda service: service.tournaments.start(service.player(PLAYERS[1]), number))
    with pytest.raises(ServiceError, match="starts with at least 3"):
        act(server, lambda service: service.tournaments.start(service.player(PLAYERS[0]), number))
    assert enter(server, PLAYERS[2], number)
    with pytest.raises(ServiceError, match="has started"):
        enter(server, PLAYERS[3], number)
    assert rows(server, Tournament, id=number)[0].entrants == 3


def test_announcements_are_limited_as_challenges_are(server):
    limit = server.settings.challenges_per_day
    for _ in range(limit):
        announce(server, PLAYERS[0], "side-view")
    with pytest.raises(ServiceError, match="the most the referee takes"):
        announce(server, PLAYERS[0], "side-view")
    with server.db.sessions() as session:
        assert session.scalar(select(func.count()).select_from(Tournament)) == limit


# ------------------------------------------------------------------ by mail to the bare address


def test_by_mail_each_change_is_held_until_confirmed_and_the_lists_are_answered_at_once(server):
    table = Table(server)
    organiser, other = PLAYERS[0], PLAYERS[1]
    assert "held for confirmation" in table.write(organiser, "tournament side view physics=2 swiss players=4")
    assert rows(server, Tournament) == []  # nothing before the confirming reply
    confirm = table.text(organiser, "confirm")
    assert "announce a rated tournament, a Swiss of Side View Chess (3 days a move), for up to 4 players" in confirm
    table.confirm(organiser)
    number = rows(server, Tournament)[0].id
    assert f"Your tournament is announced: Tournament {number}: Side View Chess, Swiss" in table.text(
        organiser, "tournament")
    table.write(other, "tournaments")
    listing = table.text(other, "tournaments")
    assert f"Tournament {number}: Side View Chess, Swiss (open for entry)" in listing and "1 of 4 places" in listing
    assert "@" not in listing.replace(server.settings.server_email, "")
    table.write_confirmed(other, f"enter {number}")
    assert "You have entered" in table.text(other, "tournament")
    table.write(other, f"enter {number}\nstart {number}\nwithdraw 77\nenter x")
    problems = table.text(other, "error")
    for said in (f"enter: you have already entered tournament {number}", "start: only the organiser",
                 "withdraw: there is no tournament 77", "enter: write the tournament's number"):
        assert said in problems, said
    table.write(other, f"standings {number}")
    assert "Entrants so far: Player 1, Player 2" in table.text(other, "standings")
    table.write(organiser, "tournament no-such-game")
    assert "tournament: there is no game by that name" in table.text(organiser, "error")


def test_a_tournament_game_is_named_in_its_mails_and_its_end_points_to_the_standings(server):
    table = Table(server)
    known_in_reverse(server, PLAYERS[:3])
    number = announce(server, PLAYERS[0], "side-view players=3")
    for player in PLAYERS[1:3]:
        enter(server, player, number)
    pairing = rows(server, TournamentPairing, tournament_id=number)[0]
    emails = emails_by_id(server)
    loser = emails[pairing.black_id]
    request = table.last(emails[pairing.white_id], "request")
    assert f"Game {pairing.game_id} (Tournament {number}, round {pairing.round})" in request.subject
    resign(server, pairing.game_id, loser)
    over = table.text(loser, "game-over")
    assert f"This was round {pairing.round} of Tournament {number}: Side View Chess, round robin" in over
    assert f"standings {number}" in over and "withdrew" not in over


def test_the_start_day_starts_a_tournament_with_whoever_entered_or_cancels_it_everyone_told(server):
    day = (utcnow() + timedelta(days=10)).date().isoformat()
    later = announce(server, PLAYERS[0], f"side-view players=6 starts={day}")
    enter(server, PLAYERS[1], later)
    enter(server, PLAYERS[2], later)
    empty = announce(server, PLAYERS[3], f"side-view players=6 starts={day}")
    with server.db.sessions() as session:
        day = session.get(Tournament, later).starts_at
    worker = Worker(server)
    assert worker.tournaments(day - timedelta(minutes=1)) == 0
    assert worker.tournaments(day) == 2
    assert worker.tournaments(day) == 0  # done once
    assert rows(server, Tournament, id=later)[0].status == "running"
    assert rows(server, Tournament, id=empty)[0].status == "cancelled"
    assert "is cancelled" in Table(server).last(PLAYERS[3], "tournament").subject
