"""The migrations are the only way the schema is made, and they agree with the models."""

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from app.migrate import compare_type
from app.models import Base
from tests.conftest import make_server


def test_models_and_migrations_agree(server):
    with server.db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": compare_type})
        differences = compare_metadata(context, Base.metadata)
    assert differences == []


def test_upgrade_is_idempotent_and_creates_every_table(server):
    server.db.upgrade()
    tables = set(inspect(server.db.engine).get_table_names())
    assert {"players", "games", "events", "inbound_messages", "outbound_messages", "alembic_version"} <= tables


def test_outbox_rows_queued_as_bytes_keep_their_headers_and_parts_across_migration_0004(tmp_path, empty_database_url):
    """Mail queued before the outbox kept its parts is converted, and sends with the same headers and bodies."""
    from email import message_from_bytes
    from email.message import EmailMessage
    from email.policy import SMTP, default

    from sqlalchemy import select, text

    from app.db import Database
    from app.outbound.models import OutboundMessage

    db = Database(empty_database_url)
    db.upgrade("0003")
    old = EmailMessage(policy=default)
    old["From"] = "Mirrorpost referee <referee@mirrorpost.test>"
    old["To"] = "Zoë <zoe@players.test>"
    old["Subject"] = "Game 1, move 2: your move (White) - Through the Looking-Glass " + "x" * 60  # folded
    old["Message-ID"] = "<tok.1@mirrorpost.test>"
    old.set_content("Reply above this line with your order.\nCaptured: none\n")
    old.add_alternative("<p>Le roi \u2654 est en e1.</p>", subtype="html")
    with db.engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO outbound_messages (message_id, recipient, kind, subject, raw, body_text, status, attempts,"
            " next_attempt_at, created_at) VALUES ('<tok.1@mirrorpost.test>', 'zoe@players.test', 'request', 's',"
            " :raw, '', 'pending', 0, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"), {"raw": old.as_bytes(policy=SMTP)})
    db.upgrade()
    with db.sessions() as session:
        row = session.scalars(select(OutboundMessage)).one()
        sent = message_from_bytes(row.raw, policy=default)
    for name in ("From", "To", "Subject", "Message-ID"):
        assert str(sent[name]) == str(old[name])
    for kind in ("plain", "html"):  # the wire has CRLF line ends
        assert sent.get_body((kind,)).get_content().replace("\r\n", "\n") == old.get_body((kind,)).get_content()
    assert row.body_text.startswith("Reply above this line")  # what quote detection compares replies with
    db.migrate("downgrade", "0003")
    with db.engine.connect() as connection:
        raw = connection.execute(text("SELECT raw FROM outbound_messages")).scalar_one()
    assert message_from_bytes(raw, policy=default)["Subject"] == old["Subject"]
    db.engine.dispose()


def test_migration_0005_rebuilds_what_each_side_was_told_since_its_last_move(server):
    """The backfill replays the events to the same lists the game service keeps as it goes."""
    from tests.server.harness import ALICE, BOB, Table

    table = Table(server)
    game_id = table.start()
    table.reply(ALICE, "R e2-e4", kind="request")
    table.reply(BOB, "R d4-d5", kind="request")  # an order in White's world: a strike or a shortened move
    table.reply(BOB, "M e7-e5", kind="request")
    table.reply(ALICE, "say good luck", kind="request")
    kept = table.game(game_id).told_since_move
    assert kept["white"] and kept["black"]  # both were told something since their last moves
    server.db.migrate("downgrade", "0004")
    server.db.upgrade()
    assert table.game(game_id).told_since_move == kept


def compression_of(connection) -> dict[tuple[str, str], str]:
    rows = connection.execute(text(
        "SELECT c.relname, a.attname, a.attcompression FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
        "WHERE (c.relname, a.attname) IN (('inbound_messages', 'raw'), ('outbound_messages', 'body_text'), "
        "('outbound_messages', 'body_html'), ('outbound_messages', 'subject'))"))
    return {(table, column): method for table, column, method in rows}


def test_migration_0006_compresses_mail_bodies_with_lz4_on_postgresql(tmp_path, postgres_url):
    server = make_server(tmp_path, postgres_url)
    with server.db.engine.connect() as connection:
        assert compression_of(connection) == {  # 'l' is lz4; '' is the server's default (pglz)
            ("inbound_messages", "raw"): "l", ("outbound_messages", "body_text"): "l",
            ("outbound_messages", "body_html"): "l", ("outbound_messages", "subject"): ""}
    server.db.migrate("downgrade", "0005")
    with server.db.engine.connect() as connection:
        assert set(compression_of(connection).values()) == {""}
    server.db.engine.dispose()


def index_names(engine, table: str) -> set[str]:
    return {index["name"] for index in inspect(engine).get_indexes(table) if not index.get("duplicates_constraint")}


def test_migration_0007_leaves_the_indexes_the_servers_lookups_use(tmp_path, database_url):
    """Every move writes an event and two outbox rows: their tables keep only indexes that something reads."""
    server = make_server(tmp_path, database_url)
    engine = server.db.engine
    assert "ix_events_game_id" not in index_names(engine, "events")
    assert index_names(engine, "outbound_messages") == {
        "ix_outbound_messages_recipient_created_at", "ix_outbound_messages_game_id_recipient",
        "ix_outbound_messages_status", "ix_outbound_messages_envelope_key",  # a bounce finds its mail
        "ix_outbound_messages_to_send", "ix_outbound_messages_to_compact"}  # partial: rows to send, to compact
    server.db.migrate("downgrade", "0006")
    assert "ix_events_game_id" in index_names(engine, "events")
    assert {"ix_outbound_messages_recipient", "ix_outbound_messages_game_id",
            "ix_outbound_messages_created_at"} <= index_names(engine, "outbound_messages")
    server.db.upgrade()
    engine.dispose()


def test_the_outbox_lookups_can_use_an_index_on_postgresql(tmp_path, postgres_url):
    """The rate limit of error notices and the latest mails of a game to a player each have their index."""
    from datetime import UTC, datetime

    from app.inbound.pipeline import LATEST_SENT
    from app.outbound.outbox import ERRORS_SENT

    server = make_server(tmp_path, postgres_url)
    values = {"recipient": "a@b.test", "game_id": 1, "since": datetime(2026, 1, 1, tzinfo=UTC)}
    used = {}
    with server.db.engine.connect() as connection:
        connection.execute(text("SET enable_seqscan = off"))  # an empty table would be scanned otherwise
        for name, statement in (("errors", ERRORS_SENT), ("latest", LATEST_SENT)):
            sql = statement.params(values).compile(dialect=connection.dialect, compile_kwargs={"literal_binds": True})
            plan = connection.exec_driver_sql(f"EXPLAIN {sql}").all()
            used[name] = " ".join(row[0] for row in plan)
    server.db.engine.dispose()
    assert "ix_outbound_messages_recipient_created_at" in used["errors"], used["errors"]
    assert "ix_outbound_messages_game_id_recipient" in used["latest"], used["latest"]


def test_migrations_0010_and_0011_go_down_and_up_again_and_running_games_get_their_next_look(server):
    """Upgrading a server with games under way: each running game's clock is looked at when it was due."""
    from datetime import timedelta

    from tests.server.harness import ALICE, Table

    table = Table(server)
    running, over = table.start(), table.start()
    table.reply(ALICE, "resign", kind="request")  # the latest request is the second game's
    running_deadline = table.game(running).deadline
    server.db.migrate("downgrade", "0009")
    assert "next_clock_at" not in {column["name"] for column in inspect(server.db.engine).get_columns("games")}
    assert "ix_games_status" in index_names(server.db.engine, "games")
    server.db.upgrade()
    assert table.game(running).next_clock_at == running_deadline - timedelta(hours=24)
    assert table.game(over).next_clock_at is None
    indexes = index_names(server.db.engine, "games")
    assert {"ix_games_next_clock_at", "ix_games_white_id", "ix_games_black_id"} <= indexes
    assert "ix_games_status" not in indexes
