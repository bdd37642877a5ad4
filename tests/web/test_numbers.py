"""Numbers in requests are read by one reader of the digits 0 to 9: every other spelling Python would take or
choke on ("²", other scripts' digits, "1_0", spaces, signs, a thousand digits) gets a 400 page naming the field
and saying what is wrong, changes nothing, and never reaches ``int``."""

from __future__ import annotations

import time

import pytest

from app import create_app
from app.inbound.webhook import signature
from app.rules.numbers import NumberError, whole_number
from tests.conftest import make_server
from tests.server.harness import ALICE, BOB, Table
from tests.web.test_preferences import preferences_of
from tests.web.test_seeks_page import game_count, players, post_seek, seek_rows
from tests.web_helpers import client_for, csrf_of

HUGE = "9" * 5000  # beyond the digits ``int`` turns into a number at all
ZEROS = "0" * 5000 + "1"  # one, written with more digits than ``int`` reads: too large, never an error of ``int``
UNREAD = ["\u00b2", "\u0661\u0662", "1_0", " 3", "3 ", "-1", "+3", "0x1", "3.0", "", HUGE, ZEROS]


@pytest.mark.parametrize("written", UNREAD)
def test_the_reader_takes_the_digits_0_to_9_alone(written):
    with pytest.raises(NumberError, match="written with the digits 0 to 9"):
        whole_number(written, 1, 30)


@pytest.mark.parametrize("written", [HUGE, ZEROS, "0" * 18 + "1", "1" + "0" * 18])
def test_a_number_of_more_than_18_digits_is_too_large_leading_zeros_counted(written):
    with pytest.raises(NumberError, match=r"^is too large: more than 18 digits; it must be a whole number from 1 to"):
        whole_number(written, 1, 10**30)


def test_the_reader_reads_what_is_written_plainly():
    assert whole_number("3", 1, 30) == 3 and whole_number("007", 1, 30) == 7
    assert whole_number("0" * 17 + "1", 1, 30) == 1 and whole_number("9" * 18, 1, 10**18) == 10**18 - 1
    with pytest.raises(NumberError, match="from 1 to 30"):
        whole_number("31", 1, 30)


def test_seek_forms_with_a_number_that_is_none_are_answered_400_and_change_nothing(server):
    alice, bob = players(server, ALICE, BOB)
    mine = client_for(server, None, alice)
    token = csrf_of(mine.get("/seeks").data)
    for written in [*UNREAD[:-3], "0", "31"]:
        answer = mine.post("/seeks", data={"csrf_token": token, "variant": "side-view", "days": written})
        page = answer.data.decode()
        assert answer.status_code == 400 and "Days a move" in page, (written, page)
        assert "is not a whole number from 1 to 30 written with the digits 0 to 9" in page
    for written in (HUGE, ZEROS):
        answer = mine.post("/seeks", data={"csrf_token": token, "variant": "side-view", "days": written})
        page = answer.data.decode()
        assert answer.status_code == 400 and "Days a move" in page, page
        assert f"\u201c{written[:24]}\u2026\u201d is too large (more than 18 digits): write a whole number from 1 to " \
               "30 written with the digits 0 to 9" in page
        assert len(page) < 5000  # a bounded excerpt of what was written
    for field in ("low", "high"):
        for written in [*UNREAD[:-3], HUGE, ZEROS, "4001"]:
            answer = mine.post("/seeks", data={"csrf_token": token, "variant": "side-view", "low": "1200",
                                               "high": "1800", field: written})
            assert answer.status_code == 400 and "est rating" in answer.data.decode(), (field, written)
    assert seek_rows(server) == []
    number = post_seek(server, ALICE, "side-view")
    theirs = client_for(server, None, bob)
    token = csrf_of(theirs.get("/seeks").data)
    for written in ["\u00b2", "\u0661", "1_0", "%203", "-1", HUGE, ZEROS]:
        for action in ("join", "cancel"):
            answer = theirs.post(f"/seeks/{written}/{action}", data={"csrf_token": token})
            assert answer.status_code == 400 and "Seek number" in answer.data.decode(), (written, action)
    assert game_count(server) == 0 and seek_rows(server)[0].status == "open"
    assert b"has started" in theirs.post(f"/seeks/{number}/join", data={"csrf_token": token},
                                         follow_redirects=True).data


def test_the_digest_hour_that_is_no_number_is_answered_400_and_changes_nothing(server):
    table = Table(server)
    game_id = table.start()
    alice = table.game(game_id).white_id
    client = client_for(server, game_id, alice)
    token = csrf_of(client.get("/preferences").data)
    for written in [*UNREAD, "24"]:
        answer = client.post("/preferences", data={"csrf_token": token, "digest": "daily", "hour": written,
                                                    "reminders": "12"})
        page = answer.data.decode()
        assert answer.status_code == 400 and "The digest&#39;s hour (UTC)" in page, (written, page)
        assert "a whole number from 0 to 23 written with the digits 0 to 9" in page
    assert preferences_of(server, alice) == (None, None)
    assert client.post("/preferences", data={"csrf_token": token, "digest": "each", "hour": "\u00b2"},
                       follow_redirects=True).status_code == 200  # an hour not asked for is not read


def test_a_step_or_an_id_in_an_address_that_is_no_number_is_not_read_as_one(server):
    table = Table(server)
    game_id = table.start()
    client = client_for(server, game_id, table.game(game_id).white_id)
    assert client.get(f"/games/{game_id}?step=1").status_code == 200
    for written in ["\u00b2", "\u0661", "1_0", "%201", "-1", HUGE, ZEROS]:
        answer = client.get(f"/games/{game_id}?step={written}")
        assert answer.status_code == 400 and "Step" in answer.data.decode(), written
    arabic = "".join(chr(0x0660 + int(digit)) for digit in str(game_id))  # the same id in Arabic-Indic digits
    assert client.get(f"/games/{arabic}").status_code == 404
    assert client.get(f"/players/{arabic}").status_code == 404


SECRET = "webhook-secret"


@pytest.mark.parametrize("timestamp", ["\u00b2", "\u0661\u0662", "1_0", " 3", "-1", "1e9", HUGE, ZEROS])
def test_a_webhook_timestamp_that_is_no_number_is_answered_400(tmp_path, database_url, timestamp):
    server = make_server(tmp_path, database_url, INBOUND_WEBHOOK_SECRET=SECRET)
    client = create_app(server).test_client()
    body = b"From: a@b.test\r\nSubject: x\r\n\r\nhello\r\n"
    encoded = timestamp.encode().decode("latin-1")  # as a header carries it
    answer = client.post("/inbound/raw", data=body, headers={
        "X-Mirrorpost-Timestamp": encoded, "X-Mirrorpost-Signature": signature(SECRET, encoded, body)})
    assert answer.status_code == 400 and "X-Mirrorpost-Timestamp" in answer.json["error"]
    assert "digits 0 to 9" in answer.json["error"]
    missing = client.post("/inbound/raw", data=body, headers={"X-Mirrorpost-Signature": "00"})
    assert missing.status_code == 401 and "missing" in missing.json["error"]
    good = str(int(time.time()))
    assert client.post("/inbound/raw", data=body, headers={
        "X-Mirrorpost-Timestamp": good, "X-Mirrorpost-Signature": signature(SECRET, good, body)}).status_code == 202
    assert len(Table(server).inbound()) == 1
