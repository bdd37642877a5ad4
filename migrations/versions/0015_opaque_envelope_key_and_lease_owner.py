"""outbound mail: a random envelope key for VERP, and the worker that holds a lease

The envelope sender named each mail by its row id, so a player could count the server's
mails (the opponent's rejected orders among them) from Return-Path. It now carries a
random key, found again through a unique index when a bounce comes back. The lease owner
lets a restarted worker take back its own rows at once.

Revision ID: 0015
Revises: 0011
Create Date: 2026-11-24 10:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = '0015'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('outbound_messages', sa.Column('lease_owner', sa.String(length=100), nullable=True))
    op.add_column('outbound_messages', sa.Column('envelope_key', sa.String(length=32), nullable=True))
    op.create_index('ix_outbound_messages_envelope_key', 'outbound_messages', ['envelope_key'], unique=True)


def downgrade() -> None:
    op.drop_index('ix_outbound_messages_envelope_key', table_name='outbound_messages')
    with op.batch_alter_table('outbound_messages') as batch:
        batch.drop_column('envelope_key')
        batch.drop_column('lease_owner')
