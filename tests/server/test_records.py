"""The game service's records: only what changed is written, one record per row, players added once."""

import threading
from datetime import timedelta

from sqlalchemy import select

from app.games.models import Event, Game
from app.games.records import rows
from app.service import Service
from tests.server.harness import ALICE, BOB, Table, statements_seen, statements_sent


def updates_of(server, work) -> list[str]:
    """The UPDATE statements ``work(connection)`` sends, in one transaction."""
    return [statement for statement in statements_sent(server.db.engine, work)
            if statement.lstrip().upper().startswith("UPDATE")]


def test_an_unchanged_game_and_players_are_not_written(server):
    game_id = Table(server).start()

    def look(connection):
        service = Service(connection, server.settings, server.signer)
        service.lock(game_id)
        service.flush()

    assert updates_of(server, look) == []


def test_a_changed_game_is_written_and_then_counts_as_saved(server):
    game_id = Table(server).start()

    def change(connection):
        service = Service(connection, server.settings, server.signer)
        game = service.lock(game_id)
        game.public_white = True
        service.flush()
        service.flush()  # nothing new: no second write

    writes = updates_of(server, change)
    assert len(writes) == 1 and "games" in writes[0]
    assert Table(server).game(game_id).public_white is True


def test_a_move_is_plain_statements_each_where_it_is_written_and_the_mark_last(server):
    """Stored on its own first; then one transaction: the game locked first, each write as it is made, and
    the mark of the message last (so locks are taken game row first, inbound row last)."""
    table = Table(server)
    game_id = table.start()
    raw = table.reply_bytes(ALICE, "R e2-e4", "gmail", kind="request")
    with statements_seen(server.db.engine) as sent:
        assert table.deliver(raw) == "done: R e2-e4: moved"
    sent = [statement for statement in sent if not statement.startswith("BEGIN")]  # SQLite's BEGIN IMMEDIATE
    words = [" ".join(statement.split()[:3]) for statement in sent]
    assert words == ["INSERT INTO inbound_messages",  # the store, committed on its own
                     "SELECT games.id, games.variant,",  # the lock (FOR UPDATE where the database has it)
                     "INSERT INTO events", "INSERT INTO outbound_messages", "UPDATE games SET",
                     "UPDATE inbound_messages SET"]  # the mark
    if server.db.engine.dialect.name == "postgresql":
        assert sent[1].rstrip().endswith("FOR UPDATE OF games")
    assert not any(statement.lstrip().upper().startswith("WITH") for statement in sent)  # no writes folded in
    assert Table(server).game(game_id).ply == 1


def test_a_player_change_writes_only_that_column(server):
    game_id = Table(server).start()

    def rename(connection):
        service = Service(connection, server.settings, server.signer)
        service.lock(game_id).white.name = "Alice Liddell"
        service.flush()

    writes = updates_of(server, rename)
    assert len(writes) == 1 and "players" in writes[0]
    assert "name" in writes[0] and "bounces" not in writes[0] and "vacation" not in writes[0]


def test_one_record_per_game_so_a_vacation_inside_a_game_reply_keeps_every_change(server):
    """'vacation' walks the player's running games, this one among them: both changes must be kept."""
    table = Table(server)
    game_id = table.start()
    before = table.game(game_id)
    table.reply(ALICE, "say see you soon\nvacation 2", kind="request")
    after = table.game(game_id)
    assert after.deadline - before.deadline == timedelta(days=2)  # the vacation's change
    assert after.last_seq == before.last_seq + 1  # the 'say' event's change
    assert "see you soon" in table.text(BOB, "said")
    assert "moved" in table.reply(ALICE, "R e2-e4", kind="vacation")  # the next event numbers on cleanly
    assert [e.seq for e in table.events(game_id)] == list(range(1, after.last_seq + 2))


def test_locking_twice_in_one_service_returns_the_same_record(server):
    game_id = Table(server).start()
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        first = service.lock(game_id)
        assert service.lock(game_id) is first
        assert service.player(ALICE) is first.white


def test_two_transactions_adding_the_same_new_player_both_get_the_one_row(server):
    address = "carol@players.test"
    with server.db.engine.connect() as first:
        first.begin()
        added = rows.find_or_add_player(first, address, "Carol")
        found: list[int] = []

        def second_transaction():
            with server.db.engine.begin() as second:  # waits for the first to commit
                found.append(rows.find_or_add_player(second, address, "Carol again").id)

        thread = threading.Thread(target=second_transaction)
        thread.start()
        thread.join(0.5)
        assert thread.is_alive()  # it is waiting on the first transaction, not failing
        first.commit()
        thread.join(30)
    assert found == [added.id]


def test_events_are_written_in_order_with_what_each_side_was_told(server):
    table = Table(server)
    game_id = table.start()
    table.reply(ALICE, "R e2-e4", kind="request")
    with server.db.engine.connect() as connection:
        events = rows.events_of(connection, game_id)
        last = events[-1]
        assert (last.by, last.order, last.result) == ("white", "R:e2-e4", "moved")  # as read, canonical
        assert last.told["white"][0]["kind"] == "moved"
        stored = connection.execute(select(Event.seq).where(Event.game_id == game_id).order_by(Event.seq)).all()
        assert [event.seq for event in events] == [row.seq for row in stored]
        assert connection.execute(select(Game.last_seq).where(Game.id == game_id)).scalar() == last.seq
