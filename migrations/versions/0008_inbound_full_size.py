"""inbound messages kept as their header only: the size of the whole message

IMAP cannot refuse a message larger than any door takes; the referee keeps its header, so that the
sender is answered, and the size the server reported, so that the answer says why.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23 16:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('inbound_messages', sa.Column('full_size', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('inbound_messages') as batch:
        batch.drop_column('full_size')
