"""Orders and commands written with look-alike letters or fullwidth forms are read as meant, and the reading
says so; what ``say`` passes on keeps every character; a square in a letter with no Latin look-alike is an
error naming the line, never silence. Over real SMTP where it reaches a game."""

import pytest

from app.games.commands.lookalikes import folded
from app.games.commands.reading import read_commands
from app.rules.registry import get_variant
from app.service import GAME_WORDS, LOBBY_WORDS
from tests.server.harness import Table
from tests.server.smtp_game import ALICE, BOB

LG = get_variant("looking-glass")
PALINDROMIC = get_variant("palindromic")

WRITTEN = {
    "Cyrillic e": ("R \u0435\u0032-\u0435\u0034", "R e2-e4"),
    "Cyrillic world letter and e": ("\u0420 \u04352-\u04354", "P e2-e4"),
    "fullwidth": ("R \uff45\uff12\uff0d\uff45\uff14", "R e2-e4"),
    "Greek omicron in a castling": ("R \u039f-\u039f", "R O-O"),
    "Arabic-Indic digits": ("R e\u0662-e\u0664", "R e2-e4"),
    "a mathematical bold e": ("R \U0001d41e2-\U0001d41e4", "R e2-e4"),
    "variation selectors and a Hangul filler": ("R e2\ufe0f-\u3164e4\U000e0100", "R e2-e4"),
}


@pytest.mark.parametrize("shape", WRITTEN)
def test_a_line_with_lookalikes_folds_to_plain_latin(shape):
    written, meant = WRITTEN[shape]
    assert folded(written) == meant


@pytest.mark.parametrize(("written", "read"), [
    ("R \u0435\u0032-\u0435\u0034", "R e2-e4"),
    ("R \uff45\uff12\uff0d\uff45\uff14", "R e2-e4"),
    ("r\u0435sign", "resign"),
    ("\u03bfffer draw", "offer draw"),
])
def test_an_order_written_in_lookalikes_is_read_and_the_reading_says_how(written, read):
    reading = read_commands(written, LG, GAME_WORDS)
    assert [command.text for command in reading.commands] == [read] and not reading.errors
    assert reading.notes == [f"'{written}' was read as '{read}'"]


def test_a_plain_line_gets_no_note():
    reading = read_commands("R e2-e4\nthanks!", LG, GAME_WORDS)
    assert len(reading.commands) == 1 and reading.notes == []


def test_what_say_passes_on_is_kept_as_written_and_only_its_command_word_is_folded():
    written = "\u0455ay Привет, сосед! \uff11\uff10 ходов"  # a Cyrillic dze for the s, fullwidth digits
    reading = read_commands(written, LG, GAME_WORDS)
    assert [(command.kind, command.argument) for command in reading.commands] == [("say", written[4:])]
    assert reading.notes == [f"'{written}' was read as 'say {written[4:]}'"]


def test_a_name_keeps_its_letters_and_an_address_keeps_its_script():
    reading = read_commands("name \u0421\u0435\u0440\u0433\u0435\u0439\n"
                            "challenge \u043f\u043e\u0447\u0442\u0430@\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444"
                            " d\u0430ys=3", None, LOBBY_WORDS)
    assert [command.argument for command in reading.commands] == [
        "\u0421\u0435\u0440\u0433\u0435\u0439",
        "\u043f\u043e\u0447\u0442\u0430@\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444 days=3"]


@pytest.mark.parametrize("variant", [LG, PALINDROMIC])
def test_a_square_in_a_letter_with_no_latin_lookalike_is_an_error_naming_the_line(variant):
    reading = read_commands("\u04362-\u04364", variant, GAME_WORDS)
    assert reading.errors == ["'\u04362-\u04364' could not be read: squares are written with the Latin letters a "
                              "to h, and '\u0436' is not one"]


def test_an_order_in_lookalikes_to_the_bare_address_is_said_to_go_to_its_game():
    for line in ("\u0435\u0032-\u0435\u0034", "\u04362-\u04364"):
        assert read_commands(line, None, LOBBY_WORDS).errors == [
            f"'{line}': orders for a game go in a reply to that game's move request"]


@pytest.mark.parametrize("chatter", [
    "\u0421\u043f\u0430\u0441\u0438\u0431\u043e \u0437\u0430 \u0438\u0433\u0440\u0443!",  # Russian thanks
    "\u039a\u03b1\u03bb\u03ae \u03c3\u03c5\u03bd\u03ad\u03c7\u03b5\u03b9\u03b1",  # Greek: good continuation
    "\u7b2c2\u5c40\u306f\u697d\u3057\u304b\u3063\u305f",  # Japanese, with a digit after a letter
    "\u0432 2 \u0447\u0430\u0441\u0430",  # Russian: at two o'clock
])
def test_chatter_in_other_scripts_stays_chatter(chatter):
    reading = read_commands(chatter, LG, GAME_WORDS)
    assert reading.commands == [] and reading.errors == [] and reading.notes == []


def started(game) -> int:
    game_id = Table(game.server).start()
    game.worker.run_once()
    return game_id


@pytest.mark.parametrize(("written", "style"), [
    ("R \u0435\u0032-\u0435\u0034", "gmail"),
    ("R \uff45\uff12\uff0d\uff45\uff14", "apple"),
    ("\u0420 \u04352-\u04354".replace("\u0420", "R"), "html-only"),
])
def test_an_order_in_lookalikes_is_played_over_smtp(game, written, style):
    game_id = started(game)
    answer = game.reply(ALICE, written, style=style)
    assert "your move (Black)" in game.subject(BOB)
    assert Table(game.server).game(game_id).ply == 1
    assert "Read as:" in answer and "'R e2-e4'" in answer  # the mover is told how the line was read
    assert "Read as" not in game.text(BOB)  # their own lines: to them alone


def test_an_unreadable_square_gets_an_answer_naming_the_line_over_smtp(game):
    game_id = started(game)
    answer = game.reply(ALICE, "R \u04362-\u04364")
    assert "'R \u04362-\u04364' could not be read" in answer
    assert Table(game.server).game(game_id).ply == 0


def test_say_in_cyrillic_reaches_the_opponent_letter_for_letter_over_smtp(game):
    started(game)
    message = "Привет, сосед! Хорошего хода."  # many of its letters have Latin look-alikes
    game.reply(ALICE, f"say {message}")
    assert message in game.text(BOB)
