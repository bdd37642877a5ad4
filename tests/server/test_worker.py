"""The worker's duties run side by side: mail goes out while a clock round is still under way."""

import threading
import time

from app.outbound.outbox import MaildirTransport
from app.worker import Worker
from tests.server.harness import Table, statements_seen


def sent(table, address: str) -> list[str]:
    return [mail.status for mail in table.mails(address)]


def wait_for(condition, seconds: float = 15.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_mail_goes_out_while_a_clock_round_is_still_running(server, tmp_path, monkeypatch):
    clocks_running, clocks_may_end = threading.Event(), threading.Event()

    def a_long_clock_round(self, now=None):
        clocks_running.set()
        clocks_may_end.wait(30)
        return 0

    monkeypatch.setattr(Worker, "clocks", a_long_clock_round)
    worker = Worker(server, MaildirTransport(tmp_path / "box"))
    stop = threading.Event()
    thread = threading.Thread(target=worker.run_forever, args=(stop,))
    thread.start()
    try:
        assert clocks_running.wait(10)
        table = Table(server)
        for number in range(3):  # mail made while the clock round runs
            table.new_game("alice@players.test", f"p{number}@players.test")
        addresses = ["alice@players.test", *(f"p{number}@players.test" for number in range(3))]
        assert wait_for(lambda: all(set(sent(table, address)) == {"sent"} for address in addresses))
        assert not clocks_may_end.is_set() and thread.is_alive()  # all of it went out during that one round
    finally:
        clocks_may_end.set()
        stop.set()
        thread.join(30)
    assert not thread.is_alive()


def test_once_runs_every_duty_once(server, monkeypatch):
    calls = []
    for name in ("sweep", "clocks", "digests", "retention"):
        monkeypatch.setattr(Worker, name, lambda self, name=name: calls.append(name) or 0)
    worker = Worker(server)
    monkeypatch.setattr(worker.dispatcher, "run_once", lambda: calls.append("dispatch") or 0)
    assert worker.run_once() == {"inbound": 0, "clocks": 0, "digest": 0, "tournaments": 0, "sent": 0, "retention": 0}
    assert sorted(calls) == ["clocks", "digests", "dispatch", "retention", "sweep"]


def test_a_duty_that_did_something_goes_again_at_once_and_one_that_failed_keeps_its_thread(server, monkeypatch):
    rounds = {"sweep": 0, "clocks": 0}

    def busy_then_idle(self):
        rounds["sweep"] += 1
        return 1 if rounds["sweep"] < 5 else 0

    def failing(self, now=None):
        rounds["clocks"] += 1
        raise RuntimeError("a bad round")

    monkeypatch.setattr(Worker, "sweep", busy_then_idle)
    monkeypatch.setattr(Worker, "clocks", failing)
    stop = threading.Event()
    thread = threading.Thread(target=Worker(server).run_forever, args=(stop,))
    thread.start()
    try:
        assert wait_for(lambda: rounds["sweep"] >= 5, seconds=3)  # five rounds at once, not one per interval
        assert wait_for(lambda: rounds["clocks"] == 1, seconds=3)
        time.sleep(0.5)
        assert rounds["clocks"] == 1  # failed once: it waits its interval, in a thread still alive
        assert "worker-clocks" in {running.name for running in threading.enumerate()}
    finally:
        stop.set()
        thread.join(30)
    assert not thread.is_alive()


def test_a_round_with_nothing_due_runs_the_same_eight_statements_whatever_the_number_of_games(server, tmp_path):
    worker = Worker(server, MaildirTransport(tmp_path / "box"))
    table = Table(server)

    def quiet_round() -> list[str]:
        while worker.run_once()["sent"]:  # everything sent first
            pass
        with statements_seen(server.db.engine) as seen:
            done = worker.run_once()
        assert not any(done.values()), done
        return [statement for statement in seen if not statement.startswith("BEGIN")]

    table.start()
    few = quiet_round()
    for _ in range(4):
        table.start()
    table.new_game()
    many = quiet_round()
    # the sweep, the clocks, the digests, the tournaments' start days, the claim, and retention's three
    assert len(few) == len(many) == 8, many
