"""The preferences page: the daily digest, its hour and the reminders, signed in, with CSRF, through the service."""

import pytest

from app.games.models import Player
from tests.server.harness import ALICE, BOB, Table
from tests.web.test_browser import sign_in, site  # noqa: F401 (the live server fixture)
from tests.web_helpers import client_for, csrf_of


def preferences_of(server, player_id):
    with server.db.sessions() as session:
        player = session.get(Player, player_id)
        return player.digest_hour, player.reminders


def test_the_page_changes_the_digest_and_the_reminders_as_the_mail_commands_do(server):
    table = Table(server)
    game_id = table.start()
    alice = table.game(game_id).white_id
    assert client_for(server).get("/preferences").status_code == 302  # signed in only
    client = client_for(server, game_id, alice)
    page = client.get("/preferences")
    assert page.status_code == 200 and b"A mail for each move" in page.data
    token = csrf_of(page.data)
    assert client.post("/preferences", data={"digest": "daily", "hour": "9"}).status_code == 400  # no CSRF token
    assert preferences_of(server, alice) == (None, None)
    done = client.post("/preferences", data={"csrf_token": token, "digest": "daily", "hour": "9",
                                             "reminders": "24h 2"}, follow_redirects=True)
    assert b"one mail a day at 09:00 UTC" in done.data and b"24 hours and 2 hours before each deadline" in done.data
    assert preferences_of(server, alice) == (9, [24, 2])
    for wrong, said in (({"digest": "daily", "hour": "24"}, b"is not a whole number from 0 to 23"),
                        ({"digest": "each", "reminders": "0"}, b"Reminders not changed")):
        answer = client.post("/preferences", data={"csrf_token": token, **wrong}, follow_redirects=True)
        assert said in answer.data
    assert preferences_of(server, alice) == (9, [24, 2])
    done = client.post("/preferences", data={"csrf_token": token, "digest": "each", "reminders": ""},
                       follow_redirects=True)
    assert b"The daily digest is off" in done.data and preferences_of(server, alice) == (None, None)
    assert table.game(game_id).deadline is not None  # she had been told of her move: her clock ran on


@pytest.mark.browser
def test_a_player_turns_the_digest_on_in_the_browser(browser, site):  # noqa: F811
    server, base = site
    table = Table(server)
    game_id = table.start()
    page = browser.new_page(viewport={"width": 390, "height": 844})
    sign_in(page, base, table, BOB)
    page.click("text=Preferences")
    page.check("input[value=daily]")
    page.select_option("select[name=hour]", "18")
    page.fill("#reminders", "8")
    page.click("button:has-text('Save')")
    page.wait_for_selector("text=You are on the daily digest")
    assert page.is_checked("input[value=daily]") and page.input_value("select[name=hour]") == "18"
    assert preferences_of(server, table.game(game_id).black_id) == (18, [8])
    assert preferences_of(server, table.game(game_id).white_id) == (None, None)
    assert not table.mails(ALICE, "notice")  # only the player who asked is changed and told


def mark_proven(server, player_id) -> None:
    """As a mail of the player's that their provider signed does (tests/server/test_proven_senders.py)."""
    from app.service import Service

    with server.db.sessions() as session:
        address = session.get(Player, player_id).email
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        service.prove(service.player(address))


def standing_of(server, player_id):
    with server.db.sessions() as session:
        player = session.get(Player, player_id)
        return player.proven_at is not None, player.unsigned_ok


def test_a_proven_player_has_their_unsigned_mail_accepted_again_and_refused_again_signed_in(server):
    table = Table(server)
    alice = table.game(table.new_game()).white_id
    client = client_for(server, None, alice)
    page = client.get("/preferences")
    assert b"has not yet seen your mail signed" in page.data and b"Accept my unsigned mail" not in page.data
    mark_proven(server, alice)
    assert table.write(ALICE, "vacation 3") == f"rejected: not proven, and mail from {ALICE} was proven before"
    page = client.get("/preferences")
    assert b"your mail provider signs your mail" in page.data
    token = csrf_of(page.data)
    assert client.post("/preferences/unsigned", data={"accept": "yes"}).status_code == 400  # no CSRF token
    assert standing_of(server, alice) == (True, False)
    done = client.post("/preferences/unsigned", data={"csrf_token": token, "accept": "yes"}, follow_redirects=True)
    assert b"Your mail is accepted again without your provider&#39;s signature." in done.data
    assert standing_of(server, alice) == (True, True)
    assert table.write(ALICE, "vacation 3").startswith("done: held for confirmation")  # as before it was proven
    done = client.post("/preferences/unsigned", data={"csrf_token": token, "accept": "no"}, follow_redirects=True)
    assert b"is refused again" in done.data and standing_of(server, alice) == (True, False)
    assert table.write(ALICE, "vacation 3").startswith("rejected: not proven")
    assert client_for(server).post("/preferences/unsigned", data={"accept": "yes"}).status_code in (302, 400)


@pytest.mark.browser
def test_the_signed_mail_choice_in_the_browser(browser, site):  # noqa: F811
    server, base = site
    table = Table(server)
    game_id = table.start()
    mark_proven(server, table.game(game_id).white_id)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    sign_in(page, base, table, ALICE)
    page.click("text=Preferences")
    assert page.is_visible("text=your mail provider signs your mail")
    page.click("button:has-text('Accept my unsigned mail again')")
    page.wait_for_selector("text=Your mail is accepted again")
    assert standing_of(server, table.game(game_id).white_id) == (True, True)
    assert page.is_visible("button:has-text('Refuse unsigned mail in my name again')")
