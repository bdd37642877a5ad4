"""answers outside games, counted for the limits; commands held until their sender confirms them

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-24 10:10:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'answers',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('recipient', sa.String(length=320), nullable=False),
        sa.Column('cause', sa.String(length=320), nullable=False),
        sa.Column('kind', sa.String(length=20), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_answers')),
    )
    op.create_index('ix_answers_recipient_created_at', 'answers', ['recipient', 'created_at'])
    op.create_index('ix_answers_cause_created_at', 'answers', ['cause', 'created_at'])
    op.create_table(
        'confirmations',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('key', sa.String(length=32), nullable=False),
        sa.Column('email', sa.String(length=320), nullable=False),
        sa.Column('commands', sa.Text(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_confirmations')),
        sa.UniqueConstraint('key', name=op.f('uq_confirmations_key')),
    )


def downgrade() -> None:
    op.drop_table('confirmations')
    op.drop_index('ix_answers_cause_created_at', table_name='answers')
    op.drop_index('ix_answers_recipient_created_at', table_name='answers')
    op.drop_table('answers')
