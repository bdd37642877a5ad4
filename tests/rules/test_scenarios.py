"""Scenario files played through ``referee play`` and counted by ``referee perft`` (the public interface), its author's
examples among them."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.rules.registry import discover
from app.rules.scenario import run_perft, run_scenario

SCENARIOS = Path(__file__).parent.parent / "scenarios"
ROOT = Path(__file__).parent.parent.parent


def load(name):
    return json.loads((SCENARIOS / name).read_text())


def test_lg_5a_seed_strike_example_move_by_move():
    """The author's "Strike example": a pawn ordered into a knight it cannot see."""
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


# --------------------------------------------------------------------------- referee perft


def referee(*arguments):
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "referee", *map(str, arguments)],
        capture_output=True, text=True, cwd=ROOT,
        env={"MIRRORPOST_SKIP_BOOTSTRAP": "1", "PATH": "/usr/bin:/bin"},
    )


def test_run_perft_counts_from_the_position_the_scenarios_orders_reach():
    """The same setup and orders as ``referee play``: after 1. R:e2-e4 M:d7-d5 White has 30 moves
    (tests/rules/test_perft.py works them out), and each is followed by Black's replies at depth 2."""
    scenario = {"variant": "looking-glass", "orders": [["white", "R e2-e4"], ["black", "M d7-d5"]]}
    one = run_perft(scenario, 1)
    assert (one["depth"], one["nodes"], len(one["divide"])) == (1, 30, 30)
    assert set(one["divide"].values()) == {1} and "M:e4-e5" in one["divide"]
    two = run_perft(scenario, 2)
    assert two["nodes"] == sum(two["divide"].values()) > 30 * 19
    assert set(two["divide"]) == set(one["divide"])
    assert run_perft({"variant": "looking-glass"}, 2)["nodes"] == 400  # no orders: the standard setup


def test_run_perft_uses_the_scenarios_setup_and_options():
    """White's back rank NRBBQNKR (king g1, rooks b1 and h1): after 1. R:f1-e3 (the knight passes to M:e3)
    a5, White may castle O-O, the king staying on g1 (LG-7); a finished game has no moves at all."""
    scenario = {
        "variant": "looking-glass", "setup": {"white": "NRBBQNKR"},
        "orders": [["white", "R f1-e3"], ["black", "M a7-a5"]],
    }
    assert "O-O" in run_perft(scenario, 1)["divide"]
    scenario["orders"].append(["white", "resign"])
    assert run_perft(scenario, 3) == {"depth": 3, "nodes": 0, "divide": {}}
    with pytest.raises(ValueError, match="depth must be 1 or more"):
        run_perft(scenario, 0)


def test_referee_perft_command_prints_depth_nodes_and_divide(tmp_path):
    scenario = tmp_path / "game.json"
    scenario.write_text(json.dumps({
        "variant": "looking-glass",
        "setup": {"white": "518", "black": "518"},
        "orders": [["white", "R e2-e4"], ["black", "M d7-d5"]],
    }))
    completed = referee("perft", scenario, 2)
    assert completed.returncode == 0, completed.stderr
    output = json.loads(completed.stdout)
    assert set(output) == {"depth", "nodes", "divide"}
    assert output["depth"] == 2 and output["nodes"] == sum(output["divide"].values())
    assert output == run_perft(json.loads(scenario.read_text()), 2)


def test_referee_perft_refuses_a_depth_below_one_a_bad_scenario_and_an_unknown_variant(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"variant": "looking-glass"}))
    completed = referee("perft", good, 0)
    assert completed.returncode != 0 and "DEPTH" in completed.stderr and "1" in completed.stderr
    unknown = tmp_path / "unknown.json"
    unknown.write_text(json.dumps({"variant": "chess"}))
    completed = referee("perft", unknown, 1)
    assert completed.returncode != 0
    assert f"unknown variant 'chess'; known variants: {', '.join(sorted(discover()))}\n" in completed.stderr
    assert "Traceback" not in completed.stderr
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"variant": "looking-glass", "setup": {"white": "RRBQKBNR"}}))
    completed = referee("perft", bad, 1)
    assert completed.returncode != 0 and "white setup" in completed.stderr
    broken = tmp_path / "broken.json"
    broken.write_text('{"variant": ')
    completed = referee("perft", broken, 1)
    assert completed.returncode != 0 and "broken.json is not JSON" in completed.stderr
