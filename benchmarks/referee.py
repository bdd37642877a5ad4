"""The Looking-Glass referee against python-chess doing one ply of ordinary chess.

Ours: adjudicate one order (any kind: full, shortened, strike, rejection, question)
including both players' messages, notebooks and views. Baseline, measured in the
same run: python-chess's ``push`` plus pseudo-legal move generation, per ply of a
random standard game.
"""

from __future__ import annotations

import json
import os
import random

import chess

from app.rules.looking_glass import LookingGlass
from app.rules.looking_glass.random_orders import random_order
from app.rules.placement import clear_cache
from benchmarks.measure import interleaved, peak_memory, report

QUICK = bool(os.environ.get("MIRRORPOST_BENCH_QUICK"))  # a smoke run for the test suite
GAMES = 4 if QUICK else 40
PLIES = 60 if QUICK else 150
LG = LookingGlass()


def record_games(seed: int = 2026) -> list[tuple[int, int, list[tuple[str, str]]]]:
    """Random Looking-Glass games as (white row, black row, orders), recorded once."""
    rng = random.Random(seed)
    games = []
    for _ in range(GAMES):
        rows = rng.randrange(960), rng.randrange(960)
        state = LG.new_game({"strikes": 99})
        LG.play(state, "white", f"setup {rows[0]}")
        LG.play(state, "black", f"setup {rows[1]}")
        orders = []
        for _ in range(PLIES):
            side = LG.orderer(state)
            if side is None:
                break
            order = random_order(state, side, rng)
            orders.append((side, order))
            LG.play(state, side, order)
        games.append((rows[0], rows[1], orders))
    return games


def record_chess_games(seed: int = 2026) -> list[list[chess.Move]]:
    rng = random.Random(seed)
    games = []
    for _ in range(GAMES):
        board = chess.Board()
        moves = []
        for _ in range(PLIES):
            choices = list(board.generate_pseudo_legal_moves())
            if not choices or board.king(chess.WHITE) is None or board.king(chess.BLACK) is None:
                break
            move = rng.choice(choices)
            moves.append(move)
            board.push(move)
        games.append(moves)
    return games


def replay_ours(games) -> int:
    clear_cache()  # each round starts cold, as a server process would for a new game
    count = 0
    for white, black, orders in games:
        state = LG.new_game({"strikes": 99})
        LG.play(state, "white", f"setup {white}")
        LG.play(state, "black", f"setup {black}")
        for side, order in orders:
            LG.play(state, side, order)
            LG.view(state, "white")
            LG.view(state, "black")
            count += 1
    return count


def replay_chess(games) -> int:
    count = 0
    for moves in games:
        board = chess.Board()
        for move in moves:
            list(board.generate_pseudo_legal_moves())
            board.push(move)
            count += 1
    return count


def final_state_bytes(game) -> int:
    white, black, orders = game
    state = LG.new_game({"strikes": 99})
    LG.play(state, "white", f"setup {white}")
    LG.play(state, "black", f"setup {black}")
    for side, order in orders:
        LG.play(state, side, order)
    return len(json.dumps(LG.to_json(state)))


def main() -> None:
    ours_games = record_games()
    chess_games = record_chess_games()
    outcomes: dict[str, int] = {}
    for white, black, orders in ours_games[:10]:
        state = LG.new_game({"strikes": 99})
        LG.play(state, "white", f"setup {white}")
        LG.play(state, "black", f"setup {black}")
        for side, order in orders:
            result = LG.play(state, side, order).result
            outcomes[result] = outcomes.get(result, 0) + 1
    ours_time, ours_orders, chess_time, chess_plies = interleaved(
        lambda: replay_ours(ours_games), lambda: replay_chess(chess_games)
    )
    per_order = ours_time / ours_orders * 1e6
    per_ply = chess_time / chess_plies * 1e6
    print("bench referee: Looking-Glass adjudication vs python-chess push + pseudo-legal generation")
    print(f"  {ours_orders} orders in {GAMES} random games; outcomes in a sample: {dict(sorted(outcomes.items()))}")
    print(f"  orders adjudicated per second (with both players' messages and views): {ours_orders / ours_time:,.0f}")
    print(f"  python-chess plies per second (push + pseudo-legal moves):            {chess_plies / chess_time:,.0f}")
    report("time per order vs per python-chess ply", per_order, per_ply, "us", target=3)
    ours_peak = peak_memory(lambda: replay_ours(ours_games[:5]))
    chess_peak = peak_memory(lambda: replay_chess(chess_games[:5]))
    report("peak memory replaying 5 games", ours_peak / 1024, chess_peak / 1024, "KiB")
    print(f"  stored state after {PLIES} random orders: {final_state_bytes(ours_games[0])} bytes of JSON")
