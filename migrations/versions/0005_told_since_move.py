"""each side's messages since its own last move, kept on the game

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22 13:30:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None

NOT_RETOLD = ('error', 'rejected', 'setup', 'setup-done', 'start')
games = sa.table('games', sa.column('id', sa.Integer()), sa.column('told_since_move', sa.JSON()))
events = sa.table('events', sa.column('game_id', sa.Integer()), sa.column('seq', sa.Integer()),
                  sa.column('result', sa.String()), sa.column('told', sa.JSON()))


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('told_since_move', sa.JSON(), server_default='{}', nullable=False))
    connection = op.get_bind()
    carried: dict[int, dict[str, list]] = {}
    rows = connection.execute(sa.select(events.c.game_id, events.c.result, events.c.told)
                              .order_by(events.c.game_id, events.c.seq))
    for game_id, result, told in rows:  # the rule of GameService.record, replayed over each game's events
        sides = carried.setdefault(game_id, {'white': [], 'black': []})
        for side in ('white', 'black'):
            messages = (told or {}).get(side, [])
            if result in ('moved', 'shortened') and any(m['kind'] == 'moved' and m['color'] == side
                                                        for m in messages):
                sides[side] = []
            else:
                sides[side] += [m for m in messages if m['kind'] not in NOT_RETOLD]
    for game_id, sides in carried.items():
        connection.execute(games.update().where(games.c.id == game_id).values(told_since_move=sides))


def downgrade() -> None:
    # A plain ALTER TABLE (SQLite has DROP COLUMN since 3.35): rebuilding games as batch mode does
    # would break the foreign keys that point at it.
    op.drop_column('games', 'told_since_move')
