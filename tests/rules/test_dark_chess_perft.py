"""DC-1 perft (``referee perft``): FIDE moves without the check rule, a position with a king missing having no
moves, checked against a count of its own: a small brute-force generator over python-chess's pseudo-legal moves
(its castling, which looks at attacks, left out) with castling found square by square, written here and sharing
nothing with the referee's code. The figures below are that count's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import chess
import pytest

from app.rules.scenario import run_perft
from tests.rules.dark_chess_helpers import DC, position

ROOT = Path(__file__).parent.parent.parent
START = chess.STARTING_FEN
# (FEN, setup, depth, the brute-force count)
POSITIONS = [
    (START, "standard", 4, 197742),  # FIDE has 197281: from ply 4 on, kings may be left attacked
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "standard", 3, 98903),
    ("r3k2r/8/8/8/8/5n2/8/R3K2R w KQkq - 0 1", "standard", 3, 20440),  # castling out of and through attack
    ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "standard", 3, 23125),  # en passant
    ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", "standard", 3, 13287),  # promotions, with captures
    ("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1", "standard", 3, 676),  # a king taken: no moves after it
    ("rk4r1/pppppppp/8/8/8/2q5/PPPPPPPP/RK4R1 w GAga - 0 1", "chess960", 3, 22121),  # Chess960 castling under attack
]


def brute_castles(board: chess.Board) -> list[chess.Move]:
    """DC-1 castling, square by square: the king on its back rank, a rook of its own there with its right, and
    every square from each one's square to where it lands empty but for the two of them."""
    color, back = board.turn, 0 if board.turn == chess.WHITE else 7
    king = next((square for square in chess.SQUARES if board.piece_at(square) == chess.Piece(chess.KING, color)), None)
    if king is None or chess.square_rank(king) != back:
        return []
    found = []
    for rook in (chess.square(file, back) for file in range(8)):
        if board.piece_at(rook) != chess.Piece(chess.ROOK, color) or not board.castling_rights & chess.BB_SQUARES[rook]:
            continue
        a_side = chess.square_file(rook) < chess.square_file(king)
        files: set[int] = set()
        for start, end in ((king, 2 if a_side else 6), (rook, 3 if a_side else 5)):
            files |= set(range(min(chess.square_file(start), end), max(chess.square_file(start), end) + 1))
        if all(board.piece_at(chess.square(file, back)) is None or chess.square(file, back) in (king, rook)
               for file in files):
            found.append(chess.Move(king, rook))  # python-chess's Chess960 way of writing castling
    return found


def brute_moves(board: chess.Board) -> list[chess.Move]:
    if sum(board.piece_type_at(square) == chess.KING for square in chess.SQUARES) < 2:
        return []  # DC-5: the king's capture ended the game
    return [move for move in board.generate_pseudo_legal_moves() if not board.is_castling(move)] + brute_castles(board)


def brute_perft(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in brute_moves(board):
        board.push(move)
        total += brute_perft(board, depth - 1)
        board.pop()
    return total


@pytest.mark.parametrize(("fen", "setup", "depth", "nodes"), POSITIONS)
def test_dc1_perft_is_the_brute_force_count(fen, setup, depth, nodes):
    assert sum(DC.perft(position(fen, setup), depth).values()) == nodes
    shallower = depth - 1 if fen == START else depth  # the brute force at depth 4 takes seconds: its 3 is checked
    assert brute_perft(chess.Board(fen, chess960=True), shallower) == sum(
        DC.perft(position(fen, setup), shallower).values())


def test_dc1_perft_divides_by_the_canonical_orders_the_referee_plays():
    """Each first move of the divide is written as the referee writes orders, and is played by it."""
    state = position(POSITIONS[2][0])
    divide = DC.perft(state, 2)
    assert {"O-O", "O-O-O", "e1-f2", "h1-h8"} <= set(divide)  # castling through and out of attack; a rook takes
    assert sorted(divide) == sorted(DC.legal_orders(state))
    board = chess.Board(POSITIONS[2][0], chess960=True)
    assert sum(divide.values()) == brute_perft(board, 2) and len(divide) == len(brute_moves(board))


def test_dc1_referee_perft_counts_from_a_scenario_and_from_the_command_line(tmp_path):
    output = run_perft({"variant": "dark-chess", "orders": [["white", "e2-e4"], ["black", "f7-f6"]]}, 2)
    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("f7f6")
    assert output["nodes"] == brute_perft(board, 2) == sum(output["divide"].values())
    scenario = tmp_path / "dark.json"
    scenario.write_text(json.dumps({"variant": "dark-chess"}))
    completed = subprocess.run([sys.executable, str(ROOT / "manage.py"), "referee", "perft", str(scenario), "3"],
                               capture_output=True, text=True, check=True, cwd=ROOT,
                               env={"MIRRORPOST_SKIP_BOOTSTRAP": "1", "PATH": "/usr/bin:/bin"})
    assert json.loads(completed.stdout)["nodes"] == 8902
