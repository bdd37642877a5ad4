"""one preferences value per player instead of a column per preference

A player's preferences (which parts of a diagram to show, and whatever a variant lets a player
choose) are one JSON object; only the settings a player changed are kept in it. The notebook
flag moves in as ``{"notebook": false}`` where it was switched off.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23 21:30:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None

players = sa.table('players', sa.column('id', sa.Integer()), sa.column('notebook', sa.Boolean()),
                   sa.column('preferences', sa.JSON()))


def upgrade() -> None:
    op.add_column('players', sa.Column('preferences', sa.JSON(), server_default='{}', nullable=False))
    connection = op.get_bind()
    connection.execute(players.update().where(players.c.notebook == sa.false()).values(
        preferences={'notebook': False}))
    op.drop_column('players', 'notebook')  # plain ALTER TABLE: games' foreign keys point at players


def downgrade() -> None:
    op.add_column('players', sa.Column('notebook', sa.Boolean(), server_default=sa.true(), nullable=False))
    connection = op.get_bind()
    for player_id, preferences in connection.execute(sa.select(players.c.id, players.c.preferences)).all():
        if (preferences or {}).get('notebook') is False:
            connection.execute(players.update().where(players.c.id == player_id).values(notebook=False))
    op.drop_column('players', 'preferences')
