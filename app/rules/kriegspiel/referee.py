"""Adjudicating one order of Kriegspiel (KS-1 .. KS-4, KS-6).

python-chess decides every question of FIDE legality; this module decides who is told
what. A refused move is answered only "illegal", to the orderer alone (KS-2). After a
move the mover hears it in full, the opponent only that a move was made, and both hear
the announcements of KS-3 and, at the end, how the game ended (KS-4).
"""

from __future__ import annotations

import random
from typing import Any

import chess

from app.rules import messages
from app.rules.base import Outcome, Side, other
from app.rules.common import end_game, win_for
from app.rules.fide import SIDE_OF, make, start_position
from app.rules.kriegspiel.announcements import check_directions, pawn_tries
from app.rules.kriegspiel.orders import Castle, Move
from app.rules.kriegspiel.state import GameState
from app.rules.values import rejected

REPETITION_PLIES = 8  # a position cannot stand three times with fewer reversible plies behind it


def new_state(options: dict[str, Any], rng: random.Random | None) -> GameState:
    """KS-1: the standard start, or one random Chess960 row for both."""
    return GameState(options=options, start=start_position(options["setup"], rng))


def move(state: GameState, side: Side, order: Move | Castle) -> Outcome:
    """Play a legal order (``fide.find_move``: a promotion without a letter is a queen's); anything else is
    "illegal", to the orderer alone, whatever the reason (KS-2)."""
    played = make(state.board, order)
    if played is None:
        return rejected(side, "illegal", order.text())
    state.moves.append(played.move.uci())
    opponent = other(side)
    outcome = Outcome("moved", order=played.order)
    outcome.tell(side, messages.moved({"color": side, **played.details()}))
    outcome.tell(opponent, messages.opponent_moved(side))
    if played.capture:
        victim, square = played.capture
        state.tray += victim.symbol()
        outcome.tell_both({"kind": "captured", "color": opponent, "man": "pawn" if victim.piece_type == chess.PAWN
                           else "piece", "square": chess.square_name(square)})
    announce(state, outcome)
    return outcome


def announce(state: GameState, outcome: Outcome) -> None:
    """KS-3 and KS-4 after a move: check and its directions, then the end, or the pawn tries of the side to move."""
    board = state.board
    to_move = SIDE_OF[board.turn]
    directions = check_directions(board)
    if directions:
        outcome.tell_both(messages.check(to_move, directions=directions))
    tries = pawn_tries(board)
    ending = ending_of(board, bool(directions), tries > 0)
    if ending:
        end_game(state, outcome, *ending)
    else:
        outcome.tell_both({"kind": "pawn-tries", "color": to_move, "count": tries})


def ending_of(board: chess.Board, in_check: bool, can_move: bool) -> tuple[str, str] | None:
    """KS-4: checkmate wins; stalemate, insufficient material, threefold repetition and the 50-move rule
    draw at once (no one can see the board to claim). Mate comes first, so mate on the hundredth ply wins."""
    if not can_move and not any(board.generate_legal_moves()):
        return (win_for(SIDE_OF[not board.turn]), "checkmate") if in_check else ("1/2-1/2", "stalemate")
    if board.is_insufficient_material():
        return "1/2-1/2", "insufficient material"
    if board.halfmove_clock >= REPETITION_PLIES and board.is_repetition(3):
        return "1/2-1/2", "threefold repetition"
    if board.halfmove_clock >= 100:
        return "1/2-1/2", "50-move rule"
    return None


def pawn_tries_now(state: GameState) -> dict[str, Any] | None:
    """The pawn tries of the side to move, as both were last told them (before White's first move too); None
    once the game is over."""
    if state.result is not None:
        return None
    return {"color": state.to_move, "count": pawn_tries(state.board)}
