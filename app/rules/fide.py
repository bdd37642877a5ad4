"""FIDE chess on python-chess, as the referees that play it share it (Side View, Kriegspiel, Dark Chess).

python-chess decides every question of legality; this module says which legal move an order means, writes
moves in canonical order form (``e2-e4``, ``e7-e8=Q``, ``O-O``, ``O-O-O``, whatever the board's castling
encoding: python-chess writes Chess960 castling as the king taking its own rook), finds what a move
captures, counts perft, and writes a legal move in one of the forms players write.

Every function that asks which moves there are takes ``check``: True (the default) for FIDE's rule that a king
may never be left attacked, False for a variant without check (Dark Chess, DC-1). Without check every
pseudo-legal move is a move, castling needs only the king and rook unmoved and the squares they cross or land
on empty (python-chess itself refuses castling through attacked squares even among its pseudo-legal moves, so
this module generates castling on its own: ``unchecked_castlings``), and a position with a king missing has
no moves: the game was decided by the king's capture.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import chess

from app.rules.placement import board_placement
from app.rules.reading import Castle, CoordinateMove, wrong_piece
from app.rules.sides import Side, other

COLOR: dict[Side, chess.Color] = {"white": chess.WHITE, "black": chess.BLACK}
SIDE_OF: dict[chess.Color, Side] = {chess.WHITE: "white", chess.BLACK: "black"}
TYPE_LETTER = {kind: chess.piece_symbol(kind).upper() for kind in chess.PIECE_TYPES}


# --------------------------------------------------------------------------- the state's board


class BoardRecord:
    """What the state of a game of FIDE chess keeps of its board (a dataclass subclass declares the fields):
    the start as FEN and the moves played as UCI, so that python-chess has the history that repetition needs
    after a reload, every man captured as FEN letters, and the board they make."""

    start: str | None
    moves: list[str]
    tray: str
    board: chess.Board

    @property
    def to_move(self) -> Side:
        return SIDE_OF[self.board.turn]

    def board_json(self) -> dict[str, Any]:
        """These fields for the state's ``to_json`` (the board is rebuilt from them: ``replayed``)."""
        return {"start": self.start, "moves": list(self.moves), "tray": self.tray}


class OnOneBoard:
    """What a variant played on one python-chess board answers alike (a ``Variant`` mixin, first among its bases),
    its state a ``BoardRecord`` with the game's ``result``: who orders (the side to move, until the end), the
    move number, the true position, and a piece letter's refusal (``piece_refusal``)."""

    def orderer(self, state: Any) -> Side | None:
        return state.to_move if state.result is None else None

    def move_number(self, state: Any) -> int:
        return int(state.board.fullmove_number)

    def position(self, state: Any) -> dict[str, str]:
        return {"board": board_placement(state.board)}

    def piece_refusal(self, state: Any, side: Side, order: CoordinateMove | Castle) -> str | None:
        return piece_refusal(state.board, order, side)


def start_position(setup: str, rng: random.Random | None) -> str:
    """The start as FEN: the standard one, or with ``setup="chess960"`` one random Chess960 row for both."""
    if setup == "chess960":
        return chess.Board.from_chess960_pos((rng or random.SystemRandom()).randrange(960)).fen()
    return chess.STARTING_FEN


def replayed(start: str, moves: Sequence[str], chess960: bool) -> chess.Board:
    """The board of a start position (FEN) with the moves (UCI) played on it."""
    board = chess.Board(start, chess960=chess960)
    for uci in moves:
        board.push(chess.Move.from_uci(uci))
    return board


# --------------------------------------------------------------------------- which moves there are


def unchecked_castlings(board: chess.Board, color: chess.Color) -> Iterator[tuple[chess.Square, chess.Square]]:
    """Castling without the check rule (DC-1), for ``color`` whoever is to move: each castling rook's square with
    the square its king goes to. python-chess's castling rights say that neither the king nor that rook has moved;
    the squares the king and the rook cross or land on must be empty but for the two of them; attacks are not
    looked at."""
    backrank = chess.BB_RANK_1 if color == chess.WHITE else chess.BB_RANK_8
    king = board.kings & board.occupied_co[color] & backrank
    if not board.castling_rights & backrank or not king:
        return
    king_square = chess.msb(king)
    for rook in chess.scan_reversed(board.clean_castling_rights() & backrank):
        a_side = rook < king_square
        king_to = chess.square(2 if a_side else 6, chess.square_rank(king_square))
        rook_to = chess.square(3 if a_side else 5, chess.square_rank(king_square))
        crossed = (chess.between(king_square, king_to) | chess.between(rook, rook_to)
                   | chess.BB_SQUARES[king_to] | chess.BB_SQUARES[rook_to])
        if not (board.occupied & ~chess.BB_SQUARES[king_square] & ~chess.BB_SQUARES[rook]) & crossed:
            yield rook, king_to


def both_kings(board: chess.BaseBoard) -> bool:
    """Whether both kings stand: without check, a king's capture decides the game and leaves no moves."""
    return bool(board.kings & board.occupied_co[chess.WHITE]) and bool(board.kings & board.occupied_co[chess.BLACK])


def moves_of(board: chess.Board, from_mask: chess.Bitboard = chess.BB_ALL, check: bool = True) -> Iterator[chess.Move]:
    """The moves of the side to move from a square of ``from_mask``: FIDE's legal moves, or without ``check``
    those of ``unchecked_moves``."""
    return board.generate_legal_moves(from_mask) if check else unchecked_moves(board, from_mask)


def unchecked_moves(board: chess.Board, from_mask: chess.Bitboard = chess.BB_ALL) -> Iterator[chess.Move]:
    """Every pseudo-legal move, castling by ``unchecked_castlings``; none with a king missing."""
    if not both_kings(board):
        return
    own = board.occupied_co[board.turn]
    yield from board.generate_pseudo_legal_moves(from_mask, ~own & chess.BB_ALL)  # no castling: it lands on own
    if board.kings & own & from_mask:
        king = chess.msb(board.kings & own)
        for rook, king_to in unchecked_castlings(board, board.turn):
            yield chess.Move(king, rook if board.chess960 else king_to)


def is_move(board: chess.Board, move: chess.Move, check: bool = True) -> bool:
    """Whether a move of any man but the king (whose moves ``moves_of`` generates) is a move now."""
    return board.is_legal(move) if check else board.is_pseudo_legal(move) and both_kings(board)


# --------------------------------------------------------------------------- orders and moves


def order_text(board: chess.Board, move: chess.Move) -> str:
    """The canonical order for a legal move of ``board``."""
    if board.is_castling(move):
        return "O-O" if board.is_kingside_castling(move) else "O-O-O"
    suffix = "=" + chess.piece_symbol(move.promotion).upper() if move.promotion else ""
    return f"{chess.square_name(move.from_square)}-{chess.square_name(move.to_square)}{suffix}"


def castle_destination(board: chess.Board, move: chess.Move) -> chess.Square:
    """Where castling puts the king: the g-file or the c-file of its rank."""
    file = 6 if board.is_kingside_castling(move) else 2
    return chess.square(file, chess.square_rank(move.from_square))


def legal_by_order(board: chess.Board, from_mask: chess.Bitboard = chess.BB_ALL,
                   check: bool = True) -> dict[str, chess.Move]:
    """Every legal move of the side to move from a square of ``from_mask``, by canonical order.

    Castling is also found under the king's own step when that step is two files or more (``e1-g1`` from the
    standard start): a king step of one file is never read as castling. Every order a move is found under
    starts with its from-square, or is castling (from the king's square), so a narrower ``from_mask`` only
    leaves out orders that cannot name its moves, and costs far less.
    """
    found: dict[str, chess.Move] = {}
    for move in moves_of(board, from_mask, check):
        found[order_text(board, move)] = move
        if board.is_castling(move):
            destination = castle_destination(board, move)
            if abs(chess.square_file(destination) - chess.square_file(move.from_square)) >= 2:
                found[f"{chess.square_name(move.from_square)}-{chess.square_name(destination)}"] = move
    return found


def legal_orders(board: chess.Board, check: bool = True) -> list[str]:
    """The canonical order of every legal move, each once (no castling aliases)."""
    return [order_text(board, move) for move in moves_of(board, check=check)]


def castling_written(board: chess.BaseBoard, order: CoordinateMove | Castle, color: chess.Color) -> Castle | None:
    """The castling a king's order onto a rook of its own on its own back rank means ("Orders by email":
    ``e1-h1`` is ``O-O``, ``e1-a1`` is ``O-O-O``, as Chess960 players write castles); None for any other order."""
    if not isinstance(order, CoordinateMove) or order.promotion is not None:
        return None
    back = 0 if color == chess.WHITE else 7
    own = board.occupied_co[color]
    king, rook = chess.BB_SQUARES[order.from_square], chess.BB_SQUARES[order.to_square]
    if not (board.kings & own & king and board.rooks & own & rook and chess.square_rank(order.from_square) == back
            and chess.square_rank(order.to_square) == back):
        return None
    return Castle(order.to_square < order.from_square)


def find_move(board: chess.Board, order: CoordinateMove | Castle,
              check: bool = True) -> tuple[str, chess.Move] | None:
    """The legal move an order means, with its canonical text; None when there is none.

    A pawn move to the last rank without a letter is a queen's promotion. A king's order onto its own rook on
    its back rank is castling on that side (``castling_written``). A move of any man but the king is asked of
    python-chess directly; the king's moves (castling among them, also written as the king's own step) are
    generated, and only they: no other move can be the one the order means.
    """
    order = castling_written(board, order, board.turn) or order
    if isinstance(order, Castle):
        from_mask = board.kings & board.occupied_co[board.turn]
    else:
        piece = board.piece_type_at(order.from_square)
        if piece != chess.KING:
            promotion = order.promotion
            if promotion is None and piece == chess.PAWN and chess.square_rank(order.to_square) in (0, 7):
                promotion = chess.QUEEN
            candidate = chess.Move(order.from_square, order.to_square, promotion)
            return (order_text(board, candidate), candidate) if is_move(board, candidate, check) else None
        from_mask = chess.BB_SQUARES[order.from_square]
    legal = legal_by_order(board, from_mask, check)
    text = order.text()
    if text not in legal and isinstance(order, CoordinateMove) and order.promotion is None:
        text += "=Q"
    found = legal.get(text)
    return (order_text(board, found), found) if found is not None else None


def own_letter(board: chess.BaseBoard, square: chess.Square, side: Side) -> str | None:
    """The type letter of ``side``'s own man on ``square`` (which the player always knows); None for none."""
    piece = board.piece_at(square)
    return TYPE_LETTER[piece.piece_type] if piece and piece.color == COLOR[side] else None


def piece_refusal(board: chess.BaseBoard, order: CoordinateMove | Castle, side: Side) -> str | None:
    """Why a move naming its piece (``Qd8-d5``) is refused, judged against ``side``'s own man on the from-square,
    which the player always knows (``reading.wrong_piece``); None when it fits or names none."""
    if isinstance(order, Castle) or order.piece is None:
        return None
    return wrong_piece(order.piece, own_letter(board, order.from_square, side), order.from_square)


def captured(board: chess.Board, move: chess.Move) -> tuple[chess.Piece, chess.Square] | None:
    """The man a legal move of ``board`` takes and the square where it stood (the passed pawn's, for en
    passant); None for a move that takes nothing."""
    if board.is_castling(move) or not board.is_capture(move):
        return None
    square = move.to_square
    if board.is_en_passant(move):
        square = chess.square(chess.square_file(move.to_square), chess.square_rank(move.from_square))
    victim = board.piece_at(square)
    assert victim is not None
    return victim, square


@dataclass(frozen=True, slots=True)
class Played:
    """A legal move just made, as the referees tell it: the move, its canonical order, the moving piece's
    letter, its squares (for castling the king's: ``to`` is where the king went), the castling order, the
    promotion letter, en passant, and the man it took with the square where that man stood."""

    move: chess.Move
    order: str
    piece: str
    from_square: str
    to_square: str
    castle: str | None
    promotion: str | None
    en_passant: bool
    capture: tuple[chess.Piece, chess.Square] | None

    def details(self) -> dict[str, Any]:
        """The move as a ``moved`` message tells it in full: squares, piece, promotion, castling, en passant."""
        return {"from": self.from_square, "to": self.to_square, "piece": self.piece, "promotion": self.promotion,
                "castle": self.castle, "en_passant": self.en_passant}

    def taken(self) -> dict[str, str] | None:
        """The man the move took, as messages name it: type letter, colour, square; None when it took none."""
        if self.capture is None:
            return None
        victim, square = self.capture
        return {"piece": TYPE_LETTER[victim.piece_type], "color": SIDE_OF[victim.color],
                "square": chess.square_name(square)}


def make(board: chess.Board, order: CoordinateMove | Castle, check: bool = True) -> Played | None:
    """Play the legal move an order means on ``board`` (``find_move``) and say what it was; None, the board
    unchanged, when the order means no legal move."""
    found = find_move(board, order, check)
    if found is None:
        return None
    text, move = found
    piece = board.piece_type_at(move.from_square)
    assert piece is not None
    castle = text if board.is_castling(move) else None
    to_square = castle_destination(board, move) if castle else move.to_square
    played = Played(move, text, TYPE_LETTER[piece], chess.square_name(move.from_square), chess.square_name(to_square),
                    castle, TYPE_LETTER[move.promotion] if move.promotion else None, board.is_en_passant(move),
                    captured(board, move))
    board.push(move)
    return played


# --------------------------------------------------------------------------- perft


def count_leaves(board: chess.Board, depth: int, check: bool = True) -> int:
    """Move sequences of ``depth`` moves; repetition and move-count draws are ignored, as perft does."""
    if depth < 1:
        return 1
    if depth == 1:
        return board.legal_moves.count() if check else sum(1 for _move in unchecked_moves(board))
    total = 0
    for move in moves_of(board, check=check):
        board.push(move)
        total += count_leaves(board, depth - 1, check)
        board.pop()
    return total


def divide(board: chess.Board, depth: int, check: bool = True) -> dict[str, int]:
    """Perft's divide: the leaf count below each legal move, by canonical order (on a copy)."""
    work = board.copy(stack=False)
    counts = {}
    for move in list(moves_of(work, check=check)):
        name = order_text(work, move)
        work.push(move)
        counts[name] = count_leaves(work, depth - 1, check)
        work.pop()
    return counts


# --------------------------------------------------------------------------- random orders, as players write them


def random_line(draw_offer: Side | None, side: Side, rng: random.Random,
                chances: Sequence[tuple[float, Callable[[], str | None]]]) -> str | None:
    """A random line other than a legal move, for ``side`` to send, or None for a legal move: with a draw offer of
    the opponent pending, half the time an answer to it; else the first of ``chances`` (each the chance, at
    most, and what it sends, which may find nothing) whose chance is above one roll."""
    roll = rng.random()
    if draw_offer == other(side) and roll < 0.5:
        return "accept draw" if rng.random() < 0.1 else "decline draw"
    for chance, line in chances:
        if roll < chance:
            return line()
    return None


def random_move(board: chess.Board, rng: random.Random, check: bool = True) -> str | None:
    """A legal move of the side to move, as a player might write it; None when there is none."""
    found = list(moves_of(board, check=check))
    return written(order_text(board, rng.choice(found)), rng) if found else None


def written(text: str, rng: random.Random) -> str:
    """A canonical order in one of the forms players write (``e2e4``, ``E2 E4``, ``0-0``, a promotion without
    its letter or in lower case), for the random orders of the tests, the benchmarks and the demo."""
    if text.startswith("O"):
        return rng.choice([text, text.replace("O", "0"), text.lower()])
    move, _, promotion = text.partition("=")
    from_square, to_square = move.split("-")
    if promotion == "Q" and rng.random() < 0.5:
        promotion = ""  # no letter is a queen
    suffix = rng.choice([f"={promotion}", promotion.lower()]) if promotion else ""
    line = rng.choice([f"{from_square}-{to_square}", f"{from_square}{to_square}", f"{from_square} {to_square}"])
    return (line + suffix).upper() if rng.random() < 0.1 else line + suffix
