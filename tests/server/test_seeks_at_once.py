"""Two players joining one seek at the same moment, in two workers' transactions on PostgreSQL: one game, and the
other told that the seek was taken."""

from __future__ import annotations

import threading

from sqlalchemy import create_engine, event, func, select, text

from app.club.models import Seek
from app.games.errors import ServiceError
from app.games.models import Game
from app.server import Server
from app.service import Service
from tests.conftest import make_server
from tests.server.mailhost import wait_until

ALICE, BOB, CAROL = "alice@players.test", "bob@players.test", "carol@players.test"


def post_seek(server: Server) -> int:
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        return service.seeks.post(service.player(ALICE), "side-view")


def join(server: Server, player: str, number: int, outcome: dict[str, object]) -> None:
    """``join`` in a transaction (and on a connection) of its own, as a worker carries out a confirmed join."""
    try:
        with server.db.engine.begin() as connection:
            service = Service(connection, server.settings, server.signer)
            outcome[player] = service.seeks.join(service.player(player), number).id
    except ServiceError as error:
        outcome[player] = error
    except BaseException as error:  # the main thread reports it
        outcome[player] = error


def test_two_players_joining_one_seek_at_once_on_postgresql_make_one_game(tmp_path, postgres_url):
    """Bob's join is held just before it takes the seek, after both have checked it is open; Carol's join takes it
    meanwhile (or waits for Bob's): whichever order the database decides, one game starts and the other player is
    told the seek was taken."""
    server = make_server(tmp_path, postgres_url)
    admin = create_engine(postgres_url)
    try:
        number = post_seek(server)
        outcome: dict[str, object] = {}
        bob = threading.Thread(target=join, args=(server, BOB, number, outcome))
        carol = threading.Thread(target=join, args=(server, CAROL, number, outcome))
        paused, go = threading.Event(), threading.Event()

        def hold(_connection, _cursor, statement, *_rest) -> None:
            if threading.current_thread() is bob and statement.startswith("UPDATE seeks") and not paused.is_set():
                paused.set()
                assert go.wait(30), "never let go"

        event.listen(server.db.engine, "before_cursor_execute", hold)
        try:
            bob.start()
            assert paused.wait(30), outcome
            carol.start()
            database = postgres_url.rsplit("/", 1)[1]

            def carol_done_or_waiting() -> bool:
                with admin.connect() as connection:
                    waiting = connection.execute(text(
                        "SELECT count(*) FROM pg_stat_activity WHERE datname = :name AND wait_event_type = 'Lock'"),
                        {"name": database}).scalar()
                return CAROL in outcome or bool(waiting)

            wait_until(carol_done_or_waiting, what="Carol's join to end or wait")
        finally:
            go.set()
            bob.join(30)
            carol.join(30)
            event.remove(server.db.engine, "before_cursor_execute", hold)

        games = [value for value in outcome.values() if isinstance(value, int)]
        refused = [value for value in outcome.values() if isinstance(value, ServiceError)]
        assert len(games) == 1 and len(refused) == 1, outcome
        assert f"seek {number} was taken" in str(refused[0])
        with server.db.sessions() as session:
            assert session.scalar(select(func.count()).select_from(Game)) == 1
            seek = session.get(Seek, number)
            assert seek.status == "taken" and seek.game_id == games[0]
    finally:
        server.db.engine.dispose()
        admin.dispose()

