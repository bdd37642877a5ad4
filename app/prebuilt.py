"""The statements every handled message runs, compiled once and run straight on psycopg's cursor.

Each inbound message stores its bytes, locks its game, writes the game, an event and the outbox,
and marks itself done: the same handful of statements, thousands of times. Through SQLAlchemy's
execution layer each costs about twice the driver's own CPU (execution context, result set-up,
events), which was most of a move's time on PostgreSQL. A ``Prebuilt`` skips that layer there,
and keeps what it gives:

- the SQL and its parameters as SQLAlchemy compiles them for the dialect, with the column types'
  bind and result processors (UTC timestamps, JSON);
- the connection's transaction: the statement runs in whatever transaction the ``Connection`` has
  begun (and refuses to run outside one);
- its errors: a driver error is raised as SQLAlchemy's ``DBAPIError`` subclass (``IntegrityError``
  and the rest), and a lost connection invalidates the ``Connection`` as SQLAlchemy would.

They are statements of a row or two: their rows are read as soon as they run, so one cursor per
driver connection serves them all. It is psycopg's raw cursor, given the SQL with PostgreSQL's own
``$1`` placeholders, worked out once per statement: psycopg would otherwise split a statement of
more than 50 parameters (the mark with the writes it carries) anew on every call. Run on
the cursor, a statement still fires the ``before_cursor_execute`` and ``after_cursor_execute``
events (with no execution context, and with the SQL and parameters the driver gets), but is not
echoed to SQLAlchemy's log. Other drivers (SQLite's, whose calls are in-process and cheap) run
them through ``Connection.execute``.

Writes whose results nobody reads (the event and outbox inserts, the game's update) can be
deferred: they wait on the connection and go ahead of its next statement that ``carries_deferred``
(the mark), as data-modifying CTEs of that one statement. That saves their round trips and the
driver's work per statement. Any other statement (SQLAlchemy's included) and the commit write them
first, so every read sees them; a rollback drops them. PostgreSQL cannot change one row twice in one
statement, so a deferred update names its row, and a second update of a row still waiting writes
the first one before it waits in turn.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any, NamedTuple, Protocol
from weakref import WeakKeyDictionary, WeakSet

from psycopg import RawCursor
from sqlalchemy import Connection, Engine, event
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError, InvalidRequestError
from sqlalchemy.sql.expression import Executable

Processor = Callable[[Any], Any]


class Rows(Protocol):
    """What callers read of a statement's result, from either path."""

    @property
    def rowcount(self) -> int: ...

    def first(self) -> Sequence[Any] | None: ...

    def all(self) -> Sequence[Sequence[Any]]: ...

    def scalar_one(self) -> Any: ...


@dataclass
class _Compiled:
    """One statement compiled for one dialect and one set of parameter names."""

    sql: str
    compiled: Any  # SQLAlchemy's Compiled: it also fills in the statement's own literal parameters
    binds: dict[str, Processor]
    result_types: list[Any]  # the types of the columns it returns (none: a statement without rows)
    results: list[Processor | None] | None = None  # known after the first result arrives


class _DriverRows:
    """A statement's rows, read at once (these statements return a row or two), with the column types'
    result processors applied: the cursor is free for the next statement as soon as this exists."""

    def __init__(self, cursor: Any, processors: list[Processor | None] | None) -> None:
        """``processors``: one per column (an empty list: none to apply); None for a statement without rows."""
        self.rowcount: int = cursor.rowcount
        self.rows: list[tuple[Any, ...]] = [] if processors is None else cursor.fetchall()
        if processors:
            self.rows = [tuple(value if process is None or value is None else process(value)
                               for process, value in zip(processors, row, strict=True)) for row in self.rows]

    def first(self) -> tuple[Any, ...] | None:
        return self.rows[0] if self.rows else None

    def all(self) -> list[tuple[Any, ...]]:
        return self.rows

    def scalar_one(self) -> Any:
        if len(self.rows) != 1:
            raise InvalidRequestError(f"expected exactly one row, got {len(self.rows)}")
        return self.rows[0][0]


class Prebuilt:
    """A Core statement run on the driver's cursor on PostgreSQL (psycopg), else through SQLAlchemy."""

    def __init__(self, statement: Executable, carries_deferred: bool = False) -> None:
        """``carries_deferred``: the statement neither reads nor changes rows that deferred writes add or
        change, so writes deferred on its connection can go in the same statement, ahead of it."""
        self.statement = statement
        self.carries_deferred = carries_deferred
        self._compiled: WeakKeyDictionary[Dialect, dict[tuple[str, ...], _Compiled]] = WeakKeyDictionary()

    def execute(self, connection: Connection, parameters: dict[str, Any]) -> Rows:
        if connection.dialect.driver != "psycopg":
            return connection.execute(self.statement, parameters)
        compiled = self._compile(connection.dialect, tuple(parameters))
        values = self._bind(compiled, parameters)
        deferred = connection.info.pop(DEFERRED, None)
        if deferred and self.carries_deferred:
            sql, values = _with_writes_ahead(deferred, compiled.sql, values)
            cursor = _run(connection, sql, values)
        else:
            if deferred:
                write_deferred(connection, deferred)
            cursor = _run(connection, compiled.sql, values)
        if not compiled.result_types:  # no rows to read: only the row count
            return _DriverRows(cursor, None)
        if compiled.results is None:  # psycopg builds the description anew on every call: read it once
            compiled.results = self._result_processors(connection.dialect, compiled, cursor.description)
        return _DriverRows(cursor, compiled.results)

    def defer(self, connection: Connection, rows: list[dict[str, Any]], row_key: Hashable | None = None) -> None:
        """Write these rows before the connection's next statement, in the same round trip when it can.

        For an INSERT, or an UPDATE of one row, whose result nobody reads. On psycopg the rows wait on
        the connection: the next statement that ``carries_deferred`` takes them along as data-modifying
        CTEs ahead of itself; any other statement (SQLAlchemy's too), and the commit, writes them first;
        a rollback drops them. Elsewhere they are written at once.

        ``row_key`` names the one existing row an UPDATE changes: PostgreSQL cannot change a row twice
        in one statement, so a second change of a row that is still waiting writes the first one first.
        """
        if connection.dialect.driver != "psycopg" or connection.engine not in _WRITES_DEFERRED_FIRST:
            connection.execute(self.statement, rows)  # no hooks to write them at the commit: at once
            return
        _require_transaction(connection)
        deferred = connection.info.setdefault(DEFERRED, [])
        if row_key is not None and any(waiting.row_key == row_key for waiting in deferred):
            write_deferred(connection)
            deferred = connection.info[DEFERRED] = []
        for row in rows:
            compiled = self._compile(connection.dialect, tuple(row))
            if compiled.result_types:
                raise InvalidRequestError("only statements without results can be deferred")
            deferred.append(_Write(compiled.sql, self._bind(compiled, row), row_key))

    def _compile(self, dialect: Dialect, keys: tuple[str, ...]) -> _Compiled:
        by_keys = self._compiled.setdefault(dialect, {})
        found = by_keys.get(keys)
        if found is None:
            compiled = self.statement.compile(dialect=dialect, column_keys=list(keys))  # type: ignore[attr-defined]
            binds = {}
            for bind, name in compiled.bind_names.items():
                process = bind.type.dialect_impl(dialect).bind_processor(dialect)
                if process is not None:
                    binds[name] = process
            exported = getattr(self.statement, "exported_columns", ())
            found = by_keys[keys] = _Compiled(compiled.string, compiled, binds, [column.type for column in exported])
        return found

    @staticmethod
    def _bind(compiled: _Compiled, parameters: dict[str, Any]) -> dict[str, Any]:
        values = compiled.compiled.construct_params(parameters)
        for name, process in compiled.binds.items():
            if name in values:
                values[name] = process(values[name])
        return values

    @staticmethod
    def _result_processors(dialect: Dialect, compiled: _Compiled, description: Any) -> list[Processor | None]:
        if len(compiled.result_types) != len(description):  # not a statement of known columns
            return []
        return [kind.dialect_impl(dialect).result_processor(dialect, column.type_code)
                for kind, column in zip(compiled.result_types, description, strict=True)]


# ------------------------------------------------------------------ writes deferred to the next statement

DEFERRED = "prebuilt_deferred"  # a connection's deferred writes, in its ``info``: [_Write]
_WRITES_DEFERRED_FIRST: WeakSet[Engine] = WeakSet()  # engines set up by ``write_deferred_first``
_PYFORMAT = re.compile(r"%\((\w+)\)s|%%")  # a named parameter, or a literal % as pyformat escapes it


class _Write(NamedTuple):
    """A deferred write: its SQL, its bound values, and for an UPDATE the key of the row it changes."""

    sql: str
    values: dict[str, Any]
    row_key: Hashable | None


@lru_cache(maxsize=256)
def _ahead_sql(writes: tuple[str, ...], final: str) -> str:
    """``final`` with the writes ahead of it as data-modifying CTEs, their parameters renamed apart."""
    def renamed(n: int, found: re.Match[str]) -> str:
        return found.group(0) if found.group(1) is None else f"%(w{n}_{found.group(1)})s"  # a literal % stays

    ctes = ", ".join(f"w{n} AS ({_PYFORMAT.sub(partial(renamed, n), sql)})" for n, sql in enumerate(writes))
    return f"WITH {ctes} {final}"


def _with_writes_ahead(deferred: list[_Write], final: str,
                       final_values: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    values = dict(final_values)
    for n, write in enumerate(deferred):
        for name, value in write.values.items():
            values[f"w{n}_{name}"] = value
    if len(values) != len(final_values) + sum(len(write.values) for write in deferred):
        raise InvalidRequestError("a parameter name of the statement collides with a deferred write's")
    return _ahead_sql(tuple(write.sql for write in deferred), final), values


def write_deferred(connection: Connection, deferred: list[_Write] | None = None) -> None:
    """Write the connection's deferred writes now, in one statement (the last one carries the others)."""
    if deferred is None:
        deferred = connection.info.pop(DEFERRED, None)
    if not deferred:
        return
    *ahead, (sql, values, _row_key) = deferred
    if ahead:
        sql, values = _with_writes_ahead(ahead, sql, values)
    _run(connection, sql, values)


def write_deferred_first(engine: Engine) -> None:
    """Deferred writes are written before any other statement on their connection and at its commit,
    and dropped at its rollback: nobody reads past them, and none outlives its transaction."""
    _WRITES_DEFERRED_FIRST.add(engine)

    @event.listens_for(engine, "before_cursor_execute")
    def _before_statement(connection, _cursor, _statement, _parameters, _context, _executemany) -> None:
        if connection.info.get(DEFERRED):
            write_deferred(connection)

    @event.listens_for(engine, "commit")
    def _before_commit(connection) -> None:
        write_deferred(connection)

    @event.listens_for(engine, "rollback")
    def _at_rollback(connection) -> None:
        if not connection.invalidated:  # an invalidated connection's info goes with its driver connection
            connection.info.pop(DEFERRED, None)


@dataclass(frozen=True)
class _Positional:
    """A statement as psycopg's raw cursor takes it: ``$n`` placeholders, and the names they stand for."""

    text: str
    encoded: bytes
    names: tuple[str, ...]


@lru_cache(maxsize=512)
def _positional(sql: str) -> _Positional:
    """``sql`` in pyformat (``%(name)s``, ``%%``) with PostgreSQL's ``$n`` placeholders instead; a name used
    twice keeps its one number."""
    if "$" in sql:
        raise InvalidRequestError("a prebuilt statement cannot hold a literal $")  # it would read as a placeholder
    numbers: dict[str, int] = {}

    def placeholder(found: re.Match[str]) -> str:
        name = found.group(1)
        if name is None:
            return "%"
        return f"${numbers.setdefault(name, len(numbers) + 1)}"

    text = _PYFORMAT.sub(placeholder, sql)
    return _Positional(text, text.encode(), tuple(numbers))


def _run(connection: Connection, sql: str, parameters: dict[str, Any]) -> Any:
    """Run SQL on the connection's one driver cursor, in its transaction, with SQLAlchemy's events and errors."""
    _require_transaction(connection)
    dialect = connection.dialect
    pooled = connection.connection
    driver_connection = pooled.driver_connection
    cursor = pooled.info.get("prebuilt_cursor")
    if cursor is None or cursor.connection is not driver_connection:  # one cursor per driver connection
        cursor = pooled.info["prebuilt_cursor"] = RawCursor(driver_connection)
    statement = _positional(sql)
    values = [parameters[name] for name in statement.names]
    events = connection.dispatch
    try:
        if events.before_cursor_execute:
            events.before_cursor_execute(connection, cursor, statement.text, values, None, False)
        cursor.execute(statement.encoded, values)
        if events.after_cursor_execute:
            events.after_cursor_execute(connection, cursor, statement.text, values, None, False)
    except dialect.loaded_dbapi.Error as error:
        lost = dialect.is_disconnect(error, driver_connection, cursor)
        if lost:
            connection.invalidate(error)
        raise DBAPIError.instance(statement.text, values, error, dialect.loaded_dbapi.Error,
                                  dialect=dialect, connection_invalidated=lost) from error
    return cursor


def _require_transaction(connection: Connection) -> None:
    """On the driver's cursor nothing begins a transaction for us: SQLAlchemy must have begun one."""
    if not connection.in_transaction():
        raise InvalidRequestError("a prebuilt statement runs inside the connection's transaction")
