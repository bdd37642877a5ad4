"""club names folded anew: each name held in the club keyed by its TR39 skeleton, case and what is drawn as nothing
folded (``app.games.lobby.names.name_key``)

Every player who holds a name in the club, or is in it (a seek posted, a game from a seek or a rated game played,
a tournament entered) without holding one, holds the key of the name the club shows them by, the oldest player
first. Where two such names are now one, the older player keeps it and the newer is given a name the club gives
(``Player N``, the first nobody holds or wants), as is a player whose name has no letter or digit to see or is
after their address. A player outside the club who holds no name is left as they are. Going down keeps the keys
and names as they are now: the old fold is gone.

Revision ID: 0025
Revises: 0024
Create Date: 2026-11-29 12:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

from app.games.lobby.names import GIVEN, called_after_address, name_key, unseen_name

revision = '0025'
down_revision = '0024'
branch_labels = None
depends_on = None

PLAYED = "status IN ('active', 'over')"


def upgrade() -> None:
    connection = op.get_bind()
    players = connection.execute(sa.text(
        "SELECT id, name, email FROM players WHERE club_key IS NOT NULL OR id IN ("
        " SELECT player_id FROM seeks"
        " UNION SELECT player_id FROM tournament_entries"
        f" UNION SELECT white_id FROM games WHERE {PLAYED} AND (rated OR id IN (SELECT game_id FROM seeks"
        " WHERE game_id IS NOT NULL))"
        f" UNION SELECT black_id FROM games WHERE {PLAYED} AND (rated OR id IN (SELECT game_id FROM seeks"
        " WHERE game_id IS NOT NULL))"
        ") ORDER BY created_at, id")).all()
    wanted = {player.id: None if called_after_address(player.name, player.email) or unseen_name(player.name)
              else player.name for player in players}
    unavailable = {name_key(name) for name in wanted.values() if name is not None}  # to a name the club gives
    held: set[str] = set()
    names: dict[int, tuple[str, str]] = {}
    for player in players:
        name = wanted[player.id]
        key = name_key(name) if name is not None else None
        if key is None or key in held:
            number = player.id
            while name_key(f"{GIVEN} {number}") in unavailable:
                number += 1
            name, key = f"{GIVEN} {number}", name_key(f"{GIVEN} {number}")
        held.add(key)
        unavailable.add(key)
        names[player.id] = (name, key)
    connection.execute(sa.text("UPDATE players SET club_key = NULL WHERE club_key IS NOT NULL"))
    for player_id, (name, key) in names.items():
        connection.execute(sa.text("UPDATE players SET name = :name, club_key = :key WHERE id = :id"),
                           {"name": name, "key": key, "id": player_id})


def downgrade() -> None:
    """The keys and names stay as they are: the old fold is gone, and the unique index holds either way."""
