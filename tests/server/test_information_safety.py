"""Information safety, for every variant: what White is sent depends only on what the rules let White know.

Two servers run one game, differing only in what the rules hide from White: Black's hidden setup, where
the variant has one, and Black's moves wherever two different moves tell White exactly the same (found by
asking the referee on copies of the two states). White's orders are the same text in both. As long as the
event record gives White the same messages and views in both worlds, every mail White receives (all its
headers and both parts), White's history page, games page and JSON must be the same in both, once random
salts, Message-IDs and timestamps are set aside. Side View is run in each of its three physics.
"""

import random
import re
from email import message_from_bytes
from email.policy import default

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.registry import VARIANTS, get_variant
from tests.conftest import make_server
from tests.server.harness import ALICE, BOB, Table
from tests.web_helpers import client_for

# Per variant, the option sets to run; those with a hidden setup give the two worlds different Black rows.
CASES = {
    "looking-glass": [{"strikes": "99"}],
    "side-view": [{"physics": str(physics), "setup": "hidden"} for physics in (1, 2, 3)],
    "quasi-alice-4d": [{}],
    "palindromic": [{}],
}
VOLATILE = [
    (re.compile(r"[0-9a-f]{32,64}"), "<hex>"),  # salts and commitments (random)
    (re.compile(r"\w{3} \d\d \w{3} \d{4}, \d\d:\d\d UTC"), "<time>"),  # deadlines
]
# Headers that differ from one mail to the next whatever the game: when it was made, its random id, and what
# derives from them (the MIME boundary, the conversation index's start).
VOLATILE_HEADERS = {"date", "message-id", "content-type", "thread-index"}


def test_every_variant_is_covered():
    assert set(VARIANTS) <= set(CASES)


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


def web_of_white(client, game_id):
    """White's JSON history, White's history page at its newest step, and White's games list."""
    data = client.get(f"/games/{game_id}.json").json
    pages = [client.get(f"/games/{game_id}").data, client.get("/games").data]
    text = "\n".join(page.decode() for page in pages)
    text = re.sub(r'name="csrf_token" value="[^"]+"', "", text)
    for pattern, replacement in VOLATILE:
        text = pattern.sub(replacement, text)
    return data, text


def mails_to_white(table, since):
    return [normalised(mail.raw) for mail in table.mails(ALICE)[since:]]


def white_knows(table, game_id):
    """What the rules told White: White's messages and view of every event that concerned White."""
    return [(event.told.get("white"), event.views.get("white"))
            for event in table.events(game_id) if event.by == "white" or event.told.get("white")]


def copy(variant, state):
    return variant.from_json(variant.to_json(state))


def told_white(variant, state, side, order):
    """What White would be told and see if ``side`` gave ``order`` in this state (on a copy)."""
    after = copy(variant, state)
    outcome = variant.play(after, side, order, random.Random(0))
    return outcome.result, outcome.to["white"], variant.view(after, "white")


def twin_row(variant, options, row, rng):
    """Another back rank for Black that White's first view cannot tell from ``row`` (``row`` if none)."""
    def white_view(black_row):
        state = variant.new_game(dict(options), random.Random(0))
        for side, chosen in (("white", "518"), ("black", black_row)):
            variant.play(state, side, f"setup {chosen}", random.Random(0))
        return variant.view(state, "white")

    wanted = white_view(row)
    others = [str(index) for index in rng.sample(range(960), 60)]
    return next((other for other in others if other != row and white_view(other) == wanted), row)


def orders_for(variant, states, side, rng):
    """The order for each world: for Black, two different moves that tell White the same where there are
    such; else one move legal in both (so the games go on alike), sometimes any order at all."""
    if rng.random() < 0.15:
        order = variant.random_order(states[0], side, rng)
        return order, order
    legal = [variant.legal_orders(state) for state in states]
    if side == "black":
        pairs = [(first, second) for first in legal[0] for second in legal[1] if first != second]
        for first, second in rng.sample(pairs, min(len(pairs), 150)):
            if told_white(variant, states[0], side, first) == told_white(variant, states[1], side, second):
                return first, second
    common = sorted(set(legal[0]) & set(legal[1]))
    order = rng.choice(common) if common else "resign"
    return order, order


@pytest.mark.parametrize(("name", "options"), [(name, options) for name, sets in CASES.items() if name in VARIANTS
                                               for options in sets])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), black_row=st.integers(0, 959))
def test_what_white_is_sent_depends_only_on_what_white_may_know(tmp_path_factory, name, options, seed, black_row):
    variant = get_variant(name)
    rng = random.Random(seed)
    rows = (str(black_row), twin_row(variant, options, str(black_row), rng))
    tables = []
    for _world in range(2):
        folder = tmp_path_factory.mktemp("world")
        tables.append(Table(make_server(folder, f"sqlite:///{folder / 'db.sqlite3'}"), name))
    game_ids = [table.start(white_row="518", black_row=row, **options) for table, row in
                zip(tables, rows, strict=True)]
    assert white_knows(tables[0], game_ids[0]) == white_knows(tables[1], game_ids[1])
    assert mails_to_white(tables[0], 0) == mails_to_white(tables[1], 0)  # a hidden setup stays hidden
    clients = [client_for(table.server, gid, table.game(gid).white_id)
               for table, gid in zip(tables, game_ids, strict=True)]
    assert web_of_white(clients[0], game_ids[0]) == web_of_white(clients[1], game_ids[1])
    compared = 0
    for _ in range(16):
        states = [variant.from_json(table.game(gid).state) for table, gid in zip(tables, game_ids, strict=True)]
        side = variant.orderer(states[0])
        if side is None or variant.orderer(states[1]) != side:
            break
        orders = orders_for(variant, states, side, rng)
        counts = [len(table.mails(ALICE)) for table in tables]
        for table, order in zip(tables, orders, strict=True):
            table.reply(ALICE if side == "white" else BOB, order, style="gmail")
        if white_knows(tables[0], game_ids[0]) != white_knows(tables[1], game_ids[1]):
            break  # the rules now tell White something that differs between the worlds
        if any(table.game(gid).status == "over" for table, gid in zip(tables, game_ids, strict=True)):
            break  # the end reveals the whole game
        assert mails_to_white(tables[0], counts[0]) == mails_to_white(tables[1], counts[1]), orders
        assert web_of_white(clients[0], game_ids[0]) == web_of_white(clients[1], game_ids[1]), orders
        compared += 1
    assert compared >= 1
    for table in tables:
        table.server.db.engine.dispose()
