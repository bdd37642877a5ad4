"""The feed parser's end-of-part line break search (app/mail/line_ends.py) finds what the standard one finds."""

import random
import re
from email import feedparser, message_from_bytes

import pytest

from app.mail.clients import STYLES, reply
from app.mail.line_ends import LineBreakAtEnd
from app.mail.parse import parse
from app.mail.policy import POLICY
from tests.server.harness import ALICE, Table

STANDARD = re.compile(r"(\r\n|\r|\n)\Z")


@pytest.mark.parametrize("seed", range(3))
def test_the_same_line_break_is_found_at_the_end_of_any_text(seed):
    rng = random.Random(seed)
    ours = LineBreakAtEnd()
    for _ in range(5000):
        text = "".join(rng.choice("ab\r\n ") for _ in range(rng.randrange(0, 8)))
        expected, found = STANDARD.search(text), ours.search(text)
        assert (found and found.group(0)) == (expected and expected.group(0)), repr(text)
        assert (found and found.span()) == (expected and expected.span()), repr(text)


def test_parsing_mail_uses_it():
    assert isinstance(feedparser.NLCRE_eol, LineBreakAtEnd)


@pytest.mark.parametrize("style", STYLES)
def test_every_client_reply_parses_as_with_the_standard_search(server, style, monkeypatch):
    """Parts, preambles and epilogues come out the same, with LF and with CRLF line ends."""
    table = Table(server)
    table.start()
    raw = reply(table.last(ALICE, "request").raw, "R e2-e4", style, ALICE)
    for variant in (raw.replace(b"\r\n", b"\n"), raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")):
        ours, ours_text = message_from_bytes(variant, policy=POLICY), parse(variant).text
        with monkeypatch.context() as patched:
            patched.setattr(feedparser, "NLCRE_eol", STANDARD)
            standard, standard_text = message_from_bytes(variant, policy=POLICY), parse(variant).text
        assert ours_text == standard_text
        for mine, theirs in zip(ours.walk(), standard.walk(), strict=True):
            assert (mine.preamble, mine.epilogue) == (theirs.preamble, theirs.epilogue)
            if not mine.is_multipart():
                assert mine.get_payload() == theirs.get_payload()
