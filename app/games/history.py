"""A game's history as one player saw it, and the reveal after the end, from the event record.

A player's history holds only the events that told that player something, or
that they caused themselves: an opponent's rejected or unreadable order, which
told them nothing, is not even counted. Every value comes from that player's
own part of the event (their messages, their view).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import chess
import chess.svg
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.games import present
from app.games.models import Event, Game
from app.rules.base import SIDES

MARK = "#f5c84c88"


@dataclass
class Step:
    """One event as one player saw it."""

    number: int  # 1-based, among this player's own steps
    seq: int
    move_number: int
    own: bool
    order: str | None
    result: str | None
    messages: list[dict[str, Any]]
    lines: list[str]
    view: dict[str, Any]
    summary: str = ""


@dataclass
class RevealStep:
    seq: int
    move_number: int
    by: str | None
    order: str
    result: str
    position: dict[str, str]
    views: dict[str, Any]
    lines: dict[str, list[str]] = field(default_factory=dict)


def names_for(game: Game, side: str) -> present.Names:
    return present.Names(side, game.white.name, game.black.name)


def player_steps(session: Session, game: Game, side: str) -> list[Step]:
    names = names_for(game, side)
    events = session.scalars(select(Event).where(Event.game_id == game.id).order_by(Event.seq))
    steps: list[Step] = []
    for event in events:
        messages = event.told.get(side, [])
        own = event.by == side
        if not own and not messages:
            continue
        lines = [present.describe(message, names) for message in messages]
        summary = (f"{event.order}: {event.result}" if own and event.order else (lines[0] if lines else event.result))
        steps.append(Step(
            number=len(steps) + 1, seq=event.seq, move_number=event.move_number, own=own,
            order=event.order if own else None, result=event.result if own else None,
            messages=messages, lines=lines, view=event.views.get(side, {}), summary=summary,
        ))
    return steps


def json_history(game: Game, side: str, steps: list[Step]) -> dict[str, Any]:
    """The CONTRACT.md message and view shapes, for other clients."""
    return {
        "game": {"id": game.id, "variant": game.variant, "you": side, "status": game.status,
                 "result": game.result, "reason": game.reason},
        "events": [
            {"n": step.number, "move": step.move_number, "by": side if step.own else None,
             "order": step.order, "result": step.result, "to": step.messages, "view": step.view}
            for step in steps
        ],
    }


def reveal_steps(session: Session, game: Game) -> list[RevealStep]:
    steps = []
    for event in session.scalars(select(Event).where(Event.game_id == game.id).order_by(Event.seq)):
        steps.append(RevealStep(
            seq=event.seq, move_number=event.move_number, by=event.by, order=event.order, result=event.result,
            position=event.position, views=event.views,
            lines={side: [present.describe(m, names_for(game, side)) for m in event.told.get(side, [])]
                   for side in SIDES},
        ))
    return steps


def _marks(messages: list[dict[str, Any]], world: str) -> tuple[chess.Move | None, set[int]]:
    """The last move seen in ``world`` (from, to) and other squares to mark there."""
    last = None
    squares: set[int] = set()
    for message in messages:
        kind = message["kind"]
        if kind == "moved" and message["world"] == world:
            last = chess.Move(chess.parse_square(message["from"]), chess.parse_square(message["to"]))
        elif kind in ("landed", "arrived"):
            where, name = message["square"].split(":")
            if where == world:
                squares.add(chess.parse_square(name))
        if kind == "moved" and message["through"] and message["final"].startswith(world + ":"):
            squares.add(chess.parse_square(message["final"].split(":")[1]))
    return last, squares


def svg_board(placement: str, side: str, messages: list[dict[str, Any]], world: str,
              unknown: list[str] | None = None, size: int = 320) -> str:
    """One world as SVG (python-chess), from the player's side, the last move marked."""
    board = chess.BaseBoard(placement)
    last, squares = _marks(messages, world)
    fill = dict.fromkeys(squares, MARK)
    for name in unknown or []:
        fill[chess.parse_square(name)] = "#9b59b699"
    return chess.svg.board(
        board, orientation=chess.WHITE if side == "white" else chess.BLACK, lastmove=last, fill=fill,
        squares=chess.SquareSet(chess.parse_square(name) for name in unknown or []), size=size, coordinates=True,
    )


def step_diagrams(step: Step, side: str, notebook_on: bool = True) -> list[tuple[str, str]]:
    """(title, svg) for the player's own world and their notebook of the other, after this step."""
    home, away = present.WORLDS_OF[side]
    view = step.view
    if not view:
        return []
    notebook = view["notebook"] if notebook_on else present.own_pieces_only(view["notebook"], side)
    return [
        (f"{present.WORLD_NAMES[home]} world (what you see)", svg_board(view["home"], side, step.messages, home)),
        (f"{present.WORLD_NAMES[away]} world ({'your notebook' if notebook_on else 'your pieces'})",
         svg_board(notebook, side, step.messages, away, view["unknown"] if notebook_on else [])),
    ]

