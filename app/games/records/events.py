"""The event record: what happened in a game, what each player was told and what each then saw.

It is the single source for the history page, the reveal, the JSON view and the "since your last
move" of a move request (kept per side on the game row as the events are written).
"""

from __future__ import annotations

from typing import Any

from app.games.records import rows
from app.games.records.rows import GameRecord
from app.games.records.work import UnitOfWork
from app.rules.base import SIDES, Outcome
from app.rules.messages import moved_by, retold


def told_since_move(previous: dict[str, Any], told: dict[str, list], turned: bool) -> dict[str, Any]:
    """Each side's messages since its own last completed move, after one more event (``turned``: it completed a
    turn).

    A side's own completed move starts its list afresh; notices only for the moment (errors,
    rejections, setup) are not carried into later move requests.
    """
    carried = {}
    for side in SIDES:
        messages = told.get(side, [])
        if turned and any(moved_by(message) == side for message in messages):
            carried[side] = []
        else:
            carried[side] = [*previous.get(side, []), *(message for message in messages if retold(message))]
    return carried


class EventRecord:
    """Writes the events of the games of one unit of work."""

    def __init__(self, work: UnitOfWork) -> None:
        self.work = work

    def next_seq(self, game: GameRecord) -> int:
        """The next event number: kept on the (locked) game row, so no query is needed."""
        game.last_seq = (game.last_seq or 0) + 1
        return game.last_seq

    def record(self, game: GameRecord, by: str | None, order: str, outcome: Outcome,
               result: str | None = None, move_number: int | None = None) -> None:
        """One event: what happened, what each player was told and what each now sees (from the game's state as
        it is now); ``move_number`` is the move it belongs to (by default the move being played now)."""
        variant = self.work.variant(game)
        state = self.work.state(game)
        told = {side: outcome.to[side] for side in SIDES}
        result = result or outcome.result
        rows.add_event(self.work.connection, {
            "game_id": game.id,
            "seq": self.next_seq(game),
            "by": by,
            "order": order,
            "result": result,
            "move_number": variant.move_number(state) if move_number is None else move_number,
            "ply": game.ply,
            "told": told,
            "views": {side: variant.view(state, side) for side in SIDES},
            "position": variant.position(state),
            "created_at": self.work.now,
        })
        game.told_since_move = told_since_move(game.told_since_move or {}, told, variant.completes_turn(result))

    def record_plain(self, game: GameRecord, by: str, order: str, result: str, told: dict[str, list]) -> None:
        """An event the referee had no part in (a message passed on): the position unchanged."""
        outcome = Outcome(result)  # type: ignore[arg-type]
        for side in SIDES:
            outcome.to[side] = told.get(side, [])
        self.record(game, by, order, outcome)
