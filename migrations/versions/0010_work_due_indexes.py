"""periodic work reads only what is due: the clock's next look, the outbox rows still to send, games by player

- ``games.next_clock_at``: when the clock must next look at a game (a day before its deadline for the
  reminder, then the deadline), kept by the game service; only running games have one, and a partial
  index holds only those. It takes the place of the index on ``games.deadline``, which nothing reads by
  any more. Running games get theirs from their deadline here (a game whose player to move is on vacation
  is looked at once and then put off until the vacation ends).
- ``ix_outbound_messages_to_send``: the rows still to send (pending, or being sent under a lease), by when
  they are next due; dispatch claims through it. A row being sent is due again when its lease runs out.
- ``ix_inbound_messages_new``: the messages stored and not yet processed, which the sweep takes up.
- ``games.white_id`` and ``games.black_id``: a player's games (the games page, ``games``, vacation). Nothing
  reads games by their status alone any more: ``ix_games_status`` goes (every move rewrites the game row, and
  with it an entry in each of its indexes).

On a large database the indexes are built while writes to those tables wait: upgrade at a quiet time.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24 10:00:00.000000
"""

from datetime import timedelta

import sqlalchemy as sa
from alembic import op

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None

REMINDER_BEFORE = timedelta(hours=24)  # as app.games.clock has it when this was written
TO_SEND = "status IN ('pending', 'sending')"
NEW = "status = 'new'"
games = sa.table('games', sa.column('id', sa.Integer()), sa.column('status', sa.String()),
                 sa.column('deadline', sa.DateTime(timezone=True)), sa.column('reminded', sa.Boolean()),
                 sa.column('next_clock_at', sa.DateTime(timezone=True)))
outbox = sa.table('outbound_messages', sa.column('status', sa.String()),
                  sa.column('next_attempt_at', sa.DateTime(timezone=True)),
                  sa.column('lease_until', sa.DateTime(timezone=True)))


def upgrade() -> None:
    op.add_column('games', sa.Column('next_clock_at', sa.DateTime(timezone=True), nullable=True))
    connection = op.get_bind()
    running = connection.execute(sa.select(games.c.id, games.c.deadline, games.c.reminded).where(
        games.c.status == 'active', games.c.deadline.is_not(None))).all()
    for game_id, deadline, reminded in running:
        look = deadline if reminded else deadline - REMINDER_BEFORE
        connection.execute(games.update().where(games.c.id == game_id).values(next_clock_at=look))
    # A row being sent is due again when its lease runs out.
    connection.execute(outbox.update().where(outbox.c.status == 'sending', outbox.c.lease_until.is_not(None))
                       .values(next_attempt_at=outbox.c.lease_until))
    op.create_index('ix_games_next_clock_at', 'games', ['next_clock_at'],
                    postgresql_where=sa.text('next_clock_at IS NOT NULL'),
                    sqlite_where=sa.text('next_clock_at IS NOT NULL'))
    op.drop_index('ix_games_deadline', table_name='games')
    op.drop_index('ix_games_status', table_name='games')
    op.create_index('ix_games_white_id', 'games', ['white_id'])
    op.create_index('ix_games_black_id', 'games', ['black_id'])
    op.create_index('ix_outbound_messages_to_send', 'outbound_messages', ['next_attempt_at', 'id'],
                    postgresql_where=sa.text(TO_SEND), sqlite_where=sa.text(TO_SEND))
    op.create_index('ix_inbound_messages_new', 'inbound_messages', ['id'],
                    postgresql_where=sa.text(NEW), sqlite_where=sa.text(NEW))


def downgrade() -> None:
    op.drop_index('ix_inbound_messages_new', table_name='inbound_messages')
    op.drop_index('ix_outbound_messages_to_send', table_name='outbound_messages')
    op.drop_index('ix_games_black_id', table_name='games')
    op.drop_index('ix_games_white_id', table_name='games')
    op.create_index('ix_games_status', 'games', ['status'])
    op.create_index('ix_games_deadline', 'games', ['deadline'])
    op.drop_index('ix_games_next_clock_at', table_name='games')
    op.drop_column('games', 'next_clock_at')  # plain ALTER TABLE: events and the outbox point at games
