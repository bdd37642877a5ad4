"""The feed parser's two searches of app/inbound/feedparser_speed.py find what the standard patterns find."""

import random
import re
from email import feedparser, message_from_bytes

import pytest

from app.inbound.clients import STYLES
from app.inbound.feedparser_speed import (
    BOUNDARY_HEAD,
    BOUNDARY_TAIL,
    BoundaryLine,
    LineBreakAtEnd,
    PatternsForFeedParser,
)
from app.inbound.parse import parse
from app.outbound.policy import POLICY
from tests.server.harness import ALICE, Table, assert_same_message

STANDARD_EOL = re.compile(r"(\r\n|\r|\n)\Z")

NESTED = (
    "From: a@example.org\nTo: b@example.org\nSubject: nested\nMIME-Version: 1.0\n"
    'Content-Type: multipart/mixed; boundary="outer (=_.+ x)"\n\n'
    "a preamble\n\n--outer (=_.+ x)\n"
    'Content-Type: multipart/alternative; boundary="inner?*[]"\n\n'
    "--inner?*[]\nContent-Type: text/plain\n\nR e2-e4\n\n--inner?*[]  \r\n"
    "Content-Type: text/html\n\n<p>R e2-e4</p>\n--inner?*[]--\n"
    "\n--outer (=_.+ x)\nContent-Type: text/plain; name=a.txt\nContent-Disposition: attachment\n\n"
    "--outer (=_.+ x)x is not a delimiter\n--outer (=_.+ x)--\nan epilogue\n"
)


@pytest.mark.parametrize("seed", range(3))
def test_the_same_line_break_is_found_at_the_end_of_any_text(seed):
    rng = random.Random(seed)
    ours = LineBreakAtEnd()
    for _ in range(5000):
        text = "".join(rng.choice("ab\r\n ") for _ in range(rng.randrange(0, 8)))
        expected, found = STANDARD_EOL.search(text), ours.search(text)
        assert (found and found.group(0)) == (expected and expected.group(0)), repr(text)
        assert (found and found.span()) == (expected and expected.span()), repr(text)


@pytest.mark.parametrize("seed", range(3))
def test_a_delimiter_line_is_matched_as_the_feed_parsers_pattern_matches_it(seed):
    """Whether a line is a delimiter, whether it closes the multipart, and its line break."""
    rng = random.Random(seed)
    patterns = PatternsForFeedParser()
    for _ in range(300):
        delimiter = "--" + "".join(rng.choice("a=_.+-()?* \t[]{}|^$\\#~&") for _ in range(rng.randrange(1, 12)))
        pattern = BOUNDARY_HEAD + re.escape(delimiter) + BOUNDARY_TAIL
        standard, ours = re.compile(pattern), patterns.compile(pattern)
        assert isinstance(ours, BoundaryLine) and ours.delimiter == delimiter
        for _ in range(20):
            line = rng.choice(["", delimiter, delimiter[:-1], "x" + delimiter]) + "".join(
                rng.choice(["--", "-", " ", "\t", "\r\n", "\n", "\r", "x"]) for _ in range(rng.randrange(0, 4)))
            expected, found = standard.match(line), ours.match(line)
            assert bool(found) == bool(expected), (delimiter, line)
            if expected:
                assert found.group("end") == expected.group("end"), (delimiter, line)
                assert found.group("linesep") == expected.group("linesep"), (delimiter, line)


def test_any_other_pattern_is_compiled_by_re():
    patterns = PatternsForFeedParser()
    assert patterns.compile(r"(\r\n|\r|\n)\Z") is re.compile(r"(\r\n|\r|\n)\Z")
    assert patterns.escape("a.b") == re.escape("a.b")


def test_parsing_mail_uses_them():
    assert isinstance(feedparser.NLCRE_eol, LineBreakAtEnd)
    assert isinstance(feedparser.re, PatternsForFeedParser)


def same_parse(raw: bytes, monkeypatch) -> None:
    """``raw`` parses to the same message, and the same text, as with the standard patterns."""
    ours, ours_text = message_from_bytes(raw, policy=POLICY), parse(raw).text
    with monkeypatch.context() as patched:
        patched.setattr(feedparser, "NLCRE_eol", STANDARD_EOL)
        patched.setattr(feedparser, "re", re)
        standard, standard_text = message_from_bytes(raw, policy=POLICY), parse(raw).text
    assert ours_text == standard_text
    assert_same_message(ours, standard)


@pytest.mark.parametrize("style", STYLES)
def test_every_client_reply_parses_as_with_the_standard_patterns(server, style, monkeypatch):
    """With LF and with CRLF line ends."""
    table = Table(server)
    table.start()
    raw = table.reply_bytes(ALICE, "R e2-e4", style, kind="request").replace(b"\r\n", b"\n")
    same_parse(raw, monkeypatch)
    same_parse(raw.replace(b"\n", b"\r\n"), monkeypatch)


@pytest.mark.parametrize("line_end", ["\n", "\r\n"])
def test_nested_multiparts_with_odd_boundaries_parse_as_with_the_standard_patterns(line_end, monkeypatch):
    raw = NESTED.replace("\r\n", "\n").replace("\n", line_end).encode()
    same_parse(raw, monkeypatch)
    same_parse(raw.replace(b"--outer (=_.+ x)--", b""), monkeypatch)  # a multipart that is never closed
    assert parse(raw).text.splitlines() == ["R e2-e4"]
