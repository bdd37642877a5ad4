"""the daily digest and reminders a player chooses

- ``players.digest_hour``: the hour (UTC) of the player's daily digest, or none for a mail per event;
  ``players.digest_due_at``: when their next digest is due, set only while they are on the digest, and a
  partial index of those alone, so that the digest round reads only the players due, however many games
  and players there are; ``players.reminders``: the hours before a deadline they want reminders at (none:
  the default reminder).
- ``games.reminded_lead``: the hours before the deadline of the reminder last sent in this turn, so each
  reminder is sent at most once a turn, and the clock's next look is the next reminder not yet sent.
- ``digests``, one row per digest sent, with the random key its reply address carries, and
  ``digest_games``, the games and plies each one listed (each game's part of a reply is answered once);
  ``digest_notes``, what a player on the digest was not mailed at once and the event record does not keep.

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-26 09:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = '0020'
down_revision = '0019'
branch_labels = None
depends_on = None

DUE = 'digest_due_at IS NOT NULL'
REMINDER_HOURS = 24  # as app.games.clock had it when this was written: 24 hours, or half a move of 2 days or less
games = sa.table('games', sa.column('id', sa.Integer()), sa.column('days', sa.Integer()),
                 sa.column('reminded', sa.Boolean()), sa.column('reminded_lead', sa.Integer()))


def upgrade() -> None:
    op.add_column('players', sa.Column('digest_hour', sa.Integer(), nullable=True))
    op.add_column('players', sa.Column('digest_due_at', sa.DateTime(timezone=True), nullable=True))
    op.add_column('players', sa.Column('reminders', sa.JSON(), nullable=True))
    op.create_index('ix_players_digest_due_at', 'players', ['digest_due_at'],
                    postgresql_where=sa.text(DUE), sqlite_where=sa.text(DUE))
    op.add_column('games', sa.Column('reminded_lead', sa.Integer(), nullable=True))
    connection = op.get_bind()
    for days in connection.execute(sa.select(games.c.days).where(games.c.reminded).distinct()).scalars().all():
        connection.execute(games.update().where(games.c.reminded, games.c.days == days)
                           .values(reminded_lead=min(REMINDER_HOURS, days * 12)))
    op.create_table(
        'digests',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('key', sa.String(length=32), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('sent_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_digests_player_id_players')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_digests')),
        sa.UniqueConstraint('key', name=op.f('uq_digests_key')),
    )
    op.create_table(
        'digest_games',
        sa.Column('digest_id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('ply', sa.Integer(), nullable=False),
        sa.Column('answered_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['digest_id'], ['digests.id'], name=op.f('fk_digest_games_digest_id_digests')),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_digest_games_game_id_games')),
        sa.PrimaryKeyConstraint('digest_id', 'game_id', name=op.f('pk_digest_games')),
    )
    op.create_table(
        'digest_notes',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('paragraphs', sa.JSON(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_digest_notes_player_id_players')),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_digest_notes_game_id_games')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_digest_notes')),
    )
    op.create_index('ix_digest_notes_player_id', 'digest_notes', ['player_id'])


def downgrade() -> None:
    op.drop_index('ix_digest_notes_player_id', table_name='digest_notes')
    op.drop_table('digest_notes')
    op.drop_table('digest_games')
    op.drop_table('digests')
    op.drop_column('games', 'reminded_lead')  # plain ALTER TABLE (SQLite has DROP COLUMN)
    op.drop_index('ix_players_digest_due_at', table_name='players')
    op.drop_column('players', 'reminders')
    op.drop_column('players', 'digest_due_at')
    op.drop_column('players', 'digest_hour')
