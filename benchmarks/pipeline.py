"""Inbound moves per second, end to end, against the floor of parsing and committing each message.

Ours: ``receive`` (the door every adapter uses): store the raw reply, then parse,
screen, authenticate, strip quotes, read, adjudicate, record the event, render
both mails and commit. Floor, measured in the same run on the same database:
parse the same MIME and commit one row per message. Runs on SQLite and, when it
answers, PostgreSQL.

Every move is a reply to the real move request the player received, as the common
clients write it, a quarter each: Gmail and Outlook (multipart, the request quoted in
the text and the HTML part), Apple Mail and Thunderbird (plain text, ``>`` quotes),
all with In-Reply-To and References. The games are accepted and set up through the
pipeline first.
Replies are made before the clock starts; ours and the floor alternate ply by ply,
so noise on the machine hits both alike.

On PostgreSQL it then runs as many worker processes as the machine has cores, each
with its own games, all receiving their moves at the same time. Then the cost of the sender
checks: the same games with signed replies, checked, against unsigned ones not checked, on SQLite and
PostgreSQL (``benchmarks.checks``).
"""

from __future__ import annotations

import multiprocessing
import os
import secrets
import tempfile
import time
from pathlib import Path

from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url

from app.db import make_engine
from app.inbound.parse import parse
from app.rules.registry import DEFAULT_VARIANT, get_variant
from app.server import Server, settle_garbage_collection
from benchmarks.checks import measure_checks
from benchmarks.measure import cpu_since, database_server_cpu, peak_memory, report
from benchmarks.replies import (
    CLIENTS,
    GAMES,
    PLIES,
    Script,
    players_database,
    prepare,
    replies_for_ply,
    run_ours,
    server_for,
)

POSTGRES = os.environ.get("TEST_POSTGRES_URL") or "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


def worker_process(url: str, folder: Path, scripts: list[Script], barrier, durations) -> None:
    """One of several workers at once: ply by ply, its replies made, then all start together."""
    server = server_for(url, folder)
    settle_garbage_collection()  # as the ``worker`` command does once it has started
    for ply in range(PLIES):
        messages = replies_for_ply(server, scripts, ply)
        barrier.wait()
        began = time.perf_counter()
        run_ours(server, messages)
        durations.put((ply, time.perf_counter() - began, len(messages)))
        barrier.wait()  # nobody makes the next replies while another still works
    server.db.engine.dispose()
    players_database(url).engine.dispose()


def run_concurrently(url: str, folder: Path, workers: int, variant_name: str) -> tuple[int, float]:
    """``workers`` processes, GAMES games each, receiving their moves at once; returns (moves, seconds).

    A ply takes as long as its slowest worker; the replies are made between plies, off the clock.
    """
    all_scripts = []
    for index in range(workers):
        server, scripts = prepare(url, folder / f"worker{index}", variant_name, first=(index + 1) * 1000)
        server.db.engine.dispose()
        players_database(url).engine.dispose()
        all_scripts.append(scripts)
    context = multiprocessing.get_context("spawn")  # no connection is carried into a child
    barrier, durations = context.Barrier(workers), context.Queue()
    processes = [context.Process(target=worker_process, args=(url, folder / f"worker{index}", scripts,
                                                               barrier, durations))
                 for index, scripts in enumerate(all_scripts)]
    for process in processes:
        process.start()
    slowest: dict[int, float] = {}
    moves = 0
    for _ in range(workers * PLIES):
        ply, seconds, done = durations.get(timeout=600)
        slowest[ply] = max(slowest.get(ply, 0.0), seconds)
        moves += done
    for process in processes:
        process.join(60)
        assert process.exitcode == 0, process.exitcode
    return moves, sum(slowest.values())


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


def measure(label: str, make_url_for, variant_name: str) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        url, floor_url = make_url_for(folder, "ours"), make_url_for(folder, "floor")
        local_server = url.startswith("postgresql") and make_url(url).host in (None, "localhost", "127.0.0.1", "::1")
        reads_server = local_server and database_server_cpu() is not None

        def server_reading() -> dict[int, float]:
            return (database_server_cpu() or {}) if reads_server else {}

        server, scripts = prepare(url, folder / "instance", variant_name)
        floor_engine = floor_table(floor_url)
        ours = floor = cpu = server_cpu = 0.0
        moves = floored = 0
        for ply in range(PLIES):
            messages = replies_for_ply(server, scripts, ply)
            began_server = server_reading()
            began, began_cpu = time.perf_counter(), time.process_time()
            moves += run_ours(server, messages)
            ours += time.perf_counter() - began
            cpu += time.process_time() - began_cpu
            server_cpu += cpu_since(began_server, server_reading())
            began = time.perf_counter()
            floored += run_floor(floor_engine, messages, floored)
            floor += time.perf_counter() - began
        floor_engine.dispose()
        print(f"  {label}: {moves} moves in {GAMES} games of {variant_name}, one worker process; replies to the "
              "real requests "
              f"as {', '.join(CLIENTS)} write them")
        per_core = f"   ({per_core_verdict(moves / ours)})" if url.startswith("postgresql") else ""
        print(f"    end to end: {moves / ours:8.1f} moves/s   floor (parse + commit a row): {floored / floor:8.1f}/s"
              + per_core)
        print(f"    CPU of the worker process: {cpu / moves * 1000:.2f} ms per move "
              f"({moves / cpu:.0f} moves per CPU-second; the database server's own CPU is not counted)")
        if reads_server:
            print(f"    CPU of the database server on this machine (all its processes): "
                  f"{server_cpu / moves * 1000:.2f} ms per move; worker and server together "
                  f"{moves / (cpu + server_cpu):.0f} moves per CPU-second")
        report(f"{label} time per move vs floor", ours / moves * 1000, floor / floored * 1000, "ms",
               target=FLOOR_TARGET)
        mails, seconds = dispatch_all(server)
        print(f"    then sending the {mails} mails (assemble MIME, write to the Maildir, mark sent): "
              f"{seconds / mails * 1000:.2f} ms per mail, outside the players' transactions")
        server.db.engine.dispose()
        players_database(url).engine.dispose()
        memory_server, memory_scripts = prepare(make_url_for(folder, "memory"), folder / "instance2", variant_name)
        sample = replies_for_ply(memory_server, memory_scripts, 0)
        ours_peak = peak_memory(lambda: run_ours(memory_server, sample))
        floor_engine = floor_table(make_url_for(folder, "floor2"))
        floor_peak = peak_memory(lambda: run_floor(floor_engine, sample))
        floor_engine.dispose()
        memory_server.db.engine.dispose()
        players_database(make_url_for(folder, "memory")).engine.dispose()
        report(f"{label} peak memory, {len(sample)} moves", ours_peak / 1024, floor_peak / 1024, "KiB")
        if url.startswith("postgresql"):
            workers = os.cpu_count() or 2
            moves, seconds = run_concurrently(make_url_for(folder, "workers"), folder, workers, variant_name)
            print(f"    {workers} worker processes at once, {GAMES} games each: {moves / seconds:.1f} moves/s "
                  f"together, {moves / seconds / workers:.1f} per core (the database server shares these cores; "
                  f"{per_core_verdict(moves / seconds / workers)})")
            for name in ("ours", "floor", "memory", "floor2", "workers"):
                drop_postgres(make_url_for(folder, name))


PER_CORE_TARGET = 200.0  # moves a second per core on PostgreSQL
FLOOR_TARGET = 4.0  # at most this many times the floor's time per move


def per_core_verdict(moves_per_second: float) -> str:
    met = "met" if moves_per_second >= PER_CORE_TARGET else "NOT met"  # as ``report`` says it
    return f"target {PER_CORE_TARGET:.0f} moves/s per core: {met}"


def main(variants: list[str] | None = None) -> None:
    """Each named variant's games (the main game's when none is named), on SQLite and PostgreSQL."""
    print("bench pipeline: inbound moves end to end (parse, authenticate, adjudicate, render both mails, commit)")
    settle_garbage_collection()  # this process is the worker: set up as the ``worker`` command does
    names = variants or [DEFAULT_VARIANT]
    try:
        for name in names:
            get_variant(name)
    except KeyError as error:
        raise SystemExit(error.args[0]) from None
    for variant_name in names:
        measure_variant(variant_name)


def measure_variant(variant_name: str) -> None:
    measure("SQLite", lambda folder, name: f"sqlite:///{folder / (name + '.sqlite3')}", variant_name)
    measure_checks(variant_name)
    urls: dict[str, str] = {}

    def postgres_for(folder: Path, name: str) -> str:
        if name not in urls:
            made = postgres_database()
            assert made
            urls[name] = made
        return urls[name]

    if postgres_database_available():
        measure("PostgreSQL", postgres_for, variant_name)
        print(f"    target: {PER_CORE_TARGET:.0f} moves/s per core on PostgreSQL, "
              f"and at most {FLOOR_TARGET:g}x the floor")
        made: dict[str, str] = {}

        def checks_database(folder: Path, name: str) -> str:
            made[name] = made.get(name) or postgres_database() or ""
            assert made[name]
            return made[name]

        try:
            measure_checks(variant_name, "PostgreSQL", checks_database)
        finally:
            for url in made.values():
                drop_postgres(url)
    else:
        print("  PostgreSQL: not reachable, skipped")


def postgres_database_available() -> bool:
    url = postgres_database()
    if url is None:
        return False
    drop_postgres(url)
    return True
