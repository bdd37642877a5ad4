"""Alembic environment: the schema of app.models, on the connection Database.upgrade passes."""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import DateTime, create_engine

from app.db import UTCDateTime
from app.models import Base

config = context.config
target_metadata = Base.metadata


def render_item(type_, obj, autogen_context):  # noqa: ANN001, ANN201
    """Render our UTC timestamp type as a plain timezone-aware DateTime in migrations."""
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def compare_type(context, inspected, metadata, inspected_type, metadata_type):  # noqa: ANN001, ANN201
    if isinstance(metadata_type, UTCDateTime):
        return not isinstance(inspected_type, DateTime)
    return None


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    options = {"target_metadata": target_metadata, "render_item": render_item, "compare_type": compare_type,
               "render_as_batch": True}
    if connection is not None:
        context.configure(connection=connection, **options)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = config.attributes.get("connection_url") or os.environ.get("DATABASE_URL")
    engine = create_engine(url)
    with engine.begin() as connection:
        context.configure(connection=connection, **options)
        with context.begin_transaction():
            context.run_migrations()


run_migrations_online()
