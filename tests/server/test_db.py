"""Pooled connections: one that died while idle is replaced before anyone uses it."""

import time

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from app.db import ping_when_idle


def pooled_backend_killed(database_url: str, idle: float):
    """An engine whose one pooled connection the server has just closed, and that connection's backend pid."""
    engine = create_engine(database_url)
    ping_when_idle(engine, idle=idle)
    with engine.connect() as connection:
        pid = connection.execute(text("select pg_backend_pid()")).scalar()
    admin = create_engine(database_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        assert connection.execute(text("select pg_terminate_backend(:pid)"), {"pid": pid}).scalar()
    admin.dispose()
    time.sleep(0.2)
    return engine, pid


def test_a_connection_that_died_while_idle_is_replaced_at_checkout(postgres_url):
    engine, pid = pooled_backend_killed(postgres_url, idle=0.0)
    with engine.connect() as connection:
        assert connection.execute(text("select pg_backend_pid()")).scalar() != pid
    engine.dispose()


def test_a_connection_in_steady_use_is_not_pinged(postgres_url):
    """Within the idle time no round trip is spent: a dead connection shows on its first statement."""
    engine, _pid = pooled_backend_killed(postgres_url, idle=3600.0)
    with pytest.raises(OperationalError), engine.connect() as connection:
        connection.execute(text("select 1"))
    with engine.connect() as connection:  # the failure invalidated the pool: the next checkout is fresh
        assert connection.execute(text("select 1")).scalar() == 1
    engine.dispose()
