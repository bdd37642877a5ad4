"""Information safety: what White is sent (mail, web, JSON) depends only on what the rules let White know.

Two servers run the same game. In the first property they differ only in Black's
hidden setup, every order the same text in both: until the rules themselves name one
of Black's officers to White (a capture, an arrival announcement, the end), every mail
White receives must be the same in both worlds. In the second, Black also sends, in one
world only, orders that are rejected, unreadable lines and ``board``/``help``/``history``
requests between moves: none of it may change anything White receives.

"The same" covers every header and identifier, the envelope sender (Return-Path) as
delivered, and both parts, once only what is random by construction is set aside: the
random part of a Message-ID, an envelope key, a MIME boundary, salts, and the times of
day (Date, deadlines, and the Outlook conversation index, which is the game's start and
is checked to be the same on every mail). A number that counted the server's mails, or
anything else White was not told, would show.
"""

import hashlib
import random
import re
from email import message_from_bytes
from email.policy import default

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.outbound.outbox import MaildirTransport
from app.rules.looking_glass.random_orders import random_order
from app.rules.registry import get_variant
from tests.conftest import make_server
from tests.rules.test_properties import names_black_officer, pawn_order
from tests.server.harness import ALICE, Table
from tests.web_helpers import client_for

LG = get_variant("looking-glass")
VOLATILE = [
    (re.compile(r"[0-9a-f]{32,64}"), "<hex>"),  # salts, commitments and MIME boundaries (random)
    (re.compile(r"\.[0-9a-f]{16}@"), ".<random>@"),  # a Message-ID's random part
    (re.compile(r"\+bounce\.[a-z2-7]{26}@"), "+bounce.<random>@"),  # an envelope key (random)
    (re.compile(r"\w{3} \d\d \w{3} \d{4}, \d\d:\d\d UTC"), "<time>"),  # deadlines
]
TIMES = {"date", "thread-index"}  # when the mail was made; when the game began (the same on each of its mails)


def normalised(raw: bytes, envelope: str = "") -> tuple[str, ...]:
    """Every header (and the envelope sender), and every text part, with random and timed values set aside."""
    message = message_from_bytes(raw, policy=default)
    parts = [f"Return-Path: {envelope}"] + [f"{name}: {value}" for name, value in message.items()
                                           if name.lower() not in TIMES]
    assert any(part.startswith("Reply-To: ") for part in parts) and any(part.startswith("Subject: ") for part in parts)
    assert any(part.startswith("Message-ID: ") for part in parts)
    for part in message.walk():
        if part.get_content_maintype() == "text":
            parts.append(part.get_content())
    text = "\n".join(parts)
    for pattern, replacement in VOLATILE:
        text = pattern.sub(replacement, text)
    return tuple(text.splitlines())


def web_of_white(client):
    """White's JSON history, White's history page at its newest step, and White's games list.

    Called after every order, so every step of the page is compared when it is the newest."""
    data = client.get("/games/1.json").json
    pages = [client.get("/games/1").data, client.get("/games").data]
    text = "\n".join(page.decode() for page in pages)
    text = re.sub(r'name="csrf_token" value="[^"]+"', "", text)
    for pattern, replacement in VOLATILE:
        text = pattern.sub(replacement, text)
    return data, text


def mails_to_white(table, since):
    """White's mails from ``since`` on, as delivered: each with the envelope sender it was sent with."""
    box = table.server.settings.instance_path / "delivered"
    dispatcher = table.server.dispatcher(MaildirTransport(box))
    while dispatcher.run_once():
        pass
    mails = table.mails(ALICE)
    indexes = {str(message_from_bytes(mail.raw, policy=default)["Thread-Index"]) for mail in mails}
    assert len(indexes - {"None"}) <= 1  # one conversation index for the game, whatever happened in it
    delivered = []
    for mail in mails[since:]:
        sent = (box / "new" / f"{hashlib.sha256(mail.message_id.encode()).hexdigest()[:32]}.mirrorpost").read_bytes()
        envelope = sent.split(b"\r\n", 1)[0].decode().removeprefix("Return-Path: ")
        delivered.append(normalised(sent.split(b"\r\n", 2)[2], envelope))
    return delivered


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), black_a=st.integers(0, 959), black_b=st.integers(0, 959))
def test_what_white_is_sent_depends_only_on_what_white_may_know(tmp_path_factory, seed, black_a, black_b):
    tables = []
    for _world in range(2):
        folder = tmp_path_factory.mktemp("world")
        tables.append(Table(make_server(folder, f"sqlite:///{folder / 'db.sqlite3'}")))
    game_ids = [table.start(white_row="518", black_row=str(black), strikes="99") for table, black in
                zip(tables, (black_a, black_b), strict=True)]
    assert mails_to_white(tables[0], 0) == mails_to_white(tables[1], 0)  # the setup is hidden
    clients = [client_for(table.server, gid, table.game(gid).white_id)
               for table, gid in zip(tables, game_ids, strict=True)]
    assert web_of_white(clients[0]) == web_of_white(clients[1])
    rng = random.Random(seed)
    compared = 0
    for _ in range(16):
        states = [LG.from_json(table.game(gid).state) for table, gid in zip(tables, game_ids, strict=True)]
        side = LG.orderer(states[0])
        if side is None or LG.orderer(states[1]) != side:
            break
        order = random_order(states[0], "white", rng) if side == "white" else pawn_order(states[0], rng)
        counts = [len(table.mails(ALICE)) for table in tables]
        sender = ALICE if side == "white" else "bob@players.test"
        for table in tables:
            table.reply(sender, order, style="gmail")
        told = [table.events(gid)[-1].told["white"] for table, gid in zip(tables, game_ids, strict=True)]
        if any(names_black_officer(messages) for messages in told):
            break  # the rules now tell White something about Black's officers
        assert mails_to_white(tables[0], counts[0]) == mails_to_white(tables[1], counts[1]), order
        assert web_of_white(clients[0]) == web_of_white(clients[1]), order
        compared += 1
    assert compared >= 1
    for table in tables:
        table.server.db.engine.dispose()


BLACK = "bob@players.test"
# What Black may do that the rules tell White nothing of: a rejected order in Black's own world, an unreadable
# line, and requests for Black's own position, help and history.
HIDDEN = ["M e7-e4", "M a8-h1", "R e2-e9 what", "x9-z0 whatever", "board", "help", "history", "M e7-e4\nboard"]


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), hidden=st.lists(st.lists(st.sampled_from(HIDDEN), max_size=2), min_size=12,
                                                   max_size=12))
def test_what_white_is_sent_is_the_same_whatever_black_did_that_white_was_not_told(tmp_path_factory, seed, hidden):
    """Black's rejected orders, unreadable lines and commands, in one world only, change nothing White receives:
    not a header, not an identifier, not the envelope sender, not a word."""
    tables = []
    for _world in range(2):
        folder = tmp_path_factory.mktemp("world")
        tables.append(Table(make_server(folder, f"sqlite:///{folder / 'db.sqlite3'}")))
    game_ids = [table.start(white_row="518", black_row="518", strikes="99") for table in tables]
    plain, busy = tables
    rng = random.Random(seed)
    compared = 0
    for extras in hidden:
        state = LG.from_json(plain.game(game_ids[0]).state)
        side = LG.orderer(state)
        if side is None:
            break
        for line in extras:  # Black's hidden actions, before Black's move or while White is to move
            busy.reply(BLACK, line, style="gmail")
        order = random_order(state, "white", rng) if side == "white" else pawn_order(state, rng)
        sender = ALICE if side == "white" else BLACK
        counts = [len(table.mails(ALICE)) for table in tables]
        for table in tables:
            table.reply(sender, order, style="gmail")
        if names_black_officer(plain.events(game_ids[0])[-1].told["white"]):
            break
        assert mails_to_white(plain, counts[0]) == mails_to_white(busy, counts[1]), (order, extras)
        compared += 1
    assert mails_to_white(plain, 0) == mails_to_white(busy, 0)
    clients = [client_for(table.server, gid, table.game(gid).white_id) for table, gid in zip(tables, game_ids,
                                                                                            strict=True)]
    assert web_of_white(clients[0]) == web_of_white(clients[1])
    assert compared >= 1
    for table in tables:
        table.server.db.engine.dispose()
