"""The migrations are the only way the schema is made, and they agree with the models."""

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from app.migrate import compare_type
from app.models import Base


def test_models_and_migrations_agree(server):
    with server.db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": compare_type})
        differences = compare_metadata(context, Base.metadata)
    assert differences == []


def test_upgrade_is_idempotent_and_creates_every_table(server):
    server.db.upgrade()
    tables = set(inspect(server.db.engine).get_table_names())
    assert {"players", "games", "events", "inbound_messages", "outbound_messages", "alembic_version"} <= tables
