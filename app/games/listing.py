"""A player's games in a line each: whose move it is and by when (the ``games`` answer, and the digest's lines).

A line says only what the player knows: their own game's state as the rules show it to both (whose
turn, the deadline), and when an opponent on the daily digest will hear of their turn.
"""

from __future__ import annotations

from app.games.clock import describe_deadline
from app.games.records import GameRecord
from app.games.work import UnitOfWork
from app.present.registry import presenter_for
from app.rules.base import other
from app.rules.registry import get_variant


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
