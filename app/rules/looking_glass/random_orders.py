"""Random but plausible orders, chosen from what the ordering player can see.

Used by the property tests, the benchmark and the demo. An order is drawn from
the player's home world (which they see), their own pieces in the other world
(which they always know), or plain guesses, so every kind of outcome occurs:
full and shortened moves, strikes, rejections, questions and unreadable lines.
"""

from __future__ import annotations

import random

import chess

from app.rules.base import Side, other
from app.rules.looking_glass.movement import destinations, last_rank
from app.rules.looking_glass.referee import castle_plan, ep_square_in
from app.rules.looking_glass.state import COLOR, HOME, GameState, other_world

PROMOTIONS = "QRBN"
JUNK = ("R e2-e9", "hello e4", "M:z1-a1", "setup 518", "castle please e1")
EMPTY = chess.BaseBoard(None)


def _reach(piece: chess.Piece, square: int) -> int:
    """Squares the piece could go to on an empty board: plausible blind targets."""
    if piece.piece_type == chess.PAWN:
        step = 8 if piece.color == chess.WHITE else -8
        ahead = square + step
        mask = chess.BB_SQUARES[ahead] if 0 <= ahead < 64 else 0
        return mask | chess.BB_PAWN_ATTACKS[piece.color][square]
    board = EMPTY.copy()
    board.set_piece_at(square, piece)
    return board.attacks_mask(square)


def _written(world: str, from_square: int, to_square: int, piece: chess.Piece | None, rng: random.Random) -> str:
    text = f"{world} {chess.square_name(from_square)}-{chess.square_name(to_square)}"
    if piece and piece.piece_type == chess.PAWN and chess.square_rank(to_square) == last_rank(piece.color):
        text += "=" + rng.choice(PROMOTIONS)
    return text


def home_order(state: GameState, orderer: Side, army: Side, rng: random.Random) -> str | None:
    """A legal move for ``army`` in the orderer's home world, if there is one."""
    world = HOME[orderer]
    board = state.worlds[world]
    ep = ep_square_in(state, world)
    moves = [
        (square, target)
        for square in chess.scan_forward(board.occupied_co[COLOR[army]])
        for target in chess.scan_forward(destinations(board, square, ep))
    ]
    if not moves:
        return None
    from_square, to_square = rng.choice(moves)
    return _written(world, from_square, to_square, board.piece_at(from_square), rng)


def blind_order(state: GameState, orderer: Side, army: Side, rng: random.Random) -> str:
    """An order in the world the orderer cannot see: own pieces with plausible targets, or guesses."""
    world = other_world(HOME[orderer])
    board = state.worlds[world]
    own = list(chess.scan_forward(board.occupied_co[COLOR[army]])) if orderer == army else []
    if own and rng.random() < 0.85:
        square = rng.choice(own)
        piece = board.piece_at(square)
        assert piece is not None
        targets = list(chess.scan_forward(_reach(piece, square)))
        if targets:
            return _written(world, square, rng.choice(targets), piece, rng)
    return f"{world} {chess.square_name(rng.randrange(64))}-{chess.square_name(rng.randrange(64))}"


def random_order(state: GameState, side: Side, rng: random.Random, blind_rate: float = 0.35) -> str:
    """One order line for ``side``, who must be the player expected to order."""
    army = other(side) if state.proxy else side
    roll = rng.random()
    if roll < 0.03:
        return rng.choice(JUNK)
    if roll < 0.06:
        return "ask"
    if roll < 0.09 and army == side:
        long = rng.random() < 0.5
        if not isinstance(castle_plan(state, side, long), str):
            return "O-O-O" if long else "O-O"
    if rng.random() >= blind_rate:
        order = home_order(state, side, army, rng)
        if order:
            return order
    return blind_order(state, side, army, rng)
