"""Addresses the server accepts are addresses it can write to: a domain in non-ASCII characters is kept as its
A-labels (UTS-46), so it is one player however written and delivered on any relay; a local part in non-ASCII
characters, which no From the referee reads can carry, is refused on the way in, saying why."""

from __future__ import annotations

import pytest
from sqlalchemy import select, text

from app.addresses import AddressError, sender_of, valid_address
from app.db import Database
from app.games.models import Player
from app.inbound.clients import fresh
from tests.server.smtp_game import ALICE, REFEREE
from tests.server.test_lobby_by_mail import challenge


def test_an_internationalised_domain_is_one_address_however_it_is_written():
    assert valid_address("Max@FAß.de") == valid_address("max@xn--fa-hia.de") == "max@xn--fa-hia.de"
    assert sender_of(["Max <max@faß.de>"]).address == sender_of(["max@XN--FA-HIA.DE"]).address == "max@xn--fa-hia.de"
    assert valid_address("ann@players.test") == "ann@players.test"


@pytest.mark.parametrize("address, why", [("mü@faß.de", "ASCII"), ("max@xn--zz.de", "domain"),
                                          ("max@faß..de", "address")])
def test_an_address_the_referee_could_not_write_to_is_refused_saying_why(address, why):
    with pytest.raises(AddressError, match=why):
        valid_address(address)


def test_a_from_in_non_ascii_characters_before_the_at_is_refused():
    with pytest.raises(AddressError, match="non-ASCII"):
        sender_of(["Max <mü@faß.de>"])


def players(server) -> list[str]:
    with server.db.sessions() as session:
        return list(session.scalars(select(Player.email).order_by(Player.id)))


def test_a_challenge_to_an_internationalised_domain_reaches_it_and_one_to_a_non_ascii_local_part_is_refused(game):
    challenge(game, "challenge max@faß.de side-view")
    assert "invites you" in game.text("max@xn--fa-hia.de")  # delivered over SMTP, its domain as A-labels
    game.send(ALICE, fresh(ALICE, REFEREE, "challenge mü@faß.de side-view", subject="a game"), REFEREE)
    assert "not an email address" in game.text(ALICE)
    assert players(game.server) == [ALICE, "max@xn--fa-hia.de"]


def test_a_player_stored_with_a_domain_in_other_letters_is_kept_as_its_a_labels_once_migrated(tmp_path,
                                                                                               empty_database_url):
    """Migration 0026: an address stored before as ``m@faß.de`` becomes ``m@xn--fa-hia.de``, as every address
    is read now, so its player's next mail finds them; where another player holds that spelling already both
    are left as they are, never merged, and an address already in ASCII is untouched."""
    db = Database(empty_database_url)
    db.upgrade("0025")
    emails = ["m@faß.de", "n@bücher.example", "n@xn--bcher-kva.example", "plain@example.org"]
    with db.engine.begin() as connection:
        for number, email in enumerate(emails, 1):
            connection.execute(text(
                "INSERT INTO players (id, email, name, preferences, vacation_year, vacation_days_used, bounces, "
                "created_at) VALUES (:id, :email, :name, '{}', 0, 0, 0, CURRENT_TIMESTAMP)"),
                {"id": number, "email": email, "name": f"P{number}"})
    db.upgrade()
    with db.engine.connect() as connection:
        found = dict(connection.execute(text("SELECT id, email FROM players")).all())
    assert found == {1: "m@xn--fa-hia.de", 2: "n@bücher.example", 3: "n@xn--bcher-kva.example",
                     4: "plain@example.org"}
    db.migrate("downgrade", "0025")
    db.upgrade()
    db.engine.dispose()
