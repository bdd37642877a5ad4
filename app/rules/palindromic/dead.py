"""PAL-5: the dead position, reached as soon as every pawn of both sides is blocked for good.

What "blocked for good" means under these rules. A pawn never captures (PAL-3), so it can only
step straight ahead, and never onto the last rank (that would be a promotion). It is blocked for
good when no sequence of legal moves can ever let it step again. The referee counts a pawn as
blocked for good when it stands on the rank before promotion (White's 7th, Black's 2nd: its only
step would promote) or when the square ahead of it is held for good, that is held by a piece of a
*stuck* set: the largest set of pieces such that, if all of them stay where they are, none of them
has a move, because

- a pawn's square ahead is held by a member (or it stands on the rank before promotion);
- every square a knight or king could step to, and the next square along each line of a bishop,
  rook or queen, is held by a member (no capture is legal, whatever the colour of the piece there),
  or, for a king, is attacked for good: by a stuck enemy pawn, knight or king, or by a stuck enemy
  bishop, rook or queen standing right next to that square on its line (nothing can come between);
- a king or rook that still has a castling right is never stuck (castling moves it).

Nothing in such a set can ever move, since each member stays as long as the others do, so the set
is sound; it is found by starting from every piece and removing, until nothing changes, any piece
that has a square to go to. The usual case is two opposing pawns face to face on one file (from the
PAL-1 start every file holds one pawn of each colour, White's below Black's, and they can never
pass); a pawn behind a stuck pawn or walled in behind stuck pieces is blocked for good as well.
A piece held only by a pin, or a king held only by a distant attack, is not counted as stuck: such a
hold ends once something comes between, and proving that nothing ever can would take a search the
referee does not make. In such rare positions the draw comes later, by the 50-move rule at the
latest, since no pawn moves and nothing is captured.

When every pawn is blocked for good, no pawn can ever move again and nothing can be captured, so
the game could only shuffle pieces until the 50-move rule, and the reversal (PAL-4) is out of reach
because a pawn is stuck off its destination rank. The referee then declares the draw at once. It
requires that at least one blocked pawn is off its destination rank: with no pawns at all, or every
pawn already home (possible only from a ``start`` position given as an option), the reversal may
still be reached and the game goes on. A checkmate or stalemate on the same move takes precedence.
"""

from __future__ import annotations

import chess

from app.rules.palindromic.destinations import PAWN_RANK

# The next square along each line of a bishop, rook or queen (rays on an empty board, edges included).
LINE_NEIGHBOURS = {
    chess.BISHOP: [chess.BB_KING_ATTACKS[sq] & chess.BB_DIAG_ATTACKS[sq][0] for sq in chess.SQUARES],
    chess.ROOK: [
        chess.BB_KING_ATTACKS[sq] & (chess.BB_RANK_ATTACKS[sq][0] | chess.BB_FILE_ATTACKS[sq][0])
        for sq in chess.SQUARES
    ],
    chess.QUEEN: list(chess.BB_KING_ATTACKS),
}
LAST_STEP_RANK = {chess.WHITE: chess.BB_RANK_7, chess.BLACK: chess.BB_RANK_2}  # where a pawn's step would promote


def _ahead(pawns: int, color: chess.Color) -> int:
    """The squares right in front of ``pawns`` (of ``color``), pawns on the rank before promotion left out."""
    movable = pawns & ~LAST_STEP_RANK[color]
    return (movable << 8) & chess.BB_ALL if color == chess.WHITE else movable >> 8


def _attacked_for_good(board: chess.Board, stuck: int, color: chess.Color) -> int:
    """Squares that ``color``'s stuck pieces attack whatever the others do."""
    attacked = 0
    own = board.occupied_co[color] & stuck
    for square in chess.scan_forward(own & board.pawns):
        attacked |= chess.BB_PAWN_ATTACKS[color][square]
    for square in chess.scan_forward(own & board.knights):
        attacked |= chess.BB_KNIGHT_ATTACKS[square]
    for square in chess.scan_forward(own & board.kings):
        attacked |= chess.BB_KING_ATTACKS[square]
    for piece_type in (chess.BISHOP, chess.ROOK, chess.QUEEN):
        for square in chess.scan_forward(own & board.pieces_mask(piece_type, color)):
            attacked |= LINE_NEIGHBOURS[piece_type][square]
    return attacked


def _steps(board: chess.Board, square: chess.Square) -> int:
    """The squares the piece (not a pawn) on ``square`` would step to first, captures and check aside."""
    piece_type = board.piece_type_at(square)
    if piece_type == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[square]
    if piece_type == chess.KING:
        return chess.BB_KING_ATTACKS[square]
    assert piece_type is not None and piece_type != chess.PAWN
    return LINE_NEIGHBOURS[piece_type][square]


def stuck_pieces(board: chess.Board, until_a_pawn_moves: bool = False) -> int:
    """The largest set of pieces none of which can ever move again (see the module docstring).

    Starts from every piece and removes the ones with a square to go to until nothing changes: pawns all
    at once on bitboards, other pieces one by one. With ``until_a_pawn_moves`` it stops as soon as a pawn
    is shown free (the dead-position question needs no more), returning the set as it then stands."""
    castling = board.clean_castling_rights()
    stuck = board.occupied & ~castling
    for color in chess.COLORS:
        if castling & board.occupied_co[color]:
            stuck &= ~(board.kings & board.occupied_co[color])
    white = board.occupied_co[chess.WHITE]
    white_pawns = board.pawns & white
    black_pawns = board.pawns & ~white
    steps = {square: _steps(board, square) for square in chess.scan_forward(stuck & ~board.pawns)}
    while True:
        before = stuck
        freed = _ahead(white_pawns & stuck, chess.WHITE) & ~stuck
        freed_pawns = (freed >> 8) | (_ahead(black_pawns & stuck, chess.BLACK) & ~stuck) << 8
        stuck &= ~freed_pawns
        if until_a_pawn_moves and freed_pawns:
            return stuck
        attacked: dict[chess.Color, int] | None = None
        for square, step in steps.items():
            bb = chess.BB_SQUARES[square]
            if not stuck & bb:
                continue
            free = step & ~stuck
            if free and board.kings & bb:
                if attacked is None:
                    attacked = {color: _attacked_for_good(board, stuck, color) for color in chess.COLORS}
                free &= ~attacked[not (white & bb)]
            if free:
                stuck &= ~bb
        if stuck == before:
            return stuck


def blocked_for_good(board: chess.Board) -> int:
    """The pawns that can never move again."""
    return board.pawns & stuck_pieces(board)


def is_dead(board: chess.Board) -> bool:
    """PAL-5: every pawn of both sides is blocked for good, at least one of them off its destination rank."""
    white = board.pawns & board.occupied_co[chess.WHITE]
    black = board.pawns & board.occupied_co[chess.BLACK]
    if not (white & ~PAWN_RANK[chess.WHITE] or black & ~PAWN_RANK[chess.BLACK]):
        return False
    if _ahead(white, chess.WHITE) & ~board.occupied or _ahead(black, chess.BLACK) & ~board.occupied:
        return False  # the quick test: some pawn can step right now
    return not board.pawns & ~stuck_pieces(board, until_a_pawn_moves=True)
