"""Dark Chess by mail and on the web (DC-2 .. DC-6): what each player is told in both parts of their mails, the
fog drawn as fog, a refusal with its reason to the orderer alone, the commands beside moves, and each step of a
player's history showing their sight as it was then."""

from __future__ import annotations

import re
from email import message_from_bytes
from email.policy import default

from tests.server.harness import ALICE, BOB, Table
from tests.web_helpers import client_for

FOG_CELL = 'bgcolor="#8a8a8a"'


def parts(table: Table, address: str, kind: str | None = None) -> tuple[str, str]:
    """The text and HTML parts of the player's latest mail (of ``kind``), whitespace run together in the text."""
    message = message_from_bytes(table.last(address, kind).raw, policy=default)
    return " ".join(message.get_body(("plain",)).get_content().split()), message.get_body(("html",)).get_content()


def board_rows(table: Table, address: str) -> dict[str, list[str]]:
    """The rows of the board in the text part of the player's latest mail, by rank."""
    text = message_from_bytes(table.last(address).raw, policy=default).get_body(("plain",)).get_content()
    return {line.split()[0]: line.split()[1:9] for line in text.splitlines()
            if re.match(r"^\s+[1-8]\s+\S+(\s+\S+){7}\s+[1-8]$", line)}


def test_dc4_each_player_is_told_their_part_in_both_parts_of_their_mail_with_the_fog_drawn(server):
    table = Table(server, "dark-chess")
    table.start()
    table.reply(ALICE, "e2-e4", kind="request")
    table.reply(BOB, "d7-d5", kind="request")
    table.reply(ALICE, "e4xd5", kind="request")
    text, html = parts(table, BOB, "request")
    assert "Alice moved and took your pawn on d5." in text and "Alice moved and took your pawn on d5." in html
    assert "e4" not in text.split("Since your last move:")[1].split("Your board")[0]  # not the square it came from
    assert "'~': fog, a square you cannot see (anything may stand there)." in text
    assert html.count(FOG_CELL) > 20 and "fog, a square you cannot see" in html
    rows = board_rows(table, BOB)
    assert rows["8"][4] == "q" and rows["5"][4] == "(P)"  # the d-file fifth from Black's side; d5, told of, marked
    assert rows["1"] == ["~"] * 8  # White's back rank is fog to Black
    text, html = parts(table, ALICE)
    assert "You moved your pawn e4-d5, taking Bob's pawn." in text


def test_dc2_a_refused_order_is_told_its_reason_by_mail_and_the_opponent_nothing(server):
    table = Table(server, "dark-chess")
    game_id = table.start()
    bob = len(table.mails(BOB))
    table.reply(ALICE, "f1-a6", kind="request")
    text, _html = parts(table, ALICE)
    assert "Not accepted: your bishop cannot move to a6." in text
    assert len(table.mails(BOB)) == bob and table.game(game_id).ply == 0


def test_dc6_board_history_help_rules_and_say_beside_moves(server):
    table = Table(server, "dark-chess")
    table.start()
    table.reply(ALICE, "e2-e4", kind="request")
    table.reply(BOB, "board")
    text, html = parts(table, BOB)
    assert "Your board" in text and "'~': fog" in text and FOG_CELL in html
    table.reply(BOB, "history")
    assert "/games/1?key=" in parts(table, BOB)[0]
    table.reply(BOB, "help")
    assert "Chess without check, in the fog" in parts(table, BOB)[0]
    table.reply(BOB, "rules")
    assert "# Dark Chess" in parts(table, BOB)[0] and "## What you see (DC-3)" in parts(table, BOB)[0]
    table.reply(BOB, "say Good luck in the fog!")
    assert "Bob says: Good luck in the fog!" in parts(table, ALICE)[0]


def test_dc3_each_step_of_the_history_shows_the_players_sight_as_it_was(server):
    """The JSON gives each step's view as the event record kept it, and the page of each step draws that sight:
    its fog is that step's fog, not today's."""
    table = Table(server, "dark-chess")
    game_id = table.start()
    for address, order in ((ALICE, "e2-e4"), (BOB, "d7-d5"), (ALICE, "e4-d5"), (BOB, "d8-d5"), (ALICE, "b1-c3")):
        table.reply(address, order, kind="request")
    black = client_for(server, game_id, table.game(game_id).black_id)
    events = black.get(f"/games/{game_id}.json").json["events"]
    recorded = [event.views["black"] for event in table.events(game_id) if event.told.get("black")]
    assert [event["view"] for event in events] == recorded
    fogs = []
    for number, event in enumerate(events, start=1):
        page = black.get(f"/games/{game_id}?step={number}").data.decode()
        label = re.search(r'aria-label="Your board: ([^"]*)"', page).group(1)
        view = event["view"]
        own = {name for name in SQUARES if own_man(view["own"], name)}
        assert fog_of(label) == SQUARES - own - set(view["seen"]), number  # that step's fog, drawn
        fogs.append(fog_of(label))
    assert len(set(map(frozenset, fogs))) > 2
    assert "c3" in fogs[-1] and "d5" not in fogs[-1]  # White's knight came to c3 unseen; Black's queen stands on d5


SQUARES = {f"{file}{rank}" for file in "abcdefgh" for rank in "12345678"}


def own_man(placement: str, square: str) -> bool:
    rank = placement.split("/")[8 - int(square[1])]
    files = "".join("." * int(char) if char.isdigit() else char for char in rank)
    return files["abcdefgh".index(square[0])] != "."


def fog_of(label: str) -> set[str]:
    """The fogged squares a board's description names ("Fog: ranks 1 and 2; a3, c3.")."""
    found = re.search(r"Fog: ([^.]*)\.", label)
    if not found:
        return set()
    squares: set[str] = set()
    for part in found.group(1).split("; "):
        if part.startswith("rank"):
            squares |= {f"{file}{rank}" for rank in re.findall(r"[1-8]", part) for file in "abcdefgh"}
        else:
            squares |= set(part.split(", "))
    return squares
