"""Prebuilt statements: on psycopg's cursor they behave as through SQLAlchemy (values, transactions, errors)."""

import re
from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    bindparam,
    column,
    create_engine,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError, InvalidRequestError

from app.db import UTCDateTime, make_engine
from app.inbound.receive import transient
from app.prebuilt import DEFERRED, Prebuilt, _positional
from tests.server.harness import statements_sent

METADATA = MetaData()
THINGS = Table(
    "things", METADATA,
    Column("id", Integer, primary_key=True),
    Column("name", String(20), unique=True),
    Column("data", JSON),
    Column("blob", LargeBinary),
    Column("at", UTCDateTime()),
    Column("flag", Boolean),
)
ADD = Prebuilt(insert(THINGS).returning(THINGS.c.id))
ADD_MANY = Prebuilt(insert(THINGS))
GET = Prebuilt(select(THINGS.c.name, THINGS.c.data, THINGS.c.blob, THINGS.c.at, THINGS.c.flag)
               .where(THINGS.c.id == bindparam("thing_id")))
RENAME_IF = Prebuilt(update(THINGS).where(THINGS.c.id == bindparam("thing_id"), THINGS.c.name == bindparam("was"))
                     .values(name=bindparam("now")))
NAMES = Prebuilt(select(THINGS.c.name).order_by(THINGS.c.name))
OTHERS = Table("others", METADATA, Column("id", Integer, primary_key=True), Column("count", Integer))
COUNT_UP = Prebuilt(update(OTHERS).where(OTHERS.c.id == 1).values(count=OTHERS.c.count + 1), carries_deferred=True)
PARIS = timezone(timedelta(hours=1))


@pytest.fixture
def engine(database_url):
    engine = make_engine(database_url)
    METADATA.create_all(engine)
    with engine.begin() as connection:
        connection.execute(insert(OTHERS), {"id": 1, "count": 0})
    yield engine
    engine.dispose()


def thing(name: str, **values) -> dict:
    return {"name": name, "data": {"a": [1, "two", None]}, "blob": b"\x00\xffraw", "flag": True,
            "at": datetime(2026, 11, 22, 12, 0, tzinfo=PARIS), **values}


def test_rows_read_back_as_they_do_through_sqlalchemy(engine):
    with engine.begin() as connection:
        thing_id = ADD.execute(connection, thing("rook")).scalar_one()
        ours = GET.execute(connection, {"thing_id": thing_id}).first()
        theirs = connection.execute(GET.statement, {"thing_id": thing_id}).first()
    assert tuple(ours) == tuple(theirs)
    name, data, blob, at, flag = ours
    assert (name, data, blob, flag) == ("rook", {"a": [1, "two", None]}, b"\x00\xffraw", True)
    assert at == datetime(2026, 11, 22, 11, 0, tzinfo=UTC) and at.tzinfo == UTC  # UTCDateTime's processors ran


def test_a_missing_row_and_a_json_null(engine):
    with engine.begin() as connection:
        thing_id = ADD.execute(connection, thing("pawn", data=None, at=None)).scalar_one()
        assert GET.execute(connection, {"thing_id": thing_id}).first()[1:4:2] == (None, None)
        assert GET.execute(connection, {"thing_id": thing_id + 1}).first() is None


def test_results_are_kept_apart_when_statements_follow_each_other(engine):
    """One cursor serves every statement on a connection: each result is read before the next runs."""
    with engine.begin() as connection:
        first = ADD.execute(connection, thing("first")).scalar_one()
        second = ADD.execute(connection, thing("second")).scalar_one()
        rows_of_first = GET.execute(connection, {"thing_id": first})
        rows_of_second = GET.execute(connection, {"thing_id": second})
        renamed = RENAME_IF.execute(connection, {"thing_id": first, "was": "first", "now": "one"})
        assert rows_of_first.first()[0] == "first" and rows_of_second.all()[0][0] == "second"
        assert renamed.rowcount == 1


def test_the_row_count_tells_whether_a_conditional_update_applied(engine):
    with engine.begin() as connection:
        thing_id = ADD.execute(connection, thing("king")).scalar_one()
        assert RENAME_IF.execute(connection, {"thing_id": thing_id, "was": "king", "now": "queen"}).rowcount == 1
        assert RENAME_IF.execute(connection, {"thing_id": thing_id, "was": "king", "now": "bishop"}).rowcount == 0
        assert GET.execute(connection, {"thing_id": thing_id}).first()[0] == "queen"


def test_many_rows_at_once(engine):
    with engine.begin() as connection:
        ADD_MANY.defer(connection, [thing(name) for name in ("b", "c", "a")])
        assert [row[0] for row in NAMES.execute(connection, {}).all()] == ["a", "b", "c"]


PERCENT_TWICE = Prebuilt(text("SELECT :word || '%' || :word AS joined, :other AS other")
                         .columns(column("joined", String), column("other", Integer)))


def test_a_literal_percent_and_a_parameter_used_twice(engine):
    with engine.begin() as connection:
        ours = tuple(PERCENT_TWICE.execute(connection, {"word": "ab", "other": 7}).first())
        theirs = tuple(connection.execute(PERCENT_TWICE.statement, {"word": "ab", "other": 7}).first())
    assert ours == theirs == ("ab%ab", 7)


ADD_TAGGED = Prebuilt(text("INSERT INTO things (name) VALUES (:name || '%(tag)s')"))


def test_a_deferred_write_keeps_literal_text_that_looks_like_a_parameter(engine):
    with engine.begin() as connection:
        ADD_TAGGED.defer(connection, [{"name": "rook"}])
        assert COUNT_UP.execute(connection, {}).rowcount == 1  # carries the insert
    assert names_in(engine) == ["rook%(tag)s"]


def test_on_postgresql_statements_go_with_positional_placeholders_worked_out_once(engine):
    sent = statements_of(engine, lambda connection: [ADD_MANY.defer(connection, [thing(f"p{n}") for n in range(12)]),
                                                      COUNT_UP.execute(connection, {})])
    assert names_in(engine) == sorted(f"p{n}" for n in range(12))
    if engine.dialect.driver == "psycopg":  # more parameters than psycopg keeps its own split of (50)
        assert len(sent) == 1 and "%(" not in sent[0]
        assert max(int(number) for number in re.findall(r"\$(\d+)", sent[0])) == 12 * len(thing("x")) + 2
        assert _positional.cache_info().currsize >= 1
        again = _positional.cache_info().hits
        statements_of(engine, lambda connection: [ADD_MANY.defer(connection, [thing(f"q{n}") for n in range(12)]),
                                                  COUNT_UP.execute(connection, {})])
        assert _positional.cache_info().hits == again + 1  # the second time it was not worked out again


def test_on_postgresql_a_literal_dollar_is_refused_rather_than_read_as_a_placeholder(postgres_url):
    engine = make_engine(postgres_url)
    with engine.begin() as connection, pytest.raises(InvalidRequestError, match=r"literal \$"):
        Prebuilt(text("SELECT '$1'")).execute(connection, {})
    engine.dispose()


def test_the_statement_is_part_of_the_connections_transaction(engine):
    with engine.connect() as connection:
        with connection.begin() as transaction:
            ADD.execute(connection, thing("knight"))
            transaction.rollback()
        with connection.begin():
            assert NAMES.execute(connection, {}).all() == []


def test_on_the_driver_it_refuses_to_run_outside_a_transaction(postgres_url):
    engine = make_engine(postgres_url)
    METADATA.create_all(engine)
    with engine.connect() as connection, pytest.raises(InvalidRequestError, match="inside the connection's"):
        ADD.execute(connection, thing("bishop"))
    engine.dispose()


def test_a_duplicate_is_sqlalchemys_integrity_error_and_the_connection_recovers(engine):
    with engine.connect() as connection:
        with connection.begin():
            ADD.execute(connection, thing("queen"))
        with pytest.raises(IntegrityError), connection.begin():
            ADD.execute(connection, thing("queen"))
        with connection.begin():
            assert [row[0] for row in NAMES.execute(connection, {}).all()] == ["queen"]


def test_cursor_events_see_the_statements_and_on_postgresql_they_bypass_the_execution_layer(engine):
    seen = []

    def listen(_connection, _cursor, statement, _parameters, context, _executemany):
        if "INSERT INTO things" in statement:
            seen.append((statement.count("INSERT INTO things"), context is None))

    event.listen(engine, "before_cursor_execute", listen)
    with engine.begin() as connection:
        ADD.execute(connection, thing("pawn"))
        ADD_MANY.defer(connection, [thing("p1"), thing("p2")])
    if engine.dialect.driver == "psycopg":  # the two deferred rows went in one statement, at the commit
        assert seen == [(1, True), (2, True)]
    else:  # SQLAlchemy's own execution: one INSERT, then one executemany
        assert seen == [(1, False), (1, False)]


def test_a_lost_connection_is_invalidated_and_counts_as_transient(postgres_url):
    engine = make_engine(postgres_url)
    METADATA.create_all(engine)
    with engine.connect() as connection:
        with connection.begin():
            pid = connection.execute(text("select pg_backend_pid()")).scalar()
        admin = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
        with admin.connect() as other:
            assert other.execute(text("select pg_terminate_backend(:pid)"), {"pid": pid}).scalar()
        admin.dispose()
        with pytest.raises(DBAPIError) as raised, connection.begin():
            ADD.execute(connection, thing("ghost"))
        assert raised.value.connection_invalidated and connection.invalidated
        assert transient(raised.value)
    with engine.begin() as connection:  # the pool hands out a live connection again
        assert connection.execute(text("select pg_backend_pid()")).scalar() != pid
        assert NAMES.execute(connection, {}).all() == []
    engine.dispose()


def names_in(engine) -> list[str]:
    with engine.connect() as connection:
        return [row[0] for row in connection.execute(select(THINGS.c.name).order_by(THINGS.c.name))]


def statements_of(engine, work) -> list[str]:
    """The statements about the test's tables that ``work(connection)`` sends."""
    return [statement for statement in statements_sent(engine, work) if "things" in statement or "others" in statement]


def test_deferred_rows_are_there_for_every_later_read_in_the_transaction(engine):
    with engine.begin() as connection:
        ADD_MANY.defer(connection, [thing("b"), thing("a")])
        assert [row[0] for row in connection.execute(select(THINGS.c.name).order_by(THINGS.c.name))] == ["a", "b"]
        ADD_MANY.defer(connection, [thing("c")])
        assert [row[0] for row in NAMES.execute(connection, {}).all()] == ["a", "b", "c"]


def test_a_statement_that_does_not_carry_them_writes_deferred_rows_first_and_sees_them(engine):
    with engine.begin() as connection:
        ADD_MANY.defer(connection, [thing("rook")])
        thing_id = connection.execute(select(THINGS.c.id)).scalar_one()
    with engine.begin() as connection:
        ADD_MANY.defer(connection, [thing("knight")])
        assert RENAME_IF.execute(connection, {"thing_id": thing_id, "was": "rook", "now": "tower"}).rowcount == 1
    assert names_in(engine) == ["knight", "tower"]


def test_deferred_rows_are_written_at_the_commit_and_dropped_at_a_rollback(engine):
    with engine.connect() as connection:
        with connection.begin() as transaction:
            ADD_MANY.defer(connection, [thing("lost")])
            transaction.rollback()
        with connection.begin():  # nothing of the rolled-back transaction rides along with the next one
            ADD_MANY.defer(connection, [thing("kept")])
    assert names_in(engine) == ["kept"]


def test_on_postgresql_a_carrying_statement_takes_the_deferred_rows_in_its_own_round_trip(engine):
    def work(connection):
        ADD_MANY.defer(connection, [thing("p1"), thing("p2")])
        assert COUNT_UP.execute(connection, {}).rowcount == 1

    statements = statements_of(engine, work)
    if engine.dialect.driver == "psycopg":
        assert len(statements) == 1 and statements[0].startswith("WITH")
        assert statements[0].count("INSERT INTO things") == 2 and "UPDATE others" in statements[0]
    else:
        assert len(statements) == 2  # SQLite: the inserts at once, then the update
    assert names_in(engine) == ["p1", "p2"]
    with engine.connect() as connection:
        assert connection.execute(select(OTHERS.c.count)).scalar_one() == 1


SET_COUNT = Prebuilt(update(OTHERS).where(OTHERS.c.id == bindparam("other_id")).values(count=bindparam("n")))


def test_a_second_deferred_update_of_a_row_still_waiting_writes_the_first_one_first(engine):
    """PostgreSQL applies only one of two changes to one row in one statement: they must not share one."""
    def work(connection):
        SET_COUNT.defer(connection, [{"other_id": 1, "n": 1}], row_key=("others", 1))
        ADD_MANY.defer(connection, [thing("p1")])
        SET_COUNT.defer(connection, [{"other_id": 1, "n": 2}], row_key=("others", 1))

    statements = statements_of(engine, work)
    with engine.connect() as connection:
        assert connection.execute(select(OTHERS.c.count)).scalar_one() == 2  # the later change, applied last
    assert names_in(engine) == ["p1"]
    if engine.dialect.driver == "psycopg":  # the first change alone, then the row and the second change
        assert [statement.count("UPDATE others") for statement in statements] == [1, 1]


def test_deferred_updates_of_different_rows_share_one_statement(engine):
    with engine.begin() as connection:
        connection.execute(insert(OTHERS), {"id": 2, "count": 0})

    def work(connection):
        SET_COUNT.defer(connection, [{"other_id": 1, "n": 5}], row_key=("others", 1))
        SET_COUNT.defer(connection, [{"other_id": 2, "n": 6}], row_key=("others", 2))

    statements = statements_of(engine, work)
    with engine.connect() as connection:
        assert connection.execute(select(OTHERS.c.count).order_by(OTHERS.c.id)).scalars().all() == [5, 6]
    if engine.dialect.driver == "psycopg":
        assert len(statements) == 1 and statements[0].count("UPDATE others") == 2


def test_a_deferred_row_that_fails_fails_the_statement_that_carries_it_and_nothing_is_applied(engine):
    with engine.begin() as connection:
        ADD.execute(connection, thing("queen"))
    with pytest.raises(IntegrityError), engine.begin() as connection:
        ADD_MANY.defer(connection, [thing("pawn"), thing("queen")])
        COUNT_UP.execute(connection, {})
    assert names_in(engine) == ["queen"]
    with engine.connect() as connection:
        assert connection.execute(select(OTHERS.c.count)).scalar_one() == 0


def test_on_an_engine_without_the_hooks_deferred_rows_are_inserted_at_once(postgres_url):
    """Only an engine that writes deferred rows at its commit keeps them waiting (``make_engine`` sets that up)."""
    engine = create_engine(postgres_url)
    METADATA.create_all(engine)
    with engine.begin() as connection:
        ADD_MANY.defer(connection, [thing("at once")])
        assert DEFERRED not in connection.info
    assert names_in(engine) == ["at once"]
    engine.dispose()
