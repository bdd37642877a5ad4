"""Building Palindromic Chess games for tests: from the PAL-1 start, or from a ``start`` position."""

from __future__ import annotations

from typing import Any

from app.rules.base import Outcome, Side
from app.rules.palindromic import Palindromic
from app.rules.palindromic.state import GameState

PAL = Palindromic()

# The exact reversal (PAL-2): every piece on the start square of the same type of enemy piece.
REVERSED = "RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbqkbnr"
REVERSED_HANDS = {"a8": "left", "h8": "right", "a1": "right", "h1": "left"}
ONE_KNIGHT_AWAY = REVERSED.replace("RNBKQBNR", "RNBKQB1R").replace("8/8/8/8", "8/8/6N1/8")


def new_game(**start: Any) -> GameState:
    """A game from the PAL-1 start, or from ``start`` (board, handed, to_move, castling)."""
    return PAL.new_game({"start": start} if start else {})


def one_knight_away() -> GameState:
    """Everything reversed but White's knight for g8, which stands on g4; Black is home; White to move."""
    return new_game(board=ONE_KNIGHT_AWAY, handed=REVERSED_HANDS)


def play(state: GameState, side: Side, text: str) -> Outcome:
    return PAL.play(state, side, text)


def moves(state: GameState, *orders: str) -> list[Outcome]:
    """Play orders in turn (each by the player to move), with the referee's passes; all must be moves."""
    outcomes = []
    for text in orders:
        side = PAL.orderer(state)
        assert side is not None, f"the game is over before {text}"
        outcome = play(state, side, text)
        assert outcome.result == "moved", (text, outcome.to)
        outcomes.append(outcome)
        while PAL.automatic(state) is not None:
            pass
    return outcomes


def reason(outcome: Outcome, side: Side) -> str:
    """The reason told to ``side`` of a rejection or an error."""
    (message,) = outcome.to[side]
    assert message["kind"] in ("rejected", "error"), message
    return message["reason"]
