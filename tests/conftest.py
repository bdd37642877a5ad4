"""Shared fixtures: a server on SQLite and, where reachable, on PostgreSQL."""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
from functools import cache
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from app.config import load_settings
from app.db import Database
from app.inbound.proof.resolver import resolver_for
from app.server import Server
from tests.dns_server import shared_server

# Every server the tests start, in this process or another, asks the loopback DNS server, never the machine's.
os.environ["DNS_NAMESERVERS"] = shared_server().address
DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


def postgres_admin_url() -> str | None:
    """The PostgreSQL server to test on: TEST_POSTGRES_URL, else a local one if it answers."""
    wanted = os.environ.get("TEST_POSTGRES_URL")
    url = wanted or DEFAULT_POSTGRES
    try:
        engine = create_engine(url, connect_args={"connect_timeout": 3})
        with engine.connect() as connection:
            connection.execute(text("select 1"))
        engine.dispose()
        return url
    except Exception as error:
        if wanted:
            raise RuntimeError(f"TEST_POSTGRES_URL is set but PostgreSQL does not answer: {error}") from error
        return None


POSTGRES = postgres_admin_url()
BACKENDS = ["sqlite"] + (["postgres"] if POSTGRES else [])


@pytest.fixture(params=BACKENDS)
def database_url(request, tmp_path):
    """A fresh database with the whole schema, made by the migrations once a run and copied for each test."""
    if request.param == "sqlite":
        path = tmp_path / "test.sqlite3"
        shutil.copyfile(migrated_sqlite(), path)
        yield f"sqlite:///{path}"
        return
    yield from fresh_postgres_database(template=migrated_postgres())


@pytest.fixture(params=BACKENDS)
def empty_database_url(request, tmp_path):
    """A fresh database with nothing in it: for the tests of the migrations themselves and of ``init-db``."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.sqlite3'}"
        return
    yield from fresh_postgres_database()


@pytest.fixture
def postgres_url():
    """A fresh PostgreSQL database with the whole schema, for what only a database server can show (skipped
    without one, outside CI)."""
    if POSTGRES is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL is required under CI")
        pytest.skip("no PostgreSQL server answers (set TEST_POSTGRES_URL)")
    yield from fresh_postgres_database(template=migrated_postgres())


def create_database(template: str | None = None) -> str:
    """A new PostgreSQL database, empty or a copy of ``template``; returns its name."""
    assert POSTGRES is not None
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    name = f"mirrorpost_{secrets.token_hex(6)}"
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else "")))
    admin.dispose()
    return name


def drop_database(name: str) -> None:
    assert POSTGRES is not None
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


def database_at(name: str) -> str:
    assert POSTGRES is not None
    return make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)


def fresh_postgres_database(template: str | None = None):
    name = create_database(template)
    try:
        yield database_at(name)
    finally:
        drop_database(name)


@cache
def migrated_sqlite() -> Path:
    """An SQLite database the migrations made, once a run (a test copies it rather than migrating again)."""
    path = Path(tempfile.mkdtemp(prefix="mirrorpost-template-")) / "migrated.sqlite3"
    db = Database(f"sqlite:///{path}")
    db.upgrade()
    db.engine.dispose()
    return path


@cache
def migrated_postgres() -> str:
    """A PostgreSQL database the migrations made, once a run, which each test's database is created from; it is
    dropped when the run ends (``pytest_sessionfinish``)."""
    name = create_database()
    db = Database(database_at(name))
    db.upgrade()
    db.engine.dispose()
    return name


def pytest_sessionfinish(session, exitstatus):
    if migrated_sqlite.cache_info().currsize:
        shutil.rmtree(migrated_sqlite().parent, ignore_errors=True)
    if migrated_postgres.cache_info().currsize:
        drop_database(migrated_postgres())


def make_server(tmp_path, database_url, **extra: str) -> Server:
    env = {
        "MIRRORPOST_INSTANCE": str(tmp_path / "instance"),
        "DATABASE_URL": database_url,
        "SECRET_KEY": "test-secret-key",
        "SERVER_EMAIL": "referee@mirrorpost.test",
        "BASE_URL": "http://mirrorpost.test",
        "INBOUND_SMTP_PORT": "0",
        "DNS_NAMESERVERS": shared_server().address,
        **extra,
    }
    server = Server.from_settings(load_settings(env))
    server.db.upgrade()
    return server


@pytest.fixture
def dns_zone():
    """The loopback DNS server's zone, empty for this test: it adds the records its mail needs."""
    zone = shared_server().zone
    zone.clear()
    resolver_for.cache_clear()  # nothing a test before published is remembered
    yield zone
    zone.clear()
    resolver_for.cache_clear()


@pytest.fixture
def server(tmp_path, database_url):
    server = make_server(tmp_path, database_url)
    yield server
    server.db.engine.dispose()
