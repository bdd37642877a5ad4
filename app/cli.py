"""The ``manage.py`` commands of CONTRACT.md."""

from __future__ import annotations

import json
import sys

import click

from app.rules.scenario import run_scenario


@click.group(help="Mirrorpost: a play-by-email referee for hidden-information chess variants.")
def cli() -> None:
    pass


@cli.group(help="Run the referee alone, without database or mail.")
def referee() -> None:
    pass


@referee.command("play", help="Play SCENARIO.json through the referee and print the result as JSON.")
@click.argument("scenario", type=click.File("r"))
def referee_play(scenario: click.utils.LazyFile) -> None:
    try:
        data = json.load(scenario)
        output = run_scenario(data)
    except (ValueError, KeyError) as error:
        raise click.ClickException(str(error)) from error
    json.dump(output, sys.stdout, indent=2)
    sys.stdout.write("\n")


@cli.command(help="Benchmarks: 'referee' (or all when none is named).")
@click.argument("suites", nargs=-1)
def bench(suites: tuple[str, ...]) -> None:
    from benchmarks import run

    run(list(suites))
