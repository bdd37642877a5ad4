"""The new text of a reply wherever it stands (above the quote, below it, between its lines), after
attributions and header blocks of many clients and languages, with invisible characters taken out;
in time linear in the text."""

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.commands.reading import read_commands
from app.inbound.invisible import visible
from app.inbound.quotes import new_text
from app.rules.registry import get_variant
from app.service import GAME_WORDS
from tests.server.reply_texts import ATTRIBUTIONS, HEADER_BLOCKS, MOVE_REQUEST, UNQUOTED_ORIGINAL, quoted

LG = get_variant("looking-glass")


def orders_read(reply: str, sent: list[str] | None = None) -> list[str]:
    """The commands read from a reply's new text; an unreadable line fails the test."""
    reading = read_commands(new_text(reply, sent), LG, GAME_WORDS)
    assert not reading.errors, reading.errors
    return [command.text for command in reading.commands]


# ---------------------------------------------------------------- attributions, in many languages

@pytest.mark.parametrize("client", ATTRIBUTIONS)
def test_an_order_below_the_quote_is_read_and_the_attribution_is_not(client):
    reply = f"{ATTRIBUTIONS[client]}\n\n{quoted(MOVE_REQUEST)}\n\nR g1-f3\n"
    assert new_text(reply, [MOVE_REQUEST]) == "R g1-f3"
    assert new_text(reply) == "R g1-f3"


@pytest.mark.parametrize("client", ATTRIBUTIONS)
def test_an_order_above_the_quote_is_read_and_the_attribution_is_not(client):
    reply = f"R g1-f3\nGood luck!\n\n{ATTRIBUTIONS[client]}\n\n{quoted(MOVE_REQUEST)}\n"
    assert new_text(reply, [MOVE_REQUEST]) == "R g1-f3\nGood luck!"


@pytest.mark.parametrize("client", ATTRIBUTIONS)
def test_an_original_pasted_unquoted_below_an_attribution_is_never_read(client):
    """Its example orders would be two more move orders: nothing after the attribution is read."""
    reply = f"R g1-f3\n\n{ATTRIBUTIONS[client]}\n\n{UNQUOTED_ORIGINAL}"
    assert new_text(reply) == "R g1-f3"
    assert orders_read(reply) == ["R g1-f3"]


# ---------------------------------------------------------------- header blocks, as Outlook translates them

@pytest.mark.parametrize("client", HEADER_BLOCKS)
def test_nothing_below_a_header_block_is_read_when_the_original_follows_unquoted(client):
    reply = f"R g1-f3\n\n{HEADER_BLOCKS[client]}\n\n{UNQUOTED_ORIGINAL}"
    assert new_text(reply) == "R g1-f3"
    assert orders_read(reply) == ["R g1-f3"]


@pytest.mark.parametrize("client", HEADER_BLOCKS)
def test_an_order_below_a_header_block_and_its_quote_is_read(client):
    reply = f"{HEADER_BLOCKS[client]}\n\n{quoted(MOVE_REQUEST)}\n\nR g1-f3\n"
    assert new_text(reply, [MOVE_REQUEST]) == "R g1-f3"
    assert orders_read(reply) == ["R g1-f3"]


# ---------------------------------------------------------------- inline replies

INLINE_REPLIES = {
    "between paragraphs": (
        "On 23/11/2026 10:00, h4ck wrote:\n"
        "> Bob has moved: it is your move.\n>\n"
        "> Game 7, Through the Looking-Glass. You are White.\n\n"
        "Finally!\n\n"
        "> Your order goes on the first line of your reply, for example:\n"
        ">    R e2-e4      move in the Real world (your world)\n\n"
        "R g1-f3\n\n"
        ">    O-O          castle (O-O-O the other side), in your own world\n\n"
        "-- \nAlice\n",
        "Finally!\n\nR g1-f3",
    ),
    "without empty lines around it": (
        "> Your order goes on the first line of your reply, for example:\n"
        "R g1-f3\n"
        ">    R e2-e4      move in the Real world (your world)\n"
        ">    O-O          castle (O-O-O the other side), in your own world\n",
        "R g1-f3",
    ),
    "within a nested quote": (
        "On Mon, 23 Nov 2026 at 10:00, h4ck <h4ck@example.com> wrote:\n"
        "> Take it back, I meant d4.\n>\n"
        "> > On Sun, 22 Nov 2026 at 09:00, Alice <alice@players.test> wrote:\n"
        "> > R e2-e4\n\n"
        "No takebacks. say no takebacks\n\n"
        "> > > M d7-d5\n",
        "No takebacks. say no takebacks",
    ),
    "indented quote marks": (
        "  > Reply above this line with your order.\n"
        "  > Opponent: Bob. Move 4.\n\n"
        "ask\n",
        "ask",
    ),
}


@pytest.mark.parametrize("shape", INLINE_REPLIES)
def test_lines_written_between_quoted_lines_are_read_and_the_quoted_ones_are_not(shape):
    reply, written = INLINE_REPLIES[shape]
    assert new_text(reply, [MOVE_REQUEST]) == written
    assert new_text(reply) == written


def rewrapped(text: str, width: int) -> str:
    """As a client that wraps a quote at ``width`` writes it: the overflow of a line on the next, unmarked."""
    lines = []
    for line in text.splitlines():
        cut = line.rfind(" ", 0, width)
        lines += [line[:cut], line[cut + 1 :]] if len(line) > width and cut > 0 else [line]
    return "\n".join(lines)


def test_the_wrapped_rest_of_a_quoted_line_is_part_of_the_quote():
    """Rewrapped at 70 columns, quoted lines of our piece list and order forms leave 'Nb1,' and 'impossible'
    on lines of their own, unmarked: the first names a square."""
    quote = rewrapped(quoted(MOVE_REQUEST), 70)
    assert "\nNb1,\n" in quote and "\nimpossible\n" in quote
    for reply in (f"R g1-f3\n\nOn Mon, 23 Nov 2026 at 10:00, h4ck wrote:\n{quote}\n",
                  f"On Mon, 23 Nov 2026 at 10:00, h4ck wrote:\n{quote}\n\nR g1-f3\n"):
        assert new_text(reply, [MOVE_REQUEST]) == "R g1-f3"


def test_a_line_that_does_not_complete_the_quoted_line_above_is_the_players():
    reply = "> Your order goes on the first line of your reply, for example:\nR g1-f3 is my order"
    assert new_text(reply, [MOVE_REQUEST]) == "R g1-f3 is my order"


def test_below_the_quote_a_signature_still_ends_the_new_text():
    reply = f"> On 23 Nov 2026, at 10:00, h4ck wrote:\n{quoted(MOVE_REQUEST)}\n\nR g1-f3\n\n-- \nAlice\nClub h4\n"
    assert new_text(reply, [MOVE_REQUEST]) == "R g1-f3"


@settings(max_examples=200, deadline=None)
@given(cut=st.integers(1, len(MOVE_REQUEST.splitlines())), attribution=st.sampled_from(["", *ATTRIBUTIONS]),
       written=st.sampled_from(["R g1-f3", "R g1-f3\nGood luck!", "ask", "say nice move\n\nM e7-e5"]),
       spaced=st.booleans(), above=st.booleans())
def test_what_the_player_wrote_is_read_wherever_it_stands_in_the_quote(cut, attribution, written, spaced, above):
    """Above the quote, or below any of its lines (an attribution introduces the quote, so at least one
    quoted line stands between it and what the player wrote below)."""
    lines = quoted(MOVE_REQUEST).splitlines()
    gap = "\n\n" if spaced else "\n"
    top = f"{ATTRIBUTIONS[attribution]}\n" if attribution else ""
    if above:
        reply = written + gap + top + "\n".join(lines) + "\n"
    else:
        reply = top + "\n".join(lines[:cut]) + gap + written + gap + "\n".join(lines[cut:]) + "\n"
    assert new_text(reply, [MOVE_REQUEST]) == written


# ---------------------------------------------------------------- invisible characters

FORMAT_CHARACTERS = ["\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u2060", "\ufeff", "\u00ad", "\u202a"]
SPACES = ["\u00a0", "\u202f", "\u2007", "\u3000"]


@pytest.mark.parametrize("character", FORMAT_CHARACTERS, ids=lambda character: f"U+{ord(character):04X}")
def test_format_characters_are_taken_out_before_reading(character):
    assert orders_read(f"R e2{character}-e4") == ["R e2-e4"]
    assert orders_read(f"{character}R{character} e2-e4{character}\nthanks") == ["R e2-e4"]


@pytest.mark.parametrize("space", SPACES, ids=lambda space: f"U+{ord(space):04X}")
def test_other_spaces_read_as_spaces(space):
    assert orders_read(f"R{space}e2-e4") == ["R e2-e4"]
    assert new_text(f"R{space}e2-e4") == "R e2-e4"


def test_joiners_are_kept_within_words_and_emoji_a_say_passes_on():
    said = "say \U0001f469\u200d\U0001f4bb ready, \u0645\u06cc\u200c\u062e\u0648\u0627\u0645"  # emoji, Persian
    assert new_text(said) == said
    assert visible("a\u200db \u0645\u200d") == "ab \u0645"


def test_an_invisible_character_does_not_hide_an_attribution():
    attribution = "On Mon, 23 Nov 2026 at 10:00,\u200b h4ck\u00a0<h4ck@example.com>\u200e wrote:"
    reply = f"R g1-f3\n\n{attribution}\n{UNQUOTED_ORIGINAL}"
    assert new_text(reply) == "R g1-f3"


# ---------------------------------------------------------------- linear time

LONG = 100_000
LONG_TEXTS = {
    "an attribution's words": "On " + "Mon, 23 Nov " * (LONG // 12) + "wrote:",
    "a header field": "From: " + "h4ck " * (LONG // 5) + "\nSent: today",
    "addresses": "<a@" * (LONG // 3) + ">:",
    "address signs": "@" * LONG + ">:",
    "angle brackets": "<" * LONG,
    "spaces": " " * LONG + "x",
    "quote marks": ">" * LONG,
    "verbs": "Den " + "skrev " * (LONG // 6) + ":",
    "dates": "2026/11/23 " * (LONG // 11) + "<a@b>",
    "zero-width spaces": "\u200b" * LONG + "R e2-e4",
    "joiners": "\u0645" + "\u200d" * LONG + "\u0645",
    "header lines": "From: a\n" * (LONG // 8),
    "attribution starts": "On 10:00 <\n" * (LONG // 11),
    "quoted and unquoted lines": "> Opponent: Bob. Move 4.\nx\n" * (LONG // 26),
    "lines we sent": "Opponent: Bob. Move 4.\n\n" * (LONG // 24),
}


@pytest.mark.parametrize("shape", LONG_TEXTS)
def test_a_long_text_is_read_in_linear_time(shape):
    """100,000 characters (the most read of a message) in a second of processor time, in a line or in many: a
    pattern that backtracked, or a walk that went back over the lines, would take minutes."""
    text = LONG_TEXTS[shape]
    started = time.process_time()
    read_commands(new_text(text, [MOVE_REQUEST]), LG, GAME_WORDS)
    assert time.process_time() - started < 1.0
