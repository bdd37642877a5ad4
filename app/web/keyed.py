"""What a move request's history link opens: that one game's history as its player sees it, read only.

Move requests get forwarded (to a friend, a club, a list), so the link gives its holder only what its
player was shown of that game: no session, no orders, no other game. It works while the game runs and for
``HISTORY_LINK_DAYS`` after it ends, and stops at once when its player signs out everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from flask import abort, render_template
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db import utcnow
from app.games.access import issued_in_force
from app.games.mail.links import read_history_key
from app.games.models import Event, Game, Player
from app.web.auth import server


@dataclass(frozen=True)
class Opened:
    """The game, and the player whose view the key shows."""

    game: Game
    player: Player


class KeyRefused(Exception):
    """A key the server made that no longer opens its game: the page to answer with."""

    def __init__(self, page: tuple[str, int]) -> None:
        super().__init__("history key refused")
        self.page = page


def open_by_key(db_session: Session, game_id: int, key: str) -> Opened:
    """The game and player a history key opens; 404 for a key the server never made for this game, and
    ``KeyRefused`` for one that has expired or been voided."""
    found = read_history_key(server().settings, key)
    if found is None or found.game_id != game_id:
        abort(404)
    game = db_session.get(Game, game_id)
    if game is None or found.player_id not in (game.white_id, game.black_id):
        abort(404)
    player = db_session.get(Player, found.player_id)
    if found.issued_at is None or not issued_in_force(found.issued_at, player.keys_valid_after):
        raise KeyRefused(refused("This history link no longer works: its player signed out everywhere since it "
                                 "was mailed, or it comes from an older mail. The newest move request carries "
                                 "a link that works."))
    if ended_long_ago(db_session, game):
        raise KeyRefused(refused("This history link has expired: it works while the game runs and for a while "
                                 "after it ends. Its player can sign in with a link by mail instead."))
    return Opened(game, player)


def ended_long_ago(db_session: Session, game: Game) -> bool:
    """Over (or declined) more than ``HISTORY_LINK_DAYS`` ago."""
    if game.status not in ("over", "declined"):
        return False
    ended = db_session.scalar(select(func.max(Event.created_at)).where(Event.game_id == game.id)) or game.updated_at
    if ended.tzinfo is None:
        ended = ended.replace(tzinfo=utcnow().tzinfo)
    return ended < utcnow() - timedelta(days=server().settings.history_link_days)


def refused(reason: str) -> tuple[str, int]:
    return render_template("web/message.html", title="Link not valid", paragraphs=[reason], keyed=True), 410
