"""The other commands by mail: draws, ask, board, history, help, notebook, games, name."""

import pytest

from app.games.commands.base import ALSO, FORM, MailCommand, find, first_words, help_line, order_forms
from app.games.commands.reading import Command
from app.games.commands.registry import LOBBY_COMMANDS, game_commands
from app.present.registry import presenter_for
from app.rules.registry import VARIANTS
from app.service import BOOK
from tests.server.harness import ALICE, BOB, Table


def test_draw_offer_decline_and_accept_by_mail(server):
    table = Table(server)
    game_id = table.start()
    table.reply(ALICE, "offer draw", kind="request")
    assert "Alice offers a draw" in table.last(BOB).subject
    table.reply(BOB, "decline draw", kind="draw-offer")
    assert "Bob declined your draw offer" in table.text(ALICE)
    table.reply(BOB, "offer draw", kind="draw-offer")
    table.reply(ALICE, "accept draw", kind="draw-offer")
    game = table.game(game_id)
    assert (game.status, game.result, game.reason) == ("over", "1/2-1/2", "agreement")
    assert "Draw (mutual agreement)" in table.last(BOB, "game-over").subject
    assert "A draw: mutual agreement." in table.text(BOB, "game-over")


def test_ask_is_answered_and_the_opponent_hears_of_it_in_the_next_request(server):
    table = Table(server)
    table.start()
    table.reply(ALICE, "ask", kind="request")
    answer = table.text(ALICE, "answer")
    assert "legal move in the Mirror world: no" in answer and "It is still your move." in answer
    table.reply(ALICE, "R e2-e4", kind="request")
    assert "Alice asked whether they have any legal move in the Mirror world" in table.text(BOB, "request")


def test_board_history_help_and_notebook_off(server):
    table = Table(server)
    game_id = table.start()
    table.reply(ALICE, "board", kind="request")
    assert "Your current move request, as asked." in table.text(ALICE, "board")  # its clock runs on
    table.reply(BOB, "history", kind="started")
    assert f"/games/{game_id}?key=" in table.text(BOB, "history")
    table.reply(BOB, "help", kind="history")
    assert "say <text>" in table.text(BOB, "help")
    table.reply(ALICE, "R e2-e4", kind="request")
    table.reply(BOB, "M g8-f6", kind="request")  # the knight comes through to Real f6: White's world
    table.reply(ALICE, "notebook off", kind="request")
    assert "hidden" in table.text(ALICE)
    table.reply(ALICE, "board", kind="notice")
    text = table.text(ALICE, "board")
    assert "Mirror world (your pieces)" in text and "Notebook:" not in text


def test_games_and_name_to_the_bare_address(server):
    table = Table(server)
    game_id = table.start()
    table.write_confirmed(ALICE, "name Alice Liddell")
    assert "You are now called Alice Liddell" in table.text(ALICE)
    table.write(ALICE, "games")
    assert f"Game {game_id}, Through the Looking-Glass, against Bob: your move, by " in table.text(ALICE)


def test_accept_and_decline_words_outside_an_invitation_are_explained(server):
    table = Table(server)
    table.start()
    table.reply(ALICE, "accept", kind="request")
    assert "accept draw" in table.text(ALICE)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_help_and_the_order_forms_are_made_from_the_command_registry(server, variant):
    """Every command a game reply understands is in help with its one line, the variant's own ones too, and the
    order forms' command lines are the registry's words."""
    table = Table(server, variant)
    table.start()
    player = ALICE  # White, to move first in every variant
    table.reply(player, "help", kind="request")
    help_text = table.text(player, "help")
    for command in BOOK.game:
        assert f"{command.usage} ({command.help})" in help_text, command.name
    for command in presenter_for(variant).commands():
        assert f"{command.name} {command.argument}".strip() + f" ({command.help})" in help_text, command.name
    say = next(command for command in BOOK.game if command.name == "say")
    assert f"{say.usage} {say.help}" in table.text(player, "request")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_command_objects_help_and_the_order_forms_say_the_same(server, variant):
    """Help lists exactly the game's command objects, each with its one line; the order forms show each FORM
    command with its line and name each ALSO one; and every command help lists is carried out, not refused as
    'not understood'."""
    commands = game_commands(presenter_for(variant), BOOK)
    table = Table(server, variant)
    table.start()
    table.reply(ALICE, "help", kind="request")
    help_text = table.text(ALICE, "help")
    listed = help_text.split("Commands: ", 1)[1].split(" To start a new game", 1)[0]
    assert listed == " ".join(help_line(commands).removeprefix("Commands: ").split())
    request = table.text(ALICE, "help")  # the help mail carries the order forms too
    for command in commands:
        if command.form == FORM:
            assert f"{command.usage} {command.help}" in request, command.name
    also = ", ".join(command.usage for command in commands if command.form == ALSO)
    assert f"; also: {also} " in request and request.count("; also: ") == 1
    for command in commands:
        if command.name in ("say", "vacation", "public"):
            continue  # they pass words on, pause the clock or change consent: each has its own test
        before = len(table.mails(ALICE))
        table.reply(ALICE, command.name, kind=None)
        assert len(table.mails(ALICE)) > before, command.name
        assert "not understood here" not in table.last(ALICE).subject, command.name


def test_a_command_is_one_object_whatever_its_name():
    """A command of several words (``withdraw offer N``) is found from the line the reader gives (its first word
    and the rest), its argument the words after its name; help and the forms take it up from the object alone."""

    def nothing(context, command):
        return None

    withdraw = MailCommand("withdraw offer", "<number>", "withdraw one of your offers", in_lobby=nothing, form=FORM)
    commands = (*LOBBY_COMMANDS, withdraw)  # the game service's own: the club has a ``withdraw`` of its own
    assert "withdraw" in first_words(commands)
    found = find(commands, Command("withdraw", "withdraw offer 3", "offer 3"))
    assert found is not None and found[0] is withdraw and found[1].argument == "3"
    assert find(commands, Command("withdraw", "withdraw everything", "everything")) is None
    assert "withdraw offer <number> (withdraw one of your offers)" in help_line(commands)
    assert order_forms(commands)[-1] == ("withdraw offer <number>", "withdraw one of your offers; also: help")
    assert find(LOBBY_COMMANDS, Command("name", "name Alice", "Alice"))[1].argument == "Alice"
