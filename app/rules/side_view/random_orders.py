"""Random but plausible order lines, for the property tests, the benchmarks and the demo.

Mostly legal moves written in every accepted form, sometimes an illegal move of an
own piece, an unreadable line, a draw offer, answer or claim, rarely a resignation,
so every result occurs.
"""

from __future__ import annotations

import random

import chess

from app.rules.base import Side, other
from app.rules.side_view.moves import legal_by_order, order_text
from app.rules.side_view.state import COLOR, GameState

UNREADABLE = ("e2-e9", "e7-e8=K", "move a1 please", "e2-e4=Q", "claim a draw on h3")
EMPTY = chess.BaseBoard(None)


def reach(piece: chess.Piece, square: int) -> int:
    """Squares the piece could go to on an empty board: plausible guesses, mostly illegal ones."""
    if piece.piece_type == chess.PAWN:
        ahead = square + (8 if piece.color == chess.WHITE else -8)
        mask = chess.BB_SQUARES[ahead] if 0 <= ahead < 64 else 0
        return mask | chess.BB_PAWN_ATTACKS[piece.color][square]
    board = EMPTY.copy()
    board.set_piece_at(square, piece)
    return board.attacks_mask(square)


def written(text: str, rng: random.Random) -> str:
    """A canonical order in one of the forms players write (SV-3)."""
    if text.startswith("O"):
        return rng.choice([text, text.replace("O", "0"), text.lower()])
    move, _, promotion = text.partition("=")
    from_square, to_square = move.split("-")
    if promotion == "Q" and rng.random() < 0.5:
        promotion = ""  # SV-5: no letter is a queen
    suffix = rng.choice([f"={promotion}", promotion.lower()]) if promotion else ""
    line = rng.choice([f"{from_square}-{to_square}", f"{from_square}{to_square}", f"{from_square} {to_square}"])
    return (line + suffix).upper() if rng.random() < 0.1 else line + suffix


def illegal_guess(state: GameState, side: Side, rng: random.Random) -> str | None:
    """An own piece sent where it could go on an empty board but may not go now, if one is found."""
    board = state.board
    legal = legal_by_order(board)
    own = list(chess.scan_forward(board.occupied_co[COLOR[side]]))
    for _ in range(8):
        square = rng.choice(own)
        piece = board.piece_at(square)
        assert piece is not None
        targets = list(chess.scan_forward(reach(piece, square)))
        if not targets:
            continue
        target = rng.choice(targets)
        text = f"{chess.square_name(square)}-{chess.square_name(target)}"
        if chess.square_rank(target) in (0, 7) and piece.piece_type == chess.PAWN:
            text += "=Q"
        if text not in legal:
            return text
    return None


def random_order(state: GameState, side: Side, rng: random.Random) -> str:
    """One order line for ``side``, the player expected to order."""
    if state.phase == "setup":
        return f"setup {rng.choice([str(rng.randrange(960)), 'random', 'RNBQKBNR'])}"
    roll = rng.random()
    if state.draw_offer == other(side) and roll < 0.5:
        return "accept draw" if rng.random() < 0.1 else "decline draw"
    if roll < 0.03:
        return rng.choice(UNREADABLE)
    if roll < 0.05:
        return "claim draw"
    if roll < 0.06:
        return "offer draw"
    if roll < 0.062:
        return "resign"
    if roll < 0.14:
        guess = illegal_guess(state, side, rng)
        if guess:
            return written(guess, rng)
    moves = list(state.board.legal_moves)
    if not moves:
        return "claim draw"
    return written(order_text(state.board, rng.choice(moves)), rng)
