"""The games the pipeline benchmarks play, and their players' replies as the common mail clients write them.

``prepare`` invites, accepts and sets up a number of games through the pipeline and scripts each game's
orders beforehand on the variant's own state; ``replies_for_ply`` answers the move request each player last
got, a quarter of the players each as Gmail, Outlook, Apple Mail and Thunderbird write a reply; ``run_ours``
hands replies to ``receive``, the door every adapter uses. ``benchmarks.pipeline`` measures them against the
floor, ``benchmarks.checks`` with the sender checks against without, ``benchmarks.fill`` plays one game for
the scale benchmark's template.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from sqlalchemy import select

from app.config import load_settings
from app.db import Database
from app.inbound.clients import reply
from app.inbound.proof import authenticate
from app.inbound.receive import Check, receive
from app.outbound.models import OutboundMessage
from app.rules.base import Variant
from app.rules.registry import get_variant
from app.server import Server
from app.service import Service
from benchmarks.variant_games import play, start_position

QUICK = bool(os.environ.get("MIRRORPOST_BENCH_QUICK"))
GAMES = 4 if QUICK else 20
PLIES = 6 if QUICK else 20
SIDES = ("white", "black")
CLIENTS = ("gmail", "outlook", "apple", "thunderbird")  # game n's players use CLIENTS[n % 4]


def scripted_orders(variant: Variant, rng: random.Random) -> list[tuple[str, str]]:
    """(side, order) for PLIES moves that the referee plays as moves (``moved``), worked out beforehand on the
    variant's own state, hidden setups 518; the referee's own moves in between (a pass) as the server makes
    them. The orders are the variant's legal ones, tried in random order until one is a move."""
    state = start_position(variant)
    orders: list[tuple[str, str]] = []
    while len(orders) < PLIES and (side := variant.orderer(state)) is not None:
        candidates = variant.legal_orders(state)
        order = next((order for order in rng.sample(candidates, len(candidates))
                      if variant.play(variant.from_json(variant.to_json(state)), side, order).result == "moved"), None)
        if order is None:
            break
        play(variant, state, side, order)
        orders.append((side, order))
    return orders


def address(side: str, number: int) -> str:
    return f"{side}{number}@bench.test"


@cache
def players_database(url: str) -> Database:
    """The players' side reads what they were sent through its own connections: a read on the server's
    pool would end in a ROLLBACK there, which empties psycopg's cache of prepared statements."""
    return Database(url)


def latest_mail(server: Server, game_id: int, recipient: str, kind: str) -> bytes:
    """The raw bytes of the newest mail of ``kind`` sent to ``recipient`` about the game."""
    with players_database(server.settings.database_url).sessions() as session:
        mail = session.scalars(
            select(OutboundMessage).where(OutboundMessage.game_id == game_id, OutboundMessage.recipient == recipient,
                                          OutboundMessage.kind == kind).order_by(OutboundMessage.id.desc())
        ).first()
        assert mail is not None, (game_id, recipient, kind)
        return mail.raw


@dataclass(frozen=True)
class Script:
    """One game of the benchmark: its id, its number (which names its players) and its orders."""

    game_id: int
    number: int
    orders: tuple[tuple[str, str], ...]  # (side, order)


def answer_all(server: Server, games: dict[int, int], kind: str, text_for) -> None:
    """Every player of every game (number -> game id) replies to their latest mail of ``kind`` (not timed)."""
    for number, game_id in games.items():
        for side in SIDES:
            sent = latest_mail(server, game_id, address(side, number), kind)
            raw = reply(sent, text_for(side), CLIENTS[number % len(CLIENTS)], address(side, number))
            outcome = receive(server.db, server.settings, server.signer, raw, "bench").outcome
            assert outcome and outcome.startswith("done"), outcome


def server_for(url: str, folder: Path) -> Server:
    return Server.from_settings(load_settings({
        "MIRRORPOST_INSTANCE": str(folder), "DATABASE_URL": url, "SECRET_KEY": "bench",
        "SERVER_EMAIL": "referee@bench.test", "INBOUND_SMTP_PORT": "0"}))


def prepare(url: str, folder: Path, variant_name: str, first: int = 0) -> tuple[Server, list[Script]]:
    """GAMES games of the variant (numbered from ``first``) invited, accepted and set up through the pipeline,
    White to move; each with its scripted orders."""
    server = server_for(url, folder)
    server.db.upgrade()
    variant = get_variant(variant_name)
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        games = {number: service.create_game(variant_name, service.player(address("white", number)),
                                             service.player(address("black", number)), {}, None).id
                 for number in range(first, first + GAMES)}
    answer_all(server, games, "invitation", lambda side: "accept")
    if variant.needs_setup(variant.new_game({}), "white"):
        answer_all(server, games, "setup-request", lambda side: "setup 518")
    rng = random.Random(7)
    return server, [Script(game_id, number, tuple(scripted_orders(variant, rng))) for number, game_id in games.items()]


def replies_for_ply(server: Server, scripts: list[Script], ply: int) -> list[bytes]:
    """Each game's order for this ply, as a reply to the move request the player got."""
    replies = []
    for script in scripts:
        if ply < len(script.orders):
            side, order = script.orders[ply]
            player = address(side, script.number)
            sent = latest_mail(server, script.game_id, player, "request")
            replies.append(reply(sent, order, CLIENTS[script.number % len(CLIENTS)], player))
    return replies


def run_ours(server: Server, messages: list[bytes], check: Check = authenticate) -> int:
    for raw in messages:
        outcome = receive(server.db, server.settings, server.signer, raw, "bench", check=check).outcome
        assert outcome and outcome.startswith("done") and ": moved" in outcome, outcome
    return len(messages)
