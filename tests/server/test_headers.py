"""The headers of the mails we send: threading, the reply token, and what keeps robots from answering."""

import base64
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.message import Message
from email.policy import default

from app.inbound.clients import fresh
from tests.server.harness import ALICE, BOB, Table


def headers_of(table: Table, address: str, kind: str | None = None) -> Message:
    return message_from_bytes(table.last(address, kind).raw, policy=default)


def test_every_mail_of_a_game_to_one_player_is_one_thread_of_their_own(server):
    """Each player's mails about a game answer one Message-ID of that game and side, so clients thread them
    whatever they key on; the opponent's thread is another."""
    table = Table(server)
    game_id = table.start()
    domain = server.settings.server_domain
    threads = {}
    for address, side in ((ALICE, "white"), (BOB, "black")):
        thread = f"<game-{game_id}-{side}@{domain}>"
        mails = [message_from_bytes(mail.raw, policy=default) for mail in table.mails(address)]
        assert len(mails) >= 3  # invitation, setup request, move request or waiting notice
        for mail in mails:
            assert mail["In-Reply-To"] == thread and mail["References"] == thread
        threads[side] = thread
    assert threads["white"] != threads["black"]


def conversation_index(message: Message) -> tuple[datetime, bytes]:
    """The start and GUID of an Outlook conversation index's header block (MS-OXOMSG 2.2.1.3)."""
    index = base64.b64decode(str(message["Thread-Index"]), validate=True)
    assert len(index) == 22 and index[0] == 1
    return datetime(1601, 1, 1, tzinfo=UTC) + timedelta(microseconds=(int.from_bytes(index[1:6]) << 24) / 10), \
        index[6:]


def test_outlook_groups_a_game_by_its_topic_and_conversation_index(server):
    """Outlook keys conversations on Thread-Topic and the header block of Thread-Index, not on References:
    every mail of a game to one player carries the same of both, the index starting when the game began."""
    table = Table(server)
    game_id = table.start()
    table.reply(ALICE, "R e2-e4", kind="request")
    began = table.game(game_id).created_at
    guids = {}
    for address in (ALICE, BOB):
        mails = [message_from_bytes(mail.raw, policy=default) for mail in table.mails(address)]
        assert {str(mail["Thread-Topic"]) for mail in mails} == {f"Game {game_id}: Through the Looking-Glass"}
        assert len({str(mail["Thread-Index"]) for mail in mails}) == 1
        started, guids[address] = conversation_index(mails[0])
        assert timedelta(0) <= began - started < timedelta(seconds=2)  # the 24 low bits (1.7 s) are dropped
    assert guids[ALICE] != guids[BOB]
    table.new_game()  # another game: another conversation
    assert conversation_index(headers_of(table, ALICE, "invitation"))[1] not in guids.values()


def test_a_request_carries_its_token_in_the_reply_address_and_the_message_id(server):
    """A reply keeps the token even when its client or relay lost the plus-address: In-Reply-To names it."""
    table = Table(server)
    game_id = table.start()
    request = headers_of(table, ALICE, "request")
    local, domain = server.settings.server_email.split("@")
    reply_to = str(request["Reply-To"])
    assert reply_to.startswith(f"{local}+") and reply_to.endswith(f"@{domain}")
    token = reply_to[len(local) + 1:-len(domain) - 1]
    assert str(request["Message-ID"]).startswith(f"<{token}.")
    subject = str(request["Subject"])
    assert f"Game {game_id}" in subject and "your move (White)" in subject and subject.endswith(" - Through the "
                                                                                             "Looking-Glass")


def test_mails_say_they_are_automatic_so_no_robot_answers_them(server):
    table = Table(server)
    table.start()
    request = headers_of(table, ALICE, "request")
    assert request["Auto-Submitted"] == "auto-generated"
    assert request["X-Auto-Response-Suppress"] == "All"
    table.write("someone@players.test", "what is this")
    answer = headers_of(table, "someone@players.test")
    assert answer["Auto-Submitted"] == "auto-replied"
    assert answer["X-Auto-Response-Suppress"] == "All"


def test_a_notice_outside_any_game_answers_the_message_it_is_about(server):
    """RFC 3834: an automatic answer names the message it answers in In-Reply-To and References."""
    table = Table(server)
    raw = fresh("someone@players.test", server.settings.server_email, "games")
    asked = str(message_from_bytes(raw, policy=default)["Message-ID"])
    table.deliver(raw)
    answer = headers_of(table, "someone@players.test", "games")
    assert answer["In-Reply-To"] == asked and answer["References"] == asked
    assert answer["Thread-Topic"] is None and answer["Thread-Index"] is None  # not a conversation of ours


def test_a_notice_to_a_message_without_a_message_id_threads_under_nothing(server):
    table = Table(server)
    raw = fresh("someone@players.test", server.settings.server_email, "help")
    raw = b"".join(line for line in raw.splitlines(keepends=True) if not line.startswith(b"Message-ID:"))
    table.deliver(raw)
    answer = headers_of(table, "someone@players.test", "help")
    assert answer["In-Reply-To"] is None and answer["References"] is None
