"""Looking-Glass moves for ``referee perft`` (the public interface), counted without reading or telling anything.

A move is what LG-11's stalemate check counts: any LG-3 movement of the army to move in either world
(captures of enemy pieces, the king's included; no check), promotions to Q, R, B, N (and K under
win=extinction) each counted, en passant (LG-8) and castling at home (LG-7). An order for such a move
in the world the player cannot see is always a full move (LG-5c), so a shortened move is counted once,
as the full move to where it stops. Proxy orders (impossible=forfeit) are no moves of their own: a
position waiting for one counts the army's moves.

Moves are applied straight to copies of the two boards with the referee's own steps (portal checks
LG-6, castling rights, en passant, the verdict of LG-11): over ten times faster than playing their text
through the referee (perft 3 from the standard setup), to the same positions and counts (the tests check).
"""

from __future__ import annotations

import chess

from app.rules.base import other
from app.rules.looking_glass.movement import destinations, last_rank
from app.rules.looking_glass.orders import Castle, Move
from app.rules.looking_glass.referee import (
    castle_pieces,
    castle_plan,
    ep_square_in,
    forget_castling,
    has_legal_move,
    pass_portal,
    verdict,
)
from app.rules.looking_glass.state import COLOR, HOME, WORLDS, EnPassant, GameState, other_world

PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
EXTINCTION_PROMOTIONS = (*PROMOTIONS, chess.KING)  # LG-11: =K only with win=extinction


def legal_moves(state: GameState) -> list[Move | Castle]:
    """The moves of the army to move, each once, world by world, then castling; none once the game is over."""
    if state.phase != "play":
        return []
    side = state.to_move
    color = COLOR[side]
    promotions = EXTINCTION_PROMOTIONS if state.options["win"] == "extinction" else PROMOTIONS
    found: list[Move | Castle] = []
    for world in WORLDS:
        board = state.worlds[world]
        ep_square = ep_square_in(state, world)
        pawns = board.pawns
        for square in chess.scan_forward(board.occupied_co[color]):
            for target in chess.scan_forward(destinations(board, square, ep_square)):
                if pawns & chess.BB_SQUARES[square] and chess.square_rank(target) == last_rank(color):
                    found.extend(Move(square, target, kind, world=world) for kind in promotions)
                else:
                    found.append(Move(square, target, world=world))
    found.extend(Castle(long) for long in (False, True) if not isinstance(castle_plan(state, side, long), str))
    return found


def order_text(move: Move | Castle) -> str:
    """The canonical order form: ``R:e2-e4``, ``M:e7-e8=Q``, ``O-O``, ``O-O-O``."""
    return move.text()


def after(state: GameState, move: Move | Castle) -> GameState:
    """The position once ``move`` is made by the army to move, as the referee leaves it (the game over on the
    board included): a new state with boards and castling rights of its own, and no notebooks, strikes or
    messages (nothing a move count needs)."""
    child = GameState(
        options=state.options,
        phase=state.phase,
        worlds={world: board.copy() for world, board in state.worlds.items()},
        to_move=state.to_move,
        castling={side: list(squares) for side, squares in state.castling.items()},
        ep=state.ep,
    )
    army = state.to_move
    if isinstance(move, Castle):
        plan = castle_plan(child, army, move.long)
        assert not isinstance(plan, str), plan
        for _piece, _start, stop in castle_pieces(child, army, plan):  # which also ends the army's castling
            pass_portal(child, HOME[army], stop)
        child.ep = None
        king_captured = False
    else:
        king_captured = _move(child, move)
    decided = verdict(child, army, king_captured)
    if decided is None:
        child.to_move = other(army)
        if not any(has_legal_move(child, child.to_move, world) for world in WORLDS):
            decided = "1/2-1/2", "stalemate"  # LG-11, as the referee checks it before the turn
    if decided is not None:
        child.phase = "over"
        child.result, child.reason = decided
    return child


def _move(state: GameState, move: Move) -> bool:
    """Make an LG-3 movement in place (LG-8 en passant, LG-3 promotion before LG-6); whether it took a king."""
    world = move.world
    assert world is not None
    board = state.worlds[world]
    piece = board.remove_piece_at(move.from_square)
    assert piece is not None
    is_pawn = piece.piece_type == chess.PAWN
    if is_pawn and board.piece_at(move.to_square) is None and (
        chess.square_file(move.from_square) != chess.square_file(move.to_square)
    ):
        assert state.ep is not None  # LG-8: the passed pawn is taken wherever it now stands
        captured = state.worlds[state.ep.victim_world].remove_piece_at(state.ep.victim)
    else:
        captured = board.remove_piece_at(move.to_square)
    if move.promotion:
        piece = chess.Piece(move.promotion, piece.color)
    board.set_piece_at(move.to_square, piece)
    forget_castling(state, world, move.from_square, move.to_square)
    through = pass_portal(state, world, move.to_square)
    state.ep = None
    if is_pawn and abs(move.to_square - move.from_square) == 16:
        final_world = other_world(world) if through else world
        state.ep = EnPassant(world, (move.from_square + move.to_square) // 2, final_world, move.to_square)
    return captured is not None and captured.piece_type == chess.KING


def count(state: GameState, depth: int) -> int:
    """The number of move sequences of ``depth`` moves from ``state`` (the last level only counted, not made)."""
    if depth == 0:
        return 1
    moves = legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(count(after(state, move), depth - 1) for move in moves)


def perft(state: GameState, depth: int) -> dict[str, int]:
    """Perft's divide: for each move in canonical order form, the sequences of ``depth`` moves it starts."""
    return {order_text(move): count(after(state, move), depth - 1) for move in legal_moves(state)}
