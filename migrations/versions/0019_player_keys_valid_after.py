"""a player's "keys valid after" time: signing out everywhere voids every earlier web key and session

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-25 09:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = '0019'
down_revision = '0018'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('players', sa.Column('keys_valid_after', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column('players', 'keys_valid_after')  # plain ALTER TABLE (SQLite has DROP COLUMN)
