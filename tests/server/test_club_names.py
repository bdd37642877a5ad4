"""Club names are unique however written: case folded, look-alike letters and digits folded; a ``name`` someone
holds is refused, the names the club gives (``Player N``) skip the names held, and the database decides between
two claims at once; the players already in the club hold their names once migrated."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import create_engine, select, text, update

from app.db import Database
from app.games.lobby.names import generated, name_key
from app.games.models import Player
from app.service import Service
from tests.conftest import make_server
from tests.server.harness import ALICE, BOB, Table
from tests.server.mailhost import wait_until

CAROL, DAVE = "carol@players.test", "dave@players.test"


def names(server) -> dict[str, tuple[str, str | None]]:
    with server.db.sessions() as session:
        return {player.email: (player.name, player.club_key) for player in session.scalars(select(Player))}


@pytest.mark.parametrize(("one", "other"), [("Alice", "ALICE"), ("Alice", "\u0410lice"), ("Alice", "A1ice"),
                                            ("Darn", "Dam"), ("Zoë", "ZOE\u0308"), ("Ann  Lee", "ann lee"),
                                            ("Player 12", "P\u029fayer 12".replace("\u029f", "l"))])
def test_names_that_look_alike_have_one_key(one, other):
    assert name_key(one) == name_key(other)


def test_names_that_differ_have_keys_that_differ_and_the_clubs_own_names_are_known():
    assert len({name_key(name) for name in ("Alice", "Alicia", "Alice B.", "Bob", "Zoe", "Zoë")}) == 6
    assert generated(name_key("Player 12")) and generated(name_key("PLAYER 1O"))
    assert not generated(name_key("Player One")) and not generated(name_key("The Player 12"))


def test_a_name_held_by_another_player_however_written_is_refused(server):
    table = Table(server)
    assert table.write_confirmed(ALICE, "name Alice Liddell") == "done: confirmed: name"
    for written in ("alice liddell", "\u0410lice Liddell", "ALICE  LIDDELL"):  # the first in Cyrillic
        outcome = table.write(BOB, f"name {written}")
        assert outcome.startswith("rejected: refused: name: another player has that name"), outcome
    assert "another player has that name, or one that looks like it" in table.text(BOB, "error")
    assert table.write(ALICE, "name ALICE LIDDELL") == "done: held for confirmation: name ALICE LIDDELL"  # her own
    assert table.write(BOB, "name Player 7").startswith("rejected: refused: name: a name like 'Player 12' is one")
    assert names(server)[BOB][1] is None


def test_a_name_taken_between_the_request_and_its_confirmation_is_refused_then(server):
    table = Table(server)
    assert table.write(BOB, "name Alice") == "done: held for confirmation: name Alice"
    table.write_confirmed(ALICE, "name alice")
    assert table.confirm(BOB) == "done: confirmed: name refused: another player has that name, or one that looks " \
                                 "like it; choose another"
    assert "Your name was not changed" in table.text(BOB, "error")
    assert names(server)[BOB] == ("Bob", None) and names(server)[ALICE] == ("Alice", "alice")


def test_the_names_the_club_gives_skip_every_name_held(server):
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        alice, bob, carol = (service.player(address) for address in (ALICE, BOB, CAROL))
        service.flush()
        ids = alice.id, bob.id, carol.id
    with server.db.transaction() as session:  # names held before (chosen before they were refused)
        session.execute(update(Player).where(Player.id == ids[0]).values(name=f"Player {ids[1]}",
                                                                          club_key=name_key(f"Player {ids[1]}")))
        session.execute(update(Player).where(Player.id == ids[2]).values(name=f"PIayer {ids[1] + 1}",
                                                                          club_key=name_key(f"Player {ids[1] + 1}")))
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        service.seeks.post(service.player(BOB), "side-view")
    assert names(server)[BOB] == (f"Player {ids[1] + 2}", name_key(f"Player {ids[1] + 2}"))


def test_two_players_on_one_name_and_the_database_takes_one_claim(server):
    """The unique index decides even when the check before it saw nothing (another transaction's claim): the
    claim is refused, and the rest of the transaction goes on."""
    table = Table(server)
    table.write_confirmed(ALICE, "name Alice")
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        bob = service.player(BOB)
        assert not service.work.save_now(bob, name="ALICE", club_key=name_key("ALICE"))
        assert (bob.name, bob.club_key) == ("Bob", None)
        bob.vacation_days_used = 2  # the transaction goes on
    assert names(server)[BOB] == ("Bob", None)


def test_two_confirmations_at_once_on_postgresql_take_one_name(tmp_path, postgres_url):
    """Carol's claim is held after its check, before it writes; Dave's claim of a name like hers is made
    meanwhile, then waits on the unique index until Carol's transaction ends, and is refused."""
    server = make_server(tmp_path, postgres_url)
    admin = create_engine(postgres_url)
    outcome: dict[str, object] = {}
    carol_claimed, go = threading.Event(), threading.Event()

    def claim(address: str, name: str, hold: bool) -> None:
        try:
            with server.db.engine.begin() as connection:
                service = Service(connection, server.settings, server.signer)
                outcome[address] = service.preferences.claim_name(service.player(address), name)
                if hold:
                    carol_claimed.set()
                    assert go.wait(30)
        except BaseException as error:  # the main thread reports it
            outcome[address] = error

    try:
        carol = threading.Thread(target=claim, args=(CAROL, "Carol", True))
        dave = threading.Thread(target=claim, args=(DAVE, "CAR0L", False))
        carol.start()
        assert carol_claimed.wait(30), outcome
        dave.start()
        database = postgres_url.rsplit("/", 1)[1]

        def dave_waits() -> bool:
            with admin.connect() as connection:
                return bool(connection.execute(text(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = :name AND wait_event_type = 'Lock'"),
                    {"name": database}).scalar())

        wait_until(dave_waits, what="Dave's claim to wait on Carol's")
        go.set()
        carol.join(30)
        dave.join(30)
        assert outcome == {CAROL: True, DAVE: False}
        assert names(server)[DAVE][1] is None and names(server)[CAROL] == ("Carol", "carol")
    finally:
        go.set()
        admin.dispose()
        server.db.engine.dispose()


def test_the_players_in_the_club_hold_their_names_once_migrated(tmp_path, database_url):
    """Migration 0023: the players in the club, the first to have joined first, hold their names; one whose name
    looks like one held before, and a player outside the club, hold none."""
    db = Database(database_url)
    db.upgrade("0022")
    with db.engine.begin() as connection:
        for number, (email, name) in enumerate([(ALICE, "Ann"), (BOB, "ANN"), (CAROL, "Ann"), (DAVE, "Dave")], 1):
            connection.execute(text(
                "INSERT INTO players (id, email, name, preferences, vacation_year, vacation_days_used, bounces, "
                "created_at) VALUES (:id, :email, :name, '{}', 0, 0, 0, CURRENT_TIMESTAMP)"),
                {"id": number, "email": email, "name": name})
        connection.execute(text(
            "INSERT INTO games (id, variant, options, days, status, white_id, black_id, white_accepted, reminded, "
            "black_accepted, state, ply, commitments, public_white, public_black, rated, created_at, updated_at) "
            "VALUES (1, 'side-view', '{}', 3, 'over', 1, 2, true, false, true, '{}', 4, '{}', false, false, true, "
            "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"))
    db.upgrade()
    with db.engine.connect() as connection:
        held = dict(connection.execute(text("SELECT email, club_key FROM players")).all())
        chosen = set(connection.execute(text("SELECT profile_chosen FROM players")).scalars())
    assert held == {ALICE: "ann", BOB: None, CAROL: None, DAVE: None} and chosen == {False}
    db.migrate("downgrade", "0022")
    db.upgrade()
    db.engine.dispose()
