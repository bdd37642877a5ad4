"""Ratings in the game service: every way a game ends rates a rated game through ``Turn.finish``, and two rated
games of one player ending at once in two transactions on PostgreSQL both count, the second from the first's
result."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from sqlalchemy import create_engine, event, select, text, update

from app.club.glicko2 import Glicko, rate_game
from app.club.models import Rating, RatingChange
from app.db import utcnow
from app.games.models import Game
from app.games.play.turn import Ending, held_weakly
from app.server import Server
from app.service import Service
from app.tokens import ReplyToken
from tests.conftest import make_server
from tests.server.mailhost import wait_until

ALICE, BOB, CAROL, DAVE = "alice@players.test", "bob@players.test", "carol@players.test", "dave@players.test"
KNIGHTS_OUT_AND_BACK = ("g1-f3", "g8-f6", "f3-g1", "f6-g8")  # two moves each, back where the game began


def service_on(connection, server: Server) -> Service:
    return Service(connection, server.settings, server.signer)


def new_rated_game(server: Server, white: str, black: str, rated: bool = True) -> int:
    """A Side View Chess game both have accepted: White to move."""
    with server.db.engine.begin() as connection:
        service = service_on(connection, server)
        game = service.create_game("side-view", service.player(white), service.player(black), {}, None, rated)
        for side in ("white", "black"):
            service.invitations.answer(game, side, "accept")
        service.flush()
        assert game.status == "active"
        return game.id


def send(server: Server, game_id: int, side: str, order: str) -> None:
    """A player's reply about the game, read and carried out as mail and the web form are."""
    with server.db.engine.begin() as connection:
        service = service_on(connection, server)
        game = service.lock(game_id)
        status, done = service.submit_text(game, game.player(side), order, ReplyToken(game.id, side, game.ply))
        assert status == "done", done


def play(server: Server, game_id: int, orders: tuple[str, ...]) -> None:
    """Orders in turn, White first."""
    for number, order in enumerate(orders):
        send(server, game_id, "white" if number % 2 == 0 else "black", order)


def rating_rows(server: Server) -> dict[int, Rating]:
    with server.db.sessions() as session:
        return {row.player_id: row for row in session.scalars(select(Rating))}


def change_rows(server: Server) -> list[RatingChange]:
    with server.db.sessions() as session:
        return list(session.scalars(select(RatingChange).order_by(RatingChange.id)))


def game_row(server: Server, game_id: int) -> Game:
    with server.db.sessions() as session:
        return session.get(Game, game_id)


def as_glicko(row: Rating) -> Glicko:
    return Glicko(row.rating, row.deviation, row.volatility)


def run_out_of_time(server: Server, game_id: int) -> None:
    with server.db.engine.begin() as connection:
        connection.execute(update(Game).where(Game.id == game_id).values(deadline=utcnow() - timedelta(minutes=1),
                                                                         next_clock_at=utcnow()))
    with server.db.engine.begin() as connection:
        assert service_on(connection, server).tick_game(game_id) == 1


ENDINGS = {  # how the game ends after each side has moved twice: White's score, and what ends it
    "checkmate": (0.0, lambda server, game_id: play(server, game_id, ("f2-f3", "e7-e5", "g2-g4", "d8-h4"))),
    "resignation": (0.0, lambda server, game_id: (play(server, game_id, KNIGHTS_OUT_AND_BACK),
                                                  send(server, game_id, "white", "resign"))),
    "draw agreed": (0.5, lambda server, game_id: (play(server, game_id, KNIGHTS_OUT_AND_BACK),
                                                  send(server, game_id, "white", "offer draw"),
                                                  send(server, game_id, "black", "accept draw"))),
    "draw by fivefold repetition": (0.5, lambda server, game_id: play(server, game_id, KNIGHTS_OUT_AND_BACK * 4)),
    "loss on time": (0.0, lambda server, game_id: (play(server, game_id, KNIGHTS_OUT_AND_BACK),
                                                   run_out_of_time(server, game_id))),
}


@pytest.mark.parametrize("ending", list(ENDINGS))
def test_every_way_a_rated_game_ends_rates_both_players_once_as_glicko2_computes(server, ending):
    score, end = ENDINGS[ending]
    game_id = new_rated_game(server, ALICE, BOB)
    end(server, game_id)
    finished = game_row(server, game_id)
    assert finished.status == "over" and finished.result == {0.0: "0-1", 0.5: "1/2-1/2"}[score], finished.reason
    white, black = rate_game(Glicko(), Glicko(), score)
    ratings = rating_rows(server)
    for player_id, expected in ((finished.white_id, white), (finished.black_id, black)):
        assert ratings[player_id].games == 1 and ratings[player_id].variant == "side-view"
        assert (ratings[player_id].rating, ratings[player_id].deviation, ratings[player_id].volatility) == \
            pytest.approx((expected.rating, expected.deviation, expected.volatility), abs=1e-9)
    assert [(row.player_id, row.game_id, row.before) for row in change_rows(server)] == [
        (finished.white_id, game_id, 1500), (finished.black_id, game_id, 1500)]


def test_a_game_ended_after_one_side_moved_twice_and_the_other_once_is_not_rated(server):
    game_id = new_rated_game(server, ALICE, BOB)
    play(server, game_id, ("g1-f3", "g8-f6", "f3-g1"))
    send(server, game_id, "black", "resign")
    assert game_row(server, game_id).status == "over"
    assert rating_rows(server) == {} and change_rows(server) == []


def test_an_unrated_game_that_ends_by_mate_is_not_rated(server):
    game_id = new_rated_game(server, ALICE, BOB, rated=False)
    play(server, game_id, ("f2-f3", "e7-e5", "g2-g4", "d8-h4"))
    assert game_row(server, game_id).result == "0-1"
    assert rating_rows(server) == {} and change_rows(server) == []


def test_a_second_rated_game_starts_from_the_first_games_ratings(server):
    first = new_rated_game(server, ALICE, BOB)
    play(server, first, ("f2-f3", "e7-e5", "g2-g4", "d8-h4"))
    after_first = rating_rows(server)
    second = new_rated_game(server, BOB, ALICE)  # Bob is White now
    play(server, second, KNIGHTS_OUT_AND_BACK)
    send(server, second, "black", "resign")  # Alice resigns again
    bob, alice = game_row(server, second).white_id, game_row(server, second).black_id
    bob_after, alice_after = rate_game(as_glicko(after_first[bob]), as_glicko(after_first[alice]), 1.0)
    now = rating_rows(server)
    assert now[bob].games == now[alice].games == 2
    assert now[bob].rating == pytest.approx(bob_after.rating) and now[alice].rating == pytest.approx(alice_after.rating)
    assert [row.before for row in change_rows(server)[2:]] == [after_first[bob].rating, after_first[alice].rating]


# ------------------------------------------------------------------ two games of one player ending at once


def waiting_on_a_lock(admin, database: str) -> list[str]:
    """The statements of the sessions of this database that wait for a lock now."""
    with admin.connect() as connection:
        return list(connection.execute(text(
            "SELECT query FROM pg_stat_activity WHERE datname = :name AND wait_event_type = 'Lock'"),
            {"name": database}).scalars())


@contextmanager
def paused_before_writing_a_rating(engine, thread: threading.Thread) -> Iterator[tuple[threading.Event,
                                                                                       threading.Event]]:
    """In ``thread`` alone, the first statement that writes a rating row waits (``paused`` is set) until ``go``:
    the rating rows are read by then, and locked if they are locked at all."""
    paused, go = threading.Event(), threading.Event()

    def hold(_connection, _cursor, statement, *_rest) -> None:
        if threading.current_thread() is thread and statement.startswith("UPDATE ratings") and not paused.is_set():
            paused.set()
            assert go.wait(30), "never let go"

    event.listen(engine, "before_cursor_execute", hold)
    try:
        yield paused, go
    finally:
        go.set()
        event.remove(engine, "before_cursor_execute", hold)


def resign(server: Server, game_id: int, done: threading.Event, errors: list[BaseException]) -> None:
    """Black resigns, in a transaction (and on a connection) of its own."""
    try:
        with server.db.engine.begin() as connection:
            service = service_on(connection, server)
            game = service.lock(game_id)
            service.submit_text(game, game.black, "resign", ReplyToken(game.id, "black", game.ply))
    except BaseException as error:  # the main thread reports it
        errors.append(error)
    finally:
        done.set()


@pytest.mark.parametrize("before", ["first rated games", "after a rated game"])
def test_two_rated_games_of_one_player_ending_at_once_on_postgresql_both_count(tmp_path, postgres_url, before):
    """Alice plays White against Bob and against Carol, and both resign in two transactions open at once. The
    first is held just after it has read the rating rows, before it writes them: the second must wait for the
    first's lock on Alice's row (inserted by the first when she had none), then rate her game from the rating
    the first left."""
    server = make_server(tmp_path, postgres_url)
    admin = create_engine(postgres_url)
    try:
        if before == "after a rated game":
            earlier = new_rated_game(server, ALICE, DAVE)
            play(server, earlier, KNIGHTS_OUT_AND_BACK)
            send(server, earlier, "black", "resign")
        start = {row.player_id: as_glicko(row) for row in rating_rows(server).values()}
        games = [new_rated_game(server, ALICE, opponent) for opponent in (BOB, CAROL)]
        for game_id in games:
            play(server, game_id, KNIGHTS_OUT_AND_BACK)
        alice = game_row(server, games[0]).white_id
        opponents = [game_row(server, game_id).black_id for game_id in games]

        done, errors = [threading.Event(), threading.Event()], []
        threads = [threading.Thread(target=resign, args=(server, game_id, finished, errors))
                   for game_id, finished in zip(games, done, strict=True)]
        with paused_before_writing_a_rating(server.db.engine, threads[0]) as (paused, go):
            threads[0].start()
            assert paused.wait(30), errors
            threads[1].start()
            database = postgres_url.rsplit("/", 1)[1]
            wait_until(lambda: done[1].is_set() or any("ratings" in query for query in waiting_on_a_lock(admin,
                                                                                                           database)),
                       what="the second game's rating to wait for the first's lock, or to end")
            assert not done[1].is_set(), "the second game was rated without waiting for the first"
            go.set()
            for thread in threads:
                thread.join(30)
        assert errors == []

        alice_start = start.get(alice, Glicko())
        alice_first, bob_after = rate_game(alice_start, Glicko(), 1.0)
        alice_second, carol_after = rate_game(alice_first, Glicko(), 1.0)
        ratings = rating_rows(server)
        assert ratings[alice].games == (3 if before == "after a rated game" else 2)
        assert ratings[alice].rating == pytest.approx(alice_second.rating, abs=1e-9)
        assert ratings[alice].deviation == pytest.approx(alice_second.deviation, abs=1e-9)
        assert ratings[opponents[0]].rating == pytest.approx(bob_after.rating, abs=1e-9)
        assert ratings[opponents[1]].rating == pytest.approx(carol_after.rating, abs=1e-9)
        alices = [row for row in change_rows(server) if row.player_id == alice][-2:]
        assert [row.game_id for row in alices] == games
        assert alices[1].before == pytest.approx(alices[0].rating)
    finally:
        admin.dispose()
        server.db.engine.dispose()


def test_a_listener_freed_before_its_turn_is_an_error_never_a_game_end_left_unheard(server):
    """The turn holds a listener that is a method weakly: one whose object is gone must stop the game's end (and
    its transaction), not skip the ratings or a tournament in silence."""

    class Listener:
        def ended(self, game) -> Ending:
            return Ending()

    game_id = new_rated_game(server, ALICE, BOB)
    with pytest.raises(RuntimeError, match="freed"), server.db.engine.begin() as connection:
        service = service_on(connection, server)
        service.turn.listeners = (held_weakly(Listener().ended),)  # its object freed at once
        game = service.lock(game_id)
        service.submit_text(game, game.white, "resign", ReplyToken(game.id, "white", game.ply))
    with server.db.sessions() as session:
        assert session.get(Game, game_id).status == "active"  # nothing of it was written
