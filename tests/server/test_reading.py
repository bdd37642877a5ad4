"""Reading replies as real clients send them: only the player's new text is ever read."""

import random
import re
from email import message_from_bytes, policy

import pytest

from app.games.commands.reading import read_commands
from app.inbound.clients import STYLES
from app.inbound.parse import feed_whole, html_to_text, parse
from app.inbound.quotes import new_text, normalise
from app.outbound.policy import POLICY
from app.outbound.render import NOTICE_MARKER, ORDER_MARKER
from app.rules.registry import get_variant
from app.service import GAME_WORDS
from tests.server.harness import ALICE, BOB, Table, assert_same_message

LG = get_variant("looking-glass")


@pytest.mark.parametrize("style", STYLES)
def test_each_client_style_yields_only_the_new_order(server, style):
    """The quoted request holds example orders (R e2-e4, M d4-d5 ...): none may be read."""
    table = Table(server)
    game_id = table.start()
    outcome = table.reply(ALICE, "R g1-f3\nThanks!", style=style, kind="request")
    assert outcome == "done: R g1-f3: moved", outcome
    assert table.game(game_id).ply == 1


@pytest.mark.parametrize("charset", ["iso-8859-1", "gb2312", "koi8-r", "windows-1252"])
def test_odd_charsets_are_read(server, charset):
    table = Table(server)
    game_id = table.start()
    table.reply(ALICE, "R e2\u2013e4", style="thunderbird", kind="request")  # an en dash, in UTF-8
    assert table.game(game_id).ply == 1
    table.reply(BOB, "M e7-e5", style="apple", kind="request", charset=charset)
    assert table.game(game_id).ply == 2


def test_unknown_charset_falls_back_instead_of_failing():
    raw = (b"From: a@b.test\r\nTo: r@x.test\r\nSubject: hi\r\nMessage-ID: <1@b>\r\n"
           b"Content-Type: text/plain; charset=x-no-such-charset\r\n\r\nR e2-e4\r\n")
    assert parse(raw).text.strip() == "R e2-e4"


@pytest.mark.parametrize("style", STYLES)
def test_a_message_fed_whole_is_the_message_the_standard_parser_makes(server, style):
    """With 8-bit bytes in a header and a body too, kept as the standard parser keeps them."""
    table = Table(server)
    table.start()
    raw = table.reply_bytes(ALICE, "R e2-e4", style, kind="request")
    eight_bit = raw.replace(b"Subject: ", b"Subject: \xe9\xe8 ", 1) + "\r\n\u00e9t\u00e9\r\n".encode("latin-1")
    for each in (raw, eight_bit):
        assert_same_message(feed_whole(each), message_from_bytes(each, policy=POLICY))


def test_gb2312_is_read_as_gb18030():
    body = "R e2-e4\n\u8c22\u8c22".encode("gb18030")
    raw = (b"From: a@b.test\r\nTo: r@x.test\r\nSubject: hi\r\nMessage-ID: <2@b>\r\n"
           b"Content-Type: text/plain; charset=gb2312\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + body)
    assert parse(raw).text.splitlines() == ["R e2-e4", "\u8c22\u8c22"]


@pytest.mark.parametrize("subject", [
    "Re: Game 12: move 5, your turn",
    "Re: a subject long enough that the client folded it onto\r\n a second line, and then some more",
    "=?utf-8?q?Re:_Game_5_=E2=80=93_your_turn?=",
    "=?iso-8859-1?b?QWJ3ZXNlbmQ6IFNjaGFjaA==?= =?utf-8?q?_=E2=99=9E?=",
    "Re: half =?utf-8?q?encoded_=C3=A9?= text",
    "Out of Office:   three   spaces",
])
def test_the_subject_reads_as_the_standard_policy_reads_it(subject):
    raw = (f"From: a@b.test\r\nTo: r@x.test\r\nSubject: {subject}\r\nMessage-ID: <s@b>\r\n"
           "Content-Type: text/plain\r\n\r\nR e2-e4\r\n").encode()
    standard = message_from_bytes(raw, policy=policy.default)["Subject"]
    assert " ".join(parse(raw).subject.split()) == " ".join(str(standard).split())


@pytest.mark.parametrize(
    "text",
    [
        "M d4-d5\n\nAm 23.11.2026 um 10:00 schrieb Mirrorpost referee <r@x>:\n> R e2-e4\n",
        "M d4-d5\n\nLe lun. 23 nov. 2026 à 10:00, Mirrorpost referee <r@x> a écrit :\n> R e2-e4\n",
        "M d4-d5\n\n-----Ursprüngliche Nachricht-----\nVon: referee\nR e2-e4\n",
        "M d4-d5\n\n-----Original Message-----\nFrom: referee\nR e2-e4\n",
        "M d4-d5\n\nFrom: Mirrorpost referee <r@x>\nSent: Monday\nTo: alice\nR e2-e4\n",
        "M d4-d5\n-- \nAlice\nR e2-e4 is my favourite opening",
        "M d4-d5\n\nSent from my iPhone\n\n> R e2-e4",
        "M d4-d5\n\n---------- Forwarded message ---------\nR e2-e4\n",
        "M d4-d5\nOn Mon, 23 Nov 2026 at 10:00, Mirrorpost referee <r@x>\nwrote:\nR e2-e4\n",
    ],
)
def test_attributions_separators_signatures_and_forwards_are_cut(text):
    assert new_text(text) == "M d4-d5"


@pytest.mark.parametrize("marker", [NOTICE_MARKER, ORDER_MARKER])
def test_a_reply_is_cut_at_our_marker_whichever_mail_it_headed(marker):
    """A move request says 'Reply above this line with your order.', every other mail 'Reply above this
    line.': a client that pastes the mail below the reply without quote marks is cut at either."""
    assert new_text(f"public on\n\n{marker}\n-----\nresign\n") == "public on"
    assert new_text(f"M d4-d5\n  {marker.upper()}\nR e2-e4") == "M d4-d5"


def test_lines_we_sent_are_quotes_even_without_markers():
    sent = "Game 1, move 3.\nYour order goes on the first line\n   R e2-e4      move in the Real world\nMore text"
    reply_text = ("R g1-f3\n\nGame 1, move 3.\nYour order goes on the first line\n"
                  "   R e2-e4      move in the Real world\n")
    assert new_text(reply_text, [sent]) == "R g1-f3"


def test_a_lone_line_that_we_also_sent_is_still_the_players_order():
    assert new_text("R e2-e4\nthanks", ["R e2-e4\nsomething else entirely"]) == "R e2-e4\nthanks"


def test_html_only_mail_without_the_quoted_parts():
    html = ('<div>O-O<br>cheers</div><div class="gmail_quote">On Mon wrote:<blockquote>R e2-e4</blockquote></div>'
            "<p>ignored</p>")
    assert html_to_text(html) == "O-O\ncheers"
    text = html_to_text("<p>M d2-d4</p><blockquote type=cite>R e2-e4</blockquote><p>bye</p>")
    assert [line for line in text.splitlines() if line] == ["M d2-d4", "bye"]


def test_chatter_is_ignored_and_order_lines_that_cannot_be_read_are_errors():
    reading = read_commands("Hello Bob!\nR e2-e4\nHave a nice day", LG, GAME_WORDS)
    assert [c.text for c in reading.commands] == ["R e2-e4"] and not reading.errors
    reading = read_commands("R e2-e4\nmy knight to e5 maybe", LG, GAME_WORDS)  # a square name: meant as an order
    assert reading.errors


def test_an_unreadable_line_means_nothing_in_the_message_is_applied(server):
    table = Table(server)
    game_id = table.start()
    table.reply(ALICE, "say hi\nR e2-e4\nR e7e9", kind="request")
    assert table.game(game_id).ply == 0
    assert table.mails(BOB, "said") == []
    text = table.text(ALICE)
    assert "Nothing in your message was applied, and it costs you nothing" in text


def test_two_move_orders_in_one_message_are_an_error(server):
    table = Table(server)
    game_id = table.start()
    table.reply(ALICE, "R e2-e4\nR d2-d4", kind="request")
    assert table.game(game_id).ply == 0
    assert "two move orders" in table.text(ALICE)


def test_client_that_dropped_the_plus_address_is_matched_by_in_reply_to(server):
    table = Table(server)
    game_id = table.start()
    raw = table.reply_bytes(ALICE, "R e2-e4", "gmail", kind="request")
    raw = raw.replace(b"To: referee+", b"To: referee-lost+").replace(b"referee-lost+", b"X-Old: ", 1)
    raw = raw.replace(b"X-Old: ", b"To: referee@mirrorpost.test\r\nX-Old: ", 1)
    table.deliver(raw)
    assert table.game(game_id).ply == 1


@pytest.mark.parametrize("seed", range(5))
def test_a_line_is_compared_without_quote_marks_case_or_spacing(seed):
    """``normalise`` takes quote marks off the front, runs every kind of space together and lowers the case,
    as the regular expressions it stands for would."""
    rng = random.Random(seed)
    alphabet = ["a", "B", "é", "-", ">", "|", " ", "\t", "\xa0", "\u2003", "\u3000", "\x0b", "\x1c", "É", "1"]
    for _ in range(2000):
        line = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 12)))
        expected = re.sub(r"\s+", " ", re.sub(r"^[\s>|]+", "", line)).strip().lower()
        assert normalise(line) == expected, repr(line)
