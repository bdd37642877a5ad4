"""LG-10: each player's notebook of the other world, kept from their messages alone.

The update reads only the messages that player was told (plus their own
pieces, which they always know), never the true position, so the notebook can
carry no more than the rules revealed.
"""

from __future__ import annotations

from typing import Any

import chess

from app.rules.base import Message, Side
from app.rules.looking_glass.movement import SLIDERS, path

Notebook = dict[str, list[Any]]
"""``{square: [symbol or "?", full-move number of the report]}``, enemy pieces only."""

UNKNOWN = "?"
REPORTS = frozenset({"moved", "landed", "arrived"})
"""The kinds of message that can change a notebook; the others leave it as it is."""


def symbol(piece: str, color: str) -> str:
    """FEN letter of a piece named by type letter and colour."""
    return piece.upper() if color == "white" else piece.lower()


def split(where: str) -> tuple[str, str]:
    """``"M:e4"`` -> ``("M", "e4")``."""
    world, square = where.split(":")
    return world, square


def passed_over(piece: str, from_square: str, stop: str) -> list[str]:
    """Squares a moved piece crossed before stopping (sliders, and a pawn's double step)."""
    start, end = chess.parse_square(from_square), chess.parse_square(stop)
    kind = chess.PIECE_SYMBOLS.index(piece.lower())
    if kind in SLIDERS or (kind == chess.PAWN and abs(end - start) == 16):
        return [chess.SQUARE_NAMES[square] for square in path(start, end)[:-1]]
    return []


def update(
    book: Notebook,
    side: Side,
    other_world: str,
    messages: list[Message],
    move_number: int,
    own_squares: set[str],
) -> None:
    """Fold the messages ``side`` was just told into their notebook of ``other_world``."""

    def report(square: str, letter: str) -> None:
        book[square] = [letter, move_number]

    def clear(square: str) -> None:
        book.pop(square, None)

    for message in messages:
        kind = message["kind"]
        if kind == "moved":
            _seen_move(message, side, other_world, book, report, clear, own_squares)
        elif kind == "landed":
            world, square = split(message["square"])
            if world != other_world:
                continue
            if message["through"]:
                clear(square)  # it stopped there and left through the portal
            else:
                report(square, UNKNOWN)
        elif kind == "arrived":
            _arrival(message, side, other_world, report, clear)
    for square in own_squares:
        book.pop(square, None)


def _seen_move(message, side, other_world, book, report, clear, own_squares) -> None:
    world = message["world"]
    enemy = message["color"] != side
    if world == other_world:
        clear(message["from"])
        for square in passed_over(message["piece"], message["from"], message["to"]):
            clear(square)
        clear(message["to"])
        if message["captured"]:
            capture_world, capture_square = split(message["captured"]["square"])
            if capture_world == other_world:
                clear(capture_square)
        if enemy and not message["through"]:
            report(message["to"], symbol(message["promotion"] or message["piece"], message["color"]))
        return
    # A move in the player's own world: its portal question was about the other world.
    stop = message["to"]
    if message["through"]:
        if enemy:
            report(stop, symbol(message["promotion"] or message["piece"], message["color"]))
        else:
            clear(stop)
    elif stop not in own_squares and stop not in book:
        report(stop, UNKNOWN)  # the portal was closed: something stands there


def _arrival(message, side, other_world, report, clear) -> None:
    world, square = split(message["square"])
    if world != other_world:
        return
    mine = message["color"] == side
    if mine:
        clear(square)
    else:
        report(square, symbol(message["piece"], message["color"]))
    if mine:
        for attacked in message["attacks"]:
            report(split(attacked["square"])[1], symbol(attacked["piece"], attacked["color"]))
    front = message["front"]
    if front is None:
        return
    step = 1 if message["color"] == "white" else -1
    front_square = square[0] + str(int(square[1]) + step)
    if front == "empty":
        clear(front_square)
    elif front["color"] != side:
        report(front_square, symbol(front["piece"], front["color"]))
