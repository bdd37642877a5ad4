"""Information safety, for every variant: what White is sent depends only on what the rules let White know.

Two properties, each with two servers running one game. In the first they differ only in what the rules
hide from White: Black's hidden setup, where the variant has one, and Black's moves wherever two different
moves tell White exactly the same (found by asking the referee on copies of the two states); White's
orders are the same text in both, now and then after a slip of the pen whose error notice guesses at
what White meant; where the variant takes several move lines in a reply (Kriegspiel's tries), Black's moves come
after tries of Black's own, different in each world, that are rejected without a word to White. In the second,
Black also sends, in one world only, orders that are rejected without a word to White (as tries before Black's
move, where the variant takes them), unreadable lines and ``board``/``help``/``history`` requests. As long as
the event record gives White the same messages and views in both worlds, everything White receives must be
the same in both: every mail as delivered (every header and identifier, the envelope sender, both parts),
White's history page, games page and JSON. Only what is random by construction is set aside: the random
part of a Message-ID, an envelope key, a MIME boundary, salts, and the times of day (Date, deadlines, a
history link's issue time, and the Outlook conversation index, which is the game's start and is checked to be
the same on every mail). Every declared variant is run with the options of each of its sample games (Side
View in each of its three physics), the first alone for the second property.
"""

import hashlib
import random
import re
from email import message_from_bytes
from email.policy import default
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from app.outbound.outbox import MaildirTransport
from app.present.registry import DECLARATIONS
from tests.conftest import make_server
from tests.server.digest_helpers import digest_on, reply_in_game, send_digests, start_game
from tests.server.harness import ALICE, BOB, Table
from tests.web_helpers import client_for

# Each declared variant with the options of each sample game; a hidden setup gives the worlds different Black rows.
CASES = [(name, dict(sample.options)) for name, declaration in DECLARATIONS.items() for sample in declaration.samples]
VOLATILE = [
    (re.compile(r"[0-9a-f]{32,64}"), "<hex>"),  # salts, commitments and MIME boundaries (random)
    (re.compile(r"\.[0-9a-f]{16}@"), ".<random>@"),  # a Message-ID's random part
    (re.compile(r"\+bounce\.[a-z2-7]{26}@"), "+bounce.<random>@"),  # an envelope key (random)
    (re.compile(r"digest\.[a-z2-7]{26}"), "digest.<random>"),  # a digest's key (random)
    (re.compile(r"<[0-9a-f]{20}@players\.test>"), "<their own>"),  # the Message-ID of a reply an answer answers
    (re.compile(r"\w{3}\s+\d\d\s+\w{3}\s+\d{4},\s+\d\d:\d\d\s+UTC"), "<time>"),  # deadlines, wrapped or not
    (re.compile(r"(\?key=\d+\.\d+\.)[0-9a-z]+\.[\w-]+"), r"\1<issued>"),  # a history link's issue time, signed
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


def web_of_white(client, game_id):
    """White's JSON history, White's history page at its newest step, and White's games list."""
    data = client.get(f"/games/{game_id}.json").json
    pages = [client.get(f"/games/{game_id}").data, client.get("/games").data]
    text = "\n".join(page.decode() for page in pages)
    text = re.sub(r'name="csrf_token" value="[^"]+"', "", text)
    for pattern, replacement in VOLATILE:
        text = pattern.sub(replacement, text)
    return data, text


def mails_to_white(table, since, address=ALICE, games=1):
    """White's mails (or ``address``'s, in ``games`` games) from ``since`` on, as delivered: each with the envelope
    sender it was sent with."""
    box = table.server.settings.instance_path / "delivered"
    dispatcher = table.server.dispatcher(MaildirTransport(box))
    while dispatcher.run_once():
        pass
    mails = table.mails(address)
    indexes = {str(message_from_bytes(mail.raw, policy=default)["Thread-Index"]) for mail in mails}
    assert len(indexes - {"None"}) <= games  # one conversation index a game, whatever happened in it
    delivered = []
    for mail in mails[since:]:
        sent = (box / "new" / f"{hashlib.sha256(mail.message_id.encode()).hexdigest()[:32]}.mirrorpost").read_bytes()
        envelope = sent.split(b"\r\n", 1)[0].decode().removeprefix("Return-Path: ")
        delivered.append(normalised(sent.split(b"\r\n", 2)[2], envelope))
    return delivered


def started_alike(table, seed, **start):
    """``table.start``, with what the options leave to chance at the start (a random Chess960 row, which both
    players see) drawn alike in both worlds, from ``seed``: the worlds differ only in what the rules hide."""
    with patch.object(random, "SystemRandom", lambda: random.Random(seed)):
        return table.start(**start)


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
    such, each after tries of its own where the variant takes them; else one move legal in both (so the games go
    on alike), sometimes any order at all."""
    if rng.random() < 0.15:
        order = variant.random_order(states[0], side, rng)
        return order, order
    legal = [variant.legal_orders(state) for state in states]
    if side == "black":
        pairs = [(first, second) for first in legal[0] for second in legal[1] if first != second]
        for first, second in rng.sample(pairs, min(len(pairs), 150)):
            if told_white(variant, states[0], side, first) == told_white(variant, states[1], side, second):
                return tuple("\n".join([*silent_refusals(variant, state, rng, rng.randrange(variant.move_lines)), move])
                             for state, move in zip(states, (first, second), strict=True))
    common = sorted(set(legal[0]) & set(legal[1]))
    order = rng.choice(common) if common else "resign"
    return order, order


def silent_refusals(variant, state, rng, most):
    """At most ``most`` orders of Black's that the referee rejects now without a word to White (found on copies of
    the state), from the moves Black's own view allows."""
    legal = set(variant.legal_orders(state)) if variant.orderer(state) == "black" else set()
    plausible = variant.plausible_orders(variant.view(state, "black"), "black")
    found = []
    for order in rng.sample(plausible, min(3 * most, len(plausible))):
        if len(found) < most and order not in legal:
            result, told, _view = told_white(variant, state, "black", order)
            if result == "rejected" and not told:
                found.append(order)
    return found


@pytest.mark.parametrize(("name", "options"), CASES)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), black_row=st.integers(0, 959))
def test_what_white_is_sent_depends_only_on_what_white_may_know(tmp_path_factory, name, options, seed, black_row):
    variant = DECLARATIONS[name].rules
    rng = random.Random(seed)
    rows = (str(black_row), twin_row(variant, options, str(black_row), rng))
    tables = []
    for _world in range(2):
        folder = tmp_path_factory.mktemp("world")
        tables.append(Table(make_server(folder, f"sqlite:///{folder / 'db.sqlite3'}"), name))
    game_ids = [started_alike(table, seed, white_row="518", black_row=row, **options) for table, row in
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
        if side == "white" and rng.random() < 0.3:  # a slip first: its error notice guesses from White's view
            slip = orders[0].rstrip("0123456789") + "9"
            for table in tables:
                table.reply(ALICE, slip, style="gmail")
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


def hidden_from_white(variant, state, rng):
    """What Black may send that tells White nothing: a rejected order (found on a copy of the state), an
    unreadable line, and requests for Black's own position, help and history."""
    lines = ["board", "help", "history", "e2-e9 please", *silent_refusals(variant, state, rng, 1)]
    return rng.sample(lines, rng.randint(0, 2))


@pytest.mark.parametrize("name", sorted(DECLARATIONS))
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_what_white_is_sent_is_the_same_whatever_black_did_that_white_was_not_told(tmp_path_factory, name, seed):
    """Black's rejected orders, unreadable lines and commands, in one world only, change nothing White receives:
    not a header, not an identifier, not the envelope sender, not a word."""
    variant = DECLARATIONS[name].rules
    options = dict(DECLARATIONS[name].sample.options)
    tables = []
    for _world in range(2):
        folder = tmp_path_factory.mktemp("world")
        tables.append(Table(make_server(folder, f"sqlite:///{folder / 'db.sqlite3'}"), name))
    game_ids = [table.start(white_row="518", black_row="518", **options) for table in tables]
    plain, busy = tables
    rng = random.Random(seed)
    compared = 0
    for _ in range(12):
        state = variant.from_json(plain.game(game_ids[0]).state)
        side = variant.orderer(state)
        if side is None:
            break
        for line in hidden_from_white(variant, state, rng):  # before Black's move, or while White is to move
            busy.reply(BOB, line, style="gmail")
        legal = variant.legal_orders(state)
        order = rng.choice(legal) if legal else "resign"
        counts = [len(table.mails(ALICE)) for table in tables]
        for table in tables:
            tries = silent_refusals(variant, state, rng, variant.move_lines - 1) if table is busy and side == "black" \
                else []  # Black's tries in one world only, before the same move
            table.reply(ALICE if side == "white" else BOB, "\n".join([*tries, order]), style="gmail")
        if plain.game(game_ids[0]).status == "over":
            break
        assert white_knows(plain, game_ids[0]) == white_knows(busy, game_ids[1]), order
        assert mails_to_white(plain, counts[0]) == mails_to_white(busy, counts[1]), order
        compared += 1
    clients = [client_for(table.server, gid, table.game(gid).white_id)
               for table, gid in zip(tables, game_ids, strict=True)]
    assert web_of_white(clients[0], game_ids[0]) == web_of_white(clients[1], game_ids[1])
    assert compared >= 1
    for table in tables:
        table.server.db.engine.dispose()


CAROL = "carol@players.test"


@pytest.mark.parametrize("name", sorted(DECLARATIONS))
@settings(max_examples=2, deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate),  # no shrinking:
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])  # a failure is shown
@given(seed=st.integers(0, 2**32), black_row=st.integers(0, 959))
def test_what_a_player_on_the_digest_is_sent_depends_only_on_what_they_may_know(tmp_path_factory, name, seed,
                                                                                 black_row):
    """White, on the daily digest, plays Black (who hides what the rules hide, as in the first property) and Carol;
    White orders in both games by replies to the digest. Every mail White receives is the same in both worlds, the
    digests included, and so is every mail Carol receives; nothing of one game's opponent reaches the other."""
    variant = DECLARATIONS[name].rules
    options = dict(DECLARATIONS[name].sample.options)
    rng = random.Random(seed)
    rows = (str(black_row), twin_row(variant, options, str(black_row), rng))
    tables, games = [], []
    for _world in rows:
        folder = tmp_path_factory.mktemp("world")
        tables.append(Table(make_server(folder, f"sqlite:///{folder / 'db.sqlite3'}"), name))
        digest_on(tables[-1].server, ALICE)  # by mail to the bare address: its own random Message-IDs
    counts = {address: [len(table.mails(address)) for table in tables] for address in (ALICE, CAROL)}
    for table, row in zip(tables, rows, strict=True):
        games.append((table.start(white_row="518", black_row=row, **options),
                      start_game(table.server, name, CAROL, ALICE, **options)))

    def same_for(address):
        sent = [mails_to_white(table, counts[address][n], address, games=2) for n, table in enumerate(tables)]
        assert sent[0] == sent[1], address
        counts[address] = [len(table.mails(address)) for table in tables]

    same_for(ALICE)
    same_for(CAROL)
    compared = 0
    for _ in range(8):
        states = [variant.from_json(table.game(first).state) for table, (first, _second) in zip(tables, games,
                                                                                                strict=True)]
        side = variant.orderer(states[0])
        if side is None or variant.orderer(states[1]) != side:
            break
        orders = orders_for(variant, states, side, rng)
        carol_state = variant.from_json(tables[0].game(games[0][1]).state)
        carol = rng.choice(variant.legal_orders(carol_state)) if variant.orderer(carol_state) == "white" else None
        for table, order, (first, second) in zip(tables, orders, games, strict=True):
            if carol is not None:
                reply_in_game(table.server, second, CAROL, carol)
            if side == "black":
                table.reply(BOB, order, style="gmail")
            send_digests(table.server)
            if side == "white":
                mine = variant.from_json(table.game(second).state)
                extra = f"\nGame {second}\n{variant.legal_orders(mine)[0]}" if variant.orderer(mine) == "black" else ""
                table.reply(ALICE, f"Game {first}: {order}{extra}", style="gmail", kind="digest")
        if white_knows(tables[0], games[0][0]) != white_knows(tables[1], games[1][0]):
            break
        if any(table.game(first).status == "over" for table, (first, _second) in zip(tables, games, strict=True)):
            break
        same_for(ALICE)
        same_for(CAROL)
        compared += 1
    assert compared >= 1 and tables[0].mails(ALICE, "digest") and tables[0].mails(CAROL)
    for table in tables:
        assert not any("Bob" in mail.body_text or "bob@" in mail.body_text for mail in table.mails(CAROL))
        assert not any("Carol" in mail.body_text or "carol@" in mail.body_text for mail in table.mails(BOB))
        table.server.db.engine.dispose()
