"""Tries by mail (KS-5) through the scenario runner: several move lines in one reply, played in order
until one is legal, one event per line tried; the opponent learns nothing of them."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.rules.scenario import run_scenario

SCENARIOS = Path(__file__).parent.parent / "scenarios"
ROOT = Path(__file__).parent.parent.parent
ILLEGAL = {"kind": "rejected", "reason": "illegal"}


def scenario(*orders, variant="kriegspiel"):
    return {"variant": variant, "orders": [list(order) for order in orders]}


def test_ks5_tries_are_played_in_order_until_one_is_legal_and_the_lines_after_it_give_no_event():
    output = run_scenario(json.loads((SCENARIOS / "kriegspiel_tries.json").read_text()))
    events = output["events"]
    assert [(event["by"], event["order"], event["result"]) for event in events] == [
        ("white", "e2-e4", "moved"),
        ("black", "d7-d5", "moved"),
        ("white", "e4-e6", "rejected"),
        ("white", "c1-e3", "rejected"),
        ("white", "e4xd5", "moved"),  # g1-f3, the line after it, gives no event
        ("black", "d7-d5", "rejected"),
        ("black", "e8-e7", "rejected"),
        ("black", "f8-a3", "rejected"),  # none legal: still Black's move
        ("black", "a7-a6\na7-a5\nb7-b6\nb7-b5\nc7-c6\nc7-c5\ne7-e6\ne7-e5\ng7-g6", "error"),
        ("black", "d8-d5\nresign", "error"),
        ("black", "d8xd5", "moved"),
    ]
    for event in events[2:4] + events[5:8]:
        assert event["to"] == {event["by"]: [ILLEGAL], "black" if event["by"] == "white" else "white": []}
    assert events[4]["to"]["white"][0]["kind"] == "moved" and events[4]["to"]["black"][0]["kind"] == "opponent-moved"
    assert "at most 8" in events[8]["to"]["black"][0]["reason"] and events[8]["to"]["white"] == []
    assert "moves only" in events[9]["to"]["black"][0]["reason"]
    assert output["to_move"] == "white" and output["result"] is None
    assert output["position"] == {"board": "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR"}


def test_ks5_the_opponent_sees_and_hears_the_same_whatever_was_tried_before_the_move():
    plain = run_scenario(scenario(("white", "e2-e4"), ("black", "e7-e5")))
    tried = run_scenario(scenario(("white", "e2-e5\nd1-h5\nf1-b5\ne2-e4"), ("black", "e7-e5")))
    assert [event["result"] for event in tried["events"]] == ["rejected", "rejected", "rejected", "moved", "moved"]
    assert [event["to"]["black"] for event in tried["events"][:3]] == [[], [], []]
    start = {"own": "rnbqkbnr/pppppppp/8/8/8/8/8/8", "lost": "", "taken": {"pawns": 0, "pieces": 0}}
    assert [event["views"]["black"] for event in tried["events"][:3]] == [start] * 3
    for mine, theirs in zip(plain["events"], tried["events"][3:], strict=True):
        assert mine["to"]["black"] == theirs["to"]["black"] and mine["views"]["black"] == theirs["views"]["black"]
    assert plain["position"] == tried["position"]


def test_ks5_eight_lines_are_allowed_and_an_unreadable_line_among_them_plays_none():
    eight = "\n".join(["e2-e5"] * 7 + ["e2-e4"])
    output = run_scenario(scenario(("white", eight)))
    assert [event["result"] for event in output["events"]] == ["rejected"] * 7 + ["moved"]
    output = run_scenario(scenario(("white", "e2-e5\nNf3\ne2-e4")))
    assert [event["result"] for event in output["events"]] == ["error"]
    assert output["to_move"] == "white" and output["position"]["board"].endswith("PPPPPPPP/RNBQKBNR")


def test_ks5_blank_lines_between_tries_are_left_out():
    output = run_scenario(scenario(("white", "\n  e2-e5  \n\ne2-e4\n")))
    assert [(event["order"], event["result"]) for event in output["events"]] == [("e2-e5", "rejected"),
                                                                                 ("e2-e4", "moved")]


@pytest.mark.parametrize("variant", ["side-view", "palindromic"])
def test_ks5_other_variants_read_an_order_of_several_lines_as_before_one_event(variant):
    output = run_scenario(scenario(("white", "e2-e5\ne2-e4"), variant=variant))
    assert [event["result"] for event in output["events"]] == ["error"]


def test_ks5_referee_play_prints_the_tries_from_the_command_line():
    completed = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "referee", "play", str(SCENARIOS / "kriegspiel_tries.json")],
        capture_output=True, text=True, check=True, cwd=ROOT,
        env={"MIRRORPOST_SKIP_BOOTSTRAP": "1", "PATH": "/usr/bin:/bin"},
    )
    output = json.loads(completed.stdout)
    assert [event["result"] for event in output["events"]].count("rejected") == 5
