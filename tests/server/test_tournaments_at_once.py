"""Tournaments' races on PostgreSQL, each in two workers' transactions: two players taking the last place at
once (one enters and it starts, the other is told it has started, as one coming after would be), one player
entering twice at once (two mails, or a page sent twice: entered once, the other told so), the last two games
of a Swiss round ending at once (the next round is paired exactly once), and a withdrawal while a game of the
player ends (no deadlock: both take the game, then the row)."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from sqlalchemy import create_engine, event, select, text

from app.club.models import Tournament, TournamentEntry, TournamentPairing
from app.games.errors import ServiceError
from app.games.models import Game as GameRow
from app.outbound.models import OutboundMessage
from app.server import Server
from tests.conftest import make_server
from tests.server.mailhost import wait_until
from tests.server.test_ratings import KNIGHTS_OUT_AND_BACK, play, send
from tests.server.test_tournaments import PLAYERS, act, announce, emails_by_id, enter, resign


def racing(server: Server, postgres_url: str, first: Callable[[], object], second: Callable[[], object],
           held: Callable[[str], bool]) -> dict[str, object]:
    """``first`` held just before its statement that ``held`` picks, until ``second`` has ended or waits on a
    lock; what each returned or raised."""
    outcome: dict[str, object] = {}

    def run(name: str, what: Callable[[], object]) -> None:
        try:
            outcome[name] = what()
        except BaseException as error:  # the main thread reports it
            outcome[name] = error

    one = threading.Thread(target=run, args=("first", first))
    two = threading.Thread(target=run, args=("second", second))
    paused, go = threading.Event(), threading.Event()

    def hold(_connection, _cursor, statement, *_rest) -> None:
        if threading.current_thread() is one and held(statement) and not paused.is_set():
            paused.set()
            assert go.wait(30), "never let go"

    admin = create_engine(postgres_url)
    event.listen(server.db.engine, "before_cursor_execute", hold)
    try:
        one.start()
        assert paused.wait(30), outcome
        two.start()
        database = postgres_url.rsplit("/", 1)[1]

        def second_done_or_waiting() -> bool:
            with admin.connect() as connection:
                waiting = connection.execute(text(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = :name AND wait_event_type = 'Lock'"),
                    {"name": database}).scalar()
            return "second" in outcome or bool(waiting)

        wait_until(second_done_or_waiting, what="the second transaction to end or wait")
    finally:
        go.set()
        one.join(60)
        two.join(60)
        event.remove(server.db.engine, "before_cursor_execute", hold)
        admin.dispose()
    return outcome


@pytest.fixture
def server(tmp_path, postgres_url):
    """A server on PostgreSQL (the races are PostgreSQL's), its connections closed after the test."""
    made = make_server(tmp_path, postgres_url)
    yield made
    made.db.engine.dispose()


def started_swiss(server: Server) -> tuple[int, list[TournamentPairing]]:
    """A Swiss of four, started: its number and its first round's two pairings."""
    number = announce(server, PLAYERS[0], "kriegspiel swiss players=4 rounds=3")
    for player in PLAYERS[1:4]:
        enter(server, player, number)
    with server.db.sessions() as session:
        return number, list(session.scalars(select(TournamentPairing).order_by(TournamentPairing.id)))


def test_two_players_taking_the_last_place_at_once_one_enters_the_other_is_told_it_started(server, postgres_url):
    number = announce(server, PLAYERS[0], "side-view players=3")
    enter(server, PLAYERS[1], number)
    outcome = racing(server, postgres_url, lambda: enter(server, PLAYERS[2], number),
                     lambda: enter(server, PLAYERS[3], number),
                     lambda statement: statement.startswith("UPDATE tournaments"))
    started = [value for value in outcome.values() if value is True]
    refused = [value for value in outcome.values() if isinstance(value, ServiceError)]
    assert len(started) == 1 and len(refused) == 1, outcome
    assert str(refused[0]) == f"tournament {number} has started: 'tournaments' lists the open ones"
    with server.db.sessions() as session:
        assert len(session.scalars(select(TournamentEntry)).all()) == 3
        assert session.get(Tournament, number).status == "running"


def test_one_player_entering_twice_at_once_enters_once_and_is_told_so(server, postgres_url):
    number = announce(server, PLAYERS[0], "side-view players=4")
    act(server, lambda service: service.player(PLAYERS[1]))  # known before: the two mails race on the entry
    outcome = racing(server, postgres_url, lambda: enter(server, PLAYERS[1], number),
                     lambda: enter(server, PLAYERS[1], number),
                     lambda statement: statement.startswith("UPDATE tournaments"))
    entered = [value for value in outcome.values() if value is False]
    refused = [value for value in outcome.values() if isinstance(value, ServiceError)]
    assert len(entered) == 1 and len(refused) == 1, outcome
    assert str(refused[0]) == f"you have already entered tournament {number}"
    with server.db.sessions() as session:
        assert len(session.scalars(select(TournamentEntry)).all()) == 2
        assert session.get(Tournament, number).entrants == 2


def test_the_last_two_games_of_a_swiss_round_ending_at_once_pair_the_next_round_once(server, postgres_url):
    number, (first, second) = started_swiss(server)
    emails = emails_by_id(server)
    outcome = racing(server, postgres_url, lambda: resign(server, first.game_id, emails[first.black_id]),
                     lambda: resign(server, second.game_id, emails[second.black_id]),
                     lambda statement: "FROM tournaments" in statement and "FOR UPDATE" in statement)
    assert not any(isinstance(value, BaseException) for value in outcome.values()), outcome
    with server.db.sessions() as session:
        assert session.get(Tournament, number).round == 2
        second_round = session.scalars(select(TournamentPairing).where(TournamentPairing.round == 2)).all()
        assert len(second_round) == 2
        told = session.scalars(select(OutboundMessage.recipient).where(
            OutboundMessage.subject.like(f"%Tournament {number}%round 2 of 3"))).all()
        assert sorted(told) == sorted(PLAYERS[:4])  # each entrant told of round 2 once
    assert act(server, lambda service: service.tournaments.whole(number).row.round) == 2


def test_a_withdrawal_while_a_game_of_the_player_ends_waits_its_turn_and_neither_deadlocks(server, postgres_url):
    """A game's end locks its game, then the tournament's row; a withdrawal resigns the player's games and locks the
    same two. Taken in opposite orders, the two at once would wait for each other (PostgreSQL kills one as a
    deadlock): the opponent resigns, held once it has its game and asks for the row, while the player withdraws."""
    number, (pairing, _other) = started_swiss(server)
    emails = emails_by_id(server)
    withdrawing = emails[pairing.white_id]
    outcome = racing(server, postgres_url, lambda: resign(server, pairing.game_id, emails[pairing.black_id]),
                     lambda: act(server, lambda service: service.tournaments.withdraw(
                         service.player(withdrawing), number)),
                     lambda statement: "FROM tournaments" in statement and "FOR UPDATE" in statement)
    assert not any(isinstance(value, BaseException) for value in outcome.values()), outcome
    assert outcome["second"] == (f"You have withdrawn from Tournament {number}: Kriegspiel, Swiss: you will not "
                             "be paired again."), \
        outcome  # the game had ended (the opponent resigned first): nothing of the player's left to resign
    with server.db.sessions() as session:
        assert session.get(GameRow, pairing.game_id).result == "1-0"
        entry = session.scalars(select(TournamentEntry).where(TournamentEntry.player_id == pairing.white_id)).one()
        assert entry.withdrawn


def test_a_withdrawal_waiting_while_the_round_is_paired_resigns_the_new_game_too(server, postgres_url):
    """The player's round-1 game is over; they withdraw while the round's last game ends and pairs round 2 with
    them in it: once it has the row, the withdrawal reads the player's games again and resigns the new one."""
    number, (mine, theirs) = started_swiss(server)
    emails = emails_by_id(server)
    withdrawing = emails[mine.white_id]
    resign(server, mine.game_id, emails[mine.black_id])
    outcome = racing(server, postgres_url,
                     lambda: act(server, lambda service: service.tournaments.withdraw(
                         service.player(withdrawing), number)),
                     lambda: resign(server, theirs.game_id, emails[theirs.black_id]),  # ends round 1
                     lambda statement: "FROM tournaments" in statement and "FOR UPDATE" in statement)
    assert not any(isinstance(value, BaseException) for value in outcome.values()), outcome
    with server.db.sessions() as session:
        new = session.scalars(select(TournamentPairing).where(
            TournamentPairing.round == 2, (TournamentPairing.white_id == mine.white_id)
            | (TournamentPairing.black_id == mine.white_id))).one()
        assert session.get(GameRow, new.game_id).status == "over", outcome
    assert "were resigned" in str(outcome["first"]), outcome


def test_a_withdrawal_waiting_while_the_tournament_starts_resigns_the_first_game(server, postgres_url):
    number = announce(server, PLAYERS[0], "kriegspiel swiss players=4 rounds=3")
    for player in PLAYERS[1:3]:
        enter(server, player, number)
    outcome = racing(server, postgres_url,
                     lambda: act(server, lambda service: service.tournaments.withdraw(
                         service.player(PLAYERS[1]), number)),
                     lambda: enter(server, PLAYERS[3], number),  # the last place: it starts
                     lambda statement: "FROM tournaments" in statement and "FOR UPDATE" in statement)
    assert not any(isinstance(value, BaseException) for value in outcome.values()), outcome
    player_id = {email: number for number, email in emails_by_id(server).items()}[PLAYERS[1]]
    with server.db.sessions() as session:
        mine = session.scalars(select(TournamentPairing).where(
            (TournamentPairing.white_id == player_id) | (TournamentPairing.black_id == player_id))).one()
        assert mine.game_id is None or session.get(GameRow, mine.game_id).status == "over", outcome


def test_a_withdrawal_while_another_rated_game_of_the_opponent_ends_neither_deadlocks(server, postgres_url):
    """A rated round robin: the opponents' game ends (its players' ratings rows, then the row) while a player
    withdraws (the row, then the ratings of the game it resigns): a game's end takes the row first too."""
    number = announce(server, PLAYERS[0], "side-view players=3 rated")
    for player in PLAYERS[1:3]:
        enter(server, player, number)
    emails = emails_by_id(server)
    with server.db.sessions() as session:
        pairings = [pairing for pairing in session.scalars(select(TournamentPairing)) if pairing.game_id]
    for pairing in pairings:
        play(server, pairing.game_id, KNIGHTS_OUT_AND_BACK)  # two moves each: rated when it ends
    withdrawing = next(player_id for player_id, email in emails.items() if email == PLAYERS[0])
    other = next(pairing for pairing in pairings if withdrawing not in (pairing.white_id, pairing.black_id))
    outcome = racing(server, postgres_url, lambda: send(server, other.game_id, "white", "resign"),
                     lambda: act(server, lambda service: service.tournaments.withdraw(
                         service.player(PLAYERS[0]), number)),
                     lambda statement: "FROM tournaments" in statement and "FOR UPDATE" in statement)
    assert not any(isinstance(value, BaseException) for value in outcome.values()), outcome
    with server.db.sessions() as session:
        assert all(session.get(GameRow, pairing.game_id).status == "over" for pairing in pairings)
