"""Club names are unique however written: case folded, look-alike letters and digits folded; a ``name`` someone
holds is refused, the names the club gives (``Player N``) skip the names held, and the database decides between
two claims at once; the players already in the club hold their names once migrated."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import create_engine, select, text, update

from app.db import Database
from app.games.lobby.names import name_key
from app.games.models import Player
from app.service import Service
from tests.conftest import make_server
from tests.server.harness import ALICE, BOB, Table
from tests.server.mailhost import wait_until

CAROL, DAVE = "carol@players.test", "dave@players.test"


def names(server) -> dict[str, tuple[str, str | None]]:
    with server.db.sessions() as session:
        return {player.email: (player.name, player.club_key) for player in session.scalars(select(Player))}


def service_in(connection, server) -> Service:
    return Service(connection, server.settings, server.signer)


def player_id(server, address: str) -> int:
    with server.db.engine.begin() as connection:
        service = service_in(connection, server)
        player = service.player(address)
        service.flush()
        return player.id


def held(server, name: str, address: str) -> int:
    """A player called ``name`` who holds it in the club (as a chosen name is held); their id."""
    with server.db.engine.begin() as connection:
        service = service_in(connection, server)
        player = service.player(address)
        assert service.preferences.give_name(player, name, chosen=True) is None
        service.flush()
        return player.id


def test_a_client_name_another_holds_is_not_adopted_and_the_club_gives_one(server):
    held(server, "Alice Liddell", ALICE)
    with server.db.engine.begin() as connection:
        service = service_in(connection, server)
        bob = service.player(BOB)
        service.adopt_client_name(bob, "ALICE LIDDELL")
        service.flush()
    assert names(server)[BOB] == (f"Player {bob.id}", name_key(f"Player {bob.id}"))


def test_a_free_client_name_is_adopted_and_held_by_a_player_the_club_named(server):
    table = Table(server)
    with server.db.engine.begin() as connection:
        service = service_in(connection, server)
        service.seeks.post(service.player(BOB), "side-view")  # in the club: given "Player N"
    with server.db.engine.begin() as connection:
        service = service_in(connection, server)
        service.adopt_client_name(service.player(BOB), "Robert Roe")
        service.flush()
    assert names(server)[BOB] == ("Robert Roe", name_key("Robert Roe"))
    assert table.write(CAROL, "name R0BERT ROE").startswith("rejected: refused: name: another player has that name")


def test_a_client_name_is_not_adopted_by_a_player_who_chose_one(server):
    held(server, "Bobby", BOB)
    with server.db.engine.begin() as connection:
        service = service_in(connection, server)
        service.adopt_client_name(service.player(BOB), "Robert Roe")
        service.flush()
    assert names(server)[BOB] == ("Bobby", "bobby")


def test_a_rated_challenge_accepted_puts_both_players_in_the_club_each_with_a_name_nobody_else_holds(server):
    """Bob's name was his mail client's before names were held; Dave holds one like it: Bob is given another."""
    table = Table(server)
    held(server, "Robert", DAVE)
    with server.db.transaction() as session:
        session.execute(update(Player).where(Player.id == player_id(server, BOB)).values(name="ROBERT"))
    assert "held for confirmation" in table.write(ALICE, f"challenge {BOB} side-view rated")
    game_id = int(table.confirm(ALICE).rsplit(" ", 1)[1])
    assert names(server)[BOB] == ("ROBERT", None)  # not yet: a challenge declined puts nobody in the club
    assert "accepted" in table.reply(BOB, "accept", kind="invitation")
    assert table.game(game_id).status == "active"
    with server.db.sessions() as session:
        ids = {player.email: player.id for player in session.scalars(select(Player))}
    assert names(server)[ALICE] == (f"Player {ids[ALICE]}", name_key(f"Player {ids[ALICE]}"))
    assert names(server)[BOB] == (f"Player {ids[BOB]}", name_key(f"Player {ids[BOB]}"))


def test_an_unrated_challenge_accepted_gives_no_club_name(server):
    table = Table(server)
    table.start()
    assert names(server)[ALICE][1] is None and names(server)[BOB][1] is None


@pytest.mark.parametrize(("written", "why"), [
    ("\u2800", "a name needs at least one letter or digit that can be seen"),
    ("\u200b\u2800\u3164", "a name needs at least one letter or digit that can be seen"),
    ("Player 7", "a name like 'Player 12' is one the club gives"),
    ("P\u029fayer\u2800 7", "a name like 'Player 12' is one the club gives"),
    ("bob", "the club shows no part of an address"),
    ("bob@elsewhere.test", "the club shows no part of an address"),
])
def test_a_name_that_cannot_be_held_is_refused_and_says_why(server, written, why):
    table = Table(server)
    outcome = table.write(BOB, f"name {written}")
    assert outcome.startswith(f"rejected: refused: name: {why}"), outcome
    assert why in table.text(BOB, "error")
    assert names(server)[BOB][1] is None


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
    assert table.write(BOB, "name Alice L") == "done: held for confirmation: name Alice L"
    table.write_confirmed(ALICE, "name alice l")
    assert table.confirm(BOB) == "done: confirmed: name refused: another player has that name, or one that looks " \
                                 "like it; choose another"
    assert "Your name was not changed" in table.text(BOB, "error")
    assert names(server)[BOB] == ("Bob", None) and names(server)[ALICE] == ("Alice l", "allce l")


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
    table.write_confirmed(ALICE, "name Alice L")
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        bob = service.player(BOB)
        assert not service.work.save_now(bob, name="ALICE L", club_key=name_key("ALICE L"))
        assert (bob.name, bob.club_key) == ("Bob", None)
        bob.vacation_days_used = 2  # the transaction goes on
    assert names(server)[BOB] == ("Bob", None)


def race(server, postgres_url, chosen: bool) -> dict[str, object]:
    """Carol's claim of "Caroline" is held after its check, before its transaction ends; Dave's claim of "CAR0LINE" is
    made meanwhile, waits on the unique index until Carol's transaction ends, and is refused there: what each
    ``give_name`` answered."""
    admin = create_engine(postgres_url)
    outcome: dict[str, object] = {}
    carol_claimed, go = threading.Event(), threading.Event()

    def claim(address: str, name: str, hold: bool) -> None:
        try:
            with server.db.engine.begin() as connection:
                service = service_in(connection, server)
                outcome[address] = service.preferences.give_name(service.player(address), name, chosen=chosen)
                if hold:
                    carol_claimed.set()
                    assert go.wait(30)
        except BaseException as error:  # the main thread reports it
            outcome[address] = error

    try:
        carol = threading.Thread(target=claim, args=(CAROL, "Caroline", True))
        dave = threading.Thread(target=claim, args=(DAVE, "CAR0LINE", False))
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
        return outcome
    finally:
        go.set()
        admin.dispose()


def test_two_chosen_names_at_once_on_postgresql_and_one_is_refused_in_words(tmp_path, postgres_url):
    server = make_server(tmp_path, postgres_url)
    try:
        player_id(server, DAVE)
        assert race(server, postgres_url, chosen=True) == {
            CAROL: None, DAVE: "another player took that name meanwhile; choose another"}
        assert names(server)[DAVE] == ("Dave", None) and names(server)[CAROL] == ("Caroline", "carollne")
    finally:
        server.db.engine.dispose()


def test_two_names_given_at_once_on_postgresql_and_the_club_gives_the_second_another(tmp_path, postgres_url):
    server = make_server(tmp_path, postgres_url)
    try:
        dave = player_id(server, DAVE)
        assert race(server, postgres_url, chosen=False) == {
            CAROL: None, DAVE: "another player took that name meanwhile; choose another"}
        assert names(server)[DAVE] == (f"Player {dave}", name_key(f"Player {dave}"))
        assert names(server)[CAROL] == ("Caroline", "carollne")
    finally:
        server.db.engine.dispose()


def test_the_players_in_the_club_hold_their_names_once_migrated(tmp_path, empty_database_url):
    """Migration 0023: the players in the club, the first to have joined first, hold their names; one whose name
    looks like one held before, and a player outside the club, hold none."""
    db = Database(empty_database_url)
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
    db.upgrade("0023")
    with db.engine.connect() as connection:
        held = dict(connection.execute(text("SELECT email, club_key FROM players")).all())
        chosen = set(connection.execute(text("SELECT profile_chosen FROM players")).scalars())
    assert held == {ALICE: "ann", BOB: None, CAROL: None, DAVE: None} and chosen == {False}
    db.migrate("downgrade", "0022")
    db.upgrade()
    db.engine.dispose()


def test_every_club_name_is_folded_anew_once_migrated_and_the_newer_of_two_alike_is_given_another(tmp_path,
                                                                                                  empty_database_url):
    """Migration 0025: the keys held are those of today's fold; where two names held, or a name held and that of
    a player in the club who held none, are now one, the older player keeps it and the newer is given a name the
    club gives, as is a name with nothing to see; a player outside the club who holds none is left as they are."""
    db = Database(empty_database_url)
    db.upgrade("0024")
    players = [("Ann", "ann"), ("\u13aann", "\u13aann"), ("Al\u2800ice", "al\u2800ice"), ("Alice", "alice"),
               ("ANN", None), ("Ann", None), ("\u2800", "\u2800"), ("Player 3", "player 3")]
    with db.engine.begin() as connection:
        for number, (name, key) in enumerate(players, 1):
            connection.execute(text(
                "INSERT INTO players (id, email, name, preferences, vacation_year, vacation_days_used, bounces, "
                "club_key, created_at) VALUES (:id, :email, :name, '{}', 0, 0, 0, :key, CURRENT_TIMESTAMP)"),
                {"id": number, "email": f"p{number}@players.test", "name": name, "key": key})
        connection.execute(text(  # the fifth played a rated game: in the club, though he held no name
            "INSERT INTO games (id, variant, options, days, status, white_id, black_id, white_accepted, reminded, "
            "black_accepted, state, ply, commitments, public_white, public_black, rated, created_at, updated_at) "
            "VALUES (1, 'side-view', '{}', 3, 'over', 5, 1, true, false, true, '{}', 4, '{}', false, false, true, "
            "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"))
    db.upgrade()
    with db.engine.connect() as connection:
        found = {row.id: (row.name, row.club_key) for row in connection.execute(text(
            "SELECT id, name, club_key FROM players"))}
    given = {number: (f"Player {number}", name_key(f"Player {number}")) for number in range(1, 9)}
    assert found == {1: ("Ann", "ann"), 2: given[2], 3: ("Al\u2800ice", "allce"), 4: given[4], 5: given[5],
                     6: ("Ann", None), 7: given[7], 8: given[3]}
    db.migrate("downgrade", "0024")
    db.upgrade()
    db.engine.dispose()


@pytest.mark.parametrize("way_in", ["seek", "join", "tournament"])
def test_every_way_into_the_club_gives_a_name_nobody_else_holds(server, way_in):
    """Bob's name was his mail client's before names were held, and Dave holds one like it (with a braille blank
    in it): entering the club by
    a seek posted or joined or a tournament entered, Bob is given a name the club gives."""
    held(server, "Robert", DAVE)
    bob = player_id(server, BOB)
    with server.db.transaction() as session:
        session.execute(update(Player).where(Player.id == bob).values(name="R\u2800obert"))
    with server.db.engine.begin() as connection:
        service = service_in(connection, server)
        if way_in == "seek":
            service.seeks.post(service.player(BOB), "side-view")
        elif way_in == "join":
            service.seeks.join(service.player(BOB), service.seeks.post(service.player(CAROL), "side-view"))
        else:
            number = service.tournaments.announce(service.player(CAROL), service.tournaments.check_announce(
                service.player(CAROL), "side-view players=4"))
            service.tournaments.enter(service.player(BOB), number)
        service.flush()
    assert names(server)[BOB] == (f"Player {bob}", name_key(f"Player {bob}"))
    assert names(server)[DAVE] == ("Robert", "robert")
