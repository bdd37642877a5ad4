"""A player's games in a line each: whose move it is and by when (the ``games`` answer, and the digest's lines).

A line says only what the player knows: their own game's state as the rules show it to both (whose
turn, the deadline), and when an opponent on the daily digest will hear of their turn.
"""

from __future__ import annotations

from sqlalchemy import select

from app.config import Settings
from app.games.models import Game
from app.games.play.clock import describe_deadline
from app.games.records.rows import GameRecord, PlayerRecord
from app.games.records.work import UnitOfWork
from app.present.registry import presenter_for
from app.rules.base import other
from app.rules.registry import DEFAULT_VARIANT, get_variant

GAMES_LISTED = 100  # games listed in the answer to ``games`` (the rest are on the web page)


def game_title(game: GameRecord, side: str) -> str:
    """``Game 12, <the variant's title>, against Bob``."""
    return f"Game {game.id}, {get_variant(game.variant).title}, against {game.player(other(side)).name}"


def turn_words(work: UnitOfWork, game: GameRecord, side: str) -> str:
    """Where the game stands for ``side``'s player, in a few words: whose move and by when (the game locked)."""
    opponent = game.player(other(side))
    if game.status == "invited":
        accepted = game.white_accepted if side == "white" else game.black_accepted
        return f"waiting for {opponent.name} to accept" if accepted else "an invitation: accept or decline it"
    if game.status == "declined":
        return "declined"
    if game.status == "over":
        return "over: " + presenter_for(game.variant).end_words(game.result, game.reason)
    if game.status == "setup":
        waiting = work.variant(game).needs_setup(work.state(game), side)
        return "your setup to send" if waiting else f"waiting for {opponent.name}'s setup"
    orderer = work.orderer(game)
    if orderer is None:
        return "no move to make"
    mover = game.player(orderer)
    if game.deadline is None and mover.digest_hour is not None:  # the turn waits for the mover's digest
        if orderer == side:
            return "your move; your time for it starts with your next digest"
        return f"{mover.name} to move; their time starts with their digest at {mover.digest_hour:02d}:00 UTC"
    by = f", by {describe_deadline(game.deadline)}" if game.deadline else ""
    return ("your move" if orderer == side else f"{mover.name} to move") + by


def game_line(work: UnitOfWork, game: GameRecord, side: str) -> str:
    """``Game 12, <the variant's title>, against Bob: your move, by Fri 27 Nov 2026, 07:00 UTC.``"""
    return f"{game_title(game, side)}: {turn_words(work, game, side)}."


def games_list(work: UnitOfWork, settings: Settings, player: PlayerRecord) -> list[str]:
    """Each game of the player in a line: whose move it is and by when (games under way locked, in id order)."""
    games = work.connection.execute(
        select(Game.id, Game.status)
        .where((Game.white_id == player.id) | (Game.black_id == player.id)).order_by(Game.id)
    ).all()
    if not games:
        return [f"You have no games yet. Send 'challenge friend@example.org {DEFAULT_VARIANT}' to start one."]
    lines = []
    for game_id, _status in games[:GAMES_LISTED]:
        game = work.lock(game_id)
        lines.append(game_line(work, game, game.side_of(player) or "white"))
    if len(games) > GAMES_LISTED:
        more = len(games) - GAMES_LISTED
        lines.append(f"... and {more} more, on the web: {settings.base_url}/games")
    return lines
