"""sign-in links

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22 11:52:28.273504
"""

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('login_tokens',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('nonce', sa.String(length=64), nullable=False),
    sa.Column('email', sa.String(length=320), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=True),
    sa.Column('client', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_login_tokens_player_id_players')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_login_tokens')),
    sa.UniqueConstraint('nonce', name=op.f('uq_login_tokens_nonce'))
    )
    with op.batch_alter_table('login_tokens', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_login_tokens_client'), ['client'], unique=False)
        batch_op.create_index(batch_op.f('ix_login_tokens_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_login_tokens_email'), ['email'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('login_tokens', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_login_tokens_email'))
        batch_op.drop_index(batch_op.f('ix_login_tokens_created_at'))
        batch_op.drop_index(batch_op.f('ix_login_tokens_client'))

    op.drop_table('login_tokens')
