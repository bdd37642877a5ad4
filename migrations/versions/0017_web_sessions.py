"""web sessions kept on the server, so that logging out ends them

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-24 10:20:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'web_sessions',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('key', sa.String(length=64), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_web_sessions_player_id_players')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_web_sessions')),
        sa.UniqueConstraint('key', name=op.f('uq_web_sessions_key')),
    )
    op.create_index(op.f('ix_web_sessions_player_id'), 'web_sessions', ['player_id'])


def downgrade() -> None:
    op.drop_index(op.f('ix_web_sessions_player_id'), table_name='web_sessions')
    op.drop_table('web_sessions')
