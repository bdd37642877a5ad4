"""Where a game starts: the PAL-1 array, or a position given as the ``start`` option.

From the PAL-1 array no player can ever be home (PAL-5: pawns on one file never pass), so passes and
the reversal (PAL-4) can only be played, shown and tested from a position given explicitly. The
option takes the shape of the view: ``{"board": FEN placement, "handed": {square: "left"|"right"}
for every rook, "to_move": "white"|"black", "castling": "-" or Shredder/X-FEN letters}``, either as
an object or as that object written in JSON.
"""

from __future__ import annotations

import json
from typing import Any

import chess

from app.rules.base import OptionError
from app.rules.palindromic.destinations import START_FEN, START_LEFT, is_home
from app.rules.palindromic.state import COLOR, left_mask

START_KEYS = ("board", "handed", "to_move", "castling")


def standard_start() -> tuple[chess.Board, int]:
    """PAL-1: the board and the left-handed rooks (White h1, Black a8)."""
    return chess.Board(START_FEN, chess960=True), START_LEFT


def read_start(raw: Any) -> dict[str, Any]:
    """Check a ``start`` option and complete it (raises OptionError saying what is wrong)."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            raise OptionError("start must be an object: board, handed, to_move, castling") from None
    if not isinstance(raw, dict) or "board" not in raw:
        raise OptionError("start must be an object with at least a board (a FEN placement)")
    unknown = set(raw) - set(START_KEYS)
    if unknown:
        raise OptionError(f"start takes {', '.join(START_KEYS)}, not {', '.join(sorted(unknown))}")
    start = {"board": raw["board"], "handed": dict(raw.get("handed") or {}),
             "to_move": raw.get("to_move", "white"), "castling": raw.get("castling", "-")}
    board, left = start_board(start)
    if is_home(board, left, board.turn):
        raise OptionError("the player to move in the start position is already home: give the other the move")
    return start


def start_board(start: dict[str, Any]) -> tuple[chess.Board, int]:
    """The board and left-handed rooks of a checked ``start`` option; raises OptionError."""
    try:
        board = chess.Board(None, chess960=True)
        board.set_board_fen(start["board"])
        board.set_castling_fen(start["castling"])
    except ValueError as error:
        raise OptionError(f"start: {error}") from None
    if start["to_move"] not in COLOR:
        raise OptionError("start: to_move must be white or black")
    board.turn = COLOR[start["to_move"]]
    rooks = {chess.SQUARE_NAMES[square] for square in chess.scan_forward(board.rooks)}
    handed = start["handed"]
    if set(handed) != rooks or not set(handed.values()) <= {"left", "right"}:
        raise OptionError("start: handed must give every rook, and only rooks, as left or right")
    if board.status() != chess.STATUS_VALID:
        raise OptionError("start: not a legal chess position (one king each, no pawn on rank 1 or 8, "
                          "the player not to move not in check, castling only with unmoved king and rook)")
    return board, left_mask([square for square, hand in handed.items() if hand == "left"])
