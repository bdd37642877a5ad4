"""The periodic statements and a player's games read through their indexes on PostgreSQL, whatever the table sizes.

Each table is filled well past the work due (finished games, sent mail, processed replies), ANALYZEd, and the
statement's generic plan (the one a prepared statement gets) must go through the index meant for it and walk no
table whole.
"""

from datetime import timedelta

import pytest
from sqlalchemy import event, text

from app import retention
from app.club.seeks import OPEN_SEEKS
from app.club.tournaments.jobs import DUE_STARTS
from app.club.tournaments.rows import BOARDS_OF, ENDED, ENTRANTS_OF, LISTINGS, UNDER_WAY
from app.db import utcnow
from app.games.digest.rows import DUE_PLAYERS
from app.games.records.rows import DUE_GAMES
from app.inbound.receive import PENDING
from app.outbound.outbox import LEASING
from tests.conftest import make_server
from tests.server.harness import Table
from tests.server.plans import generic_plan
from tests.web_helpers import client_for

MANY = 5000


@pytest.fixture
def filled(tmp_path, postgres_url):
    """A server whose tables hold MANY rows that need nothing: finished games, sent mail, processed replies."""
    server = make_server(tmp_path, postgres_url)
    past = utcnow() - timedelta(days=400)
    with server.db.engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO players (email, name, preferences, vacation_year, vacation_days_used, bounces, created_at) "
            "SELECT 'p' || n || '@fill.test', 'p' || n, '{}', 0, 0, 0, :past FROM generate_series(1, :count) n"),
            {"count": MANY // 2, "past": past})
        connection.execute(text(
            "INSERT INTO games (variant, options, days, status, white_id, black_id, white_accepted, black_accepted, "
            "state, ply, last_seq, reminded, commitments, told_since_move, result, public_white, public_black, "
            "created_at, updated_at) "
            "SELECT 'looking-glass', '{}', 3, 'over', first.id + n % :players, first.id + (n + 1) % :players, "
            "true, true, '{}', 40, 40, false, '{}', '{}', '1-0', false, false, :past, :past "
            "FROM generate_series(1, :count) n, (SELECT min(id) AS id FROM players) first"),
            {"count": MANY, "players": MANY // 2, "past": past})
        connection.execute(text(
            "INSERT INTO outbound_messages (message_id, recipient, kind, subject, headers, body_text, body_html, "
            "status, attempts, next_attempt_at, sent_at, created_at) "
            "SELECT '<fill.' || n || '@mirrorpost.test>', 'p' || n || '@fill.test', 'request', 's', '[]', 'text', "
            "'<p>html</p>', 'sent', 1, :past, :past, :past FROM generate_series(1, :count) n"),
            {"count": MANY, "past": past})
        connection.execute(text(
            "INSERT INTO inbound_messages (message_key, raw, envelope_from, envelope_to, source, status, outcome, "
            "sender, received_at, processed_at, compacted_at) "
            "SELECT '<reply.' || n || '@fill.test>', '', NULL, '[]', 'smtp', 'done', 'done: moved', "
            "'p' || n || '@fill.test', :past, :past, :past FROM generate_series(1, :count) n"),
            {"count": MANY, "past": past})
        connection.execute(text(
            "INSERT INTO login_tokens (nonce, email, client, created_at) "
            "SELECT 'nonce' || n, 'p' || n || '@fill.test', 'client', :past FROM generate_series(1, :count) n"),
            {"count": MANY, "past": past})
    yield server
    server.db.engine.dispose()


def plan_of(server, statement, **values) -> str:
    with server.db.engine.connect() as connection:
        return generic_plan(connection, statement, values)


def assert_reads_through(plan: str, index: str, table: str) -> None:
    assert index in plan, plan
    assert f"Seq Scan on {table}" not in plan, plan


def test_the_clock_reads_only_the_games_due(filled):
    Table(filled).start()  # one running game among the finished ones
    plan = plan_of(filled, DUE_GAMES, now=utcnow(), limit=200)
    assert_reads_through(plan, "ix_games_next_clock_at", "games")


def test_the_digest_round_reads_only_the_players_due(filled):
    """Of MANY players, those not on the digest are not in the index the round reads at all."""
    with filled.db.engine.begin() as connection:
        connection.execute(text("UPDATE players SET digest_hour = 7, digest_due_at = :due WHERE id % 50 = 0"),
                           {"due": utcnow() + timedelta(hours=3)})
        connection.execute(text("ANALYZE players"))
    plan = plan_of(filled, DUE_PLAYERS, now=utcnow(), limit=200)
    assert_reads_through(plan, "ix_players_digest_due_at", "players")


def test_the_open_seeks_are_read_through_their_partial_index_whatever_the_seeks_ever_taken(filled):
    """Every finished game came from a seek, taken; a few seeks are open: the page and ``seeks`` read those alone."""
    with filled.db.engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO seeks (player_id, variant, options, days, rated, status, created_at, lapses_at, game_id) "
            "SELECT white_id, variant, '{}', 3, true, 'taken', created_at, created_at, id FROM games"))
        connection.execute(text(
            "INSERT INTO seeks (player_id, variant, options, days, rated, status, created_at, lapses_at) "
            "SELECT min(id), 'side-view', '{}', 3, true, 'open', :now, :later FROM players"),
            {"now": utcnow(), "later": utcnow() + timedelta(days=14)})
    plan = plan_of(filled, OPEN_SEEKS, now=utcnow(), limit=100)
    assert_reads_through(plan, "ix_seeks_open", "seeks")


def test_the_tournaments_start_days_and_one_tournament_are_read_through_their_indexes(filled):
    """Every finished game belongs to a finished tournament of its own; a few are open with a start day: the
    worker's round reads those alone, and a tournament's page reads its own entrants and boards alone."""
    with filled.db.engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO tournaments (organiser_id, variant, options, days, format, players, rated, status, "
            "entrants, round, created_at, starts_at) SELECT white_id, variant, '{}', 3, 'round-robin', 3, true, "
            "CASE WHEN id % 500 = 0 THEN 'open' ELSE 'finished' END, 2, 1, created_at, :later FROM games"),
            {"later": utcnow() + timedelta(days=3)})
        connection.execute(text(
            "INSERT INTO tournament_entries (tournament_id, player_id, entered_at, withdrawn) "
            "SELECT t.id, p.player_id, t.created_at, false FROM tournaments t JOIN games g ON g.id = t.id, "
            "LATERAL (VALUES (g.white_id), (g.black_id)) AS p(player_id)"))
        connection.execute(text(
            "INSERT INTO tournament_pairings (tournament_id, round, board, white_id, black_id, game_id) "
            "SELECT t.id, 1, 1, g.white_id, g.black_id, g.id FROM tournaments t JOIN games g ON g.id = t.id"))
        connection.execute(text("ANALYZE"))
    assert_reads_through(plan_of(filled, DUE_STARTS, now=utcnow(), limit=50), "ix_tournaments_starts_at",
                         "tournaments")
    assert_reads_through(plan_of(filled, ENTRANTS_OF, number=7, variant="side-view"),
                         "uq_tournament_entries_tournament_id", "tournament_entries")
    assert_reads_through(plan_of(filled, BOARDS_OF, number=7), "ix_tournament_pairings_round", "tournament_pairings")
    assert_reads_through(plan_of(filled, LISTINGS[UNDER_WAY], limit=200), "ix_tournaments_under_way",
                         "tournaments")
    assert "Seq Scan on tournaments" not in plan_of(filled, LISTINGS[ENDED], limit=50)


def test_the_outbox_claim_reads_only_the_rows_still_to_send(filled):
    """The one statement that finds the rows due and leases them reads them through the partial index of the rows
    still to send, and each row it leases by its primary key."""
    Table(filled).new_game()  # two mails to send among the sent ones
    plan = plan_of(filled, LEASING["postgresql"], now=utcnow(), limit=20, until=utcnow(), owner="worker")
    assert_reads_through(plan, "ix_outbound_messages_to_send", "outbound_messages")
    assert "pk_outbound_messages" in plan, plan


def test_the_inbound_sweep_reads_only_the_new_messages(filled):
    plan = plan_of(filled, PENDING, before=utcnow(), now=utcnow(), limit=50)
    assert_reads_through(plan, "ix_inbound_messages_new", "inbound_messages")


@pytest.mark.parametrize(("find", "change", "index", "table"), [
    (retention.OLD_INBOUND, retention.COMPACT_INBOUND, "ix_inbound_messages_to_compact", "inbound_messages"),
    (retention.OLD_OUTBOX, retention.COMPACT_OUTBOX, "ix_outbound_messages_to_compact", "outbound_messages"),
    (retention.OLD_TOKENS, retention.DROP_TOKENS, "ix_login_tokens_created_at", "login_tokens"),
])
def test_retention_reads_only_the_rows_it_may_drop(filled, find, change, index, table):
    """A batch's ids through the partial index of what may go, then those rows through an index (the primary key,
    or that partial index when it is the smaller)."""
    plan = plan_of(filled, find, before=utcnow() - timedelta(days=30), batch=500)
    assert_reads_through(plan, index, table)
    plan = plan_of(filled, change, ids=[1, 2, 3], now=utcnow())
    assert_reads_through(plan, "Index Scan using", table)


def test_a_players_games_and_their_players_are_read_through_indexes(filled):
    """The games page's own statements, as the driver got them: the games by either side's index, then their
    players by primary key (never a walk of the games or the players)."""
    table = Table(filled)
    game_id = table.start()
    game = table.game(game_id)
    client = client_for(filled, game_id, game.white_id)
    seen: list[tuple[str, dict]] = []

    def listen(_connection, _cursor, statement, parameters, _context, _executemany):
        seen.append((statement, parameters))

    event.listen(filled.db.engine, "before_cursor_execute", listen)
    try:
        assert client.get("/games").status_code == 200
    finally:
        event.remove(filled.db.engine, "before_cursor_execute", listen)
    (games, games_values), = [(sql, values) for sql, values in seen if "FROM games" in sql]
    players = [(sql, values) for sql, values in seen if "FROM players" in sql and " IN (" in sql]
    assert players
    with filled.db.engine.connect() as connection:
        plan = generic_plan(connection, games, games_values)
        assert "ix_games_white_id" in plan and "ix_games_black_id" in plan, plan
        assert "Seq Scan" not in plan, plan
        for sql, values in players:
            plan = generic_plan(connection, sql, values)
            assert "pk_players" in plan and "Seq Scan" not in plan, plan
