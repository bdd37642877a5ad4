"""Inbound moves per second, end to end, against the floor of parsing and committing each message.

Ours: store the raw reply, then parse, screen, authenticate, strip quotes, read,
adjudicate, record the event, render both mails and commit. Floor, measured in
the same run on the same database: parse the same MIME and commit one row per
message. Runs on SQLite and, when it answers, PostgreSQL.
"""

from __future__ import annotations

import os
import random
import secrets
import tempfile
import time
from email.message import EmailMessage
from email.policy import SMTP, default
from pathlib import Path

from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url

from app.config import load_settings
from app.db import make_engine
from app.games.service import GameService
from app.mail.inbound import receive
from app.mail.parse import parse
from app.rules.looking_glass import LookingGlass
from app.rules.looking_glass.random_orders import home_order
from app.server import Server
from app.tokens import ReplyToken
from benchmarks.measure import peak_memory, report

QUICK = bool(os.environ.get("MIRRORPOST_BENCH_QUICK"))
GAMES = 4 if QUICK else 20
PLIES = 6 if QUICK else 20
POSTGRES = os.environ.get("TEST_POSTGRES_URL") or "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
CHUNK = 20
QUOTE = "\n".join(f"> line {n} of the move request we sent, with its diagrams and order forms" for n in range(60))
LG = LookingGlass()


def scripted_orders(rng: random.Random) -> list[str]:
    """Legal home-world moves for a game, worked out with the referee beforehand."""
    state = LG.new_game({})
    LG.play(state, "white", "setup 518")
    LG.play(state, "black", "setup 518")
    orders = []
    for _ in range(PLIES):
        side = LG.orderer(state)
        if side is None:
            break
        order = home_order(state, side, side, rng)
        if order is None:
            break
        LG.play(state, side, order)
        orders.append(order)
    return orders


def reply(server: Server, game_id: int, side: str, ply: int, order: str, sender: str) -> bytes:
    token = server.signer.reply_token(ReplyToken(game_id, side, ply))
    message = EmailMessage(policy=default)
    message["From"] = sender
    message["To"] = f"referee+{token}@{server.settings.server_domain}"
    message["Subject"] = f"Re: Game {game_id}, your move"
    message["Message-ID"] = f"<{secrets.token_hex(12)}@bench.test>"
    message.set_content(f"{order}\n\nOn Monday, Mirrorpost referee wrote:\n{QUOTE}\n")
    return message.as_bytes(policy=SMTP)


def prepare(url: str, folder: Path) -> tuple[Server, list[bytes]]:
    settings = load_settings({"MIRRORPOST_INSTANCE": str(folder), "DATABASE_URL": url, "SECRET_KEY": "bench",
                              "SERVER_EMAIL": "referee@bench.test", "INBOUND_SMTP_PORT": "0"})
    server = Server.from_settings(settings)
    server.db.upgrade()
    rng = random.Random(7)
    scripts = []
    with server.db.engine.begin() as connection:
        service = GameService(connection, settings, server.signer)
        for number in range(GAMES):
            white = service.player(f"white{number}@bench.test")
            black = service.player(f"black{number}@bench.test")
            game = service.create_game("looking-glass", white, black, {}, None)
            game.white_accepted = game.black_accepted = True
            state = LG.new_game({})
            LG.play(state, "white", "setup 518")
            LG.play(state, "black", "setup 518")
            game.state, game.status = LG.to_json(state), "active"
            service.flush()
            scripts.append((game.id, scripted_orders(rng)))
    messages = []
    for ply in range(PLIES):
        for game_id, orders in scripts:
            if ply < len(orders):
                side = "white" if ply % 2 == 0 else "black"
                sender = f"{side}{game_id - 1}@bench.test"
                messages.append(reply(server, game_id, side, ply, orders[ply], sender))
    return server, messages


def run_ours(server: Server, messages: list[bytes]) -> int:
    for raw in messages:
        outcome = receive(server.db, server.settings, server.signer, raw, "bench").outcome
        assert outcome and outcome.startswith("done"), outcome
    return len(messages)


def dispatch_all(server: Server) -> tuple[int, float]:
    """Send everything the moves queued; returns (mails, seconds)."""
    dispatcher = server.dispatcher()
    began = time.perf_counter()
    mails = 0
    while sent := dispatcher.run_once(limit=100):
        mails += sent
    return mails, time.perf_counter() - began


def floor_table(url: str) -> Engine:
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE IF NOT EXISTS floor_rows (id INTEGER PRIMARY KEY, "
                                "subject TEXT, body TEXT)"))
    return engine


def run_floor(engine: Engine, messages: list[bytes], first: int = 0) -> int:
    """The floor: parse the same MIME and commit one row per message, on the same kind of database."""
    for number, raw in enumerate(messages, start=first):
        parsed = parse(raw)
        with engine.begin() as connection:
            connection.execute(text("INSERT INTO floor_rows (id, subject, body) VALUES (:i, :s, :b)"),
                               {"i": number, "s": parsed.subject, "b": parsed.text})
    return len(messages)


def postgres_database() -> str | None:
    try:
        admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 3})
        name = f"mirrorpost_bench_{secrets.token_hex(4)}"
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        admin.dispose()
        return make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)
    except Exception:  # no PostgreSQL here: SQLite only
        return None


def drop_postgres(url: str) -> None:
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)'))
    admin.dispose()


def measure(label: str, make_url_for) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        url, floor_url = make_url_for(folder, "ours"), make_url_for(folder, "floor")
        server, messages = prepare(url, folder / "instance")
        floor_engine = floor_table(floor_url)
        ours = floor = cpu = 0.0
        moves = 0
        for start in range(0, len(messages), CHUNK):  # alternate, so noise on the machine hits both alike
            chunk = messages[start : start + CHUNK]
            began, began_cpu = time.perf_counter(), time.process_time()
            moves += run_ours(server, chunk)
            ours += time.perf_counter() - began
            cpu += time.process_time() - began_cpu
            began = time.perf_counter()
            run_floor(floor_engine, chunk, start)
            floor += time.perf_counter() - began
        floor_engine.dispose()
        print(f"  {label}: {moves} moves in {GAMES} games, one worker process")
        print(f"    end to end: {moves / ours:8.1f} moves/s   floor (parse + commit a row): {moves / floor:8.1f}/s")
        print(f"    CPU of the worker process: {cpu / moves * 1000:.2f} ms per move "
              f"({moves / cpu:.0f} moves per CPU-second; the database server's own CPU is not counted)")
        report(f"{label} time per move vs floor", ours / moves * 1000, floor / moves * 1000, "ms", target=5)
        mails, seconds = dispatch_all(server)
        print(f"    then sending the {mails} mails (assemble MIME, write to the Maildir, mark sent): "
              f"{seconds / mails * 1000:.2f} ms per mail, outside the players' transactions")
        server.db.engine.dispose()
        memory_server, memory_messages = prepare(make_url_for(folder, "memory"), folder / "instance2")
        sample = memory_messages[: min(40, len(memory_messages))]
        ours_peak = peak_memory(lambda: run_ours(memory_server, sample))
        floor_engine = floor_table(make_url_for(folder, "floor2"))
        floor_peak = peak_memory(lambda: run_floor(floor_engine, sample))
        floor_engine.dispose()
        memory_server.db.engine.dispose()
        report(f"{label} peak memory, {len(sample)} moves", ours_peak / 1024, floor_peak / 1024, "KiB")
        for name in ("ours", "floor", "memory", "floor2"):
            if url.startswith("postgresql"):
                drop_postgres(make_url_for(folder, name))


def main() -> None:
    print("bench pipeline: inbound moves end to end (parse, authenticate, adjudicate, render both mails, commit)")
    measure("SQLite", lambda folder, name: f"sqlite:///{folder / (name + '.sqlite3')}")
    urls: dict[str, str] = {}

    def postgres_for(folder: Path, name: str) -> str:
        if name not in urls:
            made = postgres_database()
            assert made
            urls[name] = made
        return urls[name]

    if postgres_database_available():
        measure("PostgreSQL", postgres_for)
        print("    target: 200 moves/s per core on PostgreSQL, and at most 5x the floor")
    else:
        print("  PostgreSQL: not reachable, skipped")


def postgres_database_available() -> bool:
    url = postgres_database()
    if url is None:
        return False
    drop_postgres(url)
    return True
