"""Properties over random Side View games (hypothesis): storage, and information safety (SV-2, SV-4)."""

import json
import random

import chess
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.rules.side_view_helpers import SV, random_game

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
physics_values = st.sampled_from([1, 2, 3])
setups = st.sampled_from(["standard", "chess960", "hidden"])
OPPONENT_KINDS = {"opponent-moved", "check", "end", "draw-offered", "draw-declined"}
COLOR = {"white": chess.WHITE, "black": chess.BLACK}


# --------------------------------------------------------------------------- storage


@SETTINGS
@given(seed=st.integers(0, 2**32), physics=physics_values, setup=setups)
def test_SV_5_json_round_trip_is_exact_and_a_reloaded_game_plays_on_identically(seed, physics, setup):
    """Reloading before every order (as the server does) changes nothing: same outcomes, same end,
    repetition history included; pieces on the board plus the tray are always the 32 of the start."""
    played = []
    for side, order, outcome, state in random_game(seed, 150, physics=physics, setup=setup):
        played.append((side, order, outcome))
        if state.start is not None:
            assert chess.popcount(state.board.occupied) + len(state.tray) == 32
    replay = SV.new_game({"physics": physics, "setup": setup}, random.Random(seed))
    for side, order, outcome in played:
        data = json.loads(json.dumps(SV.to_json(replay)))
        replay = SV.from_json(data)
        assert SV.to_json(replay) == data
        again = SV.play(replay, side, order)
        assert (again.result, again.to, again.order) == (outcome.result, outcome.to, outcome.order)
    if played:
        assert SV.to_json(replay) == SV.to_json(state)
        assert SV.result(replay) == SV.result(state)


def test_SV_3_random_orders_bring_about_every_result():
    results, reasons = set(), set()
    for seed in range(12):
        events = list(random_game(seed, 300, physics=1 + seed % 3))
        results |= {outcome.result for _side, _order, outcome, _state in events}
        reasons.add(SV.result(events[-1][3])[1])
    assert {"moved", "rejected", "error", "answered", "offered", "declined"} <= results
    assert results & {"drawn", "resigned"}
    assert len(reasons - {None}) >= 2


# --------------------------------------------------------------------------- what each message may say (SV-3, SV-4)


@SETTINGS
@given(seed=st.integers(0, 2**32), physics=physics_values, setup=setups)
def test_SV_4_messages_tell_each_player_only_what_the_rules_allow(seed, physics, setup):
    rng = random.Random(seed)
    state = SV.new_game({"physics": physics, "setup": setup}, rng)
    for side in ("white", "black"):
        if SV.needs_setup(state, side):
            SV.play(state, side, f"setup {rng.randrange(960)}")
    for _ in range(140):
        side = SV.orderer(state)
        if side is None:
            break
        opponent = "black" if side == "white" else "white"
        order = SV.random_order(state, side, rng)
        opponent_view = SV.view(state, opponent)
        outcome = SV.play(state, side, order)
        told = outcome.to
        if outcome.result in ("rejected", "error", "answered"):
            assert told[opponent] == []  # SV-4: answered to the orderer only
            assert SV.view(state, opponent) == opponent_view
            if outcome.result == "rejected" and SV.is_order(order) and SV.order_kind(order) == "move":
                assert told[side] == [{"kind": "rejected", "reason": "illegal"}]  # SV-3: no reason
            continue
        assert {message["kind"] for message in told[opponent]} <= OPPONENT_KINDS
        if outcome.result != "moved":
            continue
        moved = told[side][0]
        assert moved["kind"] == "moved" and moved["color"] == side
        assert [m["kind"] for m in told[side][1:]] in ([], ["end"])  # the mover hears no check of the other
        report = told[opponent][0]
        assert set(report) == {"kind", "color", "lost"} and report["color"] == side
        assert report["lost"] == moved["captured"]
        for message in told[opponent]:
            if message["kind"] == "check":
                assert message == {"kind": "check", "color": opponent}
        words = json.dumps(told[opponent])
        assert moved["from"] not in words
        lost_square = report["lost"]["square"] if report["lost"] else None
        assert moved["to"] not in words or moved["to"] == lost_square


# --------------------------------------------------------------------------- what each view may show (SV-2)


def allowed_knowledge(board: chess.BaseBoard, viewer: chess.Color, physics: int):
    """SV-2 read literally: own pieces exactly, and per rank what the physics lets the viewer learn."""
    own = {square: board.piece_at(square) for square in chess.SQUARES if board.color_at(square) == viewer}
    ranks = []
    for rank in range(8):
        row = [(square, board.piece_at(square)) for square in reversed(chess.SQUARES[rank * 8:rank * 8 + 8])
               if board.piece_at(square)]
        if physics == 2:
            ranks.append(tuple((piece, square if piece.color == viewer else None) for square, piece in row))
        elif row and row[0][1].color != viewer:
            ranks.append((row[0][1], row[0][0] if physics == 3 else None))
        else:
            ranks.append(None)
    return own, ranks


def relocated(state, from_square: int, to_square: int):
    child = SV.from_json(SV.to_json(state))
    piece = child.board.remove_piece_at(from_square)
    child.board.set_piece_at(to_square, piece)
    return child


def hidden_moves(board: chess.BaseBoard, viewer: chess.Color, physics: int):
    """Relocations of one enemy piece the viewer should not notice: behind another piece of a rank
    (physics 1, 3), along the rank while the nearest (physics 1), or between the same neighbours (physics 2)."""
    found = []
    for square in chess.scan_forward(board.occupied_co[not viewer]):
        rank = chess.square_rank(square)
        east = list(chess.scan_reversed(board.occupied & chess.BB_RANKS[rank]))
        place = east.index(square)
        if physics == 2:
            low = chess.square_file(east[place + 1]) + 1 if place + 1 < len(east) else 0
            high = chess.square_file(east[place - 1]) - 1 if place > 0 else 7
            found += [(square, chess.square(f, rank)) for f in range(low, high + 1) if f != chess.square_file(square)]
            continue
        if place == 0:
            if physics == 1:
                low = chess.square_file(east[1]) + 1 if len(east) > 1 else 0
                found += [(square, chess.square(f, rank)) for f in range(low, 8) if f != chess.square_file(square)]
            continue
        for other_rank in range(8):
            others = [s for s in chess.scan_reversed(board.occupied & chess.BB_RANKS[other_rank]) if s != square]
            if others:
                found += [(square, chess.square(f, other_rank)) for f in range(chess.square_file(others[0]))
                          if not board.piece_at(chess.square(f, other_rank))]
    return found


@SETTINGS
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 90), physics=physics_values, setup=setups)
def test_SV_2_a_view_is_exactly_what_the_physics_allows(seed, plies, physics, setup):
    """Moving an enemy piece where the viewer cannot tell leaves their view unchanged; a move they can tell
    changes it. So the view is a function of SV-2's knowledge, and shows all of it."""
    state = None
    for *_, state in random_game(seed, plies, physics=physics, setup=setup):  # noqa: B007
        pass
    if state is None or state.start is None:
        return
    rng = random.Random(seed)
    for side in ("white", "black"):
        viewer = COLOR[side]
        board = state.board
        view = SV.view(state, side)
        unseen = hidden_moves(board, viewer, physics)
        for from_square, to_square in rng.sample(unseen, min(6, len(unseen))):
            child = relocated(state, from_square, to_square)
            assert allowed_knowledge(child.board, viewer, physics) == allowed_knowledge(board, viewer, physics)
            assert SV.view(child, side) == view, (chess.square_name(from_square), chess.square_name(to_square))
        enemies = list(chess.scan_forward(board.occupied_co[not viewer]))
        empty = list(chess.scan_forward(~board.occupied & chess.BB_ALL))
        for _ in range(6):
            from_square, to_square = rng.choice(enemies), rng.choice(empty)
            child = relocated(state, from_square, to_square)
            same = allowed_knowledge(child.board, viewer, physics) == allowed_knowledge(board, viewer, physics)
            assert (SV.view(child, side) == view) == same
