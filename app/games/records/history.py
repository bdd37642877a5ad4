"""A game's history as one player saw it, and the reveal after the end, from the event record.

A player's history holds only the events that told that player something, or
that they caused themselves: an opponent's rejected or unreadable order, which
told them nothing, is not even counted. Every value comes from that player's
own part of the event (their messages, their view).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.games.mail.mails import one_full_stop
from app.games.models import Event, Game
from app.present.registry import presenter_for
from app.present.words import Names
from app.rules.base import SIDES


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
    told: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    lines: dict[str, list[str]] = field(default_factory=dict)


def names_for(game: Game, side: str) -> Names:
    return Names(side, game.white.name, game.black.name)


def own_summary(order: str, result: str) -> str:
    """A player's own step that told them nothing, in a sentence: what they said, or their order and its result."""
    if result == "said":
        return f"You said: {order.partition(' ')[2].strip()}"
    return f"{order}: {result}"


def player_steps(session: Session, game: Game, side: str) -> list[Step]:
    names = names_for(game, side)
    presenter = presenter_for(game.variant)
    events = session.scalars(select(Event).where(Event.game_id == game.id).order_by(Event.seq))
    steps: list[Step] = []
    for event in events:
        messages = event.told.get(side, [])
        own = event.by == side
        if not own and not messages:
            continue
        lines = [one_full_stop(line, (game.white.name, game.black.name)) for line in presenter.lines(messages, names)]
        summary = lines[0] if lines else own_summary(event.order, event.result)
        steps.append(Step(
            number=len(steps) + 1, seq=event.seq, move_number=event.move_number, own=own,
            order=event.order if own else None, result=event.result if own else None,
            messages=messages, lines=lines, view=event.views.get(side, {}), summary=summary,
        ))
    return steps


def json_history(game: Game, side: str, steps: list[Step]) -> dict[str, Any]:
    """The scenario output's message and view shapes, for other clients."""
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
    presenter = presenter_for(game.variant)
    steps = []
    for event in session.scalars(select(Event).where(Event.game_id == game.id).order_by(Event.seq)):
        steps.append(RevealStep(
            seq=event.seq, move_number=event.move_number, by=event.by, order=event.order, result=event.result,
            position=event.position, views=event.views, told=event.told,
            lines={side: presenter.lines(event.told.get(side, []), names_for(game, side))
                   for side in SIDES},
        ))
    return steps
