"""Adjudicating one order of Dark Chess (DC-1 .. DC-5).

python-chess knows the board; ``app.rules.fide`` without check finds the move an order means (every
pseudo-legal move, castling through attacked squares included, DC-1). This module decides who is told what
(DC-4): the mover hears their move in full with the man it took; the opponent hears only that a move was
made and which man of theirs was taken, and sees the rest in their new sight. A refused order is answered
with its reason, to the orderer alone (DC-2).
"""

from __future__ import annotations

import random
from typing import Any

import chess

from app.rules import messages
from app.rules.base import Outcome, Side, other
from app.rules.common import end_game, win_for
from app.rules.dark_chess.orders import Castle, Move
from app.rules.dark_chess.refusals import refusal
from app.rules.dark_chess.state import GameState
from app.rules.fide import make, start_position, unchecked_moves
from app.rules.values import rejected

HALF_MOVES = 100  # DC-5: half-moves in a row without a capture or a pawn move that draw the game


def new_state(options: dict[str, Any], rng: random.Random | None) -> GameState:
    """DC-1: the standard start, or one random Chess960 row for both."""
    return GameState(options=options, start=start_position(options["setup"], rng))


def move(state: GameState, side: Side, order: Move | Castle) -> Outcome:
    """Play a move DC-1 allows (a promotion without a letter is a queen's, DC-2), or refuse it with its reason."""
    board = state.board
    played = make(board, order, check=False)
    if played is None:
        return rejected(side, refusal(board, order), order.text())
    state.moves.append(played.move.uci())
    taken = played.taken()
    if played.capture:
        state.tray += played.capture[0].symbol()
    outcome = Outcome("moved", order=played.order)
    outcome.tell(side, messages.moved({"color": side, **played.details(), "captured": taken}))
    outcome.tell(other(side), messages.opponent_moved(side, lost=dict(taken) if taken else None))
    ending = ending_of(board, side, taken)
    if ending:
        end_game(state, outcome, *ending)
    return outcome


def ending_of(board: chess.Board, mover: Side, taken: dict[str, str] | None) -> tuple[str, str] | None:
    """DC-5 after a move: the king's capture wins at once; a player with no move at all draws (stalemate); a
    hundred half-moves without a capture or a pawn move draw. Nothing else ends the game on the board."""
    if taken is not None and taken["piece"] == "K":
        return win_for(mover), "king captured"
    if next(unchecked_moves(board), None) is None:
        return "1/2-1/2", "stalemate"
    if board.halfmove_clock >= HALF_MOVES:
        return "1/2-1/2", "fifty moves"
    return None
