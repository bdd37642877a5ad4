"""Fuzzing parse -> screen -> read: whatever the bytes, each message is read within a time and memory budget.

Hypothesis assembles messages from the pieces hostile mail is made of (encoded words, nested
comments, long runs of spaces, unclosed HTML comments, style sheets and styles that hide text,
deep multiparts, broken charsets, long lines) at sizes up to a few hundred KB; each is read the
way the pipeline reads it, and must finish well within its budget, in bounded memory, with every
error one the pipeline handles.
"""

import time
import tracemalloc

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.games.commands.reading import read_commands
from app.inbound.budget import DEFAULT_SECONDS, Budget, OverBudget
from app.inbound.parse import parse
from app.inbound.quotes import new_text
from app.inbound.screen import bounce_reason, robot_reason
from app.rules.registry import get_variant
from app.service import GAME_WORDS, LOBBY_WORDS

# Processor seconds per message, half the time the server allows one (its budget stops a message past it): a
# reply takes about a millisecond. Processor time, not the clock's, so other work on the machine counts not.
TIME_LIMIT = DEFAULT_SECONDS / 2
MEMORY_LIMIT = 64 * 1024 * 1024  # bytes allocated at the peak of reading one message
LG = get_variant("looking-glass")

pieces = st.sampled_from([
    "=?utf-8?q?a=C3=A9?= ", "=?utf-8?b?", "?=", "(", ")", "<", ">", "@", ",", ";", ":", '"', "\\", " ", "\t",
    "\x0b", "\x0c", "\x85", "\u2028", "é", "R e2-e4", "say ", "challenge ", "<!--", "</", "<p>", "&", "&amp;",
    "<blockquote>", "<div class=\"gmail_quote\">", "\r\n", "\n", "\r\n ", ">", "On Mon wrote:", "--", "=",
    "; a=b", "--b\r\n\r\n", "\r\n--b\r\nContent-Type: text/plain",
    "<style>", "</style>", ".x{display:none}", ".x.y:hover,#z>p{font:0/0 a}", "@media screen{", "}", "/*", "\\6e ",
    "<div class='x y'>", '<p style="font-size:0;color:#fff;background:#fff">', "<details>", "<template>",
])
runs = st.tuples(pieces, st.integers(1, 40_000)).map(lambda pair: pair[0] * pair[1])
text = st.lists(st.one_of(pieces, runs), max_size=12).map("".join)
header_names = st.sampled_from(["From", "To", "Cc", "Subject", "Content-Type", "Message-ID", "References",
                                "Authentication-Results", "Auto-Submitted", "Return-Path", "X-Loop", "Reply-To"])
content_types = st.sampled_from(["text/plain", "text/html", "multipart/alternative; boundary=b",
                                 "multipart/mixed; boundary=b", "message/rfc822", 'text/plain; charset="x-unknown"',
                                 "text/html; charset=utf-16", "multipart/alternative; boundary=" + "(" * 50])


@st.composite
def messages(draw) -> bytes:
    headers = [f"{draw(header_names)}: {draw(text)}" for _ in range(draw(st.integers(0, 6)))]
    if draw(st.booleans()):
        headers.append(f"From: {draw(text)} <alice@players.test>")
    headers.append(f"Content-Type: {draw(content_types)}")
    body = draw(text)
    if draw(st.booleans()):  # a part whose own header is drawn: long parameter lists, many parts
        body = f"--b\r\nContent-Type: text/plain{draw(text)}\r\n\r\n{body}"
    if draw(st.booleans()):
        depth = draw(st.integers(1, 60))
        body = "".join("--b\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n" for _ in range(depth)) + body
    raw = "\r\n".join(headers) + "\r\n\r\n" + body
    return raw.encode("utf-8", "surrogateescape")


def read_as_the_pipeline_does(raw: bytes) -> None:
    budget = Budget()
    try:
        parsed = parse(raw, ["referee@mirrorpost.test"], budget)
    except OverBudget:
        return
    except Exception:  # as the pipeline does: kept, and marked ignored as unparseable (receive.py)
        return
    bounce_reason(parsed, None)
    robot_reason(parsed, "referee@mirrorpost.test")
    read_commands(new_text(parsed.text), LG, GAME_WORDS)
    read_commands(new_text(parsed.text), None, LOBBY_WORDS)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                                   HealthCheck.large_base_example])
@given(raw=messages())
def test_any_message_is_read_within_its_time_and_memory_budget(raw):
    """Timed and weighed in two runs: tracing allocations makes reading several times slower, so the time is
    taken with no tracing, and the memory in a run of its own."""
    started = time.process_time()
    read_as_the_pipeline_does(raw)
    spent = time.process_time() - started
    tracemalloc.start()
    try:
        read_as_the_pipeline_does(raw)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert spent < TIME_LIMIT, f"{len(raw)} bytes read in {spent:.2f} s of processor time"
    assert peak < MEMORY_LIMIT, f"{len(raw)} bytes took {peak // 1024} KB"
