"""The daily digest of a player with many games, against one move request, measured in the same run.

A player on the digest has GAMES running games, of every variant in turn, each set up through the real
pipeline and each at their move (the opponent has moved). In one transaction, with every game locked and
its state decoded (as the digest round has them), the digest is rendered whole (both parts, within its
100 KB: as many sections as fit, the first boards drawn as tables) and, as the baseline, the move
request of each of those games (both parts, as the mailer renders it); the two alternate, and each is
the median of several runs. The ratio of the digest to one move request is the point: a digest costs
about what the handful of games it can show in full costs, not what all the player's games would.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import select

from app.games.digest.mail import DigestMail, Entry
from app.games.mail.mailing import Mailer
from app.games.models import Game
from app.inbound.clients import reply
from app.inbound.receive import receive
from app.outbound.models import OutboundMessage
from app.outbound.render import render
from app.present.registry import DECLARATIONS
from app.rules.registry import get_variant
from app.server import Server, settle_garbage_collection
from app.service import Service
from benchmarks.measure import report
from benchmarks.replies import players_database, server_for

QUICK = bool(os.environ.get("MIRRORPOST_BENCH_QUICK"))
GAMES = 10 if QUICK else 50
RUNS = 3 if QUICK else 15
TARGET = 10.0  # a digest at most this many times one move request
READER = "reader@bench.test"


def answer(server: Server, game_id: int, address: str, text: str) -> str:
    """The player's reply to their latest mail about the game, through ``receive``."""
    with players_database(server.settings.database_url).sessions() as session:
        sent = session.scalars(select(OutboundMessage).where(OutboundMessage.game_id == game_id,
                                                             OutboundMessage.recipient == address)
                               .order_by(OutboundMessage.id.desc())).first()
        assert sent is not None
        raw = sent.raw
    outcome = receive(server.db, server.settings, server.signer, reply(raw, text, "gmail", address), "bench").outcome
    assert outcome and outcome.startswith("done"), outcome
    return outcome


def games_for_reader(server: Server) -> list[int]:
    """GAMES games of the reader (Black, on the digest) against a player each, every variant in turn, each at the
    reader's move: invited, accepted, set up and the opponent's first move made by mail."""
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        service.digests.choose(service.player(READER), 7)
        service.flush()
    names = sorted(DECLARATIONS)
    games = []
    for number in range(GAMES):
        name = names[number % len(names)]
        opponent = f"writer{number}@bench.test"
        with server.db.engine.begin() as connection:
            service = Service(connection, server.settings, server.signer)
            game_id = service.create_game(name, service.player(opponent), service.player(READER),
                                          dict(DECLARATIONS[name].sample.options), None).id
        for address in (opponent, READER):
            answer(server, game_id, address, "accept")
        if get_variant(name).needs_setup(get_variant(name).new_game(dict(DECLARATIONS[name].sample.options)),
                                         "white"):
            for address in (opponent, READER):
                answer(server, game_id, address, "setup 518")
        with server.db.sessions() as session:
            state = session.get(Game, game_id).state
        variant = get_variant(name)
        answer(server, game_id, opponent, sorted(variant.legal_orders(variant.from_json(state)))[0])
        games.append(game_id)
    return games


def measure(server: Server, game_ids: list[int]) -> dict[str, float]:
    """Medians in ms, in one rolled-back transaction with the games locked and decoded: the digest and one move
    request, each rendered and queued (the mail ready to go) and rendered alone; the digest's size and sections."""
    times: dict[str, list[float]] = {"digest": [], "request": [], "digest render": [], "request render": []}
    with server.db.engine.connect() as connection:
        transaction = connection.begin()
        service = Service(connection, server.settings, server.signer)
        player = service.player(READER)
        games = [service.work.lock(game_id) for game_id in game_ids]
        entries = [Entry(game, game.side_of(player), service.work.orderer(game)) for game in games]
        mailer, digest = service.mailer, DigestMail(service.mailer, service.work)
        made = digest.send(player, entries, "digest.1.token")  # warm: templates loaded, states decoded
        for _ in range(RUNS):
            timed(times["digest"], lambda: digest.send(player, entries, "digest.1.token"))
            timed(times["digest render"], lambda: digest.make(player, entries, "digest.1.token"))
            for entry in entries:
                timed(times["request"], lambda entry=entry: mailer.send_request(entry.game, entry.side, [],
                                                                                "your move", "request"))
                timed(times["request render"], lambda entry=entry: request_alone(mailer, entry))
        transaction.rollback()
    result = {name: statistics.median(samples) * 1000 for name, samples in times.items()}
    result["size"] = len(made.text.encode()) + len(made.html.encode())
    result["shown"] = made.text.count("\nYour history of this game:")
    result["plain"] = made.html.count("Drawn in plain type")
    return result


def timed(samples: list[float], work: Callable[[], object]) -> None:
    began = time.perf_counter()
    work()
    samples.append(time.perf_counter() - began)


def request_alone(mailer: Mailer, entry: Entry) -> None:
    """A move request's two parts, as ``Mailer.send_request`` renders them, not queued."""
    context = mailer.request_context(entry.game, entry.side, [], False)
    context.update(subject="your move", rules_url=mailer.rules_url(entry.game))
    render("move_request", context)


def main() -> None:
    print(f"bench digest: the daily digest of a player with {GAMES} running games (every variant in turn, all at "
          "their move), against one move request of those games, in the same run")
    settle_garbage_collection()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        server = server_for(f"sqlite:///{folder / 'digest.sqlite3'}", folder / "instance")
        server.db.upgrade()
        game_ids = games_for_reader(server)
        measured = measure(server, game_ids)
        server.db.engine.dispose()
        players_database(server.settings.database_url).engine.dispose()
    shown, plain = int(measured["shown"]), int(measured["plain"])
    print(f"  the digest shows {shown} of the {GAMES} games with their position ({shown - plain} drawn as tables, "
          f"{plain} in fixed-width type; {measured['size'] / 1024:.0f} KB, both parts), and lists the rest with "
          "their links")
    report(f"digest of {GAMES} games vs one move request", measured["digest"], measured["request"], "ms",
           target=TARGET)
    report("  rendering alone (not queued)", measured["digest render"], measured["request render"], "ms")
