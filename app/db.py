"""The database: engine, sessions, the declarative base and the schema upgrade."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar

import orjson
from sqlalchemy import JSON, DateTime, Engine, MetaData, create_engine, event
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker
from sqlalchemy.types import TypeDecorator

ROOT = Path(__file__).resolve().parent.parent
IDLE_BEFORE_PING = 10.0  # seconds a pooled connection may sit unused before it is checked at checkout

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


class UTCDateTime(TypeDecorator[datetime]):
    """Timestamps stored as UTC and always handed back timezone-aware."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: object) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: object) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def utcnow() -> datetime:
    return datetime.now(UTC)


def json_text(value: Any) -> str:
    """A JSON column's value as text, made by orjson: a move writes about ten of them (the game's state, the
    event's views, the outbox rows' headers...), and the standard library's encoder took about a twentieth
    of the worker's CPU. Keys that are not strings become strings, as the standard library makes them;
    what orjson refuses (a lone surrogate, kept from undecodable mail; an integer beyond 64 bits) is
    written by the standard library, as before."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(value)


def json_value(text: str | bytes) -> Any:
    """A JSON column's value, read by orjson, or by the standard library where orjson refuses the text
    (the lone surrogates and big integers that ``json_text`` left to it)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


JSON_CODEC: dict[str, Any] = {"json_serializer": json_text, "json_deserializer": json_value}


def make_engine(url: str) -> Engine:
    """An engine; SQLite gets WAL, a busy timeout and enforced foreign keys. JSON columns go through orjson."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False}, **JSON_CODEC)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(connection, _record):
            connection.isolation_level = None  # transactions are begun below, not by the driver
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _sqlite_begin(connection):
            connection.exec_driver_sql("BEGIN IMMEDIATE")  # writers queue instead of failing

        return engine
    engine = create_engine(url, **JSON_CODEC)
    ping_when_idle(engine)
    return engine


def ping_when_idle(engine: Engine, idle: float = IDLE_BEFORE_PING) -> None:
    """Check a pooled connection before use only if it sat idle for ``idle`` seconds.

    A connection in steady use proves itself on every statement, and a failure there invalidates the
    pool; one that sat idle may have been closed by a database restart or a firewall meanwhile. A dead
    one is replaced before anyone uses it (SQLAlchemy's documented DisconnectionError at checkout).
    This is pool_pre_ping without its round trip on every checkout, which costs as much CPU as a statement.
    """

    @event.listens_for(engine, "checkin")
    def _note_idle(_dbapi_connection, record) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping_if_idle(dbapi_connection, record, _proxy) -> None:
        idle_since = record.info.get("idle_since")
        if idle_since is None or time.monotonic() - idle_since < idle:
            return
        try:
            alive = engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as error:
            raise DisconnectionError(f"pooled connection is gone: {error}") from error
        if not alive:
            raise DisconnectionError("pooled connection did not answer")


def is_postgres(session_or_engine: Session | Engine) -> bool:
    bind = session_or_engine.get_bind() if isinstance(session_or_engine, Session) else session_or_engine
    return bind.dialect.name == "postgresql"


class Database:
    """One engine and its session factory."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session whose work commits at the end of the block, or rolls back on error."""
        with self.sessions() as session, session.begin():
            yield session

    def upgrade(self, revision: str = "head") -> None:
        """Create or upgrade the schema to the newest migration (Alembic ``upgrade head``)."""
        self.migrate("upgrade", revision)

    def migrate(self, direction: str, revision: str) -> None:
        """Alembic ``upgrade`` or ``downgrade`` to ``revision``, on this database."""
        from alembic import command
        from alembic.config import Config

        config = Config(str(ROOT / "alembic.ini"))
        config.set_main_option("script_location", str(ROOT / "migrations"))
        config.attributes["connection_url"] = self.url
        with self.engine.begin() as connection:
            config.attributes["connection"] = connection
            getattr(command, direction)(config, revision)
