"""What an operator meets: the commands say what they did and what to do next, and the log says what became of
each message, in plain words."""

import logging
import time

from app.inbound import listener  # noqa: F401 (installs the end-of-session filter on aiosmtpd's logger)
from app.inbound.clients import fresh
from tests.server.harness import ALICE, Table
from tests.server.mailhost import wait_until
from tests.server.smtp_game import REFEREE
from tests.server.test_cli import manage


def test_new_game_says_its_invitations_are_queued_until_serve_or_worker_runs(tmp_path, empty_database_url):
    assert manage(tmp_path, empty_database_url, "init-db").returncode == 0
    done = manage(tmp_path, empty_database_url, "new-game", "--variant", "side-view", "--white", ALICE,
                  "--black", "bob@players.test", "--option", "physics=2")
    assert done.returncode == 0 and done.stdout.decode().strip().isdigit()  # stdout: the id alone
    assert b"queued" in done.stderr and b"manage.py serve" in done.stderr and b"manage.py worker" in done.stderr


def test_help_lists_the_test_command_and_every_benchmark(tmp_path):
    listing = manage(tmp_path, "sqlite://", "--help").stdout.decode()
    assert "test " in listing and "`ruff check` and the whole test suite" in listing
    bench = " ".join(manage(tmp_path, "sqlite://", "bench", "--help").stdout.decode().split())
    assert all(name in bench for name in ("referee [VARIANT ...]", "pipeline", "web"))


def test_the_log_says_each_message_stored_and_what_became_of_it(server, caplog):
    table = Table(server)
    game_id = table.start()
    with caplog.at_level(logging.INFO, logger="app.inbound"):
        table.reply(ALICE, "R e2-e4", kind="request")
    lines = [record.getMessage() for record in caplog.records]
    assert any("stored, from test" in line for line in lines)
    assert any(f"game {game_id}, white ({ALICE}): R e2-e4: moved" in line for line in lines), lines
    assert any(line.endswith("done: R e2-e4: moved") and line.startswith("inbound message ") for line in lines)


def test_a_client_closing_its_connection_is_not_logged_as_an_error(caplog):
    with caplog.at_level(logging.INFO):
        logging.getLogger("mail.log").info("%r Connection lost during _handle_client()", ("127.0.0.1", 4242))
    assert not [record for record in caplog.records if "Connection lost" in record.getMessage()]
    with caplog.at_level(logging.DEBUG):
        logging.getLogger("mail.log").info("%r Connection lost during _handle_client()", ("127.0.0.1", 4242))
    assert [record.levelname for record in caplog.records if "closed the connection" in record.getMessage()] == \
        ["DEBUG"]


def session_ended(record: logging.LogRecord) -> bool:
    """aiosmtpd's line at the end of a session: "EOF received", or (as the listener words "Connection lost")
    "closed the connection", whichever way the client happened to leave."""
    return any(words in record.getMessage() for words in ("EOF received", "closed the connection",
                                                           "connection lost"))


def smtp_session_lines(game, level: int, caplog) -> list[logging.LogRecord]:
    """What aiosmtpd logged at ``level`` and above while a message came in over SMTP and its session ended."""
    with caplog.at_level(level):
        game.send(ALICE, fresh(ALICE, REFEREE, "help"), REFEREE)
        if level == logging.DEBUG:
            wait_until(lambda: any(session_ended(record) for record in caplog.records),
                       what="the end of the session to be logged")
        else:
            time.sleep(0.3)  # the listener's thread logs the end of the session after the client has gone
    return [record for record in caplog.records if record.name == "mail.log"]


def test_a_normal_smtp_session_logs_nothing_at_info(game, caplog):
    """"EOF received", "connection lost", the peer and each command: routine, at DEBUG only."""
    assert [record.getMessage() for record in smtp_session_lines(game, logging.INFO, caplog)] == []


def test_the_end_of_a_session_is_logged_at_debug(game, caplog):
    lines = smtp_session_lines(game, logging.DEBUG, caplog)
    ends = [record for record in lines if session_ended(record)]
    assert ends and {record.levelname for record in lines} == {"DEBUG"}
