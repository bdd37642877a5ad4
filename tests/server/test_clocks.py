"""The correspondence clock: a reminder a day before, loss on time, vacations pause it."""

from datetime import timedelta

from app.db import utcnow
from app.games.models import Game
from app.service import Service
from app.worker import Worker
from tests.server.harness import ALICE, BOB, Table, statements_seen


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


def reminded_games(server, count: int) -> list[int]:
    """``count`` more running games, each reminded already (its deadline a day away or less)."""
    table = Table(server)
    games = [table.start(days="2") for _ in range(count)]
    latest = max(table.game(game_id).deadline for game_id in games)
    assert Worker(server).clocks(latest - timedelta(hours=23)) >= count
    return games


def statements_of_a_round(server, now) -> list[str]:
    with statements_seen(server.db.engine) as seen:
        assert Worker(server).clocks(now) == 0
    return [statement for statement in seen if not statement.startswith("BEGIN")]


def test_a_round_with_nothing_due_runs_one_statement_whatever_the_number_of_games(server):
    """Games already reminded, games not near their deadline, finished and unstarted games: none is looked at."""
    table = Table(server)
    first = reminded_games(server, 2)
    table.new_game()  # invited, never started
    finished = table.start()
    table.reply(ALICE, "resign", kind="request")
    assert table.game(finished).status == "over"
    quiet = min(table.game(game_id).deadline for game_id in first) - timedelta(hours=1)  # reminded, not yet due
    few = statements_of_a_round(server, quiet)
    more = reminded_games(server, 6)
    far = [table.start(days="30") for _ in range(2)]  # a month to go: not due for weeks
    quiet = min(table.game(game_id).deadline for game_id in [*first, *more]) - timedelta(hours=1)
    many = statements_of_a_round(server, quiet)
    assert len(few) == len(many) == 1, many  # the query of the games due, and nothing else
    assert "FOR UPDATE" not in many[0] and "next_clock_at" in many[0]
    assert all(not table.game(game_id).reminded for game_id in far)


def test_a_reminded_game_is_not_due_again_until_its_deadline(server):
    table = Table(server)
    game_id = table.start(days="2")
    deadline = table.game(game_id).deadline
    with server.db.engine.begin() as connection:
        due = Service(connection, server.settings, server.signer, deadline - timedelta(hours=23)).due_games()
    assert due == [game_id]
    assert Worker(server).clocks(deadline - timedelta(hours=23)) == 1
    for hours_before in (22, 1):
        with server.db.engine.begin() as connection:
            now = deadline - timedelta(hours=hours_before)
            assert Service(connection, server.settings, server.signer, now).due_games() == []
    with server.db.engine.begin() as connection:
        assert Service(connection, server.settings, server.signer, deadline).due_games() == [game_id]


def test_a_game_whose_player_to_move_is_away_is_not_due_until_they_are_back(server):
    """Alice's reminder would fall in her vacation: the clock neither takes the game up meanwhile nor reminds her
    before she is back; then the reminder comes, and later the loss on time."""
    table = Table(server)
    game_id = table.start(days="1")
    started = table.game(game_id).deadline - timedelta(days=1)
    with server.db.engine.begin() as connection:  # ten hours before her deadline she goes away for a day
        service = Service(connection, server.settings, server.signer, started + timedelta(hours=14))
        service.vacation(service.player(ALICE), "1", "white", None, None)
    game = table.game(game_id)
    back = started + timedelta(hours=14, days=1)
    assert game.deadline == started + timedelta(days=2) and game.next_clock_at == back
    for hours in (24, 30, 37):
        with server.db.engine.begin() as connection:
            now = started + timedelta(hours=hours)
            assert Service(connection, server.settings, server.signer, now).due_games() == []
    assert Worker(server).clocks(back + timedelta(minutes=1)) == 1
    assert table.last(ALICE).kind == "reminder"
    assert Worker(server).clocks(game.deadline + timedelta(seconds=1)) == 1
    assert table.game(game_id).result == "0-1"


def test_only_games_with_a_player_to_move_have_a_next_look(server):
    table = Table(server)
    invited = table.new_game()
    running = table.start()
    over = table.start()
    table.reply(ALICE, "resign", kind="request")
    looks = {game_id: table.game(game_id).next_clock_at for game_id in (invited, running, over)}
    assert looks[invited] is None and looks[over] is None
    assert looks[running] == table.game(running).deadline - timedelta(hours=24)
