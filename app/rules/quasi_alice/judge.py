"""The rules QA4-2 .. QA4-6 read one at a time, slowly, on python-chess boards: why a move is illegal.

The referee asks here for the reason it tells a player whose order is rejected, and the tests enumerate
every candidate (board, from, to, destination board, promotion piece, castling) through ``move_reason``
and ``castle_reason`` (``legal_orders``) to check the fast generator of ``movegen.py``, which reaches its
answers by other means.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from app.rules.placement import board_from_placement
from app.rules.quasi_alice.orders import castle_text, move_text
from app.rules.quasi_alice.position import BOARD_NAMES, Position, castling_text

PIECE_NAMES = {
    chess.PAWN: "pawn",
    chess.KNIGHT: "knight",
    chess.BISHOP: "bishop",
    chess.ROOK: "rook",
    chess.QUEEN: "queen",
    chess.KING: "king",
}
RIGHT_LETTER = {
    (chess.WHITE, False): "K", (chess.WHITE, True): "Q", (chess.BLACK, False): "k", (chess.BLACK, True): "q",
}
PROMOTION_TYPES = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)


@dataclass
class Snapshot:
    """A position as the rules describe it: four boards, whose move, castling rights (``KQkq`` letters)
    and the double step just made (the board it landed on and the square it passed), if any."""

    boards: dict[str, chess.BaseBoard]
    turn: chess.Color
    castling: str
    ep: tuple[str, int] | None


def snapshot_of(position: Position) -> Snapshot:
    """The rules' picture of a generator position, rebuilt from its placements."""
    boards = {label: board_from_placement(position.placement(index)) for index, label in enumerate(BOARD_NAMES)}
    ep = (BOARD_NAMES[position.ep >> 6], position.ep & 63) if position.ep >= 0 else None
    return Snapshot(boards, bool(position.turn), castling_text(position.castling), ep)


def name(board: str, square: int) -> str:
    return f"{board}:{chess.square_name(square)}"


def last_rank(color: chess.Color) -> int:
    return 7 if color == chess.WHITE else 0


# --------------------------------------------------------------------------- QA4-2: movement on one board


def movement_reason(board: chess.BaseBoard, label: str, origin: int, to: int, ep_square: int | None) -> str | None:
    """Why the piece on ``origin`` cannot go to ``to`` by FIDE movement on this board alone; None if it can."""
    piece = board.piece_at(origin)
    assert piece is not None
    what = PIECE_NAMES[piece.piece_type]
    here, there = chess.square_name(origin), chess.square_name(to)
    target = board.piece_at(to)
    if origin == to:
        return f"a {what} cannot move from {here} to {there}"
    own = target is not None and target.color == piece.color
    kind = piece.piece_type
    if kind == chess.PAWN:
        return _pawn_reason(board, label, origin, to, piece.color, ep_square)
    if kind in (chess.KNIGHT, chess.KING):  # the way the piece moves first: an own piece there is a second reason
        reachable = chess.BB_KNIGHT_ATTACKS[origin] if kind == chess.KNIGHT else chess.BB_KING_ATTACKS[origin]
        if not reachable & chess.BB_SQUARES[to]:
            if kind == chess.KING and chess.square_rank(origin) == chess.square_rank(to) and (
                chess.square_distance(origin, to) == 2
            ):
                return f"a king cannot move from {here} to {there} (castling is written O-O or O-O-O)"
            return f"a {what} cannot move from {here} to {there}"
        return f"{name(label, to)} holds one of your own pieces" if own else None
    straight = chess.square_file(origin) == chess.square_file(to) or (
        chess.square_rank(origin) == chess.square_rank(to)
    )
    on_line = bool(chess.BB_RAYS[origin][to])
    fits = on_line and (kind == chess.QUEEN or straight == (kind == chess.ROOK))
    if not fits:
        return f"a {what} cannot move from {here} to {there}"
    if own:
        return f"{name(label, to)} holds one of your own pieces"
    blockers = chess.SquareSet(chess.between(origin, to) & board.occupied)
    if blockers:
        nearest = min(blockers, key=lambda square: chess.square_distance(square, origin))
        return f"the {what}'s way to {there} is blocked on {name(label, nearest)}"
    return None


def _pawn_reason(
    board: chess.BaseBoard, label: str, origin: int, to: int, color: chess.Color, ep_square: int | None
) -> str | None:
    ahead = 8 if color == chess.WHITE else -8
    start_rank = 1 if color == chess.WHITE else 6
    target = board.piece_at(to)
    own = f"{name(label, to)} holds one of your own pieces"
    if to == origin + ahead:
        if target is None:
            return None
        return own if target.color == color else f"a pawn cannot capture straight ahead ({name(label, to)} is occupied)"
    if to == origin + 2 * ahead and chess.square_rank(origin) == start_rank:
        if board.piece_at(origin + ahead) is not None:
            return f"the pawn's way is blocked on {name(label, origin + ahead)}"
        if target is None:
            return None
        return own if target.color == color else f"a pawn cannot capture straight ahead ({name(label, to)} is occupied)"
    if chess.BB_PAWN_ATTACKS[color][origin] & chess.BB_SQUARES[to]:
        if target is not None and target.color == color:
            return own
        if target is not None or to == ep_square:
            return None
        return f"a pawn moves diagonally only to capture, and {name(label, to)} is empty"
    return f"a pawn cannot move from {chess.square_name(origin)} to {chess.square_name(to)}"


def ep_square_on(snapshot: Snapshot, label: str) -> int | None:
    """QA4-5: the square a pawn may take en passant to on this board, on the very next move only: the
    board where the enemy pawn landed, the passed square there empty, the pawn beside it."""
    if snapshot.ep is None or snapshot.ep[0] != label:
        return None
    passed = snapshot.ep[1]
    board = snapshot.boards[label]
    victim = board.piece_at(passed + (-8 if snapshot.turn == chess.WHITE else 8))
    if board.piece_at(passed) is not None or victim != chess.Piece(chess.PAWN, not snapshot.turn):
        return None
    return passed


def check_reason(board: chess.BaseBoard, label: str, square: int, color: chess.Color, king_moved: bool) -> str | None:
    """QA4-2 / QA4-6: the king of ``color`` on ``square`` is in check from a piece on the same board.

    ``king_moved``: the king itself moves on ``label`` (QA4-2 judges the square it moves to there, before it
    goes over to another board); else the king stands on ``square`` of ``label``, where the check is."""
    checking = board.attackers_mask(not color, square)
    if not checking:
        return None
    attacker = chess.lsb(checking)
    piece = board.piece_at(attacker)
    assert piece is not None
    by = f"the {PIECE_NAMES[piece.piece_type]} on {name(label, attacker)}"
    if king_moved:
        return (f"your king may not move onto {name(label, square)}, which {by} attacks (a king's move is judged "
                "on the board it is played on)")
    return f"your king on {name(label, square)} would be in check from {by}"


# --------------------------------------------------------------------------- QA4-3: destination boards


def destination_boards(snapshot: Snapshot, label: str) -> list[str]:
    """QA4-3: with both kings on the starting board, any of the other three; otherwise the other boards
    that hold at least one king."""
    start = snapshot.boards[label]
    if start.king(chess.WHITE) is not None and start.king(chess.BLACK) is not None:
        return [other for other in BOARD_NAMES if other != label]
    return [other for other in BOARD_NAMES if other != label and snapshot.boards[other].kings]


def destination_reason(snapshot: Snapshot, label: str, onto: str) -> str | None:
    if onto == label:
        return f"a piece moved on {label} must transfer to another board"
    allowed = destination_boards(snapshot, label)
    if onto not in allowed:
        return f"a piece moved on {label} may only transfer to a board with a king: {' or '.join(allowed)}"
    return None


def safety_after(boards: dict[str, chess.BaseBoard], color: chess.Color) -> str | None:
    """QA4-6: after the transfer the mover's king must not be in check on its board."""
    for label in BOARD_NAMES:
        king = boards[label].king(color)
        if king is not None:
            return check_reason(boards[label], label, king, color, king_moved=False)
    return None


# --------------------------------------------------------------------------- a whole move


@dataclass
class Played:
    """A move made on its starting board, before the transfer: that board, and the piece to transfer."""

    label: str
    board: chess.BaseBoard
    square: int
    piece: chess.Piece  # the piece that moved (a pawn, for a promotion)
    arriving: chess.Piece  # what transfers (the promoted piece)
    rook: tuple[int, int] | None = None  # castling: the rook's squares, from and to


def before_transfer(
    snapshot: Snapshot, label: str, origin: int, to: int, promotion: int | None
) -> str | Played:
    """QA4-2: the move on its board, by FIDE movement on that board alone, the king not left in check
    there and not moved onto an attacked square; the reason it fails, or the board after it."""
    me = snapshot.turn
    board = snapshot.boards[label]
    piece = board.piece_at(origin)
    if piece is None or piece.color != me:
        return f"there is no piece of yours on {name(label, origin)}"
    ep_square = ep_square_on(snapshot, label) if piece.piece_type == chess.PAWN else None
    why = movement_reason(board, label, origin, to, ep_square)
    if why:
        return why
    promoting = piece.piece_type == chess.PAWN and chess.square_rank(to) == last_rank(me)
    if promotion is not None and not promoting:
        return "only a pawn reaching the last rank can be promoted"
    if promotion in (chess.KING, chess.PAWN):
        return f"a pawn cannot promote to a {PIECE_NAMES[promotion]}: only to a queen, rook, bishop or knight"
    moved = board.copy()
    moved.remove_piece_at(origin)
    moved.remove_piece_at(to)
    if ep_square is not None and to == ep_square:
        moved.remove_piece_at(to + (-8 if me == chess.WHITE else 8))
    arriving = chess.Piece(promotion or chess.QUEEN, me) if promoting else piece
    moved.set_piece_at(to, arriving)
    if piece.piece_type == chess.KING:
        why = check_reason(moved, label, to, me, king_moved=True)
    else:
        king = board.king(me)
        why = check_reason(moved, label, king, me, king_moved=False) if king is not None else None
    return why or Played(label, moved, to, piece, arriving)


def castle_before_transfer(snapshot: Snapshot, label: str, long: bool) -> str | Played:
    """QA4-4 on the board where the king castles: rights, empty squares between, FIDE's check conditions."""
    me = snapshot.turn
    side = "queen's" if long else "king's"
    if RIGHT_LETTER[me, long] not in snapshot.castling:
        return f"you can no longer castle on the {side} side: your king or that rook has moved, or the rook was taken"
    if label != "A":
        return "your king and rook have never moved, so they stand on A: castle there"
    board = snapshot.boards[label]
    rank = 0 if me == chess.WHITE else 7
    king, rook = chess.square(4, rank), chess.square(0 if long else 7, rank)
    king_to, rook_to = chess.square(2 if long else 6, rank), chess.square(3 if long else 5, rank)
    for square in chess.SquareSet(chess.between(king, rook)):
        if board.piece_at(square) is not None:
            return f"castling needs {name(label, square)} to be empty"
    if board.attackers_mask(not me, king):
        return "you may not castle out of check"
    lifted = board.copy()
    lifted.remove_piece_at(king)
    for square in chess.SquareSet(chess.between(king, king_to) | chess.BB_SQUARES[king_to]):
        attackers = lifted.attackers_mask(not me, square)
        if attackers:
            by = board.piece_at(chess.lsb(attackers))
            assert by is not None
            return (
                f"you may not castle through or into check: {name(label, square)} is attacked by the "
                f"{PIECE_NAMES[by.piece_type]} on {name(label, chess.lsb(attackers))}"
            )
    castled = lifted
    castled.remove_piece_at(rook)
    castled.set_piece_at(rook_to, chess.Piece(chess.ROOK, me))
    king_piece = chess.Piece(chess.KING, me)
    castled.set_piece_at(king_to, king_piece)
    return check_reason(castled, label, king_to, me, king_moved=True) or Played(
        label, castled, king_to, king_piece, king_piece, (rook, rook_to)
    )


def landing_reason(snapshot: Snapshot, played: Played, onto: str) -> str | None:
    """QA4-3 and QA4-4: the landing square must be empty; a king may land on an enemy piece, never the
    enemy king; castling king and rook need both their squares empty."""
    target = snapshot.boards[onto]
    square = played.square
    if played.rook is not None:
        rook_to = played.rook[1]
        if target.piece_at(square) is not None or target.piece_at(rook_to) is not None:
            return f"castling needs {name(onto, square)} and {name(onto, rook_to)} empty for the king and rook to land"
        return None
    occupant = target.piece_at(square)
    if occupant is None:
        return None
    if occupant.color == played.piece.color:
        return f"{name(onto, square)} holds one of your own pieces, so nothing can land there"
    if occupant.piece_type == chess.KING:
        return f"no piece may land on the enemy king ({name(onto, square)})"
    if played.piece.piece_type != chess.KING:
        return f"{name(onto, square)} is occupied: only a king may land on an enemy piece and capture it"
    return None


def transfer_reason(snapshot: Snapshot, played: Played, onto: str) -> str | None:
    """QA4-3, QA4-4 and QA4-6: the destination board, the landing square(s) there, the king safe afterwards."""
    why = destination_reason(snapshot, played.label, onto) or landing_reason(snapshot, played, onto)
    if why:
        return why
    square = played.square
    boards = dict(snapshot.boards)
    left = boards[played.label] = played.board.copy()
    target = boards[onto] = snapshot.boards[onto].copy()
    left.remove_piece_at(square)
    target.set_piece_at(square, played.arriving)  # replaces a piece the king captures on landing
    if played.rook is not None:
        left.remove_piece_at(played.rook[1])
        target.set_piece_at(played.rook[1], chess.Piece(chess.ROOK, snapshot.turn))
    return safety_after(boards, snapshot.turn)


def no_destination_reason(snapshot: Snapshot, played: Played) -> str | None:
    """Why no destination board will do (an order that left the board out); None if one will."""
    allowed = destination_boards(snapshot, played.label)
    reasons = [transfer_reason(snapshot, played, onto) for onto in allowed]
    if any(reason is None for reason in reasons):
        return None
    landable = [onto for onto in allowed if landing_reason(snapshot, played, onto) is None]
    if landable:
        return reasons[allowed.index(landable[0])]  # lands, but leaves the king in check (QA4-6)
    both_kings_here = len(allowed) == 3
    where = "another board" if both_kings_here else "a board with a king"
    square = chess.square_name(played.square)
    if played.rook is not None:
        boards = "other board" if both_kings_here else "board with a king"
        return f"there is no {boards} where {square} and {chess.square_name(played.rook[1])} are both empty"
    if played.piece.piece_type == chess.KING:
        return f"there is no {square} on {where} that is empty or holds an enemy piece other than the king"
    return f"there is no empty {square} on {where}"


def move_reason(
    snapshot: Snapshot, label: str, origin: int, to: int, promotion: int | None, onto: str
) -> str | None:
    """Why moving ``label:origin`` to ``to`` and transferring onto ``onto`` is illegal; None when legal."""
    played = before_transfer(snapshot, label, origin, to, promotion)
    return played if isinstance(played, str) else transfer_reason(snapshot, played, onto)


def castle_reason(snapshot: Snapshot, label: str, long: bool, onto: str) -> str | None:
    """QA4-4 with FIDE's conditions judged on the board where the king castles; None when legal."""
    played = castle_before_transfer(snapshot, label, long)
    return played if isinstance(played, str) else transfer_reason(snapshot, played, onto)


# --------------------------------------------------------------------------- every candidate


def legal_orders(snapshot: Snapshot) -> set[str]:
    """Every legal move in canonical form, found by trying each candidate against the rules."""
    found: set[str] = set()
    me = snapshot.turn
    for label in BOARD_NAMES:
        board = snapshot.boards[label]
        for origin in chess.SquareSet(board.occupied_co[me]):
            pawn = board.piece_type_at(origin) == chess.PAWN
            for to in chess.SQUARES:
                promotions = PROMOTION_TYPES if pawn and chess.square_rank(to) == last_rank(me) else (None,)
                for promotion in promotions:
                    for onto in BOARD_NAMES:
                        if move_reason(snapshot, label, origin, to, promotion, onto) is None:
                            found.add(move_text(label, origin, to, promotion, onto))
        for long in (False, True):
            for onto in BOARD_NAMES:
                if castle_reason(snapshot, label, long, onto) is None:
                    found.add(castle_text(label, long, onto))
    return found
