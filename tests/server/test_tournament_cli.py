"""``manage.py tournament create`` through click's runner: ``--option K=V`` repeatable as ``new-game`` takes it
(``days=5`` among them), ``--format`` one of two, and every mistake answered naming the bad option and the
ones the game takes."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from app.cli import cli
from app.club.models import Tournament


def create(tmp_path, database_url, *args: str):
    env = {"MIRRORPOST_SKIP_BOOTSTRAP": "1", "MIRRORPOST_INSTANCE": str(tmp_path / "instance"),
           "DATABASE_URL": database_url, "SECRET_KEY": "test-secret-key", "SERVER_EMAIL": "referee@mirrorpost.test",
           "BASE_URL": "http://mirrorpost.test", "INBOUND_SMTP_PORT": "0"}
    return CliRunner().invoke(cli, ["tournament", "create", *args], env=env)


def tournaments(server) -> list[Tournament]:
    with server.db.sessions() as session:
        return list(session.scalars(select(Tournament)))


def test_options_are_given_one_by_one_days_among_them(tmp_path, database_url, server):
    done = create(tmp_path, database_url, "Side View", "--option", "days=5", "--option", "physics=2",
                  "--format", "Swiss", "--players", "6")
    assert done.exit_code == 0, done.output
    made, = tournaments(server)
    assert done.stdout.strip() == str(made.id)
    assert (made.variant, made.days, made.options["physics"], made.format) == ("side-view", 5, 2, "swiss")


@pytest.mark.parametrize(("args", "said"), [
    (["--option", "frobs=2"], "Invalid value for --option: Side View Chess has no option frobs; its options: "
                              "days=N, physics=1|2|3, setup=standard|chess960|hidden"),
    (["--option", "physics=9"], "Invalid value for --option: physics must be 1, 2 or 3, not '9'; its options: "
                                "days=N, physics=1|2|3, setup=standard|chess960|hidden"),
    (["--option", "physics"], "Invalid value for --option: write each option as key=value, e.g. days=3"),
    (["--option", "days=99"], "Invalid value for --option: days must be a whole number of days from 1 to 30"),
    (["--days", "4", "--option", "days=5"], "Invalid value for --option: days is given twice, by --days and "
                                            "--option days="),
    (["--format", "knockout"], "Invalid value for '--format': 'knockout' is not one of 'round-robin', 'swiss'."),
])
def test_a_bad_option_is_named_with_the_ones_the_game_takes_and_nothing_is_made(tmp_path, database_url, server,
                                                                                args, said):
    done = create(tmp_path, database_url, "side-view", *args)
    assert done.exit_code == 2 and said in " ".join(done.output.split()), done.output
    assert tournaments(server) == []


def test_a_game_with_no_options_says_so(tmp_path, database_url, server):
    done = create(tmp_path, database_url, "quasi-alice-4d", "--option", "setup=chess960")
    assert done.exit_code == 2 and "4D Quasi-Alice Chess has no option setup; its options: days=N" in " ".join(
        done.output.split()), done.output
