"""Filling a throw-away PostgreSQL database to many games, with the rows one real game leaves behind.

One game is played through the real pipeline (invited, accepted and set up by mail, then its moves as replies
to the real move requests, every mail sent), and its rows are copied in SQL, once per game: the game row, its
events (what each player was told and saw), its processed inbound replies and its sent mails. Each copy is a
game of two players of a pool, dated somewhere in the last two years: a copy younger than ACTIVE_DAYS is still
running (its next reminder a day or more away), an older one is over. What retention would have dropped from an
old copy is dropped (its replies' raw bytes, its mails' headers and parts), as on a server that has run that long (a day
early, so that none comes of age while the measures run).

The club grows with them: every copy is a rated game that came from a seek (the seek kept, taken), every
finished copy changed both its players' ratings (two rows of rating history), every player of the pool has a
rating; the open seeks are a fixed number (``add_open_seeks``), as on a club whose players come and go.
Tournaments grow with the games too: one finished Swiss of 16 players in 5 rounds (40 of the copies, made its
games) for every TOURNAMENT_SHARE copies, so that 100,000 games hold 1,000 tournaments; the open ones are a
fixed number (``add_open_tournaments``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from sqlalchemy import Connection, text

from app.inbound.clients import reply
from app.outbound.outbox import MaildirTransport
from app.rules.registry import DEFAULT_VARIANT, get_variant
from app.server import Server
from app.service import Service
from benchmarks.replies import CLIENTS, address, answer_all, latest_mail, run_ours, scripted_orders

SPAN_DAYS = 730  # copies are dated over the last two years
ACTIVE_DAYS = 40  # a copy younger than this is a game still under way
DIGEST_SHARE = 10  # one player in this many is on the daily digest
TOURNAMENT_SHARE = 100  # copies for each finished tournament
TOURNAMENT_PLAYERS, TOURNAMENT_ROUNDS = 16, 5  # a Swiss of 16 in 5 rounds: 8 boards a round, 40 games
SPREAD = 10007  # copies' ages: (number * 7919) mod SPREAD, in SPREAD-ths of the span (a prime: all differ)


@dataclass(frozen=True)
class Template:
    """The game whose rows are copied, and its players' addresses (each copy's players stand in for them)."""

    game_id: int
    white: str
    black: str


def play_template(server: Server, folder: Path, plies: int) -> Template:
    """One game through the real pipeline: invitations, setups, ``plies`` moves by reply, every mail sent."""
    number = 999_999  # its players are address("white", number) and address("black", number)
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        game_id = service.create_game(DEFAULT_VARIANT, service.player(address("white", number)),
                                      service.player(address("black", number)), {}, None).id
    answer_all(server, {number: game_id}, "invitation", lambda side: "accept")
    answer_all(server, {number: game_id}, "setup-request", lambda side: "setup 518")
    for ply, (side, order) in enumerate(scripted_orders(get_variant(DEFAULT_VARIANT), random.Random(11))[:plies]):
        player = address(side, number)
        sent = latest_mail(server, game_id, player, "request")
        run_ours(server, [reply(sent, order, CLIENTS[ply % len(CLIENTS)], player)])
    send_everything(server, folder)
    return Template(game_id, address("white", number), address("black", number))


def send_everything(server: Server, folder: Path) -> int:
    dispatcher = server.dispatcher(MaildirTransport(folder / "sent"))
    sent = 0
    while done := dispatcher.run_once(limit=200):
        sent += done
    return sent


def add_heavy_player(connection: Connection, now: datetime) -> int:
    """The player with many games (the games page's worst case)."""
    heavy = connection.execute(text(
        "INSERT INTO players (email, name, preferences, vacation_year, vacation_days_used, bounces, created_at) "
        "VALUES ('heavy@scale.test', 'Heavy', '{}', 0, 0, 0, :now) RETURNING id"), {"now": now}).scalar_one()
    connection.execute(text("INSERT INTO ratings (player_id, variant, rating, deviation, volatility, games, "
                            "updated_at) VALUES (:id, :variant, 1650, 70, 0.06, :games, :now)"),
                       {"id": heavy, "variant": DEFAULT_VARIANT, "games": 280, "now": now})
    return heavy


def add_open_seeks(connection: Connection, player_id: int, count: int, now: datetime) -> None:
    """``count`` open seeks, none lapsing while the measures run (their seeker is the heavy player: any
    player will do, the page lists the seeks, not the seeker's games)."""
    connection.execute(text(
        "INSERT INTO seeks (player_id, variant, options, days, rated, status, created_at, lapses_at) "
        "SELECT :player, :variant, '{}', 3, true, 'open', :now - n * interval '1 minute', :now + interval '13 days' "
        "FROM generate_series(1, :count) AS n"), {"player": player_id, "variant": DEFAULT_VARIANT, "now": now,
                                                  "count": count})


def fill(connection: Connection, template: Template, first: int, count: int, heavy: tuple[int, int],
         now: datetime, retention_days: int) -> None:
    """Copies number ``first`` to ``first + count - 1`` of the template game, with ``count // 2`` new players;
    the copies numbered below ``heavy[1]`` are played by player ``heavy[0]`` as White."""
    values = {"now": now, "first": first, "count": count, "half": count // 2, "template": template.game_id,
              "white": template.white, "black": template.black, "heavy": heavy[0], "heavy_games": heavy[1],
              "span": timedelta(days=SPAN_DAYS), "active": timedelta(days=ACTIVE_DAYS), "spread": SPREAD,
              "digest_share": DIGEST_SHARE,
              "cutoff": now - timedelta(days=retention_days - 1)}
    players = connection.execute(text("SELECT max(id) FROM players")).scalar_one()
    games = connection.execute(text("SELECT max(id) FROM games")).scalar_one()
    values |= {"players": players, "games": games}
    for statement in (PLAYERS, RATINGS, GAMES, EVENTS, OUTBOX, INBOUND, SEEKS, RATING_CHANGES, *RESTART_IDS):
        connection.execute(text(statement), values)
    add_tournaments(connection, values, count // TOURNAMENT_SHARE)


def add_tournaments(connection: Connection, values: dict, count: int) -> None:
    """``count`` finished Swiss events of 16 players in 5 rounds, each made of 40 of the batch's last copies
    (their players made its entrants: round r pairs entrant j with entrant 8 + (j + r - 1) mod 8, White first,
    so nobody meets twice; White won every game)."""
    if not count:
        return
    tournaments = connection.execute(text("SELECT coalesce(max(id), 0) FROM tournaments")).scalar_one()
    values = values | {"tournaments": tournaments, "number": count, "size": TOURNAMENT_PLAYERS,
                       "rounds": TOURNAMENT_ROUNDS, "boards": TOURNAMENT_PLAYERS // 2,
                       "base": values["games"] + values["count"] - count * TOURNAMENT_PLAYERS // 2 * TOURNAMENT_ROUNDS}
    for statement in (TOURNAMENTS, ENTRIES, PAIRINGS, TOURNAMENT_GAMES, "SELECT setval(pg_get_serial_sequence("
                      "'tournaments', 'id'), (SELECT max(id) FROM tournaments))"):
        connection.execute(text(statement), values)


def add_open_tournaments(connection: Connection, count: int, now: datetime) -> None:
    """``count`` round robins open for entry with five entrants each (from the first players), none starting
    while the measures run."""
    first = connection.execute(text("SELECT coalesce(max(id), 0) FROM tournaments")).scalar_one()
    connection.execute(text(
        "INSERT INTO tournaments (id, organiser_id, variant, options, days, format, players, rated, status, "
        "entrants, round, created_at) SELECT :first + n, (SELECT min(id) FROM players), :variant, '{}', 3, "
        "'round-robin', 8, true, 'open', 5, 0, :now FROM generate_series(1, :count) AS n"),
        {"first": first, "variant": DEFAULT_VARIANT, "now": now, "count": count})
    connection.execute(text(
        "INSERT INTO tournament_entries (tournament_id, player_id, entered_at, withdrawn) "
        "SELECT :first + n, p.id, :now, false FROM generate_series(1, :count) AS n, "
        "LATERAL (SELECT id FROM players ORDER BY id LIMIT 5) AS p"),
        {"first": first, "now": now, "count": count})
    connection.execute(text("SELECT setval(pg_get_serial_sequence('tournaments', 'id'), "
                            "(SELECT max(id) FROM tournaments))"))


# One player in DIGEST_SHARE is on the daily digest, at an hour of their own: due tomorrow, none today.
PLAYERS = """
INSERT INTO players (id, email, name, preferences, vacation_year, vacation_days_used, bounces, created_at,
                     digest_hour, digest_due_at)
SELECT :players + n, 'player' || (:first + n) || '@scale.test', 'Player ' || (:first + n), '{}', 0, 0, 0,
       :now - :span, CASE WHEN n % :digest_share = 0 THEN n % 24 END,
       CASE WHEN n % :digest_share = 0
            THEN date_trunc('day', :now) + interval '1 day' + (n % 24) * interval '1 hour' END
FROM generate_series(1, :half) AS n
"""

# Copy number k is game :games + 1 + (k - :first), aged (k * 7919 mod SPREAD) SPREAD-ths of the span.
GAMES = """
INSERT INTO games (id, variant, options, days, status, white_id, black_id, challenger_id, white_accepted,
                   black_accepted, state, ply, last_seq, deadline, reminded, next_clock_at, commitments,
                   told_since_move, result, reason, public_white, public_black, rated, names_only, created_at,
                   updated_at)
SELECT :games + 1 + i, t.variant, t.options, t.days,
       CASE WHEN running THEN 'active' ELSE 'over' END,
       CASE WHEN :first + i < :heavy_games THEN :heavy ELSE :players + 1 + i % :half END,
       :players + 1 + (i + 1) % :half, NULL, true, true, t.state, t.ply, t.last_seq,
       CASE WHEN running THEN :now + interval '2 days' + (i % 48) * interval '1 hour' END, false,
       CASE WHEN running THEN :now + interval '1 day' + (i % 48) * interval '1 hour' END,
       t.commitments, t.told_since_move,
       CASE WHEN running THEN NULL ELSE '1-0' END, CASE WHEN running THEN NULL ELSE 'resigned' END,
       false, false, true, true, :now - age, :now - age + (t.updated_at - t.created_at)
FROM games AS t,
     LATERAL (SELECT n - 1 AS i, :span * (((:first + n - 1) * 7919) % :spread) / :spread AS age
              FROM generate_series(1, :count) AS n) AS copy,
     LATERAL (SELECT copy.age < :active AS running) AS phase
WHERE t.id = :template
"""

EVENTS = """
INSERT INTO events (game_id, seq, by, "order", result, move_number, ply, told, views, position, created_at)
SELECT g.id, e.seq, e.by, e."order", e.result, e.move_number, e.ply, e.told, e.views, e.position,
       e.created_at + (g.created_at - t.created_at)
FROM games AS g, games AS t, events AS e
WHERE g.id > :games AND t.id = :template AND e.game_id = :template
"""

# Sent mail: a Message-ID of its own per copy; older than the retention, its headers and parts dropped.
OUTBOX = """
INSERT INTO outbound_messages (message_id, recipient, kind, subject, headers, body_text, body_html, game_id,
                               status, attempts, next_attempt_at, lease_until, sent_at, last_error, created_at,
                               compacted_at)
SELECT '<' || g.id || '.' || substr(o.message_id, 2), CASE WHEN o.recipient = :white THEN w.email ELSE b.email END,
       o.kind, o.subject, CASE WHEN old THEN '[]' ELSE o.headers END,
       CASE WHEN old THEN '' ELSE o.body_text END, CASE WHEN old THEN '' ELSE o.body_html END, g.id,
       o.status, o.attempts, o.next_attempt_at + shift, NULL, o.sent_at + shift, NULL, o.created_at + shift,
       CASE WHEN old THEN :now END
FROM games AS g JOIN players AS w ON w.id = g.white_id JOIN players AS b ON b.id = g.black_id,
     games AS t, outbound_messages AS o,
     LATERAL (SELECT g.created_at - t.created_at AS shift) AS moved,
     LATERAL (SELECT o.sent_at + shift < :cutoff AS old) AS age
WHERE g.id > :games AND t.id = :template AND o.game_id = :template
"""

# Processed replies: a key of their own per copy; older than the retention, their raw bytes dropped.
INBOUND = """
INSERT INTO inbound_messages (message_key, raw, envelope_from, envelope_to, source, full_size, status, outcome,
                              sender, received_at, processed_at, compacted_at)
SELECT i.message_key || '.' || g.id, CASE WHEN old THEN ''::bytea ELSE i.raw END, i.envelope_from,
       i.envelope_to, i.source, i.full_size, i.status, i.outcome,
       CASE WHEN i.sender = :white THEN w.email ELSE b.email END, i.received_at + shift, i.processed_at + shift,
       CASE WHEN old THEN :now END
FROM games AS g JOIN players AS w ON w.id = g.white_id JOIN players AS b ON b.id = g.black_id,
     games AS t, inbound_messages AS i,
     LATERAL (SELECT g.created_at - t.created_at AS shift) AS moved,
     LATERAL (SELECT i.processed_at + shift < :cutoff AS old) AS age
WHERE g.id > :games AND t.id = :template AND i.sender IN (:white, :black)
"""

# Every player of the pool has a rating in the template's variant.
RATINGS = """
INSERT INTO ratings (player_id, variant, rating, deviation, volatility, games, updated_at)
SELECT :players + n, t.variant, 1300 + (n * 37) % 500, 60 + (n * 13) % 200, 0.06, 1 + n % 40, :now
FROM generate_series(1, :half) AS n, games AS t WHERE t.id = :template
"""

# Each copy came from a seek of its White player, taken when the game began.
SEEKS = """
INSERT INTO seeks (player_id, variant, options, days, rated, status, created_at, lapses_at, game_id)
SELECT g.white_id, g.variant, g.options, g.days, true, 'taken', g.created_at - interval '1 day',
       g.created_at + interval '13 days', g.id
FROM games AS g WHERE g.id > :games
"""

# Each finished copy changed both players' ratings: two rows of history.
RATING_CHANGES = """
INSERT INTO rating_changes (player_id, variant, game_id, before, rating, deviation, created_at)
SELECT p.player_id, g.variant, g.id, 1500 + (g.id * 31) % 300, 1500 + (g.id * 17) % 300, 80, g.updated_at
FROM games AS g, LATERAL (VALUES (g.white_id), (g.black_id)) AS p(player_id)
WHERE g.id > :games AND g.status = 'over'
"""

# Tournament k of the batch: finished, its games the copies :base + (k - 1) * 40 + 1 to :base + k * 40.
TOURNAMENTS = """
INSERT INTO tournaments (id, organiser_id, variant, options, days, format, players, rounds, rated, status,
                         entrants, total_rounds, round, created_at, started_at, finished_at)
SELECT :tournaments + k, :players + 1 + (k * :size) % :half, t.variant, t.options, t.days, 'swiss', :size,
       :rounds, true, 'finished', :size, :rounds, :rounds, :now - interval '60 days', :now - interval '50 days',
       :now - interval '10 days'
FROM generate_series(1, :number) AS k, games AS t WHERE t.id = :template
"""

# Entrant j (0 to 15) of tournament k is player :players + 1 + (k * 16 + j) mod :half, ranked j + 1.
ENTRIES = """
INSERT INTO tournament_entries (tournament_id, player_id, entered_at, rank, rating, withdrawn)
SELECT :tournaments + k, :players + 1 + (k * :size + j) % :half, :now - interval '55 days', j + 1,
       1500 + (j * 37) % 300, false
FROM generate_series(1, :number) AS k, generate_series(0, :size - 1) AS j
"""

PAIRINGS = """
INSERT INTO tournament_pairings (tournament_id, round, board, white_id, black_id, game_id)
SELECT :tournaments + k, r, b + 1, :players + 1 + (k * :size + b) % :half,
       :players + 1 + (k * :size + :boards + (b + r - 1) % :boards) % :half,
       :base + (k - 1) * :boards * :rounds + (r - 1) * :boards + b + 1
FROM generate_series(1, :number) AS k, generate_series(1, :rounds) AS r, generate_series(0, :boards - 1) AS b
"""

TOURNAMENT_GAMES = """
UPDATE games AS g SET white_id = p.white_id, black_id = p.black_id, status = 'over', result = '1-0',
       reason = 'resigned', deadline = NULL, next_clock_at = NULL,
       event = 'Tournament ' || p.tournament_id || ', round ' || p.round
FROM tournament_pairings AS p
WHERE p.game_id = g.id AND p.tournament_id > :tournaments
"""

RESTART_IDS = tuple(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"
                    for table in ("players", "games", "seeks", "rating_changes"))
