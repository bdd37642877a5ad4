"""club membership and names: a page only for players in the club or who chose one, names unique in the club

- ``players.profile_chosen``: the player chose ``profile_public`` themself (``profile public`` shows their page
  even outside the club); every player so far has it unchosen, so their page is shown only once they are in
  the club (or never, if they chose ``profile private``, which is kept);
- ``players.club_key``: the name the player holds in the club, folded (``app.club.names.name_key``), unique
  (``ux_players_club_key``). The players already in the club (a seek posted, a game from a seek or a rated
  game) hold their names from now on, the first to have joined first; one whose name looks like one held
  before keeps it until they next choose a name or post or join a seek, when the club gives them another.

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-29 10:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

from app.club.names import club_name
from app.games.lobby.names import name_key

revision = '0023'
down_revision = '0022'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('players', sa.Column('profile_chosen', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.add_column('players', sa.Column('club_key', sa.String(length=100), nullable=True))
    op.create_index('ux_players_club_key', 'players', ['club_key'], unique=True)
    connection = op.get_bind()
    members = connection.execute(sa.text(
        "SELECT id, name, email FROM players WHERE id IN ("
        " SELECT player_id FROM seeks"
        " UNION SELECT white_id FROM games WHERE rated OR id IN (SELECT game_id FROM seeks)"
        " UNION SELECT black_id FROM games WHERE rated OR id IN (SELECT game_id FROM seeks)"
        ") ORDER BY id")).all()
    held: set[str] = set()
    for player_id, name, email in members:
        key = name_key(club_name(name, email, player_id))
        if key and key not in held:
            held.add(key)
            connection.execute(sa.text("UPDATE players SET club_key = :key WHERE id = :id"),
                               {"key": key, "id": player_id})


def downgrade() -> None:
    op.drop_index('ux_players_club_key', table_name='players')
    op.drop_column('players', 'club_key')
    op.drop_column('players', 'profile_chosen')
