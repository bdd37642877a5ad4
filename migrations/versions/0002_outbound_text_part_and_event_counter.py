"""outbound text part and event counter

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 11:44:36.938111
"""

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('last_seq', sa.Integer(), server_default='0', nullable=False))

    with op.batch_alter_table('outbound_messages', schema=None) as batch_op:
        batch_op.add_column(sa.Column('body_text', sa.Text(), server_default='', nullable=False))



def downgrade() -> None:
    with op.batch_alter_table('outbound_messages', schema=None) as batch_op:
        batch_op.drop_column('body_text')

    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('last_seq')

