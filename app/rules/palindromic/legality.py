"""Which moves PAL-3 allows, and why an order is not one of them.

PAL-3 is FIDE chess (python-chess, in Chess960 mode for the PAL-1 start and its castling) with two
more refusals, both because some piece could then never reach its destination (PAL-2): no capture
(en passant included: the captured piece could never arrive) and no promotion (the new piece would
have no destination). Every reason is told to the orderer alone; the board is public (PAL-6), so a
reason may name anything on it.
"""

from __future__ import annotations

from collections.abc import Iterator

import chess

from app.rules.fide import castling_written, order_text
from app.rules.palindromic.orders import Castle, Coordinate, San

CAPTURE = "captures are not allowed: the captured piece could never reach its destination"
EN_PASSANT = "captures are not allowed (en passant neither): the captured pawn could never reach its destination"
PROMOTION = "promotion is not allowed: the new piece would have no destination"
INTO_CHECK = "your king would be in check"
NAMES = {
    chess.PAWN: "pawn", chess.KNIGHT: "knight", chess.BISHOP: "bishop",
    chess.ROOK: "rook", chess.QUEEN: "queen", chess.KING: "king",
}
COLOR_NAMES = {chess.WHITE: "white", chess.BLACK: "black"}


def pal_moves(board: chess.Board) -> Iterator[chess.Move]:
    """Every PAL-3 legal move of the side to move: FIDE-legal, capturing and promoting nothing."""
    ep = board.ep_square
    # The pawns that could take en passant: a pawn of ours attacking the square behind the enemy pawn.
    ep_takers = board.pawns & board.occupied_co[board.turn] & chess.BB_PAWN_ATTACKS[not board.turn][ep] if ep else 0
    for move in board.generate_legal_moves(chess.BB_ALL, chess.BB_ALL & ~board.occupied_co[not board.turn]):
        if move.promotion:
            continue
        if move.to_square == ep and ep_takers & chess.BB_SQUARES[move.from_square]:
            continue  # en passant: the square is empty, the pawn behind it is taken
        yield move


def is_castle(board: chess.Board, move: chess.Move) -> bool:
    """Castling, which python-chess writes in Chess960 mode as the king moving onto its own rook."""
    return bool(board.kings & chess.BB_SQUARES[move.from_square]) and board.is_castling(move)


def canonical(board: chess.Board, move: chess.Move) -> str:
    """The order in canonical form (the public interface): ``e2-e4``, ``O-O``, ``O-O-O``, as FIDE chess writes it
    (``fide.order_text``); a promotion, which PAL-3 never plays, is written without its letter."""
    return order_text(board, chess.Move(move.from_square, move.to_square) if move.promotion else move)


def describe(piece: chess.Piece) -> str:
    """``"black pawn"``."""
    return f"{COLOR_NAMES[piece.color]} {NAMES[piece.piece_type]}"


def pal_refusal(board: chess.Board, move: chess.Move) -> str | None:
    """Why PAL-3 refuses a FIDE-pseudo-legal move of the side to move, or None when it is legal."""
    if board.is_en_passant(move):
        return EN_PASSANT
    if board.is_capture(move):
        return CAPTURE
    if move.promotion:
        return PROMOTION
    if board.is_into_check(move):
        return INTO_CHECK
    return None


# --------------------------------------------------------------------------- castling


def castle_move(board: chess.Board, long: bool) -> chess.Move | str:
    """The castling move (Chess960 rules, PAL-3) on the side asked for, or why there is none."""
    for move in board.generate_castling_moves():
        if (move.to_square < move.from_square) == long:
            return move
    written = "O-O-O" if long else "O-O"
    color = board.turn
    king = board.king(color)
    rights = board.clean_castling_rights() & (chess.BB_RANK_1 if color == chess.WHITE else chess.BB_RANK_8)
    rooks = [sq for sq in chess.scan_forward(rights) if king is not None and (sq < king) == long]
    if king is None or not rooks:
        return f"{written} is no longer possible: your king or the rook on that side has moved"
    rook = rooks[0]
    rank_base = chess.square(0, chess.square_rank(king))
    king_to = rank_base + (2 if long else 6)
    rook_to = rank_base + (3 if long else 5)
    path = chess.between(king, king_to) | chess.between(rook, rook_to) | chess.BB_SQUARES[king_to]
    path |= chess.BB_SQUARES[rook_to]
    blockers = path & board.occupied & ~chess.BB_SQUARES[king] & ~chess.BB_SQUARES[rook]
    if blockers:
        squares = [chess.SQUARE_NAMES[sq] for sq in chess.scan_forward(blockers)]
        names = " and ".join([", ".join(squares[:-1]), squares[-1]] if len(squares) > 1 else squares)
        return f"{written} needs {names} to be empty"
    if board.is_check():
        return f"{written} is not possible while your king is in check"
    return f"{written} is not possible: your king would pass through or land on an attacked square"


# --------------------------------------------------------------------------- coordinate orders


def _reach_on_empty_board(piece: chess.Piece, square: chess.Square) -> int:
    empty = chess.BaseBoard(None)
    empty.set_piece_at(square, piece)
    return empty.attacks_mask(square)


def _movement_reason(board: chess.Board, piece: chess.Piece, from_square: chess.Square, to_square: chess.Square) -> str:
    """Why a piece cannot move from one square to the other by how it moves."""
    name = NAMES[piece.piece_type]
    frm, to = chess.SQUARE_NAMES[from_square], chess.SQUARE_NAMES[to_square]
    if piece.piece_type == chess.PAWN:
        step = 8 if piece.color == chess.WHITE else -8
        ahead = from_square + step
        if chess.square_file(from_square) == chess.square_file(to_square) and to_square in (ahead, ahead + step):
            blocker = board.piece_at(ahead) or board.piece_at(to_square)
            where = ahead if board.piece_at(ahead) else to_square
            if blocker is not None:
                return f"the pawn on {frm} is blocked by the {describe(blocker)} on {chess.SQUARE_NAMES[where]}"
        sideways = abs(chess.square_file(to_square) - chess.square_file(from_square))
        if to_square in (ahead - 1, ahead + 1) and sideways == 1:
            return f"a pawn moves diagonally only to capture, and {to} is empty"
        return f"a pawn cannot move from {frm} to {to}"
    along_rank = chess.square_rank(from_square) == chess.square_rank(to_square)
    if piece.piece_type == chess.KING and along_rank and chess.square_distance(from_square, to_square) == 2:
        return f"a king cannot move from {frm} to {to} (to castle, write O-O or O-O-O)"
    between = chess.between(from_square, to_square) & board.occupied
    if between and _reach_on_empty_board(piece, from_square) & chess.BB_SQUARES[to_square]:
        nearest = min(chess.scan_forward(between), key=lambda sq: chess.square_distance(sq, from_square))
        blocker = board.piece_at(nearest)
        assert blocker is not None
        return f"the way from {frm} to {to} is blocked by the {describe(blocker)} on {chess.SQUARE_NAMES[nearest]}"
    return f"a {name} cannot move from {frm} to {to}"


def _means_castling(board: chess.Board, order: Coordinate) -> bool:
    """A king order onto a rook of its own on its back rank ("Orders by email": castling on that side, whatever
    its rights), or along its back rank to the c- or g-file two or more files away (``e1-g1``) while it may
    castle: the usual ways of writing castling as a king move."""
    king = board.king(board.turn)
    if order.from_square != king:
        return False
    if castling_written(board, order, board.turn):
        return True
    rights = board.clean_castling_rights() & (chess.BB_RANK_1 if board.turn == chess.WHITE else chess.BB_RANK_8)
    return bool(rights) and (
        chess.square_rank(order.to_square) == chess.square_rank(king)
        and chess.square_file(order.to_square) in (2, 6)
        and chess.square_distance(king, order.to_square) >= 2
    )


def coordinate_move(board: chess.Board, order: Coordinate) -> chess.Move | str:
    """The legal move a from-to order names, or why it is not one."""
    frm, to = chess.SQUARE_NAMES[order.from_square], chess.SQUARE_NAMES[order.to_square]
    piece = board.piece_at(order.from_square)
    if piece is None:
        return f"there is no piece of yours on {frm}"
    if piece.color != board.turn:
        return f"there is no piece of yours on {frm}: the {describe(piece)} there is your opponent's"
    if order.from_square == order.to_square:
        return f"{frm}-{to} does not move the {NAMES[piece.piece_type]}"
    if piece.piece_type == chess.KING and _means_castling(board, order):
        return castle_move(board, long=order.to_square < order.from_square)
    occupant = board.piece_at(order.to_square)
    if occupant is not None and occupant.color == piece.color:
        return f"your own {NAMES[occupant.piece_type]} stands on {to}"
    candidates = list(
        board.generate_pseudo_legal_moves(chess.BB_SQUARES[order.from_square], chess.BB_SQUARES[order.to_square])
    )
    if not candidates:
        return _movement_reason(board, piece, order.from_square, order.to_square)
    move = candidates[0]  # a promotion comes in four letters: PAL-3 refuses them all alike
    refusal = pal_refusal(board, move)
    if refusal:
        return refusal
    if order.promotion:
        return "only a pawn reaching the last rank could promote (and PAL-3 forbids even that)"
    return move


# --------------------------------------------------------------------------- algebraic orders


def _candidates(board: chess.Board, reading: str) -> list[chess.Move]:
    """Pseudo-legal moves a SAN reading could mean (its promotion letter aside)."""
    match = chess.SAN_REGEX.match(reading)
    if not match:
        return []
    to_square = chess.parse_square(match.group(4))
    piece_type = chess.PIECE_SYMBOLS.index(match.group(1).lower()) if match.group(1) else chess.PAWN
    from_mask = board.pieces_mask(piece_type, board.turn)
    if match.group(2):
        from_mask &= chess.BB_FILES[ord(match.group(2)) - ord("a")]
    if match.group(3):
        from_mask &= chess.BB_RANKS[int(match.group(3)) - 1]
    return list(board.generate_pseudo_legal_moves(from_mask, chess.BB_SQUARES[to_square]))


def san_move(board: chess.Board, order: San) -> chess.Move | str:
    """The legal move a SAN order names, read by python-chess's ``parse_san``, or why it is not one."""
    for reading in order.readings:
        try:
            move = board.parse_san(reading)
        except chess.AmbiguousMoveError:
            options = " or ".join(sorted(canonical(board, m) for m in _candidates(board, reading) if board.is_legal(m)))
            return f"{order.written} is ambiguous: write {options}"
        except ValueError:
            continue
        return pal_refusal(board, move) or move
    for reading in order.readings:
        for move in _candidates(board, reading):
            refusal = pal_refusal(board, move)
            if refusal:
                return refusal
            if "=" in reading:
                return "only a pawn reaching the last rank could promote (and PAL-3 forbids even that)"
    match = chess.SAN_REGEX.match(order.readings[-1])
    assert match is not None
    name = NAMES[chess.PIECE_SYMBOLS.index(match.group(1).lower())] if match.group(1) else "pawn"
    hint = " (to castle, write O-O or O-O-O)" if name == "king" else ""
    return f"no {name} of yours can move to {match.group(4)}{hint}"


def order_move(board: chess.Board, order: Coordinate | Castle | San) -> chess.Move | str:
    """The legal move an order names, or the reason it is refused."""
    if isinstance(order, Castle):
        return castle_move(board, order.long)
    if isinstance(order, Coordinate):
        return coordinate_move(board, order)
    return san_move(board, order)
