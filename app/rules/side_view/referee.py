"""Adjudicating one order of Side View Chess (SV-1, SV-3 .. SV-5).

python-chess decides every question of FIDE legality; this module decides who is
told what. An illegal order is answered only "illegal", to the orderer alone
(SV-3), and the opponent of a mover learns only that a move was made and which of
their own pieces was lost (SV-4): never a square the mover's piece left or reached.
"""

from __future__ import annotations

import random
from typing import Any

import chess

from app.rules import backrank, messages
from app.rules.base import Outcome, Side, other
from app.rules.common import end_game, win_for
from app.rules.fide import SIDE_OF, make
from app.rules.side_view.orders import Castle, Move
from app.rules.side_view.state import GameState, start_position
from app.rules.values import rejected

END_REASONS = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient material",
    chess.Termination.SEVENTYFIVE_MOVES: "75-move rule",
    chess.Termination.FIVEFOLD_REPETITION: "fivefold repetition",
}


# --------------------------------------------------------------------------- setup (SV-1)


def new_state(options: dict[str, Any], rng: random.Random | None) -> GameState:
    """A fresh game: standard and Chess960 starts are on the board at once; hidden ones wait for both rows."""
    state = GameState(options=options)
    if options["setup"] == "standard":
        state.begin(chess.STARTING_FEN)
    elif options["setup"] == "chess960":
        row = backrank.row_from_index((rng or random.SystemRandom()).randrange(960))
        state.begin(start_position(row, row))
    return state


# --------------------------------------------------------------------------- orders


def claim_draw(state: GameState, side: Side) -> Outcome:
    """SV-5: valid when the present position has stood three times, or after fifty moves of each side
    without a capture or a pawn move; a valid claim ends the game, the claimant alone hears "not valid"."""
    board = state.board
    if board.is_repetition(3):
        reason = "threefold repetition"
    elif board.halfmove_clock >= 100:
        reason = "50-move rule"
    else:
        outcome = Outcome.only("answered", side, {"kind": "answer", "claim": "not valid"})
        outcome.order = "claim draw"
        return outcome
    outcome = Outcome("drawn", order="claim draw")
    end_game(state, outcome, "1/2-1/2", reason)
    return outcome


def move(state: GameState, side: Side, order: Move | Castle) -> Outcome:
    """Play a legal order (``fide.find_move``: a promotion without a letter is a queen's, SV-5); the mover hears
    it in full, the opponent only their own loss (SV-4)."""
    board = state.board
    played = make(board, order)
    if played is None:
        return rejected(side, "illegal", order.text())  # SV-3: no reason, to the orderer only
    taken = played.taken()
    if played.capture:
        state.tray += played.capture[0].symbol()
    state.moves.append(played.move.uci())
    opponent = other(side)
    outcome = Outcome("moved", order=played.order)
    outcome.tell(side, messages.moved({"color": side, **played.details(), "captured": taken}))
    outcome.tell(opponent, messages.opponent_moved(side, lost=dict(taken) if taken else None))
    if board.is_check():
        outcome.tell(opponent, messages.check(opponent))  # SV-4: no direction, no checking piece
    finish_on_the_board(state, outcome)
    return outcome


def finish_on_the_board(state: GameState, outcome: Outcome) -> None:
    """SV-5: checkmate, stalemate, insufficient material, the 75-move rule and fivefold repetition end the game
    by themselves (python-chess checks mate first, so a mate on the 75th move still wins)."""
    ending = state.board.outcome()
    if ending is not None:
        result = "1/2-1/2" if ending.winner is None else win_for(SIDE_OF[ending.winner])
        end_game(state, outcome, result, END_REASONS[ending.termination])
