"""The body read of a reply: HTML replies with the new text below or between blockquotes, multiparts with
no parts or only empty ones, and such replies through the pipeline."""

from email import message_from_bytes
from email.policy import default

import pytest

from app.inbound.parse import parse
from app.inbound.quotes import new_text
from tests.server.harness import ALICE, Table
from tests.server.reply_texts import MOVE_REQUEST

QUOTED_HTML = ("<p>Reply above this line with your order.</p><p>Your order goes on the first line of your reply, for "
               "example:<br>R e2-e4 move in the Real world<br>O-O castle</p>")


def html_reply(html: str) -> bytes:
    return ("From: alice@players.test\r\nTo: referee@mirrorpost.test\r\nSubject: Re: Game 7\r\n"
            "Message-ID: <html@players.test>\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + html).encode()


HTML_REPLIES = {
    "thunderbird, below": (f'<div class="moz-cite-prefix">On 23/11/2026 10:00, h4ck wrote:<br></div>'
                           f'<blockquote type="cite">{QUOTED_HTML}</blockquote><p>R g1-f3</p>'),
    "webmail, below": (f"<p>On 2026-11-23 10:00, h4ck &lt;h4ck@example.com&gt; wrote:</p>"
                       f'<blockquote type="cite" style="border-left:#1010ff 2px solid">{QUOTED_HTML}</blockquote>'
                       "<p>R g1-f3</p>"),
    "apple mail, below": (f'<div><br><blockquote type="cite"><div>On 23 Nov 2026, at 10:00, h4ck '
                          f"&lt;h4ck@example.com&gt; wrote:</div><br>{QUOTED_HTML}</blockquote></div>"
                          "<div>R g1-f3</div>"),
    "inline": (f"<div>Den 23.11.2026 10:00, skrev h4ck:</div><blockquote>{QUOTED_HTML}</blockquote>"
               f"<div>R g1-f3</div><blockquote>{QUOTED_HTML}</blockquote><div><br></div>"),
    "above": f"<div>R g1-f3</div><blockquote>{QUOTED_HTML}</blockquote>",
    "outlook on the web": (f'<div>R g1-f3</div><div id="appendonsend"></div><hr><div id="divRplyFwdMsg"><b>From:</b> '
                           f"h4ck &lt;h4ck@example.com&gt;<br><b>Sent:</b> Monday</div><div>{QUOTED_HTML}</div>"),
    "outlook for windows, in German": (
        '<p class="MsoNormal">R g1-f3</p><div style="border:none;border-top:solid #E1E1E1 1.0pt">'
        '<p class="MsoNormal"><b>Von:</b> h4ck &lt;h4ck@example.com&gt;<br><b>Gesendet:</b> Montag, 23. November '
        f"2026 10:00<br><b>An:</b> Alice<br><b>Betreff:</b> Partie 7</p></div>{QUOTED_HTML}"),
}


@pytest.mark.parametrize("shape", HTML_REPLIES)
def test_an_html_reply_is_read_wherever_its_new_text_stands(shape):
    text = parse(html_reply(HTML_REPLIES[shape])).text
    assert new_text(text, [MOVE_REQUEST]) == "R g1-f3"
    assert new_text(text) == "R g1-f3"


def with_body(content_type: str, body: str) -> bytes:
    return (f"From: alice@players.test\r\nTo: referee@mirrorpost.test\r\nSubject: Re: Game 7\r\n"
            f"Message-ID: <parts@players.test>\r\nContent-Type: {content_type}\r\n{body}").encode()


EMPTY_ALTERNATIVES = {
    "no boundary": with_body("multipart/alternative", "\r\nR g1-f3\r\n"),
    "a boundary found nowhere": with_body('multipart/alternative; boundary="xyz"', "\r\nR g1-f3\r\n"),
    "base64 with no parts": with_body('multipart/alternative; boundary="xyz"',
                                      "Content-Transfer-Encoding: base64\r\n\r\nUiBnMS1mMw==\r\n"),
}


@pytest.mark.parametrize("shape", EMPTY_ALTERNATIVES)
def test_a_multipart_alternative_in_which_no_part_was_found_is_read_as_text(shape):
    assert parse(EMPTY_ALTERNATIVES[shape]).text.strip() == "R g1-f3"


AROUND_THE_PARTS = {
    "empty parts, the text before them": with_body(
        'multipart/alternative; boundary="xyz"',
        "\r\nresign\r\n--xyz\r\nContent-Type: text/plain\r\n\r\n\r\n--xyz\r\nContent-Type: text/html\r\n\r\n"
        "<div><br></div>\r\n--xyz--\r\n"),
    "no parts at all": with_body('multipart/alternative; boundary="xyz"', "\r\nresign\r\n--xyz--\r\n"),
    "a part whose text is hidden, the text after them": with_body(
        'multipart/alternative; boundary="xyz"',
        "\r\n--xyz\r\nContent-Type: text/html\r\n\r\n<div style='display:none'>resign</div>\r\n--xyz--\r\nresign\r\n"),
}


@pytest.mark.parametrize("shape", AROUND_THE_PARTS)
def test_the_text_around_the_parts_of_a_multipart_is_never_read(shape):
    """No client shows a multipart's preamble or epilogue: what is written there is not the message."""
    assert "resign" not in parse(AROUND_THE_PARTS[shape]).text


def test_the_text_around_the_parts_is_not_read_when_a_part_says_something():
    raw = with_body('multipart/alternative; boundary="xyz"',
                    "\r\nThis is a multi-part message in MIME format.\r\n--xyz\r\nContent-Type: text/plain\r\n\r\n"
                    "R g1-f3\r\n--xyz--\r\nR e2-e4\r\n")
    assert parse(raw).text.strip() == "R g1-f3"


def test_an_attachment_alone_gives_no_text():
    raw = with_body('multipart/mixed; boundary="xyz"',
                    "\r\nThis is a multi-part message in MIME format.\r\n--xyz\r\nContent-Type: application/pdf\r\n"
                    "Content-Disposition: attachment\r\n\r\nR e2-e4\r\n--xyz--\r\n")
    assert parse(raw).text == ""


def rebodied(raw: bytes, content_type: str, body: str) -> bytes:
    """A client's reply with the same threading headers and another body."""
    message = message_from_bytes(raw, policy=default)
    head = "".join(f"{name}: {message[name]}\r\n" for name in
                   ("From", "To", "Subject", "Date", "Message-ID", "In-Reply-To", "References"))
    return (head + f"MIME-Version: 1.0\r\nContent-Type: {content_type}\r\n\r\n{body}").encode()


def test_a_reply_whose_alternatives_were_lost_is_played(server):
    table = Table(server)
    game_id = table.start()
    raw = rebodied(table.reply_bytes(ALICE, "", "gmail", kind="request"), "multipart/alternative", "R g1-f3\r\n")
    assert table.deliver(raw) == "done: R g1-f3: moved"
    assert table.game(game_id).ply == 1


@pytest.mark.parametrize(("style", "written"), [
    ("gmail-bottom", "R g1\u200b-f3"),
    ("thunderbird-inline", "\ufeffR\u00a0g1-f3"),
    ("outlook-fr", "R g1\u200d-f3"),
    ("webmail-html-bottom", "R\u202fg1-f3\u200e"),
])
def test_a_reply_with_invisible_characters_is_played(server, style, written):
    table = Table(server)
    game_id = table.start()
    assert table.reply(ALICE, written, style, kind="request") == "done: R g1-f3: moved"
    assert table.game(game_id).ply == 1


def test_a_forwarded_message_attached_to_an_html_reply_is_never_read_as_the_reply():
    """The reply's own HTML says the order; the attached mail (message/rfc822) says 'resign': not read."""
    from email.message import EmailMessage

    forwarded = EmailMessage()
    forwarded["From"], forwarded["Subject"] = "Bob <bob@players.test>", "old"
    forwarded.set_content("resign")
    reply = EmailMessage()
    reply["From"], reply["To"], reply["Subject"] = f"Alice <{ALICE}>", "referee@mirrorpost.test", "Re: move"
    reply.set_content("<p>R e2-e4</p>", subtype="html")
    reply.add_attachment(forwarded)
    parsed = parse(reply.as_bytes())
    assert parsed.from_html and "R e2-e4" in parsed.text and "resign" not in parsed.text
