"""Random but plausible orders for the property tests, the benchmarks and the demo.

Mostly legal moves, written in every accepted form (coordinates, SAN, castling), so games go on;
sometimes what PAL-3 refuses (captures, en passant, promotions), a move the piece cannot make, or an
unreadable line, so every result occurs.
"""

from __future__ import annotations

import random

import chess

from app.rules.base import Side
from app.rules.palindromic.legality import canonical, is_castle, pal_moves
from app.rules.palindromic.perft import playing_board
from app.rules.palindromic.state import GameState

JUNK = ("e2-e9", "hello e4", "Nz3", "castle please e1", "O-O-O-O")


def written(board: chess.Board, move: chess.Move, rng: random.Random) -> str:
    """A legal move written the way some player might write it."""
    if is_castle(board, move):
        order = canonical(board, move)
        return rng.choice([order, order.replace("O", "0"), order.lower()])
    frm, to = chess.SQUARE_NAMES[move.from_square], chess.SQUARE_NAMES[move.to_square]
    form = rng.randrange(4)
    if form == 0:
        return f"{frm}-{to}"
    if form == 1:
        return f"{frm}{to}"
    if form == 2:
        return f"{frm} {to}"
    return board.san(move).rstrip("+#")


def refused(board: chess.Board, rng: random.Random) -> str | None:
    """A FIDE-legal capture or promotion, which PAL-3 refuses, if there is one."""
    moves = [move for move in board.legal_moves if board.is_capture(move) or move.promotion]
    if not moves:
        return None
    move = rng.choice(moves)
    if rng.random() < 0.5:
        return board.san(move)
    suffix = "=" + chess.piece_symbol(move.promotion).upper() if move.promotion else ""
    return f"{chess.SQUARE_NAMES[move.from_square]}-{chess.SQUARE_NAMES[move.to_square]}{suffix}"


def random_order(state: GameState, side: Side, rng: random.Random) -> str:
    """One order line for ``side``, who should be the player expected to order."""
    board = playing_board(state) or state.board
    roll = rng.random()
    if roll < 0.03:
        return rng.choice(JUNK)
    if roll < 0.10:
        attempt = refused(board, rng)
        if attempt:
            return attempt
    if roll < 0.14:
        own = list(chess.scan_forward(board.occupied_co[board.turn]))
        return f"{chess.SQUARE_NAMES[rng.choice(own)]}-{chess.SQUARE_NAMES[rng.randrange(64)]}"
    if roll < 0.16:
        return rng.choice(["O-O", "O-O-O"])
    moves = list(pal_moves(board))
    if not moves:
        return rng.choice(JUNK)
    return written(board, rng.choice(moves), rng)
