"""The correspondence clock: a reminder a day before, loss on time, vacations pause it."""

from datetime import timedelta

from app.db import utcnow
from app.games.models import Game
from app.worker import Worker
from tests.server.harness import ALICE, BOB, Table


def test_reminder_24_hours_before_then_loss_on_time(server):
    table = Table(server)
    game_id = table.start(days="2")
    deadline = table.game(game_id).deadline
    worker = Worker(server)
    assert worker.clocks(deadline - timedelta(hours=30)) == 0
    assert worker.clocks(deadline - timedelta(hours=23)) == 1
    reminder = table.last(ALICE)
    assert reminder.kind == "reminder" and "within 24 hours" in reminder.subject
    assert "Reply above this line" in table.text(ALICE)  # the request itself comes again
    assert worker.clocks(deadline - timedelta(hours=22)) == 0  # one reminder only
    assert worker.clocks(deadline + timedelta(seconds=1)) == 1
    game = table.game(game_id)
    assert (game.status, game.result, game.reason) == ("over", "0-1", "time")
    assert "loss on time" in table.last(BOB).subject


def test_a_move_restarts_the_clock_for_the_opponent(server):
    table = Table(server)
    game_id = table.start(days="3")
    almost = utcnow() + timedelta(hours=1)  # Alice took nearly all her time
    with server.db.transaction() as session:
        session.get(Game, game_id).deadline = almost
    table.reply(ALICE, "R e2-e4", kind="request")
    game = table.game(game_id)
    assert game.deadline >= almost + timedelta(days=2, hours=22) and not game.reminded
    assert Worker(server).clocks(almost + timedelta(hours=1)) == 0  # Alice's deadline no longer counts


def test_vacation_pauses_the_clock_within_the_yearly_allowance(server):
    table = Table(server)
    game_id = table.start(days="3")
    deadline = table.game(game_id).deadline
    table.reply(ALICE, "vacation 5", kind="request")
    assert "paused until" in table.text(ALICE)
    assert table.game(game_id).deadline == deadline + timedelta(days=5)
    assert Worker(server).clocks(deadline + timedelta(hours=1)) == 0
    table.reply(ALICE, "vacation 30", kind="vacation")
    assert "left this year" in table.text(ALICE)
