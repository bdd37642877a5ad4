"""Counting move sequences (``referee perft``) and listing the legal orders, fast, on python-chess.

The walk pushes and pops on one board. It follows PAL-3 (no capture, no promotion) and PAL-4: a
position where the reversal is complete has no moves, and a player who is home is passed for
without a ply being counted (the pass is the referee's, not a move). Repetition, the 50-move rule
and the dead position are ignored, as every perft ignores such draws. En passant is never legal,
so the walk forgets the en passant square, which spares python-chess from generating it.
"""

from __future__ import annotations

import chess

from app.rules.palindromic.destinations import KING_SQUARE, is_home
from app.rules.palindromic.hands import update_hands
from app.rules.palindromic.legality import canonical, pal_moves
from app.rules.palindromic.state import GameState

WHITE_KING_HOME = KING_SQUARE[chess.WHITE]
BLACK_KING_HOME = KING_SQUARE[chess.BLACK]
NULL = chess.Move.null()


def playing_board(state: GameState) -> chess.Board | None:
    """A copy of the board with the player to move ready to move (an owed pass made), or None when
    the reversal is complete (nobody moves any more)."""
    board = state.board.copy(stack=False)
    left = state.left
    if is_home(board, left, chess.WHITE) and is_home(board, left, chess.BLACK):
        return None
    if is_home(board, left, board.turn):
        board.push(NULL)
    return board


def legal_orders(state: GameState) -> list[str]:
    """Every PAL-legal move of the player to move, canonical, each once: none when the board has decided
    the game (the reversal, checkmate, stalemate); results the board alone does not decide (repetition,
    the 50-move rule, the dead position, or off the board) are ignored, as ``perft`` ignores them."""
    board = playing_board(state)
    if board is None:
        return []
    return sorted(canonical(board, move) for move in pal_moves(board))


def _moves(board: chess.Board) -> list[chess.Move]:
    """PAL-3 moves on a board whose en passant square is forgotten."""
    return [
        move
        for move in board.generate_legal_moves(chess.BB_ALL, chess.BB_ALL & ~board.occupied_co[not board.turn])
        if not move.promotion
    ]


def _count(board: chess.Board, left: int, depth: int) -> int:
    moves = _moves(board)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        total += _after(board, update_hands(left, move), move, depth - 1)
    return total


def _after(board: chess.Board, left: int, move: chess.Move, depth: int) -> int:
    """Sequences of ``depth`` more moves after ``move``: none after the reversal, a pass when due."""
    board.push(move)
    board.ep_square = None
    kings = board.kings
    if kings & (board.occupied_co[chess.WHITE] & WHITE_KING_HOME | board.occupied_co[chess.BLACK] & BLACK_KING_HOME):
        mover = not board.turn
        if is_home(board, left, board.turn):
            if is_home(board, left, mover):
                board.pop()
                return 0  # the reversal: the game is over
            board.push(NULL)
            count = _count(board, left, depth)
            board.pop()
            board.pop()
            return count
    count = _count(board, left, depth)
    board.pop()
    return count


def perft(state: GameState, depth: int) -> dict[str, int]:
    """Perft's divide: for each legal order, the number of move sequences of ``depth`` moves it begins."""
    board = playing_board(state)
    if board is None or depth < 1:
        return {}
    board.ep_square = None
    divide = {}
    for move in _moves(board):
        order = canonical(board, move)
        divide[order] = 1 if depth == 1 else _after(board, update_hands(state.left, move), move, depth - 1)
    return divide
