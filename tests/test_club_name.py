"""The name the club shows a player by: never any part of their address."""

from app.club.names import club_name


def test_a_chosen_name_is_shown_as_chosen():
    assert club_name("Alice Liddell", "alice@players.test", 7) == "Alice Liddell"


def test_a_name_that_is_the_address_or_its_local_part_or_holds_an_address_is_replaced():
    for name in ("Alice", "alice", " ", "alice@players.test", "Me <alice@players.test>", "x@y"):
        assert club_name(name, "alice@players.test", 7) == "Player 7", name
