"""the club: open seeks, ratings and their history, rated games, names-only games, private profiles

- ``seeks``: games offered to anyone, with a partial index of the open ones (what ``/seeks`` lists);
- ``ratings``: each player's Glicko-2 rating per variant; ``rating_changes``: each rated game's effect on
  each player, the history drawn on a player's page;
- ``games.rated``: its end changes the players' ratings; ``games.names_only``: the players know each
  other by name only (a game from a seek);
- ``players.profile_public``: whether the player's page is shown (``profile private`` hides it).

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-26 22:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = '0021'
down_revision = '0020'
branch_labels = None
depends_on = None

OPEN = "status = 'open'"


def upgrade() -> None:
    op.add_column('players', sa.Column('profile_public', sa.Boolean(), server_default=sa.true(), nullable=False))
    op.add_column('games', sa.Column('rated', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.add_column('games', sa.Column('names_only', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.create_table(
        'seeks',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('variant', sa.String(length=40), nullable=False),
        sa.Column('options', sa.JSON(), nullable=False),
        sa.Column('days', sa.Integer(), nullable=False),
        sa.Column('rated', sa.Boolean(), nullable=False),
        sa.Column('rating_low', sa.Integer(), nullable=True),
        sa.Column('rating_high', sa.Integer(), nullable=True),
        sa.Column('status', sa.String(length=12), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('lapses_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_seeks_player_id_players')),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_seeks_game_id_games')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_seeks')),
    )
    op.create_index('ix_seeks_player_id', 'seeks', ['player_id'])
    op.create_index('ix_seeks_open', 'seeks', ['created_at'], postgresql_where=sa.text(OPEN),
                    sqlite_where=sa.text(OPEN))
    op.create_table(
        'ratings',
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('variant', sa.String(length=40), nullable=False),
        sa.Column('rating', sa.Float(), nullable=False),
        sa.Column('deviation', sa.Float(), nullable=False),
        sa.Column('volatility', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_ratings_player_id_players')),
        sa.PrimaryKeyConstraint('player_id', 'variant', name=op.f('pk_ratings')),
    )
    op.create_table(
        'rating_changes',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('variant', sa.String(length=40), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('before', sa.Float(), nullable=False),
        sa.Column('rating', sa.Float(), nullable=False),
        sa.Column('deviation', sa.Float(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_rating_changes_player_id_players')),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_rating_changes_game_id_games')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_rating_changes')),
    )
    op.create_index('ix_rating_changes_player_variant', 'rating_changes', ['player_id', 'variant', 'id'])


def downgrade() -> None:
    op.drop_index('ix_rating_changes_player_variant', table_name='rating_changes')
    op.drop_table('rating_changes')
    op.drop_table('ratings')
    op.drop_index('ix_seeks_open', table_name='seeks')
    op.drop_index('ix_seeks_player_id', table_name='seeks')
    op.drop_table('seeks')
    op.drop_column('games', 'names_only')
    op.drop_column('games', 'rated')
    op.drop_column('players', 'profile_public')
