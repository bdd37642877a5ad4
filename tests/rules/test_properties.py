"""Properties over random Looking-Glass games (hypothesis): invariants and information safety."""

import copy
import json
import random

import chess
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.looking_glass.movement import destinations
from app.rules.looking_glass.random_orders import random_order
from app.rules.looking_glass.state import GameState
from tests.rules.positions import LG, play

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
rows = st.integers(min_value=0, max_value=959)


def random_game(seed, white_row, black_row, plies, **options):
    """Yield ``(side, order, outcome, state)`` for each order of a random game."""
    rng = random.Random(seed)
    state = LG.new_game(options)
    play(state, "white", f"setup {white_row}")
    play(state, "black", f"setup {black_row}")
    for _ in range(plies):
        side = LG.orderer(state)
        if side is None:
            return
        order = random_order(state, side, rng)
        yield side, order, play(state, side, order), state


def census(state: GameState):
    """Pieces by colour on both boards and in the tray."""
    count = {True: 0, False: 0}
    for board in state.worlds.values():
        for color in (chess.WHITE, chess.BLACK):
            count[color] += chess.popcount(board.occupied_co[color])
    for letter in state.tray:
        count[letter.isupper()] += 1
    return count


@SETTINGS
@given(seed=st.integers(0, 2**32), white=rows, black=rows, forfeit=st.booleans())
def test_lg_invariants_hold_in_random_games(seed, white, black, forfeit):
    """One piece per square per world; pieces conserved (boards plus tray, promotions
    accounted); the state round-trips through JSON exactly and plays on identically."""
    options = {"strikes": 99, "impossible": "forfeit" if forfeit else "strike"}
    promoted = {True: 0, False: 0}
    results = set()
    for _side, _order, outcome, state in random_game(seed, white, black, 120, **options):
        results.add(outcome.result)
        for world, board in state.worlds.items():
            assert not board.occupied_co[chess.WHITE] & board.occupied_co[chess.BLACK], world
            masks = [board.pieces_mask(kind, color) for kind in chess.PIECE_TYPES for color in chess.COLORS]
            assert sum(chess.popcount(mask) for mask in masks) == chess.popcount(board.occupied), world
        assert census(state) == {True: 16, False: 16}
        for owner in ("white", "black"):  # the owner of a moved piece is always told in full
            for message in outcome.to[owner]:
                if message["kind"] == "moved" and message["color"] == owner and message["promotion"]:
                    promoted[owner == "white"] += 1
        for color in chess.COLORS:
            pawns = sum(chess.popcount(b.pieces_mask(chess.PAWN, color)) for b in state.worlds.values())
            pawns += state.tray.count("P" if color else "p")
            assert pawns + promoted[color] == 8
        data = json.loads(json.dumps(LG.to_json(state)))
        again = LG.from_json(data)
        assert LG.to_json(again) == data
    assert results & {"moved", "shortened"}


@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_lg_json_round_trip_plays_on_identically(seed):
    rng = random.Random(seed)
    state = None
    for _side, _order, _outcome, state in random_game(seed, 518, 518, rng.randrange(1, 60), strikes=99):  # noqa: B007
        pass
    assert state is not None
    twin = LG.from_json(json.loads(json.dumps(LG.to_json(state))))
    for _ in range(20):
        side = LG.orderer(state)
        if side is None:
            break
        order = random_order(state, side, rng)
        assert play(state, side, order).to == play(twin, side, order).to
        assert LG.to_json(state) == LG.to_json(twin)


def names_black_officer(messages):
    """Whether White was told the type of a black piece other than a pawn (setup disclosure), or the end."""
    for message in messages:
        if message["kind"] == "end":
            return True
        for part in [message, message.get("captured") or {}, *message.get("attacks", [])]:
            if part.get("color") == "black" and part.get("piece") not in (None, "P"):
                return True
    return False


def pawn_order(state, rng):
    """A home-world pawn move for Black: the same squares whatever Black's back rank is."""
    board = state.worlds["M"]
    moves = [
        (square, target)
        for square in chess.scan_forward(board.pieces_mask(chess.PAWN, chess.BLACK))
        for target in chess.scan_forward(destinations(board, square, None))
        if chess.square_rank(target) > 0
    ]
    if not moves:
        return "resign"
    square, target = rng.choice(sorted(moves))
    return f"M {chess.square_name(square)}-{chess.square_name(target)}"


@SETTINGS
@given(seed=st.integers(0, 2**32), white=rows, black_a=rows, black_b=rows)
def test_lg_information_safety_opponent_setup_stays_hidden(seed, white, black_a, black_b):
    """Two games differing only in Black's hidden setup give White identical messages and
    views, event by event, until the rules themselves name one of Black's officers to White."""
    games = []
    for black in (black_a, black_b):
        state = LG.new_game({"strikes": 99})
        play(state, "white", f"setup {white}")
        play(state, "black", f"setup {black}")
        games.append(state)
    rng = random.Random(seed)
    compared = 0
    for _ in range(80):
        side = LG.orderer(games[0])
        if side is None or LG.orderer(games[1]) != side:
            break
        order = random_order(games[0], "white", rng) if side == "white" else pawn_order(games[0], rng)
        told = [play(state, side, order).to["white"] for state in games]
        if any(names_black_officer(messages) for messages in told):
            break
        assert told[0] == told[1], order
        assert LG.view(games[0], "white") == LG.view(games[1], "white")
        compared += 1
    assert compared >= 1


@SETTINGS
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 50))
def test_lg_information_safety_opponent_home_move_reveals_only_what_lg9_tells(seed, plies):
    """Two different Black moves at home that LG-9 describes to White the same way (same
    stopping square, same portal answer, same capture, and the same piece if it came
    through into White's world) leave White with identical messages and views."""
    rng = random.Random(seed)
    state = None
    for _side, _order, _outcome, state in random_game(seed, 518, rng.randrange(960), plies, strikes=99):  # noqa: B007
        pass
    if state is None or LG.orderer(state) != "black" or state.proxy:
        return
    board = state.worlds["M"]
    ep = state.ep.square if state.ep and state.ep.world == "M" else None
    groups = {}
    for square in chess.scan_forward(board.occupied_co[chess.BLACK]):
        for target in chess.scan_forward(destinations(board, square, ep)):
            piece = board.piece_at(square)
            trial = copy.deepcopy(state)
            order = f"M {chess.square_name(square)}-{chess.square_name(target)}"
            outcome = play(trial, "black", order)
            stops = [m for m in outcome.to["black"] if m["kind"] == "moved"]
            assert len(stops) == 1
            moved = stops[0]
            shown = moved["promotion"] or moved["piece"] if moved["through"] else None
            key = (moved["to"], moved["through"], json.dumps(moved["captured"]), shown)
            groups.setdefault(key, []).append((order, piece, outcome.to["white"], LG.view(trial, "white")))
    for variants in groups.values():
        first = variants[0]
        for other in variants[1:]:
            assert other[2] == first[2], (first[0], other[0])
            assert other[3] == first[3], (first[0], other[0])
