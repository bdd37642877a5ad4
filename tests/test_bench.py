"""The benchmarks run in the suite (quick mode): they must exercise what they claim to measure."""

import os
import platform
import re
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from app.rules.registry import VARIANTS, get_variant
from benchmarks.referee import targets_for
from benchmarks.variant_games import start_position
from tests.conftest import POSTGRES

ROOT = Path(__file__).parent.parent


def run_bench(*arguments):
    env = dict(os.environ, MIRRORPOST_SKIP_BOOTSTRAP="1", MIRRORPOST_BENCH_QUICK="1")
    completed = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "bench", *arguments],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=600, check=True,
    )
    return completed.stdout


STANDARD_PERFT = {1: 20, 2: 400, 3: 8902, 4: 197281, 5: 4865609}  # python-chess's count from the standard start


def test_bench_referee_measures_every_variant_per_order_and_per_perft_node_and_prints_ratios_and_the_interpreter():
    output = run_bench("referee")
    assert output.splitlines()[0].startswith(f"CPython {platform.python_version()} ({os.path.realpath(sys.executable)}")
    sections = re.split(r"^bench referee ", output, flags=re.MULTILINE)[1:]
    assert sorted(section.split(":", 1)[0] for section in sections) == sorted(VARIANTS)
    for section in sections:
        name = section.split(":", 1)[0]
        targets = targets_for(name)
        ply = re.search(r"time per order vs per python-chess ply .* ratio +(\d+\.\d+)x(.*)", section)
        perft = re.search(r"time per perft node vs per python-chess node .* ratio +(\d+\.\d+)x(.*)", section)
        for line, target in ((ply, targets.ply), (perft, targets.perft)):
            assert line, section
            if target is None:
                assert line.group(2).strip() == ""
            else:
                verdict = "met" if float(line.group(1)) <= target else "NOT met"
                assert line.group(2).strip() == f"(target <= {target:g}x: {verdict})"
        counted = re.search(r"perft (\d+) from the start: ([\d,]+) nodes, [\d,]+ nodes/s; "
                            r"python-chess perft (\d+): ([\d,]+) nodes, [\d,]+ nodes/s", section)
        assert counted and counted.group(1) == counted.group(3), section
        depth = int(counted.group(1))
        variant = get_variant(name)
        assert int(counted.group(2).replace(",", "")) == sum(variant.perft(start_position(variant), depth).values())
        assert int(counted.group(4).replace(",", "")) == STANDARD_PERFT[depth]
        assert re.search(r"peak memory .* ratio +\d+\.\d+x", section)
    looking_glass = sections[sorted(VARIANTS).index("looking-glass")]
    assert "python-chess plies per second (push + pseudo-legal moves)" in looking_glass
    outcomes = re.search(r"outcomes in a sample: (\{.*\})", looking_glass).group(1)
    for result in ("moved", "strike", "shortened"):
        assert f"'{result}'" in outcomes


def test_bench_referee_measures_only_the_variants_named_and_refuses_an_unknown_one():
    output = run_bench("referee", "looking-glass")
    assert re.findall(r"^bench referee (\S+):", output, flags=re.MULTILINE) == ["looking-glass"]
    completed = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "bench", "referee", "chess"],
        capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, MIRRORPOST_SKIP_BOOTSTRAP="1"),
    )
    assert completed.returncode != 0
    assert "unknown variant 'chess'" in completed.stderr
    assert "bench referee" not in completed.stdout


def test_bench_rejects_an_unknown_suite():
    completed = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "bench", "nonsense"],
        capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, MIRRORPOST_SKIP_BOOTSTRAP="1"),
    )
    assert completed.returncode != 0
    assert "unknown benchmark" in completed.stderr


def test_bench_pipeline_runs_end_to_end_and_prints_ratios():
    output = run_bench("pipeline")
    assert re.search(r"SQLite: \d+ moves", output)
    assert re.search(r"SQLite time per move vs floor .* ratio +\d+\.\d+x", output)
    moves = int(re.search(r"SQLite: (\d+) moves", output).group(1))
    assert re.search(r"CPU of the worker process: [\d.]+ ms per move", output)
    sent = int(re.search(r"then sending the (\d+) mails", output).group(1))
    assert sent >= 2 * moves  # every move queued a request and a receipt, and all of them went out
    checked = re.search(r"sender checks \(SQLite\): (\d+) signed replies", output)  # each proven, or it fails
    assert checked and int(checked.group(1)) > 0, output
    ratio = re.search(r"time per move, checked vs not checked .* ratio +(\d+\.\d+)x  \(target <= 1.2x: (met|NOT met)\)",
                      output)
    assert ratio and (ratio.group(2) == ("met" if float(ratio.group(1)) <= 1.2 else "NOT met")
                      or ratio.group(1) == "1.20")  # printed rounded: either side of the target
    assert re.search(r"CPU per move, checked vs not checked .* ratio +\d+\.\d+x", output)
    shares = re.search(r"where a check's time goes, .*: the check ([\d.]+) ms a reply; dkimpy's verification, called "
                       r"directly, ([\d.]+) ms \(\d+%\): reading the message ([\d.]+) ms, the relaxed canonicalization "
                       r"of its body ([\d.]+) ms, .* ours around it ([\d.]+) ms", output)
    assert shares and all(float(figure) > 0 for figure in shares.groups()[:4]), output
    assert "PostgreSQL" in output
    if POSTGRES:  # several workers at once, each on its own games, on the database that coordinates them
        assert re.search(r"PostgreSQL time per move vs floor .* ratio +\d+\.\d+x", output)
        together = re.search(r"(\d+) worker processes at once, \d+ games each: ([\d.]+) moves/s together", output)
        assert together and int(together.group(1)) >= 2 and float(together.group(2)) > 0
        per_core = float(re.search(r"together, ([\d.]+) per core", output).group(1))
        verdict = re.search(r"per core \(the database server shares these cores; target 200 moves/s per core: "
                            r"(met|NOT met)\)", output).group(1)
        assert verdict == ("met" if per_core >= 200 else "NOT met")
        assert re.search(r"sender checks \(PostgreSQL\): \d+ signed replies", output)  # on the production database
        if make_url(POSTGRES).host in ("127.0.0.1", "localhost"):  # its processes' CPU is read from /proc
            server = re.search(r"database server on this machine .*: ([\d.]+) ms per move; .* (\d+) moves per", output)
            assert server and float(server.group(1)) > 0 and int(server.group(2)) > 0


def test_bench_pipeline_takes_a_variant_name_and_plays_its_games_by_mail():
    output = run_bench("pipeline", "quasi-alice-4d")
    moves = re.search(r"SQLite: (\d+) moves in \d+ games of quasi-alice-4d", output)
    assert moves and int(moves.group(1)) > 0, output
    assert re.search(r"SQLite time per move vs floor .* ratio +\d+\.\d+x", output)
    assert "games of looking-glass" not in output


def test_bench_web_renders_growing_histories_and_fits_a_line():
    output = run_bench("web", "looking-glass", "side-view")
    assert re.findall(r"^bench web: the history page of one player of (\S+),", output, flags=re.MULTILINE) == [
        "looking-glass", "side-view"]
    assert re.search(r"history page, 50 events .* ratio +\d+\.\d+x", output)
    assert re.search(r"linear fit: -?[\d.]+ ms fixed .* per event", output)  # noise can tip the intercept below 0


SCALE_MEASURES = ("worker round, nothing due", r"clock round, \d+ games due", r"digest round, \d+ players due",
                  "one inbound move",
                  r"games page, player with \d+ games", "history page", r"outbox claim, \d+ pending")


def test_bench_scale_fills_two_sizes_and_prints_every_measure_with_its_ratio():
    if POSTGRES is None:
        pytest.skip("no PostgreSQL server answers (set TEST_POSTGRES_URL)")
    env = dict(os.environ, MIRRORPOST_SKIP_BOOTSTRAP="1", MIRRORPOST_BENCH_QUICK="1")
    output = subprocess.run([sys.executable, str(ROOT / "manage.py"), "bench", "scale", "--games", "100",
                             "--games", "300"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=600,
                            check=True).stdout
    assert "filled to 100 games" in output and "filled to 300 games" in output
    for measure in SCALE_MEASURES:
        found = re.search(rf"{measure} +([\d.]+) ms +([\d.]+) ms +([\d.]+)x \(target <= 1.5x: (met|NOT met)\)", output)
        assert found, (measure, output)
        small, large, ratio, verdict = float(found[1]), float(found[2]), float(found[3]), found[4]
        assert small > 0 and abs(ratio - large / small) < 0.01 + 0.01 * ratio
        if abs(ratio - 1.5) > 0.005:  # printed as 1.50x, the ratio itself may be either side of the target
            assert verdict == ("met" if ratio <= 1.5 else "NOT met")
    assert re.search(r"storage per game \(KB\) +[\d.]+ +[\d.]+ +[\d.]+x", output)
    counts = re.search(r"statements in a worker round with nothing due: (\d+) at 100 games, (\d+) at 300 games", output)
    assert counts and counts[1] == counts[2]
    assert re.search(r"worker round with nothing due at 300 games: [\d.]+ ms \(target under 50 ms: (met|NOT met)\)",
                     output)
    for size in (100, 300):  # what the digest round's query read, from its plan as run
        reads = re.search(rf"digest round's query at {size} games: .* on players: (\d+) rows read, (\d+) kept "
                          r"\(of (\d+) players, (\d+) on the digest\)", output)
        assert reads and int(reads[2]) == 5 and int(reads[1]) <= int(reads[3]), output


def test_bench_digest_measures_a_digest_of_many_games_against_one_move_request():
    output = run_bench("digest")
    found = re.search(r"digest of (\d+) games vs one move request +([\d.]+) ms +baseline +([\d.]+) +ratio +([\d.]+)x"
                      r"  \(target <= 10x: (met|NOT met)\)", output)
    assert found, output
    ratio = float(found[4])
    assert abs(ratio - float(found[2]) / float(found[3])) < 0.01 + 0.01 * ratio
    assert found[5] == ("met" if ratio <= 10 else "NOT met")
    shown = re.search(r"the digest shows (\d+) of the (\d+) games with their position \((\d+) drawn as tables, "
                      r"(\d+) in fixed-width type; (\d+) KB", output)
    assert shown and 0 < int(shown[1]) <= int(shown[2]) == int(found[1]) and int(shown[5]) < 100
    assert int(shown[3]) + int(shown[4]) == int(shown[1])
    assert re.search(r"rendering alone \(not queued\) +[\d.]+ ms +baseline +[\d.]+ +ratio +[\d.]+x", output)


def test_bench_games_is_for_the_scale_benchmark_alone():
    completed = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "bench", "referee", "--games", "100"],
        capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, MIRRORPOST_SKIP_BOOTSTRAP="1"),
    )
    assert completed.returncode != 0 and "--games is for the scale benchmark" in completed.stderr


def test_bench_tournament_pairs_every_round_of_a_128_player_swiss_and_prints_the_slowest_against_its_target():
    output = run_bench("tournament")
    assert "bench tournament: pairing a round of a 128-player Swiss" in output
    assert re.findall(r"^  round (\d) of 8: +\d+\.\d ms$", output, flags=re.MULTILINE) == [str(n) for n in range(1, 9)]
    assert re.search(r"round 5, 128 players vs 16 players +\d+\.\d+ ms +baseline +\d+\.\d+ +ratio +\d+\.\d+x", output)
    assert re.search(r"slowest round of the 128: \d+\.\d ms \(target < 1000 ms: (met|NOT met)\)", output)
