"""Rendering a player's history page, for games of 50, 100, 200 and 300 events.

The page shows one step (two SVG diagrams) and the list of every step, so its
cost should grow linearly with the number of events. Baseline, measured in the
same run: the sign-in page, which touches no game.
"""

from __future__ import annotations

import os
import random
import re
import secrets
import statistics
import tempfile
import time
from pathlib import Path

from app import create_app
from app.config import load_settings
from app.db import utcnow
from app.games.models import Game, Player
from app.games.records import rows
from app.rules.base import Variant
from app.rules.registry import DEFAULT_VARIANT, get_variant
from app.server import Server
from app.service import Service
from app.web.models import LoginToken
from app.web.signin_links import link_serializer
from benchmarks.measure import peak_memory, report
from benchmarks.variant_games import start_position

QUICK = bool(os.environ.get("MIRRORPOST_BENCH_QUICK"))


def signed_in(app, settings, game_id: int, player_id: int):
    """A test client signed in as a player does: a mailed sign-in link's page, then its button (the link's row
    made here rather than asked for and mailed)."""
    client = app.test_client()
    nonce = secrets.token_urlsafe(24)
    with app.extensions["mirrorpost"].db.transaction() as session:
        email = session.get(Player, player_id).email
        session.add(LoginToken(nonce=nonce, email=email, player_id=player_id, client="bench"))
    path = "/login/" + link_serializer(settings.secret_key).dumps(nonce)
    page = client.get(path).data.decode()
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    client.post(path, data={"csrf_token": csrf})
    assert client.get(f"/games/{game_id}").status_code == 200
    return client
SIZES = (50, 100) if QUICK else (50, 100, 200, 300)
RUNS = 5 if QUICK else 25


def build_game(server: Server, variant: Variant, events: int, seed: int) -> tuple[int, int]:
    """A running game of the variant with exactly ``events`` recorded events (random legal moves)."""
    rng = random.Random(seed)
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        white = service.player(f"white{seed}@bench.test")
        black = service.player(f"black{seed}@bench.test")
        game = service.create_game(variant.name, white, black, {}, None)
        state = start_position(variant)
        recorded = 0
        while recorded < events:
            side = variant.orderer(state)
            legal = variant.legal_orders(state) if side is not None else []
            if not legal:  # a game that ended early: go on counting on a fresh board
                state = start_position(variant)
                continue
            order = rng.choice(legal)
            number = variant.move_number(state)
            outcome = variant.play(state, side, order)
            recorded += 1
            rows.add_event(connection, {
                "game_id": game.id, "seq": recorded, "by": side, "order": order, "result": outcome.result,
                "move_number": number, "ply": 0, "told": outcome.to,
                "views": {s: variant.view(state, s) for s in ("white", "black")},
                "position": variant.position(state), "created_at": utcnow()})
        game.state, game.status, game.last_seq = variant.to_json(state), "active", recorded
        service.flush()
        return game.id, white.id


def timed(client, path: str) -> float:
    samples = []
    for _ in range(RUNS):
        start = time.perf_counter()
        response = client.get(path)
        samples.append(time.perf_counter() - start)
        assert response.status_code == 200, response.status_code
    return statistics.median(samples) * 1000


def linear_fit(results: dict[int, float]) -> tuple[float, float]:
    """Least-squares slope and intercept of time against events."""
    xs, ys = list(results), list(results.values())
    mean_x, mean_y = statistics.fmean(xs), statistics.fmean(ys)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / sum((x - mean_x) ** 2 for x in xs)
    return slope, mean_y - slope * mean_x


def main(variants: list[str] | None = None) -> None:
    """The history page of each named variant's games (the main game's when none is named)."""
    try:
        chosen = [get_variant(name) for name in variants or [DEFAULT_VARIANT]]
    except KeyError as error:
        raise SystemExit(error.args[0]) from None
    for variant in chosen:
        measure(variant)


def measure(variant: Variant) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        settings = load_settings({"MIRRORPOST_INSTANCE": str(folder), "SECRET_KEY": "bench",
                                  "DATABASE_URL": f"sqlite:///{folder / 'web.sqlite3'}", "INBOUND_SMTP_PORT": "0"})
        server = Server.from_settings(settings)
        server.db.upgrade()
        app = create_app(server)
        print(f"bench web: the history page of one player of {variant.name}, on SQLite (median of "
              f"{RUNS} renders each)")
        baseline_client = app.test_client()
        baseline = timed(baseline_client, "/login")
        print(f"  baseline (sign-in page): {baseline:.2f} ms")
        results = {}
        for size in SIZES:
            game_id, white_id = build_game(server, variant, size, size)
            client = signed_in(app, settings, game_id, white_id)
            with server.db.sessions() as session:
                assert session.get(Game, game_id).last_seq == size
            results[size] = timed(client, f"/games/{game_id}")
            report(f"history page, {size} events", results[size], baseline, "ms",
                   target=None)
        slope, fixed = linear_fit(results)
        print(f"  linear fit: {fixed:.2f} ms fixed (one step's diagrams) + {slope * 1000:.1f} us per event")
        for size, measured in results.items():
            print(f"    {size:>4} events: measured {measured:6.2f} ms, line {fixed + slope * size:6.2f} ms")
        biggest = SIZES[-1]
        verdict = "met" if results[biggest] < 50 else "NOT met"
        print(f"  {biggest} events: {results[biggest]:.1f} ms (target under 50 ms: {verdict})")
        game_id, white_id = build_game(server, variant, SIZES[-1], 999)
        client = signed_in(app, settings, game_id, white_id)
        ours = peak_memory(lambda: client.get(f"/games/{game_id}"))
        base = peak_memory(lambda: baseline_client.get("/login"))
        report(f"peak memory, history page of {biggest} events", ours / 1024, base / 1024, "KiB")
        server.db.engine.dispose()
