"""attachments of an outbound mail (the record of a game with its game-over mail)

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-24 02:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = '0018'
down_revision = '0017'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('outbound_messages', sa.Column('attachments', sa.JSON(), server_default='[]', nullable=False))


def downgrade() -> None:
    op.drop_column('outbound_messages', 'attachments')  # plain ALTER TABLE (SQLite has DROP COLUMN)
