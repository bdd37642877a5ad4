"""tournaments: round robins and Swiss events, their entries and pairings, and what a game is part of

- ``tournaments``: the terms and the course of each (status, entrants counted on the row, rounds), with a
  partial index of the open and running ones (the lists) and one of the open ones' start days (the worker's
  round);
- ``tournament_entries``: each entrant, in order of entry, with their rank once it starts and whether they
  withdrew;
- ``tournament_pairings``: each board of each round, its game (unique: a game's tournament) or a Swiss's bye;
- ``games.event``: what the game is part of, as every mail of it names it ("Tournament 3, round 2").

Revision ID: 0024
Revises: 0022
Create Date: 2026-11-28 23:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = '0024'
down_revision = '0023'
branch_labels = None
depends_on = None

OPEN = "status = 'open'"
UNDER_WAY = "status IN ('open', 'running')"


def upgrade() -> None:
    op.add_column('games', sa.Column('event', sa.String(length=60), nullable=True))
    op.create_table(
        'tournaments',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('organiser_id', sa.Integer(), nullable=True),
        sa.Column('variant', sa.String(length=40), nullable=False),
        sa.Column('options', sa.JSON(), nullable=False),
        sa.Column('days', sa.Integer(), nullable=False),
        sa.Column('format', sa.String(length=12), nullable=False),
        sa.Column('players', sa.Integer(), nullable=False),
        sa.Column('rounds', sa.Integer(), nullable=True),
        sa.Column('rated', sa.Boolean(), nullable=False),
        sa.Column('starts_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('status', sa.String(length=12), nullable=False),
        sa.Column('entrants', sa.Integer(), nullable=False),
        sa.Column('total_rounds', sa.Integer(), nullable=True),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['organiser_id'], ['players.id'], name=op.f('fk_tournaments_organiser_id_players')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_tournaments')),
    )
    op.create_index('ix_tournaments_under_way', 'tournaments', ['id'], postgresql_where=sa.text(UNDER_WAY),
                    sqlite_where=sa.text(UNDER_WAY))
    op.create_index('ix_tournaments_starts_at', 'tournaments', ['starts_at'], postgresql_where=sa.text(OPEN),
                    sqlite_where=sa.text(OPEN))
    op.create_table(
        'tournament_entries',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('entered_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('rank', sa.Integer(), nullable=True),
        sa.Column('rating', sa.Float(), nullable=True),
        sa.Column('withdrawn', sa.Boolean(), nullable=False),
        sa.Column('withdrawn_round', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'],
                                name=op.f('fk_tournament_entries_tournament_id_tournaments')),
        sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_tournament_entries_player_id_players')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_tournament_entries')),
        sa.UniqueConstraint('tournament_id', 'player_id', name=op.f('uq_tournament_entries_tournament_id')),
    )
    op.create_index('ix_tournament_entries_player_id', 'tournament_entries', ['player_id'])
    op.create_table(
        'tournament_pairings',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('board', sa.Integer(), nullable=False),
        sa.Column('white_id', sa.Integer(), nullable=False),
        sa.Column('black_id', sa.Integer(), nullable=True),
        sa.Column('game_id', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'],
                                name=op.f('fk_tournament_pairings_tournament_id_tournaments')),
        sa.ForeignKeyConstraint(['white_id'], ['players.id'], name=op.f('fk_tournament_pairings_white_id_players')),
        sa.ForeignKeyConstraint(['black_id'], ['players.id'], name=op.f('fk_tournament_pairings_black_id_players')),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_tournament_pairings_game_id_games')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_tournament_pairings')),
        sa.UniqueConstraint('game_id', name=op.f('uq_tournament_pairings_game_id')),
    )
    op.create_index('ix_tournament_pairings_round', 'tournament_pairings', ['tournament_id', 'round', 'board'])


def downgrade() -> None:
    op.drop_index('ix_tournament_pairings_round', table_name='tournament_pairings')
    op.drop_table('tournament_pairings')
    op.drop_index('ix_tournament_entries_player_id', table_name='tournament_entries')
    op.drop_table('tournament_entries')
    op.drop_index('ix_tournaments_starts_at', table_name='tournaments')
    op.drop_index('ix_tournaments_under_way', table_name='tournaments')
    op.drop_table('tournaments')
    op.drop_column('games', 'event')
