"""How the server's work grows with its database: the same measures at two sizes of a throw-away PostgreSQL.

The database (created and dropped here, on the server of TEST_POSTGRES_URL or 127.0.0.1:5432) is filled to
the smaller size and then to the larger one with copies of one real game's rows (``benchmarks.fill``); fresh
games set up through the pipeline take the moves measured. At each size, after VACUUM ANALYZE:

- a worker round with nothing due: every duty once (sweep, clocks, dispatch, retention);
- a clock round with 100 games due for a reminder;
- a digest round with 20 players due (one player in ten is on the daily digest, each at an hour of their own),
  and what its query reads (EXPLAIN ANALYZE: the rows of the partial index of the players on the digest that
  are due, and no other);
- one inbound move, end to end (``receive``);
- the games page of a player with 300 games, and the history page of one of them;
- the club's pages: the open seeks (``/seeks``, 50 open among every seek ever taken), the home page, and the
  player page of the player with 300 rated games (their rating history drawn);
- the tournaments' pages: ``/tournaments`` (10 open among every tournament finished: one a hundred games, 1,000
  at 100,000 games) and the standings page of a finished Swiss of 16 in 5 rounds; the worker's round with
  nothing due includes the tournaments' start days;
- the outbox claim with 5,000 mails waiting to be sent;
- the storage per game (every table and index, after retention has had its way).

Each is the median of several runs; the ratio between the sizes is the point: the work must grow with what is
due, not with what is stored.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

from sqlalchemy import Engine, event, text

from app import create_app
from app.db import utcnow
from app.games.digest.rows import DUE_PLAYERS, ROUND_BATCH
from app.outbound.outbox import MaildirTransport
from app.rules.registry import DEFAULT_VARIANT
from app.server import Server, settle_garbage_collection
from app.worker import Worker
from benchmarks import fill, tournament
from benchmarks.pipeline import drop_postgres, postgres_database
from benchmarks.replies import PLIES, players_database, prepare, replies_for_ply, run_ours, server_for
from benchmarks.web import signed_in

QUICK = bool(os.environ.get("MIRRORPOST_BENCH_QUICK"))
SIZES = (100, 400) if QUICK else (1_000, 100_000)
HEAVY_GAMES = 20 if QUICK else 300  # the games of the player whose games page is measured
DUE = 10 if QUICK else 100  # games due in the clock round measured
DIGESTS_DUE = 5 if QUICK else 20  # players whose digest is due in the digest round measured
OPEN_TOURNAMENTS = 10  # open at any time, whatever the number finished
OPEN_SEEKS = 50  # open at any time, whatever the number of games (seeks lapse in 14 days)
PENDING = 200 if QUICK else 5_000  # mails waiting when the claim is measured
RUNS = 3 if QUICK else 9
QUIET_RUNS = 3 if QUICK else 21  # a measure of a few ms: more runs, so a busy moment on the machine counts less
WARM_UP = 1 if QUICK else 6  # psycopg prepares a statement on its fifth run
FILL_BATCH = 10_000  # copies per fill statement
TARGET_RATIO = 1.5
TARGET_QUIET_ROUND_MS = 50.0
STORAGE = {"the game record (games, events, players)": ("games", "events", "players"),
           "the club (seeks, ratings and their history)": ("seeks", "ratings", "rating_changes"),
           "tournaments (entries and pairings)": ("tournaments", "tournament_entries", "tournament_pairings"),
           "mail (inbound and outbound rows, whole while young)": ("inbound_messages", "outbound_messages"),
           "sign-in links": ("login_tokens",)}
TABLES = tuple(table for tables in STORAGE.values() for table in tables)


def median_ms(work: Callable[[], object], runs: int = RUNS) -> float:
    samples = []
    for _ in range(runs):
        began = time.perf_counter()
        work()
        samples.append(time.perf_counter() - began)
    return statistics.median(samples) * 1000


class Statements:
    """Counts the statements sent on an engine."""

    def __init__(self, engine: Engine) -> None:
        self.sent = 0
        event.listen(engine, "before_cursor_execute", self._count)

    def _count(self, *_args: object) -> None:
        self.sent += 1


class Scale:
    """The database being grown, and the measures taken on it."""

    def __init__(self, server: Server, folder: Path) -> None:
        self.server = server
        self.folder = folder
        self.worker = Worker(server, MaildirTransport(folder / "sent"))
        self.app = create_app(server)
        self.games = 0
        self.live = 0  # sets of fresh games played for the inbound moves
        with server.db.engine.begin() as connection:
            self.heavy = fill.add_heavy_player(connection, utcnow())
            fill.add_open_seeks(connection, self.heavy, OPEN_SEEKS, utcnow())
            fill.add_open_tournaments(connection, OPEN_TOURNAMENTS, utcnow())
        self.template = fill.play_template(server, folder, PLIES)
        self.counter = Statements(server.db.engine)
        self.digest_reads = ""
        self.reads: dict[int, str] = {}  # size -> what the digest round's query read there

    def grow_to(self, size: int) -> float:
        """Copies of the template up to ``size`` games in all; returns the seconds it took."""
        began = time.perf_counter()
        while self.games < size:
            count = min(FILL_BATCH, size - self.games)
            with self.server.db.engine.begin() as connection:
                fill.fill(connection, self.template, self.games, count, (self.heavy, HEAVY_GAMES), utcnow(),
                          self.server.settings.inbound_retention_days)
            self.games += count
        with self.server.db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text("VACUUM ANALYZE"))
        fill.send_everything(self.server, self.folder)
        return time.perf_counter() - began

    def measure(self) -> dict[str, float]:
        results = {}
        for _ in range(WARM_UP):  # connections made and statements prepared, as in a worker that has been running
            self.worker.run_once()
        results["worker round, nothing due"] = median_ms(self.quiet_round, runs=QUIET_RUNS)
        results[f"clock round, {DUE} games due"] = statistics.median(self.due_round() for _ in range(3)) * 1000
        results[f"digest round, {DIGESTS_DUE} players due"] = statistics.median(
            self.digest_round() for _ in range(3)) * 1000
        results["one inbound move"] = self.inbound_move()
        results[f"games page, player with {HEAVY_GAMES} games"] = self.page("/games")
        results["history page"] = self.page(f"/games/{self.heavy_game()}")
        results[f"seeks page, {OPEN_SEEKS} open"] = self.page("/seeks")
        results["home page"] = self.page("/")
        results[f"player page, {HEAVY_GAMES} rated games"] = self.page(f"/players/{self.heavy}")
        results[f"tournaments page, {OPEN_TOURNAMENTS} open"] = self.page("/tournaments")
        results["standings page, Swiss of 16"] = self.page(f"/tournaments/{self.finished_tournament()}")
        results[f"outbox claim, {PENDING} pending"] = self.claim()
        results["storage per game (KB)"] = self.storage_per_game()
        self.reads[self.games] = self.digest_reads
        return results

    def quiet_round(self) -> None:
        done = self.worker.run_once()
        assert not any(done.values()), done

    def quiet_statements(self) -> int:
        """The statements of one worker round with nothing due."""
        before = self.counter.sent
        self.quiet_round()
        return self.counter.sent - before

    def due_round(self) -> float:
        """DUE copies made running games due for their reminder (not timed), then one clock round (timed: returned)."""
        now = utcnow()
        with self.server.db.engine.begin() as connection:
            connection.execute(text(
                "UPDATE games SET status = 'active', result = NULL, reason = NULL, deadline = :deadline, "
                "next_clock_at = :now - interval '1 minute', reminded = false "
                "WHERE id IN (SELECT id FROM games WHERE id > :template AND NOT reminded AND white_id <> :heavy "
                "ORDER BY id LIMIT :due)"),
                {"deadline": now + timedelta(hours=10), "now": now, "due": DUE, "template": self.template.game_id,
                 "heavy": self.heavy})
        began = time.perf_counter()
        acted = self.worker.clocks()
        elapsed = time.perf_counter() - began
        assert acted == DUE, acted
        fill.send_everything(self.server, self.folder)
        return elapsed

    def digest_round(self) -> float:
        """DIGESTS_DUE players with running games made due for their digest (not timed), then one digest round
        (timed: returned); what its query read is kept for the report (``digest_reads``)."""
        now = utcnow()
        with self.server.db.engine.begin() as connection:
            connection.execute(text(
                "UPDATE players SET digest_hour = 7, digest_due_at = :past WHERE id IN (SELECT DISTINCT white_id "
                "FROM games WHERE status = 'active' AND id > :template AND white_id <> :heavy ORDER BY white_id "
                "LIMIT :due)"), {"past": now - timedelta(minutes=1), "template": self.template.game_id,
                                 "heavy": self.heavy, "due": DIGESTS_DUE})
        self.digest_reads = self.explain_digest_query(now)
        began = time.perf_counter()
        sent = self.worker.digests(now)
        elapsed = time.perf_counter() - began
        assert 0 < sent <= DIGESTS_DUE, sent
        fill.send_everything(self.server, self.folder)
        return elapsed

    def explain_digest_query(self, now: datetime) -> str:
        """What the digest round's query reads, from its plan as run (EXPLAIN ANALYZE): each node's kind, the
        index it goes through, and the rows it read; and how many players there are."""
        with self.server.db.engine.connect() as connection:
            compiled = DUE_PLAYERS.compile(dialect=connection.dialect)
            plan = connection.exec_driver_sql("EXPLAIN (ANALYZE, FORMAT JSON) " + str(compiled),
                                              compiled.construct_params({"now": now, "limit": ROUND_BATCH})).scalar()
            players, on_digest = connection.execute(text(
                "SELECT count(*), count(digest_due_at) FROM players")).one()
        nodes, found = [plan[0]["Plan"]], []
        while nodes:
            node = nodes.pop()
            nodes += node.get("Plans", [])
            if "Relation Name" in node:  # rows read: those it returned and those its filter dropped
                read = node["Actual Rows"] + node.get("Rows Removed by Filter", 0)
                found.append(f"{node['Node Type']}{' using ' + node['Index Name'] if 'Index Name' in node else ''} "
                             f"on {node['Relation Name']}: {read} rows read, {node['Actual Rows']} kept")
        return f"{'; '.join(found)} (of {players:,} players, {on_digest:,} on the digest)"

    def inbound_move(self) -> float:
        """Median time of ``receive`` for moves of fresh games set up through the pipeline."""
        self.live += 1
        server, scripts = prepare(self.server.settings.database_url, self.folder / f"live{self.live}",
                                  DEFAULT_VARIANT, first=self.live * 1000)
        samples = []
        for ply in range(min(PLIES, 6)):
            for raw in replies_for_ply(server, scripts, ply):
                began = time.perf_counter()
                run_ours(server, [raw])
                samples.append(time.perf_counter() - began)
        server.db.engine.dispose()
        fill.send_everything(self.server, self.folder)
        return statistics.median(samples) * 1000

    def heavy_game(self) -> int:
        with self.server.db.engine.connect() as connection:
            return connection.execute(text("SELECT min(id) FROM games WHERE white_id = :heavy"),
                                      {"heavy": self.heavy}).scalar_one()

    def finished_tournament(self) -> int:
        """The first finished Swiss: the same one at every size."""
        with self.server.db.engine.connect() as connection:
            return connection.execute(text("SELECT min(id) FROM tournaments WHERE status = 'finished'")).scalar_one()

    def page(self, path: str) -> float:
        client = signed_in(self.app, self.server.settings, self.heavy_game(), self.heavy)

        def get() -> None:
            response = client.get(path)
            assert response.status_code == 200, response.status_code

        get()
        return median_ms(get)

    def claim(self) -> float:
        """PENDING mails waiting (copies of sent ones), then claims of 20 each, timed; then they are removed."""
        with self.server.db.engine.begin() as connection:
            connection.execute(text(
                "INSERT INTO outbound_messages (message_id, recipient, kind, subject, headers, body_text, body_html, "
                "game_id, status, attempts, next_attempt_at, created_at) "
                "SELECT '<pending.' || n || '.' || :stamp || '@scale.test>', o.recipient, o.kind, o.subject, "
                "o.headers, o.body_text, o.body_html, o.game_id, 'pending', 0, :now, :now "
                "FROM generate_series(1, :pending) AS n, "
                "LATERAL (SELECT * FROM outbound_messages WHERE game_id = :template ORDER BY id "
                "OFFSET n % 10 LIMIT 1) AS o"),
                {"pending": PENDING, "now": utcnow(), "template": self.template.game_id, "stamp": time.time_ns()})
        with self.server.db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text("ANALYZE outbound_messages"))
        dispatcher = self.worker.dispatcher
        elapsed = median_ms(lambda: dispatcher.claim(20), runs=QUIET_RUNS)  # a few milliseconds, as the quiet round
        with self.server.db.engine.begin() as connection:  # gone, for the next size's quiet round
            connection.execute(text("DELETE FROM outbound_messages WHERE message_id LIKE '<pending.%'"))
        return elapsed

    def storage_per_game(self) -> float:
        """Every table with its indexes and TOAST, per game (KB); the split is kept for the report."""
        with self.server.db.engine.connect() as connection:
            sizes = {table: connection.execute(text("SELECT pg_total_relation_size(:table)"), {"table": table})
                     .scalar_one() for table in TABLES}
            games = connection.execute(text("SELECT count(*) FROM games")).scalar_one()
        self.storage = {part: sum(sizes[table] for table in tables) / games / 1024 for part, tables in STORAGE.items()}
        return sum(sizes.values()) / games / 1024


def main(sizes: tuple[int, ...] = ()) -> None:
    sizes = tuple(sorted(set(sizes))) or SIZES
    print(f"bench scale: PostgreSQL filled to {' and '.join(f'{size:,}' for size in sizes)} games (copies of one "
          "real game's rows), the same measures at each size (median of several runs)")
    url = postgres_database()
    if url is None:
        print("  PostgreSQL: not reachable, skipped")
        return
    settle_garbage_collection()
    try:
        with tempfile.TemporaryDirectory() as scratch:
            run(url, Path(scratch), sizes)
    finally:
        players_database(url).engine.dispose()
        drop_postgres(url)


def run(url: str, folder: Path, sizes: tuple[int, ...]) -> None:
    server = server_for(url, folder / "instance")
    server.db.upgrade()
    scale = Scale(server, folder)
    measured: dict[int, dict[str, float]] = {}
    quiet_statements = {}
    for size in sizes:
        seconds = scale.grow_to(size)
        print(f"  filled to {size:,} games in {seconds:.0f} s")
        measured[size] = scale.measure()
        quiet_statements[size] = scale.quiet_statements()
    server.db.engine.dispose()
    report(measured, quiet_statements)
    for size, reads in scale.reads.items():
        print(f"  digest round's query at {size:,} games: {reads}")
    print(f"  storage per game at {sizes[-1]:,} games, {fill.ACTIVE_DAYS} of {fill.SPAN_DAYS} days' games under way: "
          + "; ".join(f"{part} {kb:.1f} KB" for part, kb in scale.storage.items()))
    slowest = tournament.slowest_round_ms()
    verdict = "met" if slowest < tournament.TARGET_SECONDS * 1000 else "NOT met"
    print(f"  pairing one round of a {tournament.PLAYERS}-player Swiss (the slowest of its rounds): {slowest:.0f} ms "
          f"(target < {tournament.TARGET_SECONDS * 1000:.0f} ms: {verdict})")


def report(measured: dict[int, dict[str, float]], quiet_statements: dict[int, int]) -> None:
    sizes = list(measured)
    small, large = sizes[0], sizes[-1]
    header = "".join(f"{f'{size:,} games':>16}" for size in sizes)
    print(f"  {'':<40}{header}   ratio")
    for name in measured[small]:
        unit = "" if name.startswith("storage") else " ms"
        values = "".join(f"{measured[size][name]:>13.2f}{unit or '   '}" for size in sizes)
        line = f"  {name:<40}{values}"
        if large != small:
            ratio = measured[large][name] / measured[small][name]
            verdict = "met" if ratio <= TARGET_RATIO else "NOT met"
            line += f"   {ratio:5.2f}x (target <= {TARGET_RATIO:g}x: {verdict})"
        print(line)
    print("  statements in a worker round with nothing due: "
          + ", ".join(f"{quiet_statements[size]} at {size:,} games" for size in sizes))
    quiet = measured[large]["worker round, nothing due"]
    verdict = "met" if quiet < TARGET_QUIET_ROUND_MS else "NOT met"
    print(f"  worker round with nothing due at {large:,} games: {quiet:.1f} ms "
          f"(target under {TARGET_QUIET_ROUND_MS:g} ms: {verdict})")
