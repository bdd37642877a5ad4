"""Sign-in links: a button uses them, strangers cannot lock a player out, the mailbox is not flooded, and
asking reveals nobody's address, neither in the answer nor in the work done."""

import threading
from datetime import timedelta

from sqlalchemy import event, update

from app.db import utcnow
from app.games.models import Player
from app.web import signin_links
from app.web.models import LoginToken
from app.web.signin import masked
from app.web.signin_links import MAILS_PER_ADDRESS, PER_ADDRESS_AND_CLIENT, wait_for_link_mail
from tests.server.harness import ALICE, Table
from tests.web_helpers import client_for, csrf_of, login_link


def from_address(server, address: str):
    """A client whose connection comes from ``address``."""
    client = client_for(server)
    client.environ_base["REMOTE_ADDR"] = address
    return client


def ask(client, email: str):
    page = client.get("/login").data
    return client.post("/login", data={"email": email, "csrf_token": csrf_of(page)})


def use(client, link: str):
    page = client.get(link)
    assert page.status_code == 200, page.data
    return client.post(link, data={"csrf_token": csrf_of(page.data)})


def test_opening_a_sign_in_link_uses_nothing_up_only_its_button_signs_in(server):
    """Mail scanners open links before the person does: their GETs neither use the link nor sign them in."""
    table = Table(server)
    table.start()
    assert ask(client_for(server), ALICE).status_code == 200
    link = login_link(table, ALICE)
    scanner = from_address(server, "192.0.2.50")
    for _ in range(3):
        page = scanner.get(link)
        assert page.status_code == 200 and b"Sign in</button>" in page.data
        assert page.headers["Referrer-Policy"] == "no-referrer"
    assert scanner.get("/games").status_code == 302
    assert scanner.post(link).status_code == 400  # no CSRF token: nothing happens
    player = client_for(server)
    assert use(player, link).status_code == 302
    assert player.get("/games").status_code == 200
    assert scanner.get(link).status_code == 400  # used once: nobody else gets in with it


def test_the_button_works_over_https_though_its_page_sends_no_referer(server):
    """Flask-WTF wants a Referer on HTTPS posts; the link's page sends none (its address carries the link),
    so the link's POST checks its CSRF token alone, and still refuses a post without one."""
    Table(server).start()
    client = client_for(server)
    https = {"wsgi.url_scheme": "https"}
    assert client.post("/login", data={"email": ALICE, "csrf_token": csrf_of(client.get("/login").data)},
                       environ_overrides=https).status_code == 400  # the ordinary forms keep the Referer check
    ask(client, ALICE)
    link = login_link(Table(server), ALICE)
    page = client.get(link, environ_overrides=https)
    assert client.post(link, data={}, environ_overrides=https).status_code == 400
    response = client.post(link, data={"csrf_token": csrf_of(page.data)}, environ_overrides=https)
    assert response.status_code == 302 and response.headers["Location"] == "/games"


def test_strangers_asking_for_a_players_links_neither_lock_the_player_out_nor_flood_the_mailbox(server):
    table = Table(server)
    table.start()
    for stranger in range(20):  # twenty clients, each asking as often as it may and more
        client = from_address(server, f"198.51.100.{stranger + 1}")
        statuses = [ask(client, ALICE).status_code for _ in range(PER_ADDRESS_AND_CLIENT + 1)]
        assert statuses == [200] * PER_ADDRESS_AND_CLIENT + [429]
    wait_for_link_mail()
    assert len(table.mails(ALICE, "login")) == MAILS_PER_ADDRESS  # 60 requests, 3 mails
    alice = from_address(server, "203.0.113.7")
    assert ask(alice, ALICE).status_code == 200  # her own requests are hers
    wait_for_link_mail()
    assert len(table.mails(ALICE, "login")) == MAILS_PER_ADDRESS  # muted: the last link mailed still works
    assert use(alice, login_link(table, ALICE)).status_code == 302  # and signs her in
    assert alice.get("/games").status_code == 200
    other = from_address(server, "198.51.100.99")  # with no live link left, a request mails one again
    assert ask(other, ALICE).status_code == 200
    wait_for_link_mail()
    assert len(table.mails(ALICE, "login")) == MAILS_PER_ADDRESS + 1


def test_past_the_cap_a_flood_mails_one_link_each_time_the_last_one_expires(server):
    table = Table(server)
    table.start()
    for n in range(MAILS_PER_ADDRESS + 3):
        ask(from_address(server, f"198.51.100.{n + 1}"), ALICE)
    wait_for_link_mail()
    assert len(table.mails(ALICE, "login")) == MAILS_PER_ADDRESS
    with server.db.engine.begin() as connection:  # every link mailed so far is now too old to sign in
        connection.execute(update(LoginToken).values(created_at=utcnow() - timedelta(minutes=16)))
    for n in range(3):
        ask(from_address(server, f"198.51.100.{n + 50}"), ALICE)
    wait_for_link_mail()
    assert len(table.mails(ALICE, "login")) == MAILS_PER_ADDRESS + 1


def statements_of_this_thread(engine, work) -> list[str]:
    """The statements ``work`` sends from this thread (the mail job's, in its own thread, apart)."""
    seen: list[str] = []
    me = threading.get_ident()

    def listen(_connection, _cursor, statement, *_rest) -> None:
        if threading.get_ident() == me:
            seen.append(statement)

    event.listen(engine, "before_cursor_execute", listen)
    try:
        work()
    finally:
        event.remove(engine, "before_cursor_execute", listen)
    return seen


def test_a_request_for_a_known_address_does_the_same_work_as_for_an_unknown_one(server, monkeypatch):
    """Structural, not timed: the same statements in the same order, the same job handed over, the same answer."""
    Table(server).start()
    handed: list[tuple] = []
    real_queue = signin_links.queue_link_mail

    def recording(served, token_id):
        handed.append((served, type(token_id)))
        real_queue(served, token_id)

    monkeypatch.setattr("app.web.signin.queue_link_mail", recording)
    answers, statements = {}, {}
    for address in (ALICE, "nobody@players.test"):
        client = client_for(server)
        form = {"email": address, "csrf_token": csrf_of(client.get("/login").data)}
        wait_for_link_mail()

        def post(client=client, form=form, address=address) -> None:
            answers[address] = client.post("/login", data=form)

        statements[address] = statements_of_this_thread(server.db.engine, post)
        wait_for_link_mail()
    assert statements[ALICE] == statements["nobody@players.test"], statements
    kinds = [statement.split()[0] for statement in statements[ALICE]]
    assert [kind for kind in kinds if kind != "BEGIN"] == ["SELECT", "INSERT"]  # the counts, the row
    assert handed == [(server, int), (server, int)]
    known, unknown = answers[ALICE], answers["nobody@players.test"]
    assert known.status_code == unknown.status_code == 200
    assert known.data.replace(ALICE.encode(), b"X") == unknown.data.replace(b"nobody@players.test", b"X")
    assert len(Table(server).mails(ALICE, "login")) == 1 and not Table(server).mails("nobody@players.test")


def test_a_sign_in_links_page_names_the_account_it_signs_into_and_masks_its_address(server):
    """Someone sent an attacker's own link sees before pressing the button that the account is not theirs: its
    name, and an address masked to what only its owner recognises (first letter and domain)."""
    table = Table(server)
    table.start()
    mallory = "mallory.hacker@evil.test"
    with server.db.transaction() as db_session:
        db_session.add(Player(email=mallory, name="Mallory"))
    ask(client_for(server), mallory)
    link = login_link(table, mallory)
    alice = client_for(server)  # Alice opens the link Mallory mailed her
    page = alice.get(link).data.decode()
    assert "Mallory" in page and "m\u2022\u2022\u2022@evil.test" in page
    assert "mallory.hacker" not in page and "allory" not in page.replace("Mallory", "")
    assert "not you" in page and "Sign in</button>" in page
    assert alice.get("/games").status_code == 302  # opening it signed her into nothing
    ask(alice, ALICE)
    own = alice.get(login_link(table, ALICE)).data.decode()
    assert "Alice" in own and "a\u2022\u2022\u2022@players.test" in own and ALICE not in own


def test_the_masked_address_shows_a_first_letter_and_the_domain_only():
    assert masked("alice@players.test") == "a\u2022\u2022\u2022@players.test"
    assert masked("a@x.test") == "a\u2022\u2022\u2022@x.test"
    assert masked("\u00e9lise.long.name@mail.example.org") == "\u00e9\u2022\u2022\u2022@mail.example.org"
