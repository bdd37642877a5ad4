"""Reminders at the hours a player chooses: each once a turn, the clock looking only when the next is due."""

from datetime import timedelta

from app.games.play.clock import reminder_leads
from app.worker import Worker
from tests.server.digest_helpers import digest_on, move, reply_in_game, send_digests, start_game
from tests.server.harness import ALICE, BOB, Table


def reminders_to(table, address):
    return [mail.subject for mail in table.mails(address, "reminder")]


def test_remind_24h_2h_gives_two_reminders_each_once_and_the_clock_looks_only_when_one_is_due(server):
    table = Table(server)
    game_id = start_game(server, "kriegspiel", ALICE, BOB)
    assert reply_in_game(server, game_id, ALICE, "remind 24h 2h") == "done: remind"
    deadline = table.game(game_id).deadline
    assert table.game(game_id).next_clock_at == deadline - timedelta(hours=24)
    worker = Worker(server)
    assert worker.clocks(deadline - timedelta(hours=25)) == 0
    assert worker.clocks(deadline - timedelta(hours=23)) == 1
    assert table.game(game_id).next_clock_at == deadline - timedelta(hours=2)  # the next reminder not yet sent
    assert worker.clocks(deadline - timedelta(hours=3)) == 0
    assert worker.clocks(deadline - timedelta(hours=1)) == 1
    assert table.game(game_id).next_clock_at == deadline  # then only the loss on time
    assert worker.clocks(deadline - timedelta(minutes=30)) == 0
    assert reminders_to(table, ALICE) == [f"Game {game_id}, move 1: reminder: your move is due within 24 hours - "
                                          "Kriegspiel", f"Game {game_id}, move 1: reminder: your move is due within "
                                          "2 hours - Kriegspiel"]
    assert "Reply above this line with your order" in table.text(ALICE, "reminder")  # the request itself again
    move(server, game_id, ALICE)  # a new turn for Bob, on the default reminder
    bob_deadline = table.game(game_id).deadline
    assert table.game(game_id).next_clock_at == bob_deadline - timedelta(hours=24)


def test_a_late_round_sends_one_reminder_for_the_latest_due_and_none_twice(server):
    table = Table(server)
    game_id = start_game(server, "kriegspiel", ALICE, BOB)
    reply_in_game(server, game_id, ALICE, "remind 48h 24h 8h")
    deadline = table.game(game_id).deadline
    assert Worker(server).clocks(deadline - timedelta(hours=7)) == 1  # the worker was down: one mail, not three
    assert reminders_to(table, ALICE) == [f"Game {game_id}, move 1: reminder: your move is due within 8 hours - "
                                          "Kriegspiel"]
    assert table.game(game_id).next_clock_at == deadline
    assert Worker(server).clocks(deadline - timedelta(hours=6)) == 0


def test_a_reminder_that_would_come_with_the_request_is_left_out():
    """A move of one day: ``remind 24h`` would come with the request, so the default (halfway) stands; of those
    chosen, only the ones shorter than a move count."""
    assert reminder_leads(1, [24]) == [timedelta(hours=12)]
    assert reminder_leads(3, [2, 24, 80]) == [timedelta(hours=24), timedelta(hours=2)]
    assert reminder_leads(3, None) == [timedelta(hours=24)]


def test_on_the_digest_only_the_last_warning_comes_at_once(server):
    table = Table(server)
    digest_on(server, ALICE)
    assert "held for confirmation" in table.write(ALICE, "remind 24h 2h")
    table.confirm(ALICE)
    game_id = start_game(server, "side-view", BOB, ALICE)
    move(server, game_id, BOB)
    assert table.game(game_id).deadline is None  # her clock waits for her digest
    send_digests(server)
    deadline = table.game(game_id).deadline
    mails = len(table.mails(ALICE))
    worker = Worker(server)
    assert worker.clocks(deadline - timedelta(hours=23)) == 1  # the first reminder: the digest says it
    assert len(table.mails(ALICE)) == mails and table.game(game_id).reminded
    assert worker.clocks(deadline - timedelta(hours=1)) == 1  # the last warning: at once
    assert reminders_to(table, ALICE) == [f"Game {game_id}, move 1: reminder: your move is due within 2 hours - "
                                          "Side View Chess"]
    assert worker.clocks(deadline + timedelta(seconds=1)) == 1
    assert table.game(game_id).reason == "time" and table.last(ALICE).kind == "game-over"  # at once too
