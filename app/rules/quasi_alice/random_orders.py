"""Random but plausible order lines, for the property tests, the benchmarks and the demo.

Mostly legal moves, written in every form QA4-8 accepts (canonical, spaced, lower case, without the
board or the destination where only one fits); sometimes an illegal move (a wrong destination board,
a piece that cannot go there) or a line that cannot be read, so every result occurs.
"""

from __future__ import annotations

import random

import chess

from app.rules.base import Side
from app.rules.quasi_alice.movegen import CASTLE, Move
from app.rules.quasi_alice.orders import TYPE_LETTER
from app.rules.quasi_alice.position import BOARD_NAMES, color_of
from app.rules.quasi_alice.state import GameState

JUNK = ("A:e2-e9", "hello e4", "Z:e2-e4>B", "e2-e4>Q", "castle please e1", "A:O-O-O-O")


def random_order(state: GameState, side: Side, rng: random.Random) -> str:
    """One order line for ``side``, who must be the player to move."""
    moves = state.legal_moves()
    roll = rng.random()
    if roll < 0.03 or not moves:
        return rng.choice(JUNK)
    if roll < 0.04:
        return "offer draw"
    if roll < 0.12:
        return illegal_order(state, moves, rng)
    return written_freely(state, moves, rng.choice(moves), rng)


def illegal_order(state: GameState, moves: list[Move], rng: random.Random) -> str:
    """A move of a piece onto a board it may not transfer to, or to a square it cannot reach."""
    board, origin, to, _onto, _promotion, special = rng.choice(moves)
    if special != CASTLE and rng.random() < 0.5:
        return f"{BOARD_NAMES[board]}:{chess.square_name(origin)}-{chess.square_name(to)}>{BOARD_NAMES[board]}"
    return f"{BOARD_NAMES[board]}:{chess.square_name(origin)}-{chess.square_name(rng.randrange(64))}"


def written_freely(state: GameState, moves: list[Move], move: Move, rng: random.Random) -> str:
    """``move`` in one of the accepted spellings, leaving out only what the referee can settle."""
    board, origin, to, onto, promotion, special = move
    same_piece = [other for other in moves if other[:3] == move[:3] and other[4] == promotion and other[5] == special]
    color = state.position.turn
    own_boards = [index for index in range(4) if (code := state.position.at(index, origin)) and color_of(code) == color]
    board_text = "" if (len(own_boards) == 1 or special == CASTLE) and rng.random() < 0.3 else BOARD_NAMES[board]
    onto_text = "" if len(same_piece) == 1 and rng.random() < 0.5 else BOARD_NAMES[onto]
    if special == CASTLE:
        body = "O-O-O" if to < origin else "O-O"
    else:
        body = f"{chess.square_name(origin)}{rng.choice(('-', '', '–'))}{chess.square_name(to)}"
        if promotion and (promotion != chess.QUEEN or rng.random() < 0.5):
            body += "=" + TYPE_LETTER[promotion]
    style = rng.random()
    if style < 0.5:
        text = f"{board_text}:{body}" if board_text else body
        return f"{text}>{onto_text}" if onto_text else text
    if style < 0.8:
        text = f"{board_text} {body}" if board_text else body
        return (f"{text} > {onto_text}" if onto_text else text).lower()
    text = f"{board_text}{body}" if board_text else body
    return f"{text}>{onto_text}" if onto_text else text
