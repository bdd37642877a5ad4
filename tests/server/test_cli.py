"""The command line (docs/commands.md): init-db, new-game, ingest, worker, demo, tournament."""

import os
import signal
import subprocess
import sys
from pathlib import Path

from sqlalchemy import text

from app.inbound.pipeline import Pipeline
from app.inbound.receive import store
from tests.server.harness import ALICE, BOB, Table
from tests.server.mailhost import free_port, wait_until

ROOT = Path(__file__).parent.parent.parent


def manage(tmp_path, database_url, *args, stdin=None):
    env = dict(os.environ, MIRRORPOST_SKIP_BOOTSTRAP="1", MIRRORPOST_INSTANCE=str(tmp_path / "instance"),
               DATABASE_URL=database_url, SECRET_KEY="test-secret-key", SERVER_EMAIL="referee@mirrorpost.test",
               BASE_URL="http://mirrorpost.test", INBOUND_SMTP_PORT="0")
    return subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], input=stdin, capture_output=True,
                          cwd=ROOT, env=env, timeout=120)


def test_new_game_prints_the_id_and_ingest_reads_a_reply(tmp_path, database_url, server):
    done = manage(tmp_path, database_url, "init-db")
    assert done.returncode == 0, done.stderr
    done = manage(tmp_path, database_url, "new-game", "--variant", "looking-glass", "--white", ALICE,
                  "--black", "bob@players.test", "--option", "days=4")
    assert done.returncode == 0, done.stderr
    game_id = int(done.stdout.strip())
    table = Table(server)
    assert table.game(game_id).days == 4
    raw = table.reply_bytes(ALICE, "accept", "gmail", kind="invitation")
    done = manage(tmp_path, database_url, "ingest", stdin=raw)
    assert done.returncode == 0, done.stderr
    assert b"accepted" in done.stdout
    assert table.game(game_id).white_accepted
    again = manage(tmp_path, database_url, "ingest", stdin=raw)
    assert again.returncode == 0 and b"already stored" in again.stdout


def test_ingest_answers_bad_input_and_still_exits_zero(tmp_path, database_url, server):
    raw = (b"From: someone@players.test\r\nTo: referee@mirrorpost.test\r\n"
           b"Subject: hi\r\nMessage-ID: <x1@p>\r\n\r\nwhat is this\r\n")
    done = manage(tmp_path, database_url, "ingest", stdin=raw)
    assert done.returncode == 0, done.stderr
    assert "not understood" in Table(server).last("someone@players.test").subject


def test_new_game_with_a_bad_option_fails_clearly(tmp_path, database_url):
    done = manage(tmp_path, database_url, "new-game", "--variant", "looking-glass", "--white", ALICE,
                  "--black", "bob@players.test", "--option", "impossible=maybe")
    assert done.returncode != 0 and b"impossible must be one of" in done.stderr


def test_ingest_exits_75_when_the_message_cannot_be_stored_so_the_mail_system_retries(tmp_path, database_url, server):
    table = Table(server)
    game_id = table.new_game()
    raw = table.reply_bytes(ALICE, "accept", "apple", kind="invitation")
    with server.db.engine.begin() as connection:
        connection.execute(text("ALTER TABLE inbound_messages RENAME TO inbound_messages_away"))
    done = manage(tmp_path, database_url, "ingest", stdin=raw)
    assert done.returncode == 75 and b"not stored, try again later" in done.stderr
    with server.db.engine.begin() as connection:
        connection.execute(text("ALTER TABLE inbound_messages_away RENAME TO inbound_messages"))
    assert manage(tmp_path, database_url, "ingest", stdin=raw).returncode == 0
    assert table.game(game_id).white_accepted


def test_ingest_refuses_a_message_larger_than_any_door_takes_so_the_mail_system_bounces_it(tmp_path, database_url,
                                                                                           server):
    raw = (b"From: someone@players.test\r\nTo: referee@mirrorpost.test\r\nSubject: photos\r\n\r\n"
           + b"x" * (25 * 1024 * 1024))
    done = manage(tmp_path, database_url, "ingest", stdin=raw)
    assert done.returncode == 65, done.stderr
    assert b"larger than 25 MiB" in done.stderr
    assert Table(server).inbound() == []


def test_worker_stops_cleanly_on_sigterm(tmp_path, database_url, server):
    """systemd stops a worker with SIGTERM: it finishes the round under way and exits 0."""
    log = tmp_path / "worker.log"
    env = dict(os.environ, MIRRORPOST_SKIP_BOOTSTRAP="1", MIRRORPOST_INSTANCE=str(tmp_path / "instance"),
               DATABASE_URL=database_url, SECRET_KEY="test-secret-key", SERVER_EMAIL="referee@mirrorpost.test",
               INBOUND_SMTP_PORT="0")
    with log.open("wb") as output:
        process = subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "worker"], cwd=ROOT, env=env,
                                   stdout=output, stderr=subprocess.STDOUT)
    try:
        wait_until(lambda: b"worker running" in log.read_bytes(), timeout=30, what="the worker to start")
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0, log.read_text()
        assert log.read_text().rstrip().endswith("worker stopped")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)


def test_an_operator_lists_shows_and_retries_a_failed_inbound_message(tmp_path, database_url, server, monkeypatch):
    """A message whose processing failed is kept, listed, shown byte for byte, and applied once retried."""
    table = Table(server)
    game_id = table.new_game()
    raw = table.reply_bytes(ALICE, "accept", "outlook", kind="invitation")

    def broken(self, row, authentication):
        raise RuntimeError("a bug, since mended")

    monkeypatch.setattr(Pipeline, "run", broken)
    assert table.deliver(raw) is None
    monkeypatch.undo()
    failed = table.inbound()[-1]
    assert failed.status == "failed" and not table.game(game_id).white_accepted

    listed = manage(tmp_path, database_url, "inbound", "list", "--status", "failed")
    assert listed.returncode == 0, listed.stderr
    assert [line.split()[0] for line in listed.stdout.decode().splitlines()] == [str(failed.id)]
    assert ALICE in listed.stdout.decode() and "kept for an operator" in listed.stdout.decode()
    shown = manage(tmp_path, database_url, "inbound", "show", str(failed.id))
    assert shown.returncode == 0 and shown.stdout == raw
    table.write(BOB, "help")  # unsigned: not proven
    listed = manage(tmp_path, database_url, "inbound", "list", "--limit", "1").stdout.decode()
    assert listed.split()[4:6] == ["unproven", BOB], listed
    shown = manage(tmp_path, database_url, "inbound", "show", str(failed.id + 1))
    assert b"Authentication-Results: mirrorpost.test; dmarc=none header.from=players.test" in shown.stderr

    retried = manage(tmp_path, database_url, "inbound", "retry", str(failed.id))
    assert retried.returncode == 0, retried.stderr
    assert f"{failed.id}: done".encode() in retried.stdout
    assert table.game(game_id).white_accepted
    again = manage(tmp_path, database_url, "inbound", "retry", str(failed.id))  # done now: not run twice
    assert again.returncode != 0 and b"neither failed nor waiting" in again.stderr
    assert len(table.mails(ALICE, "accepted")) == 1


def test_an_operator_lists_and_sends_again_a_failed_outbound_mail(tmp_path, database_url, server):
    table = Table(server)
    table.new_game()
    mail = table.last(BOB, "invitation")
    with server.db.engine.begin() as connection:
        connection.execute(text("UPDATE outbound_messages SET status = 'failed', attempts = 40, "
                                "last_error = '550 mailbox unavailable' WHERE id = :id"), {"id": mail.id})
    listed = manage(tmp_path, database_url, "outbox", "list", "--status", "failed")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.decode().splitlines()
    assert len(lines) == 1 and lines[0].split()[0] == str(mail.id)
    assert BOB in lines[0] and "(550 mailbox unavailable)" in lines[0]
    queued = manage(tmp_path, database_url, "outbox", "retry", str(mail.id))
    assert queued.returncode == 0 and f"{mail.id}: queued again".encode() in queued.stdout
    assert manage(tmp_path, database_url, "worker", "--once").returncode == 0
    sent = table.last(BOB, "invitation")
    assert sent.status == "sent" and sent.attempts == 1 and sent.last_error is None
    maildir = tmp_path / "instance" / "outbox" / "new"
    assert any(mail.message_id in path.read_text() for path in maildir.iterdir())
    refused = manage(tmp_path, database_url, "outbox", "retry", str(mail.id))
    assert refused.returncode != 0 and b"not failed or bounced" in refused.stderr


def test_a_second_stop_signal_ends_the_process_at_once():
    """The first SIGTERM or Ctrl-C asks for a clean stop; a second one, from someone who will not wait, ends it."""
    script = (
        "import os, signal, time\n"
        "from app.cli import _on_termination\n"
        "_on_termination(lambda: print('stopping cleanly', flush=True))\n"
        "os.kill(os.getpid(), signal.SIGTERM)\n"
        "time.sleep(0.2)\n"
        "os.kill(os.getpid(), signal.SIGINT)\n"
        "time.sleep(5)\n"
        "print('still running')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, timeout=30)
    assert done.stdout == b"stopping cleanly\n"
    assert done.returncode == -signal.SIGINT


def test_inbound_show_says_when_only_the_header_of_a_message_was_kept(tmp_path, database_url, server):
    header = b"From: alice@players.test\r\nTo: referee@mirrorpost.test\r\nSubject: a large one\r\n\r\n"
    inbound_id, _ = store(server.db, header, "imap", None, ["referee@mirrorpost.test"], full_size=40_000_000)
    shown = manage(tmp_path, database_url, "inbound", "show", str(inbound_id))
    assert shown.returncode == 0 and shown.stdout == header
    assert b"only the header was kept: the message was 40000000 bytes" in shown.stderr


def test_log_level_quiets_the_log_and_a_wrong_one_is_refused(tmp_path, database_url, monkeypatch):
    """An IMAP mailbox that does not answer is a warning in the log: shown by default, not with LOG_LEVEL=ERROR."""
    monkeypatch.setenv("IMAP_HOST", "127.0.0.1")
    monkeypatch.setenv("IMAP_PORT", str(free_port()))  # nobody listens there
    monkeypatch.setenv("IMAP_SSL", "0")
    loud = manage(tmp_path, database_url, "worker", "--once")
    assert loud.returncode == 0 and b"WARNING" in loud.stderr and b"IMAP polling failed" in loud.stderr
    monkeypatch.setenv("LOG_LEVEL", "error")
    quiet = manage(tmp_path, database_url, "worker", "--once")
    assert quiet.returncode == 0 and b"IMAP polling failed" not in quiet.stderr
    monkeypatch.setenv("LOG_LEVEL", "chatty")
    wrong = manage(tmp_path, database_url, "worker", "--once")
    assert wrong.returncode == 78 and wrong.stderr.strip().splitlines() == [
        b"Error: LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL, not 'CHATTY'"]


def test_the_operator_announces_and_starts_a_tournament(tmp_path, database_url, server):
    """``tournament create`` prints the number of a tournament with no organiser; ``tournament start`` starts it
    once it has its minimum, and says why not before."""
    done = manage(tmp_path, database_url, "tournament", "create", "side-view", "--format", "swiss", "--players",
                  "6", "--option", "physics=2", "--unrated")
    assert done.returncode == 0, done.stderr
    number = int(done.stdout.strip())
    refused = manage(tmp_path, database_url, "tournament", "start", str(number))
    assert refused.returncode != 0 and b"it starts with at least 4" in refused.stderr
    bad = manage(tmp_path, database_url, "tournament", "create", "side-view", "--players", "40")
    assert bad.returncode != 0 and b"a round robin has 3 to 16 players" in bad.stderr
    table = Table(server)
    for index in range(4):
        table.write_confirmed(f"p{index}@players.test", f"enter {number}")
    started = manage(tmp_path, database_url, "tournament", "start", str(number))
    assert started.returncode == 0, started.stderr
    with server.db.engine.connect() as connection:
        status, rated = connection.execute(text("SELECT status, rated FROM tournaments WHERE id = :id"),
                                           {"id": number}).one()
        games = connection.execute(text("SELECT count(*) FROM games WHERE event LIKE 'Tournament %'")).scalar()
    assert status == "running" and not rated and games == 2
