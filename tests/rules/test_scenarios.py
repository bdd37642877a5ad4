"""Scenario files played through ``referee play`` (CONTRACT.md), the seed's examples among them."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.rules.scenario import run_scenario

SCENARIOS = Path(__file__).parent.parent / "scenarios"
ROOT = Path(__file__).parent.parent.parent


def load(name):
    return json.loads((SCENARIOS / name).read_text())


def test_lg_5a_seed_strike_example_move_by_move():
    """The seed page's "Strike example": a pawn ordered into a knight it cannot see."""
    output = run_scenario(load("seed_strike_example.json"))
    events = output["events"]
    assert [event["result"] for event in events] == ["moved"] * 8 + ["strike"]
    # The black knight reaches Real f4 by way of both worlds ...
    assert events[5]["to"]["black"][0]["final"] == "R:f4"
    # ... White pushes d2-d4 at home; the pawn falls into Mirror d4 ...
    assert events[6]["to"]["white"][0]["final"] == "M:d4"
    # ... Black asks White to move the knight f4-d5 in the Real world: White executes it
    # and sees it all, and the knight falls through into Mirror d5, in front of the pawn.
    knight_move = events[7]["to"]["white"][0]
    assert (knight_move["from"], knight_move["to"], knight_move["final"]) == ("f4", "d5", "M:d5")
    assert events[7]["to"]["white"][0] == events[7]["to"]["black"][0]
    # White orders the pawn d4-d5 in the Mirror world: impossible, a strike.
    assert events[8]["to"]["white"] == [{"kind": "strike", "color": "white", "count": 1}]
    assert events[8]["to"]["black"][0]["order"] == "M:d4-d5"
    assert output["strikes"] == {"white": 1, "black": 0}
    assert output["to_move"] == "white"  # White orders again in the same turn
    assert output["position"]["M"].startswith("rnbqkb1r/pppppppp/8/3n4/3P4/PP5P/")
    # White wrote the knight down when it came through to d5. The entry on h5 from
    # move 2 stays: no message showed h5 empty, and LG-10 does not reason beyond reports.
    assert events[8]["views"]["white"]["notebook"] == "8/8/8/3n3n/3P4/PP5P/8/8"
    assert events[8]["views"]["white"]["marks"] == {"d5": 4, "h5": 2}


def test_referee_play_command_prints_the_contract_output(tmp_path):
    scenario = tmp_path / "game.json"
    scenario.write_text(json.dumps({
        "variant": "looking-glass",
        "options": {"strikes": 3},
        "setup": {"white": "RNBQKBNR", "black": "518"},
        "orders": [["white", "R e2-e4"], ["black", "M d7-d5"], ["white", "ask"]],
    }))
    completed = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "referee", "play", str(scenario)],
        capture_output=True, text=True, check=True, cwd=ROOT,
        env={"MIRRORPOST_SKIP_BOOTSTRAP": "1", "PATH": "/usr/bin:/bin"},
    )
    output = json.loads(completed.stdout)
    assert set(output) == {"events", "position", "strikes", "to_move", "result", "reason"}
    assert [event["result"] for event in output["events"]] == ["moved", "moved", "answered"]
    first = output["events"][0]
    assert (first["n"], first["by"], first["order"]) == (1, "white", "R e2-e4")
    assert first["to"]["black"][0]["kind"] == "landed"
    assert set(first["views"]["white"]) == {"home", "notebook", "unknown", "marks", "tray"}
    assert output["position"] == {"R": "8/8/8/3p4/8/8/PPPP1PPP/RNBQKBNR", "M": "rnbqkbnr/ppp1pppp/8/8/4P3/8/8/8"}
    assert output["to_move"] == "white" and output["result"] is None


def test_referee_play_reports_a_bad_scenario_clearly(tmp_path):
    scenario = tmp_path / "bad.json"
    scenario.write_text(json.dumps({"variant": "looking-glass", "setup": {"white": "RRBQKBNN"}, "orders": []}))
    completed = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "referee", "play", str(scenario)],
        capture_output=True, text=True, cwd=ROOT,
        env={"MIRRORPOST_SKIP_BOOTSTRAP": "1", "PATH": "/usr/bin:/bin"},
    )
    assert completed.returncode != 0
    assert "bishops" in completed.stderr or "king" in completed.stderr


def test_a_scenario_that_is_not_an_object_naming_its_variant_or_an_order_not_a_pair_is_refused_with_the_form():
    for bad in ([], {"orders": []}):
        with pytest.raises(ValueError, match="naming its variant"):
            run_scenario(bad)
    with pytest.raises(ValueError, match=r"order 2: each order is \[side, text\]"):
        run_scenario({"variant": "looking-glass", "orders": [["white", "R e2-e4"], ["black"]]})
