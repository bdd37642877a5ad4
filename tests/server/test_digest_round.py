"""The digest round: each player's digest claimed once, however many workers run it at the same moment."""

import threading

from app.db import utcnow
from app.games.digest import rows
from app.service import Service
from app.worker import Worker
from tests.server.digest_helpers import digest_on, digests_to, move, start_game
from tests.server.harness import Table

PLAYERS = [f"reader{number}@players.test" for number in range(6)]


def readers_to_move(server, count: int) -> list[str]:
    """Players on the digest, each with a game where it is their move."""
    for number, address in enumerate(PLAYERS[:count]):
        digest_on(server, address)
        opponent = f"writer{number}@players.test"
        move(server, start_game(server, "kriegspiel", opponent, address), opponent)
    return PLAYERS[:count]


def test_a_players_digest_is_claimed_by_one_transaction_only(server):
    readers_to_move(server, 1)
    later = utcnow().replace(year=utcnow().year + 1)
    with server.db.engine.begin() as connection:
        (player_id, seen), = Service(connection, server.settings, server.signer, later).due_digests()
        assert rows.claim(connection, player_id, seen, later)
        assert not rows.claim(connection, player_id, seen, later)  # the due time it read is gone


def test_two_workers_at_the_same_moment_send_each_digest_once(postgres_url, tmp_path):
    from tests.conftest import make_server

    server = make_server(tmp_path, postgres_url)
    try:
        readers = readers_to_move(server, len(PLAYERS))
        later = utcnow().replace(year=utcnow().year + 1)  # every digest due
        start = threading.Barrier(3)
        sent: list[int] = []

        def worker_round() -> None:
            worker = Worker(server)
            start.wait()
            sent.append(worker.digests(later))

        threads = [threading.Thread(target=worker_round) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert sum(sent) == len(readers)
        assert [len(digests_to(server, address)) for address in readers] == [1] * len(readers)
        assert Worker(server).digests(later) == 0
        assert all(Table(server).text(address, "digest") for address in readers)
    finally:
        server.db.engine.dispose()
