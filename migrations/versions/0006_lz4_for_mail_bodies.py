"""raw mail and outbox bodies compressed with lz4 on PostgreSQL

Every handled move stores the reply's raw bytes (often 10 KB or more: clients quote the whole move
request) and queues two mails whose HTML parts run to 20 KB. PostgreSQL compresses such values
with pglz unless told otherwise; lz4 (PostgreSQL 14 and later, where the server was built with it)
does the same job in a fraction of the server's time, with about the same size. SQLite, older
servers and servers without lz4 keep what they have.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-22 23:00:00.000000
"""

import logging

import sqlalchemy as sa
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None

LARGE = (('inbound_messages', 'raw'), ('outbound_messages', 'body_text'), ('outbound_messages', 'body_html'))
log = logging.getLogger(__name__)


def _set_compression(method: str) -> None:
    connection = op.get_bind()
    if connection.dialect.name != 'postgresql' or connection.dialect.server_version_info < (14,):
        return
    try:
        with connection.begin_nested():  # a server built without lz4 refuses: keep its default then
            for table, column in LARGE:
                connection.execute(sa.text(f'ALTER TABLE {table} ALTER COLUMN {column} SET COMPRESSION {method}'))
    except sa.exc.DBAPIError as error:
        log.warning('column compression left as it was: %s', error.orig)


def upgrade() -> None:
    _set_compression('lz4')


def downgrade() -> None:
    _set_compression('DEFAULT')
