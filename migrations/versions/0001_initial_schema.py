"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-22 11:28:51.146674
"""

import sqlalchemy as sa
from alembic import op

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('inbound_messages',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('message_key', sa.String(length=512), nullable=False),
    sa.Column('raw', sa.LargeBinary(), nullable=False),
    sa.Column('envelope_from', sa.String(length=512), nullable=True),
    sa.Column('envelope_to', sa.JSON(), nullable=False),
    sa.Column('source', sa.String(length=20), nullable=False),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('outcome', sa.Text(), nullable=True),
    sa.Column('sender', sa.String(length=320), nullable=True),
    sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('processed_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_inbound_messages')),
    sa.UniqueConstraint('message_key', name=op.f('uq_inbound_messages_message_key'))
    )
    with op.batch_alter_table('inbound_messages', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_inbound_messages_status'), ['status'], unique=False)

    op.create_table('players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('email', sa.String(length=320), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('notebook', sa.Boolean(), nullable=False),
    sa.Column('vacation_until', sa.DateTime(timezone=True), nullable=True),
    sa.Column('vacation_year', sa.Integer(), nullable=False),
    sa.Column('vacation_days_used', sa.Integer(), nullable=False),
    sa.Column('bounces', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_players')),
    sa.UniqueConstraint('email', name=op.f('uq_players_email'))
    )
    op.create_table('games',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('variant', sa.String(length=40), nullable=False),
    sa.Column('options', sa.JSON(), nullable=False),
    sa.Column('days', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('white_id', sa.Integer(), nullable=False),
    sa.Column('black_id', sa.Integer(), nullable=False),
    sa.Column('challenger_id', sa.Integer(), nullable=True),
    sa.Column('white_accepted', sa.Boolean(), nullable=False),
    sa.Column('black_accepted', sa.Boolean(), nullable=False),
    sa.Column('state', sa.JSON(), nullable=False),
    sa.Column('ply', sa.Integer(), nullable=False),
    sa.Column('deadline', sa.DateTime(timezone=True), nullable=True),
    sa.Column('reminded', sa.Boolean(), nullable=False),
    sa.Column('commitments', sa.JSON(), nullable=False),
    sa.Column('result', sa.String(length=10), nullable=True),
    sa.Column('reason', sa.String(length=40), nullable=True),
    sa.Column('public_white', sa.Boolean(), nullable=False),
    sa.Column('public_black', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['black_id'], ['players.id'], name=op.f('fk_games_black_id_players')),
    sa.ForeignKeyConstraint(['challenger_id'], ['players.id'], name=op.f('fk_games_challenger_id_players')),
    sa.ForeignKeyConstraint(['white_id'], ['players.id'], name=op.f('fk_games_white_id_players')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_games'))
    )
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_games_deadline'), ['deadline'], unique=False)
        batch_op.create_index(batch_op.f('ix_games_status'), ['status'], unique=False)

    op.create_table('events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('by', sa.String(length=5), nullable=True),
    sa.Column('order', sa.Text(), nullable=False),
    sa.Column('result', sa.String(length=20), nullable=False),
    sa.Column('move_number', sa.Integer(), nullable=False),
    sa.Column('ply', sa.Integer(), nullable=False),
    sa.Column('told', sa.JSON(), nullable=False),
    sa.Column('views', sa.JSON(), nullable=False),
    sa.Column('position', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_events_game_id_games')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_events')),
    sa.UniqueConstraint('game_id', 'seq', name=op.f('uq_events_game_id'))
    )
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_events_game_id'), ['game_id'], unique=False)

    op.create_table('outbound_messages',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('message_id', sa.String(length=512), nullable=False),
    sa.Column('recipient', sa.String(length=320), nullable=False),
    sa.Column('kind', sa.String(length=40), nullable=False),
    sa.Column('subject', sa.Text(), nullable=False),
    sa.Column('raw', sa.LargeBinary(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('lease_until', sa.DateTime(timezone=True), nullable=True),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_error', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_outbound_messages_game_id_games')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_outbound_messages')),
    sa.UniqueConstraint('message_id', name=op.f('uq_outbound_messages_message_id'))
    )
    with op.batch_alter_table('outbound_messages', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_outbound_messages_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_outbound_messages_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_outbound_messages_recipient'), ['recipient'], unique=False)
        batch_op.create_index(batch_op.f('ix_outbound_messages_status'), ['status'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('outbound_messages', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_outbound_messages_status'))
        batch_op.drop_index(batch_op.f('ix_outbound_messages_recipient'))
        batch_op.drop_index(batch_op.f('ix_outbound_messages_game_id'))
        batch_op.drop_index(batch_op.f('ix_outbound_messages_created_at'))

    op.drop_table('outbound_messages')
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_events_game_id'))

    op.drop_table('events')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_games_status'))
        batch_op.drop_index(batch_op.f('ix_games_deadline'))

    op.drop_table('games')
    op.drop_table('players')
    with op.batch_alter_table('inbound_messages', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_inbound_messages_status'))

    op.drop_table('inbound_messages')
