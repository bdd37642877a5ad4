"""outbox keeps headers and both parts; MIME is assembled when sending

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22 13:05:00.000000
"""

from email import message_from_bytes
from email.policy import default

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None

outbound = sa.table(
    'outbound_messages',
    sa.column('id', sa.Integer()),
    sa.column('message_id', sa.String()),
    sa.column('raw', sa.LargeBinary()),
    sa.column('headers', sa.JSON()),
    sa.column('body_text', sa.Text()),
    sa.column('body_html', sa.Text()),
)


def parts_of(raw: bytes) -> tuple[list[list[str]], str, str]:
    """Headers (as they were written) and both bodies of a message queued before this revision."""
    message = message_from_bytes(raw, policy=default)
    headers = [[name, str(value)] for name, value in message.raw_items()
               if name.lower() not in ('mime-version', 'content-type', 'content-transfer-encoding')]
    bodies = []
    for kind in ('plain', 'html'):
        part = message.get_body((kind,))
        bodies.append(part.get_content().replace('\r\n', '\n') if part else '')  # stored with CRLF ends
    return headers, bodies[0], bodies[1]


def upgrade() -> None:
    with op.batch_alter_table('outbound_messages', schema=None) as batch_op:
        batch_op.add_column(sa.Column('headers', sa.JSON(), server_default='[]', nullable=False))
        batch_op.add_column(sa.Column('body_html', sa.Text(), server_default='', nullable=False))
    connection = op.get_bind()
    for row_id, raw in connection.execute(sa.select(outbound.c.id, outbound.c.raw)).all():
        headers, text, html = parts_of(raw)
        connection.execute(outbound.update().where(outbound.c.id == row_id)
                           .values(headers=headers, body_text=text, body_html=html))
    with op.batch_alter_table('outbound_messages', schema=None) as batch_op:
        batch_op.drop_column('raw')


def downgrade() -> None:
    from app.outbound.compose import assemble

    with op.batch_alter_table('outbound_messages', schema=None) as batch_op:
        batch_op.add_column(sa.Column('raw', sa.LargeBinary(), nullable=True))
    connection = op.get_bind()
    rows = connection.execute(sa.select(outbound.c.id, outbound.c.headers, outbound.c.body_text,
                                        outbound.c.body_html, outbound.c.message_id)).all()
    for row_id, headers, text, html, message_id in rows:
        raw = assemble(headers, text, html, message_id)
        connection.execute(outbound.update().where(outbound.c.id == row_id).values(raw=raw))
    with op.batch_alter_table('outbound_messages', schema=None) as batch_op:
        batch_op.alter_column('raw', nullable=False)
        batch_op.drop_column('body_html')
        batch_op.drop_column('headers')
