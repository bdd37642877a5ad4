"""Alembic environment: the schema of app.models, on the connection Database.upgrade passes."""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import create_engine

from app.migrate import compare_type, render_item
from app.models import Base

target_metadata = Base.metadata


def run_migrations_online() -> None:
    config = context.config
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
