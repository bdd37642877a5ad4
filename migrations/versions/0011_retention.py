"""retention: old raw replies and old sent bodies can be dropped, their rows kept

``compacted_at`` on ``inbound_messages`` and ``outbound_messages`` says when retention dropped a
processed message's bytes or a sent mail's headers and two parts (the rows stay: ids, the key a
redelivery is recognised by, status, outcome, sender or recipient, subject, dates). Each table gets a
partial index of the rows still to be compacted, by age, so that retention reads only those.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-24 11:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None

INBOUND_TO_COMPACT = "compacted_at IS NULL AND status IN ('done', 'rejected', 'ignored')"
OUTBOUND_TO_COMPACT = "status = 'sent' AND compacted_at IS NULL"


def upgrade() -> None:
    op.add_column('inbound_messages', sa.Column('compacted_at', sa.DateTime(timezone=True), nullable=True))
    op.add_column('outbound_messages', sa.Column('compacted_at', sa.DateTime(timezone=True), nullable=True))
    op.create_index('ix_inbound_messages_to_compact', 'inbound_messages', ['processed_at'],
                    postgresql_where=sa.text(INBOUND_TO_COMPACT), sqlite_where=sa.text(INBOUND_TO_COMPACT))
    op.create_index('ix_outbound_messages_to_compact', 'outbound_messages', ['sent_at'],
                    postgresql_where=sa.text(OUTBOUND_TO_COMPACT), sqlite_where=sa.text(OUTBOUND_TO_COMPACT))


def downgrade() -> None:
    op.drop_index('ix_outbound_messages_to_compact', table_name='outbound_messages')
    op.drop_index('ix_inbound_messages_to_compact', table_name='inbound_messages')
    op.drop_column('outbound_messages', 'compacted_at')  # plain ALTER TABLE, as in 0009
    op.drop_column('inbound_messages', 'compacted_at')
