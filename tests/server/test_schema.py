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


def test_outbox_rows_queued_as_bytes_keep_their_headers_and_parts_across_migration_0004(tmp_path, database_url):
    """Mail queued before the outbox kept its parts is converted, and sends with the same headers and bodies."""
    from email import message_from_bytes
    from email.message import EmailMessage
    from email.policy import SMTP, default

    from sqlalchemy import select, text

    from app.db import Database
    from app.mail.models import OutboundMessage

    db = Database(database_url)
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
