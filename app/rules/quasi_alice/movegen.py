"""The fast legal move generator of 4D Quasi-Alice Chess (QA4-2 .. QA4-6), on bitboards.

A move is a plain tuple ``(board, from, to, onto, promotion, special)``: the board it is played on,
its squares, the destination board it transfers to (QA4-3), the promotion piece type (0 for
none) and ``NORMAL``, ``EN_PASSANT`` or ``CASTLE`` (for castling, ``from`` and ``to`` are the king's).

Legality without trying each move: a piece other than the king always leaves the board it moves on,
so on the king's board it can never block a check there; it is legal when nothing it uncovers
(its own square, or an enemy piece it captures on a line through the king) opens a line to the king,
tested on the few moves where that can happen. Off the king's board a move cannot touch the king's
board unless it lands there, where it can only block. King moves are tested square by square.
Geometry comes from python-chess's attack tables; the checker ``judge.py`` decides the same
questions rule by rule, slowly, and the tests hold the two to agree.
"""

from __future__ import annotations

from collections.abc import Callable

import chess

from app.rules.quasi_alice.position import (
    BLACK_LONG,
    BLACK_SHORT,
    KING_HOME,
    OFFSET,
    RIGHTS_LOST,
    RIGHTS_OF,
    ROOK_HOME,
    WHITE,
    WHITE_LONG,
    WHITE_SHORT,
    Position,
)

Move = tuple[int, int, int, int, int, int]
Append = Callable[[Move], None]
NORMAL, EN_PASSANT, CASTLE = 0, 1, 2
PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)

KNIGHT_ATTACKS = chess.BB_KNIGHT_ATTACKS
KING_ATTACKS = chess.BB_KING_ATTACKS
PAWN_ATTACKS = chess.BB_PAWN_ATTACKS  # [colour][square]
DIAG_MASKS, DIAG_ATTACKS = chess.BB_DIAG_MASKS, chess.BB_DIAG_ATTACKS
RANK_MASKS, RANK_ATTACKS = chess.BB_RANK_MASKS, chess.BB_RANK_ATTACKS
FILE_MASKS, FILE_ATTACKS = chess.BB_FILE_MASKS, chess.BB_FILE_ATTACKS
BETWEEN = [[chess.between(a, b) for b in chess.SQUARES] for a in chess.SQUARES]
DIAG_LINES = [DIAG_ATTACKS[square][0] for square in chess.SQUARES]
STRAIGHT_LINES = [RANK_ATTACKS[square][0] | FILE_ATTACKS[square][0] for square in chess.SQUARES]
QUEEN_LINES = [DIAG_LINES[square] | STRAIGHT_LINES[square] for square in chess.SQUARES]
LAST_RANK = (chess.BB_RANK_1, chess.BB_RANK_8)  # by colour
DOUBLE_STEP_RANK = (chess.BB_RANK_6, chess.BB_RANK_3)  # by colour: where a single step lands before a double one
FULL = chess.BB_ALL


def _destinations(white_king_board: int, black_king_board: int) -> tuple[tuple[int, ...], ...]:
    """QA4-3 for every starting board: with both kings there, any other board; else the other boards
    holding at least one king."""
    kings = {white_king_board, black_king_board}
    table = []
    for board in range(4):
        if kings == {board}:
            table.append(tuple(other for other in range(4) if other != board))
        else:
            table.append(tuple(other for other in range(4) if other != board and other in kings))
    return tuple(table)


DESTINATIONS = [[_destinations(white, black) for black in range(4)] for white in range(4)]


def _castle_plans() -> list[tuple[tuple[int, int, int, int, int, int, int], ...]]:
    """By colour: (right, king from, king to, rook from, rook to, squares to be empty, squares the king
    crosses or reaches)."""
    plans: list[tuple[tuple[int, int, int, int, int, int, int], ...]] = [(), ()]
    for color, short, long in ((WHITE, WHITE_SHORT, WHITE_LONG), (1 - WHITE, BLACK_SHORT, BLACK_LONG)):
        king = KING_HOME[color]
        rows = []
        for right, king_file, rook_file in ((short, 6, 5), (long, 2, 3)):
            rook = ROOK_HOME[right]
            king_to = chess.square(king_file, chess.square_rank(king))
            rook_to = chess.square(rook_file, chess.square_rank(king))
            needed = BETWEEN[king][king_to] | BETWEEN[rook][rook_to] | (1 << king_to) | (1 << rook_to)
            needed &= ~((1 << king) | (1 << rook))
            crossed = BETWEEN[king][king_to] | (1 << king_to)
            rows.append((right, king, king_to, rook, rook_to, needed, crossed))
        plans[color] = tuple(rows)
    return plans


CASTLE_PLANS = _castle_plans()


def attackers(pieces: list[int], base: int, color: int, square: int, occupied: int) -> int:
    """Pieces of ``color`` (whose codes start at ``pieces[base + 1]``) attacking ``square`` on one board."""
    sliders = pieces[base + 5]
    return (
        (KNIGHT_ATTACKS[square] & pieces[base + 2])
        | (KING_ATTACKS[square] & pieces[base + 6])
        | (PAWN_ATTACKS[color ^ 1][square] & pieces[base + 1])
        | (DIAG_ATTACKS[square][DIAG_MASKS[square] & occupied] & (pieces[base + 3] | sliders))
        | (
            (RANK_ATTACKS[square][RANK_MASKS[square] & occupied] | FILE_ATTACKS[square][FILE_MASKS[square] & occupied])
            & (pieces[base + 4] | sliders)
        )
    )


def checkers(position: Position, color: int) -> int:
    """Enemy pieces giving check to the king of ``color`` on its board (0 when none or no king)."""
    king = position.kings[color]
    if king < 0:
        return 0
    board = king >> 6
    occupied = position.occupied[board * 2] | position.occupied[board * 2 + 1]
    return attackers(position.pieces, board * 16 + OFFSET[color ^ 1], color ^ 1, king & 63, occupied)


def _pinned(pieces: list[int], enemy_base: int, own: int, occupied: int, king: int) -> int:
    """Own pieces that alone stand between an enemy slider and the king, on the king's board."""
    queens = pieces[enemy_base + 5]
    snipers = (DIAG_LINES[king] & (pieces[enemy_base + 3] | queens)) | (
        STRAIGHT_LINES[king] & (pieces[enemy_base + 4] | queens)
    )
    pinned = 0
    while snipers:
        low = snipers & -snipers
        snipers ^= low
        blockers = BETWEEN[low.bit_length() - 1][king] & occupied
        if blockers and not blockers & (blockers - 1) and blockers & own:
            pinned |= blockers
    return pinned


def legal_moves(position: Position, cell: int = -1) -> list[Move]:
    """Every legal move of the side to move (QA4-2 .. QA4-6), each transfer board a move of its own;
    only those of the piece on ``cell`` (board * 64 + square) when given."""
    only_board, only = (cell >> 6, 1 << (cell & 63)) if cell >= 0 else (-1, FULL)
    moves: list[Move] = []
    append = moves.append
    color = position.turn
    enemy_color = color ^ 1
    own_offset = OFFSET[color]
    enemy_offset = OFFSET[enemy_color]
    pieces = position.pieces
    occ = position.occupied
    king_cell = position.kings[color]
    enemy_king_cell = position.kings[enemy_color]
    if king_cell < 0 or enemy_king_cell < 0:
        return moves  # not a position of this game: both kings always stand
    king_board, king = king_cell >> 6, king_cell & 63
    destinations = DESTINATIONS[position.kings[WHITE] >> 6][position.kings[1 - WHITE] >> 6]
    empty = [FULL ^ (occ[0] | occ[1]), FULL ^ (occ[2] | occ[3]), FULL ^ (occ[4] | occ[5]), FULL ^ (occ[6] | occ[7])]
    king_own = occ[king_board * 2 + color]
    king_occupied = king_own | occ[king_board * 2 + enemy_color]
    king_enemy_base = king_board * 16 + enemy_offset
    checking = attackers(pieces, king_enemy_base, enemy_color, king, king_occupied)
    double_check = checking & (checking - 1)
    # Where a piece landing on the king's board blocks the one checking line (QA4-6), if any.
    block = 0 if double_check or not checking else BETWEEN[checking.bit_length() - 1][king]
    pinned = _pinned(pieces, king_enemy_base, king_own, king_occupied, king)
    king_lines = QUEEN_LINES[king]
    forward = 8 if color == WHITE else -8
    last_rank = LAST_RANK[color]
    double_rank = DOUBLE_STEP_RANK[color]
    pawn_attacks = PAWN_ATTACKS[color]

    for board in range(4):
        own = occ[board * 2 + color]
        if not own or (only_board >= 0 and board != only_board):
            continue
        enemy = occ[board * 2 + enemy_color]
        occupied = own | enemy
        base = board * 16 + own_offset
        on_king_board = board == king_board
        if checking and not on_king_board:  # only landing between the checker and the king helps
            landings = [(king_board, block)] if king_board in destinations[board] else []
        else:
            landings = [(onto, empty[onto]) for onto in destinations[board]]
        if not landings:
            continue
        for code in (2, 3, 4, 5, 1):  # knights, bishops, rooks, queens, pawns
            movers = pieces[base + code] & only
            while movers:
                low = movers & -movers
                movers ^= low
                origin = low.bit_length() - 1
                if code == 2:
                    targets = KNIGHT_ATTACKS[origin] & ~own
                elif code == 3:
                    targets = DIAG_ATTACKS[origin][DIAG_MASKS[origin] & occupied] & ~own
                elif code == 4:
                    targets = (
                        RANK_ATTACKS[origin][RANK_MASKS[origin] & occupied]
                        | FILE_ATTACKS[origin][FILE_MASKS[origin] & occupied]
                    ) & ~own
                elif code == 5:
                    targets = (
                        DIAG_ATTACKS[origin][DIAG_MASKS[origin] & occupied]
                        | RANK_ATTACKS[origin][RANK_MASKS[origin] & occupied]
                        | FILE_ATTACKS[origin][FILE_MASKS[origin] & occupied]
                    ) & ~own
                else:
                    targets = pawn_attacks[origin] & enemy
                    step = origin + forward
                    if not occupied >> step & 1:
                        targets |= 1 << step
                        if (1 << step) & double_rank and not occupied >> (step + forward) & 1:
                            targets |= 1 << (step + forward)
                if on_king_board:
                    targets = _safe_leaving(
                        pieces, king_enemy_base, enemy_color, king, king_occupied, origin, targets, enemy,
                        checking, double_check, low & pinned, king_lines,
                    )
                if not targets:
                    continue
                if code == 1 and targets & last_rank:
                    for onto, land in landings:
                        reach = targets & land
                        while reach:
                            bit = reach & -reach
                            reach ^= bit
                            to = bit.bit_length() - 1
                            if bit & last_rank:
                                for promotion in PROMOTIONS:
                                    append((board, origin, to, onto, promotion, NORMAL))
                            else:
                                append((board, origin, to, onto, 0, NORMAL))
                    continue
                for onto, land in landings:
                    reach = targets & land
                    while reach:
                        bit = reach & -reach
                        reach ^= bit
                        append((board, origin, bit.bit_length() - 1, onto, 0, NORMAL))

    if only_board < 0 or (only_board == king_board and only >> king & 1):
        _king_moves(position, append, color, king_board, king, king_occupied, destinations[king_board])
        if position.castling & RIGHTS_OF[color] and king_board == 0 and king == KING_HOME[color] and not checking:
            _castlings(position, append, color, king_occupied, destinations[0], empty)
    if position.ep >= 0 and (only_board < 0 or only_board == position.ep >> 6):
        _en_passant(position, append, color, destinations, empty, king_board, king, checking, block, only)
    return moves


def _safe_leaving(
    pieces: list[int],
    enemy_base: int,
    enemy_color: int,
    king: int,
    occupied: int,
    origin: int,
    targets: int,
    enemy: int,
    checking: int,
    double_check: int,
    is_pinned: int,
    king_lines: int,
) -> int:
    """The targets a piece on its king's board may move to: it leaves the board (QA4-6), so it can only
    help against a check by capturing the checker, and a pinned piece only by capturing its pinner."""
    if checking:
        if double_check:
            return 0
        risky = targets & checking
        safe = 0
    elif is_pinned:
        risky = targets & enemy & chess.BB_RAYS[king][origin]
        safe = 0
    else:
        risky = targets & enemy & king_lines
        safe = targets ^ risky
    bit_origin = 1 << origin
    while risky:
        bit = risky & -risky
        risky ^= bit
        after = occupied & ~bit_origin & ~bit
        if not attackers(pieces, enemy_base, enemy_color, king, after) & ~bit:
            safe |= bit
    return safe


def _king_moves(
    position: Position, append: Append, color: int, board: int, king: int, occupied: int, destinations: tuple[int, ...]
) -> None:
    """QA4-2: not onto a square attacked on the starting board (king lifted); QA4-3: onto an empty square
    or an enemy piece other than the king; QA4-6: not in check where it lands."""
    pieces = position.pieces
    occ = position.occupied
    enemy_color = color ^ 1
    enemy_offset = OFFSET[enemy_color]
    lifted = occupied & ~(1 << king)
    enemy_base = board * 16 + enemy_offset
    targets = KING_ATTACKS[king] & ~occ[board * 2 + color]
    enemy_king = position.kings[enemy_color]
    while targets:
        bit = targets & -targets
        targets ^= bit
        to = bit.bit_length() - 1
        if attackers(pieces, enemy_base, enemy_color, to, lifted):
            continue
        for onto in destinations:
            if occ[onto * 2 + color] & bit or enemy_king == onto * 64 + to:
                continue
            there = occ[onto * 2] | occ[onto * 2 + 1]
            if not attackers(pieces, onto * 16 + enemy_offset, enemy_color, to, there):
                append((board, king, to, onto, 0, NORMAL))


def _castlings(
    position: Position, append: Append, color: int, occupied: int, destinations: tuple[int, ...], empty: list[int]
) -> None:
    """QA4-4 from board A: FIDE's conditions there (the caller saw no check), then both pieces onto one
    board whose two landing squares are empty, the king not in check there."""
    pieces = position.pieces
    enemy_color = color ^ 1
    enemy_offset = OFFSET[enemy_color]
    rook_code = 4 + OFFSET[color]
    for right, king, king_to, rook, rook_to, needed, crossed in CASTLE_PLANS[color]:
        if not position.castling & right or position.squares[rook] != rook_code or occupied & needed:
            continue
        lifted = occupied & ~(1 << king)
        path = crossed
        attacked = False
        while path:
            bit = path & -path
            path ^= bit
            if attackers(pieces, enemy_offset, enemy_color, bit.bit_length() - 1, lifted):
                attacked = True
                break
        if attacked:
            continue
        settled = (lifted & ~(1 << rook)) | (1 << rook_to)
        if attackers(pieces, enemy_offset, enemy_color, king_to, settled):
            continue
        landing = (1 << king_to) | (1 << rook_to)
        for onto in destinations:
            if empty[onto] & landing != landing:
                continue
            there = (FULL ^ empty[onto]) | landing
            if not attackers(pieces, onto * 16 + enemy_offset, enemy_color, king_to, there):
                append((0, king, king_to, onto, 0, CASTLE))


def _en_passant(
    position: Position,
    append: Append,
    color: int,
    destinations: tuple[tuple[int, ...], ...],
    empty: list[int],
    king_board: int,
    king: int,
    checking: int,
    block: int,
    only: int,
) -> None:
    """QA4-5: on the board where the enemy pawn landed, the passed square there empty, the next move only."""
    board, passed = position.ep >> 6, position.ep & 63
    bit = 1 << passed
    if not empty[board] & bit:
        return
    victim = passed - 8 if color == WHITE else passed + 8
    enemy_color = color ^ 1
    if position.squares[board * 64 + victim] != 1 + OFFSET[enemy_color]:
        return
    pieces = position.pieces
    capturers = pieces[board * 16 + 1 + OFFSET[color]] & PAWN_ATTACKS[enemy_color][passed] & only
    occ = position.occupied
    while capturers:
        low = capturers & -capturers
        capturers ^= low
        origin = low.bit_length() - 1
        if board == king_board:
            after = (occ[board * 2] | occ[board * 2 + 1]) & ~low & ~(1 << victim)
            enemy_base = board * 16 + OFFSET[enemy_color]
            if attackers(pieces, enemy_base, enemy_color, king, after) & ~(1 << victim):
                continue
            landings = destinations[board]
        elif checking:
            landings = (king_board,) if king_board in destinations[board] and block & bit else ()
        else:
            landings = destinations[board]
        for onto in landings:
            if empty[onto] & bit:
                append((board, origin, passed, onto, 0, EN_PASSANT))


# --------------------------------------------------------------------------- making moves


def make(position: Position, move: Move) -> tuple[int, int, int]:
    """Play a legal move in place; returns (piece moved, piece captured on its board, piece captured on
    landing), as cell codes (0 for none)."""
    board, origin, to, onto, promotion, special = move
    color = position.turn
    code = position.take(board, origin)
    if special == EN_PASSANT:
        captured = position.take(board, to - 8 if color == WHITE else to + 8)
    else:
        captured = position.take(board, to)
    if special == CASTLE:
        rook = ROOK_HOME[_right_for(color, to)]
        rook_to = (origin + to) // 2
        position.put(onto, rook_to, position.take(board, rook))
    landed_on = position.take(onto, to)
    position.put(onto, to, promotion + OFFSET[color] if promotion else code)
    lost = 0
    if board == 0:
        lost |= RIGHTS_LOST.get(origin, 0) | RIGHTS_LOST.get(to, 0)
    if onto == 0:
        lost |= RIGHTS_LOST.get(to, 0)
    if lost:
        position.castling &= ~lost
    position.ep = onto * 64 + (origin + to) // 2 if code & 7 == 1 and abs(to - origin) == 16 else -1
    position.turn = color ^ 1
    return code, captured, landed_on


def _right_for(color: int, king_to: int) -> int:
    short = chess.square_file(king_to) == 6
    if color == WHITE:
        return WHITE_SHORT if short else WHITE_LONG
    return BLACK_SHORT if short else BLACK_LONG


def has_legal_move(position: Position) -> bool:
    """Whether the side to move has any legal move (QA4-7), trying piece by piece, kings last."""
    color = position.turn
    king = position.kings[color]
    for board in range(4):
        own = position.occupied[board * 2 + color]
        while own:
            low = own & -own
            own ^= low
            cell = board * 64 + low.bit_length() - 1
            if cell != king and legal_moves(position, cell):
                return True
    return king >= 0 and bool(legal_moves(position, king))


def en_passant_possible(position: Position) -> bool:
    """Whether a legal en passant capture exists now (it counts for repetition only then, QA4-9)."""
    if position.ep < 0:
        return False
    board, passed = position.ep >> 6, position.ep & 63
    color = position.turn
    capturers = position.pieces[board * 16 + 1 + OFFSET[color]] & PAWN_ATTACKS[color ^ 1][passed]
    while capturers:
        low = capturers & -capturers
        capturers ^= low
        if any(move[5] == EN_PASSANT for move in legal_moves(position, board * 64 + low.bit_length() - 1)):
            return True
    return False


def count(position: Position, depth: int) -> int:
    """Perft: the number of move sequences of ``depth`` moves (bulk-counted at the last one)."""
    if depth < 1:
        return 1
    moves = legal_moves(position)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = position.copy()
        make(child, move)
        total += count(child, depth - 1)
    return total
