"""Properties over random Kriegspiel games (hypothesis): storage, what each message may say, and information
safety on the referee level (KS-1 .. KS-5).

Information safety: two games whose hidden positions differ, because one player (the opponent) played other
moves that told the watcher exactly the same, and in one game also sent tries (illegal moves) first. As long
as the watcher has been told the same in both, they must see the same, be told the same of their own orders,
and have the same counts in the status lines, whatever the hidden position.
"""

import copy
import json
import random

import chess
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.base import other
from app.rules.kriegspiel.random_orders import illegal_guesses, tries
from app.rules.scenario import ScenarioGame, play_lines
from tests.rules.kriegspiel_helpers import KS, random_game

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
setups = st.sampled_from(["standard", "chess960"])
OPPONENT_KINDS = {"opponent-moved", "captured", "check", "pawn-tries", "end", "draw-offered", "draw-declined"}
COLOR = {"white": chess.WHITE, "black": chess.BLACK}


# --------------------------------------------------------------------------- storage


@SETTINGS
@given(seed=st.integers(0, 2**32), setup=setups)
def test_ks1_json_round_trip_is_exact_and_a_reloaded_game_plays_on_identically(seed, setup):
    """Reloading before every order (as the server does) changes nothing: same outcomes, same end,
    repetition history included; the men on the board plus the tray are always the 32 of the start."""
    played = []
    state = None
    for side, order, outcome, state in random_game(seed, 160, setup=setup):
        played.append((side, order, outcome))
        assert chess.popcount(state.board.occupied) + len(state.tray) == 32
    replay = KS.new_game({"setup": setup}, random.Random(seed))
    for side, order, outcome in played:
        data = json.loads(json.dumps(KS.to_json(replay)))
        replay = KS.from_json(data)
        assert KS.to_json(replay) == data
        again = KS.play(replay, side, order)
        assert (again.result, again.to, again.order) == (outcome.result, outcome.to, outcome.order)
    assert KS.to_json(replay) == KS.to_json(state)
    assert KS.result(replay) == KS.result(state)


def test_ks4_random_orders_bring_about_every_result_and_several_endings():
    results, reasons = set(), set()
    for seed in range(16):
        events = list(random_game(seed, 400))
        results |= {outcome.result for _side, _order, outcome, _state in events}
        reasons.add(KS.result(events[-1][3])[1])
    assert {"moved", "rejected", "error", "offered", "declined"} <= results
    assert results & {"drawn", "resigned"}
    assert len(reasons - {None}) >= 2


# --------------------------------------------------------------------------- what each message may say (KS-2, KS-3)


def legal_pawn_captures(board: chess.Board) -> int:
    """Pawn tries counted another way: every legal move, kept when a pawn changes file, promotions once."""
    return sum(1 for move in board.legal_moves if board.piece_type_at(move.from_square) == chess.PAWN
               and chess.square_file(move.from_square) != chess.square_file(move.to_square)
               and move.promotion in (None, chess.QUEEN))


@SETTINGS
@given(seed=st.integers(0, 2**32), setup=setups)
def test_ks3_messages_tell_each_player_only_what_the_rules_allow(seed, setup):
    rng = random.Random(seed)
    state = KS.new_game({"setup": setup}, rng)
    for _ in range(150):
        side = KS.orderer(state)
        if side is None:
            break
        opponent = other(side)
        order = KS.random_order(state, side, rng)
        opponent_view = KS.view(state, opponent)
        outcome = KS.play(state, side, order)
        told = outcome.to
        for viewer in ("white", "black"):
            own = chess.BaseBoard(KS.position(state)["board"])
            for square in chess.scan_forward(own.occupied_co[not COLOR[viewer]]):
                own.remove_piece_at(square)
            assert KS.view(state, viewer)["own"] == own.board_fen()  # KS-1: own men, exactly, and only those
        if outcome.result in ("rejected", "error"):
            assert told[opponent] == [] and KS.view(state, opponent) == opponent_view
            if outcome.result == "rejected" and KS.is_order(order) and KS.order_kind(order) == "move" and \
                    "turn" not in told[side][0]["reason"]:
                assert told[side] == [{"kind": "rejected", "reason": "illegal"}]  # KS-2: no reason
            continue
        assert {message["kind"] for message in told[opponent]} <= OPPONENT_KINDS
        if outcome.result != "moved":
            continue
        assert told[side][0]["kind"] == "moved" and told[opponent][0] == {"kind": "opponent-moved", "color": side}
        assert told[side][1:] == told[opponent][1:]  # every announcement is told to both
        tries_told = [message for message in told[side] if message["kind"] == "pawn-tries"]
        if KS.result(state)[0] is None:
            assert tries_told == [{"kind": "pawn-tries", "color": opponent, "count": legal_pawn_captures(state.board)}]
        else:
            assert tries_told == []


# --------------------------------------------------------------------------- information safety


def clone(state):
    """A copy of a game that plays on apart (board and history copied, no replay)."""
    twin = copy.copy(state)
    twin.board = state.board.copy()
    twin.moves = list(state.moves)
    return twin


def known(state, watcher, outcome=None):
    """What the watcher is told of one event and sees after it, with the counts of their status lines."""
    return (outcome.result if outcome else None, outcome.to[watcher] if outcome else None,
            KS.view(state, watcher), KS.public(state))


def told_after(state, side, order, watcher):
    """What the watcher would be told (only told: not what they would see) if ``side`` played ``order``."""
    outcome = KS.play(clone(state), side, order)
    return outcome.result, outcome.to[watcher]


def twin_move(states, side, watcher, rng):
    """A legal move in each game, different where possible, that tell the watcher exactly the same (chosen by
    the messages alone: the views are what the test compares); None when the second game has no such move."""
    first = rng.choice(KS.legal_orders(states[0]))
    wanted = told_after(states[0], side, first, watcher)
    candidates = KS.legal_orders(states[1])
    rng.shuffle(candidates)
    matching = [order for order in candidates[:40] + ([first] if first in candidates else [])
                if told_after(states[1], side, order, watcher) == wanted]
    others = [order for order in matching if order != first]
    return (first, (others or matching)[0]) if matching else None


def play_worlds(seed: int, plies: int, setup: str) -> tuple[int, bool]:
    """Two games as described above; how many turns were compared, and whether the hidden positions ever
    differed while the watcher knew the same."""
    rng = random.Random(seed)
    start = KS.new_game({"setup": setup}, random.Random(seed))
    states = [start, clone(start)]
    watcher = rng.choice(["white", "black"])
    compared, differed = 0, False
    for _ in range(plies):
        side = KS.orderer(states[0])
        if side is None or KS.orderer(states[1]) != side or not KS.legal_orders(states[0]):
            break
        if side == watcher:  # the same reply in both, of several lines: tries
            assert KS.view(states[0], side) == KS.view(states[1], side)
            text = "\n".join(tries(states[rng.randrange(2)], side, rng, 4))  # any text will do: the same in both
            events = [[(outcome, KS.view(state, watcher)) for _by, _line, outcome in
                       play_lines(ScenarioGame(KS, state, rng), side, text)] for state in states]
            told = [[(outcome.result, outcome.to[watcher]) for outcome, _view in game] for game in events]
            if told[0] != told[1]:
                break  # a move legal in one game only: the watcher is now told something that differs
            if KS.result(states[0])[0] is not None:
                break  # the end shows the whole board
            assert [view for _o, view in events[0]] == [view for _o, view in events[1]]
        else:
            pair = twin_move(states, side, watcher, rng)
            if pair is None:
                break
            before = known(states[1], watcher)
            guesses = illegal_guesses(states[1], side)
            for guess in rng.sample(guesses, min(3, len(guesses))):  # tried in one game only
                outcome = KS.play(states[1], side, guess)
                assert outcome.result == "rejected" and known(states[1], watcher, outcome)[1] == []
                assert known(states[1], watcher) == before
            outcomes = [KS.play(state, side, order) for state, order in zip(states, pair, strict=True)]
            if KS.result(states[0])[0] is not None:
                break
            assert known(states[0], watcher, outcomes[0]) == known(states[1], watcher, outcomes[1])
        assert KS.view(states[0], watcher) == KS.view(states[1], watcher)
        assert KS.public(states[0]) == KS.public(states[1])
        assert KS.example_orders(KS.view(states[0], watcher), watcher) == \
            KS.example_orders(KS.view(states[1], watcher), watcher)
        differed |= KS.position(states[0]) != KS.position(states[1])
        compared += 1
    return compared, differed


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), setup=setups)
def test_ks3_ks5_what_a_player_knows_depends_only_on_what_they_were_told(seed, setup):
    compared, _differed = play_worlds(seed, 40, setup)
    assert compared >= 1


def test_ks3_the_information_safety_property_is_tested_on_hidden_positions_that_really_differ():
    assert sum(play_worlds(seed, 40, "standard")[1] for seed in range(6)) >= 3
