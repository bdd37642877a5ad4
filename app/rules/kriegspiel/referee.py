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

from app.rules.base import Outcome, Side, other
from app.rules.common import end_game, win_for
from app.rules.kriegspiel.announcements import captured_man, check_directions, pawn_tries
from app.rules.kriegspiel.moves import castle_destination, legal_by_order, order_text
from app.rules.kriegspiel.orders import Castle, Move
from app.rules.kriegspiel.state import SIDE_OF, GameState
from app.rules.values import rejected

TYPE_LETTER = {kind: chess.piece_symbol(kind).upper() for kind in chess.PIECE_TYPES}
REPETITION_PLIES = 8  # a position cannot stand three times with fewer reversible plies behind it


def new_state(options: dict[str, Any], rng: random.Random | None) -> GameState:
    """KS-1: the standard start, or one random Chess960 row for both."""
    if options["setup"] == "chess960":
        index = (rng or random.SystemRandom()).randrange(960)
        return GameState(options=options, start=chess.Board.from_chess960_pos(index).fen())
    return GameState(options=options, start=chess.STARTING_FEN)


def find_move(board: chess.Board, order: Move | Castle) -> tuple[str, chess.Move] | None:
    """The legal move an order means, with its canonical text; None when there is none (KS-2).

    A pawn move to the last rank without a letter is a queen's promotion. A move of any man but the king is
    asked of python-chess directly; the king's moves (castling among them, also written as the king's own
    step) are generated, and only they: no other move can be the one the order means.
    """
    if isinstance(order, Castle):
        from_mask = board.kings & board.occupied_co[board.turn]
    else:
        piece = board.piece_type_at(order.from_square)
        if piece != chess.KING:
            promotion = order.promotion
            if promotion is None and piece == chess.PAWN and chess.square_rank(order.to_square) in (0, 7):
                promotion = chess.QUEEN
            candidate = chess.Move(order.from_square, order.to_square, promotion)
            return (order_text(board, candidate), candidate) if board.is_legal(candidate) else None
        from_mask = chess.BB_SQUARES[order.from_square]
    legal = legal_by_order(board, from_mask)
    text = order.text()
    if text not in legal and isinstance(order, Move) and order.promotion is None:
        text += "=Q"
    found = legal.get(text)
    return (order_text(board, found), found) if found is not None else None


def move(state: GameState, side: Side, order: Move | Castle) -> Outcome:
    """Play a legal order; anything else is "illegal", to the orderer alone, whatever the reason (KS-2)."""
    board = state.board
    found = find_move(board, order)
    if found is None:
        return rejected(side, "illegal", order.text())
    text, chosen = found
    piece = board.piece_type_at(chosen.from_square)
    assert piece is not None
    castle = text if board.is_castling(chosen) else None
    to_square = castle_destination(board, chosen) if castle else chosen.to_square
    en_passant = board.is_en_passant(chosen)
    capture = captured_man(board, chosen)
    board.push(chosen)
    state.moves.append(chosen.uci())
    opponent = other(side)
    outcome = Outcome("moved", order=text)
    outcome.tell(side, {
        "kind": "moved",
        "color": side,
        "from": chess.square_name(chosen.from_square),
        "to": chess.square_name(to_square),
        "piece": TYPE_LETTER[piece],
        "promotion": TYPE_LETTER[chosen.promotion] if chosen.promotion else None,
        "castle": castle,
        "en_passant": en_passant,
    })
    outcome.tell(opponent, {"kind": "opponent-moved", "color": side})
    if capture:
        victim, square = capture
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
        outcome.tell_both({"kind": "check", "color": to_move, "directions": directions})
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
