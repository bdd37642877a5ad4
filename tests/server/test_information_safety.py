"""Information safety: what White is sent (mail, web, JSON) depends only on what the rules let White know.

Two servers run the same game, differing only in Black's hidden setup. Every
order is the same text in both. Until the rules themselves name one of Black's
officers to White (a capture, an arrival announcement, the end), every mail
White receives (its headers and both parts) must be the same in both worlds, once
random salts, Message-IDs and timestamps are set aside.
"""

import random
import re
from email import message_from_bytes
from email.policy import default

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.looking_glass.random_orders import random_order
from app.rules.registry import get_variant
from tests.conftest import make_server
from tests.rules.test_properties import names_black_officer, pawn_order
from tests.server.harness import ALICE, Table
from tests.web_helpers import client_for

LG = get_variant("looking-glass")
VOLATILE = [
    (re.compile(r"[0-9a-f]{32,64}"), "<hex>"),  # salts and commitments (random)
    (re.compile(r"\w{3} \d\d \w{3} \d{4}, \d\d:\d\d UTC"), "<time>"),  # deadlines
]


# Headers that differ from one mail to the next whatever the game: when it was made, its random id, and what
# derives from them (the MIME boundary, the conversation index's start).
VOLATILE_HEADERS = {"date", "message-id", "content-type", "thread-index"}


def normalised(raw: bytes) -> tuple[str, ...]:
    """Every header but the volatile ones, and every text part, with random and timed values set aside."""
    message = message_from_bytes(raw, policy=default)
    parts = [f"{name}: {value}" for name, value in message.items() if name.lower() not in VOLATILE_HEADERS]
    assert any(part.startswith("Reply-To: ") for part in parts) and any(part.startswith("Subject: ") for part in parts)
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
    return [normalised(mail.raw) for mail in table.mails(ALICE)[since:]]


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
