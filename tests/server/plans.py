"""What PostgreSQL's planner does with the server's periodic statements, on tables filled well past the work due.

A statement the server runs again and again is prepared by psycopg after its fifth run, and PostgreSQL may then
plan it once for any parameters (a generic plan). ``generic_plan`` asks for exactly that plan, after ANALYZE, with
no planner setting forced: an index shows in it only if the planner prefers it and can use it whatever the
parameters are.
"""

from __future__ import annotations

import re
from typing import Any

import psycopg
from sqlalchemy import Connection, event, text
from sqlalchemy.sql import ClauseElement

PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def as_sent(connection: Connection, statement: ClauseElement, values: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The SQL and parameters the driver gets for ``statement`` (run once, in a transaction rolled back)."""
    seen: list[tuple[str, dict[str, Any]]] = []

    def listen(_connection, _cursor, sql, parameters, _context, _executemany) -> None:
        seen.append((sql, parameters))

    event.listen(connection, "before_cursor_execute", listen)
    try:
        with connection.begin() as transaction:
            connection.execute(statement, values)
            transaction.rollback()
    finally:
        event.remove(connection, "before_cursor_execute", listen)
    return seen[-1]


def generic_plan(connection: Connection, statement: ClauseElement | str, values: dict[str, Any]) -> str:
    """The text of the generic plan of ``statement`` (a Core statement, or SQL as the driver got it, with
    ``%(name)s`` placeholders) for ``values``."""
    sql, parameters = (statement, values) if isinstance(statement, str) else as_sent(connection, statement, values)
    names: list[str] = []

    def numbered(found: re.Match[str]) -> str:
        if found.group(1) not in names:
            names.append(found.group(1))
        return f"${names.index(found.group(1)) + 1}"

    prepared = PLACEHOLDER.sub(numbered, sql)
    with connection.begin():
        connection.execute(text("ANALYZE"))
    driver = connection.connection.driver_connection
    with psycopg.ClientCursor(driver) as cursor:
        cursor.execute("SET plan_cache_mode = force_generic_plan")
        cursor.execute(f"PREPARE probe AS {prepared}")
        try:
            arguments = ", ".join(["%s"] * len(names))
            cursor.execute(f"EXPLAIN EXECUTE probe({arguments})" if names else "EXPLAIN EXECUTE probe",
                           [parameters[name] for name in names])
            return "\n".join(row[0] for row in cursor.fetchall())
        finally:
            cursor.execute("DEALLOCATE probe")
            cursor.execute("RESET plan_cache_mode")
