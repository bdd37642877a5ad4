"""The daily digest: one mail a day instead of a mail per move, replies for several games, the clock from the digest."""

import html
import re
from datetime import timedelta

from app.db import utcnow
from app.games.digest.digests import next_due
from app.inbound.clients import fresh, reply
from tests.server.digest_helpers import (
    digest_on,
    digests_to,
    html_section,
    move,
    reply_in_game,
    request_html_section,
    request_section,
    send_digests,
    start_game,
    text_section,
)
from tests.server.harness import ALICE, Table, statements_seen
from tests.web_helpers import client_for

OPPONENTS = ("bob@players.test", "carol@players.test", "dave@players.test")
VARIANTS = ("kriegspiel", "side-view", "quasi-alice-4d")


def game_section(text: str, game_id: int) -> str:
    """A game's section as a move request shows it, in a digest or in the answer to a reply to one."""
    found = re.search(rf"^(Game {game_id}, [^\n]*\. You are .*?)^Your history of this game:", text, re.M | re.S)
    assert found, text
    return found.group(1)


def three_games(server) -> list[int]:
    """Alice on the digest, Black in three games of three variants against three players, who have each moved."""
    digest_on(server, ALICE)
    games = [start_game(server, variant, opponent, ALICE) for variant, opponent in zip(VARIANTS, OPPONENTS,
                                                                                        strict=True)]
    for game_id, opponent in zip(games, OPPONENTS, strict=True):
        move(server, game_id, opponent)
    return games


def test_a_player_on_the_digest_hears_of_their_games_once_a_day_and_their_clock_starts_then(server):
    table = Table(server)
    before = len(table.mails(ALICE))
    games = three_games(server)
    kinds = [mail.kind for mail in table.mails(ALICE)[before:]]
    assert set(kinds) <= {"confirm", "notice", "invitation", "accepted", "started"}, kinds  # no request, no move
    for game_id, opponent in zip(games, OPPONENTS, strict=True):
        game = table.game(game_id)
        assert game.deadline is None and game.next_clock_at is None  # told of nothing yet: no clock
        assert "Alice reads their games once a day, at 07:00 UTC; their time for this move starts then" in \
            table.text(opponent)
    table.write(ALICE, "games")
    assert "your move; your time for it starts with your next digest" in table.text(ALICE, "games")
    page = client_for(server, player_id=table.game(games[0]).black_id).get("/games").get_data(as_text=True)
    assert page.count("your time starts with your next daily digest") == 3
    now = utcnow()
    assert send_digests(server, now) == 1
    assert len(digests_to(server, ALICE)) == 1
    text = table.text(ALICE, "digest")
    assert "it is your move in 3 of 3" in text
    for game_id in games:
        assert table.game(game_id).deadline == now + timedelta(days=3)  # the time of a move, from the digest
        assert f"Game {game_id}, " in text
    assert "Orders in Kriegspiel" in text and "Orders in Side View Chess" in text  # once a variant
    assert text.count("Your order goes on the first line") == 0 and text.count("Orders in ") == 3
    assert send_digests(server, now, every=False) == 0  # not due again before tomorrow's hour


def test_each_game_of_a_digest_is_shown_as_its_move_request_shows_it(server):
    table = Table(server)
    games = three_games(server)
    send_digests(server)
    digest = table.last(ALICE, "digest")
    outcome = table.reply(ALICE, "\n".join(f"Game {game_id}: board" for game_id in games), kind="digest")
    assert outcome.startswith("done") and outcome.count(": board") == 3, outcome
    answer = table.last(ALICE, "digest-answer")  # one mail, each game as the digest shows it
    for game_id in games:
        assert game_section(answer.body_text, game_id) == game_section(digest.body_text, game_id)
    requests = {}
    for game_id in games:  # and as a reply to the game's own mail shows it
        assert reply_in_game(server, game_id, ALICE, "board") == "done: board"
        requests[game_id] = table.last(ALICE, "board")
    drawn = []
    for game_id in games:
        assert text_section(digest.body_text, game_id) == request_section(requests[game_id].body_text, game_id)
        ours, theirs = html_section(digest.body_html, game_id), request_html_section(requests[game_id].body_html,
                                                                                     game_id)
        if "<pre" in ours:  # drawn in fixed-width type, one grid under another, to keep the mail small
            head, figure = ours.split("Drawn in plain type", 1)
            head = head.rsplit("<p ", 1)[0]
            assert theirs.startswith(head) and "<table" not in head and "<table" in theirs
            drawn_as_text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", figure.split("<pre", 1)[1])).split())
            words = " ".join(text_section(digest.body_text, game_id).split())
            described_all = re.findall(r"^  (\S[^\n]*:.*(?:\n    .*)*)", text_section(digest.body_text, game_id),
                                       re.M)  # each grid's pieces in words, the legend and the notes
            assert described_all
            for described in described_all:
                assert " ".join(described.split()) in drawn_as_text and " ".join(described.split()) in words
        else:
            assert ours == theirs
            drawn.append(game_id)
    assert drawn  # the first games are drawn as in their move requests


def test_a_reply_to_the_digest_plays_several_games_and_a_copy_of_it_applies_nothing_twice(server):
    table = Table(server)
    games = three_games(server)
    send_digests(server)
    first, second, third = games
    plies = {game_id: table.game(game_id).ply for game_id in games}
    raw = table.reply_bytes(ALICE, f"Some chatter first.\nGame {first}: e7-e5\n\ngame {second}\ne7-e6\nThanks!\n",
                            kind="digest")  # both forms: a line with the order, and a line naming the game
    outcome = table.deliver(raw)
    assert f"game {first}: e7-e5: moved" in outcome and f"game {second}: e7-e6: moved" in outcome, outcome
    assert table.game(third).ply == plies[third]  # left out: it waits
    assert {game_id: table.game(game_id).ply for game_id in (first, second)} == {first: plies[first] + 1,
                                                                                 second: plies[second] + 1}
    events = {game_id: len(table.events(game_id)) for game_id in games}
    mails = len(table.mails(ALICE))
    copy = raw.replace(b"Message-ID: <", b"Message-ID: <copy.", 1)
    outcome = table.deliver(copy)
    assert outcome == f"rejected: game {first}: stale (answered before); game {second}: stale (answered before)"
    assert {game_id: len(table.events(game_id)) for game_id in games} == events  # nothing applied twice
    (answer,) = table.mails(ALICE)[mails:]  # one mail, a part for each game
    text = " ".join(answer.body_text.split())
    assert answer.kind == "digest-answer" and answer.game_id is None
    for game_id in (first, second):
        assert f"Your reply to the digest for game {game_id} was not applied" in text
    assert table.deliver(raw) == "duplicate"  # the very same message: stored once, never processed again


def test_a_games_part_of_a_digest_is_answered_once_and_a_game_not_listed_is_refused(server):
    table = Table(server)
    games = three_games(server)
    send_digests(server)
    first, second, _third = games
    assert table.reply(ALICE, f"Game {first}: board", kind="digest") == f"done: game {first}: board"
    assert ": moved" in table.reply(ALICE, f"Game {first}: e7-e5", kind="digest-answer")  # the game moves on
    ply = table.game(first).ply
    outcome = table.reply(ALICE, f"Game {first}: e7-e6\nGame {second}: e7-e6\nGame 999: e2-e4", kind="digest")
    assert f"game {first}: stale (answered before)" in outcome and f"game {second}: e7-e6: moved" in outcome
    assert table.game(first).ply == ply
    assert "Nothing was carried out for game 999" in table.text(ALICE, "digest-answer")


def test_an_old_move_in_a_digest_reply_is_answered_as_a_stale_reply_to_a_move_request(server):
    """The game moved on since the digest (its part never answered): told "stale" for that game alone."""
    table = Table(server)
    games = three_games(server)
    send_digests(server)
    digest = table.last(ALICE, "digest")
    first, second, _third = games
    assert table.reply(ALICE, f"Game {first}: board", kind="digest") == f"done: game {first}: board"
    send_digests(server)  # a second digest: game 1's part of it not answered yet
    second_digest = table.last(ALICE, "digest")
    assert second_digest.id != digest.id
    assert ": moved" in table.reply(ALICE, f"Game {first}: e7-e5", kind="digest-answer")  # to the board's answer
    outcome = table.deliver(reply(second_digest.raw, f"Game {first}: d7-d5\nGame {second}: d7-d5", "outlook", ALICE))
    assert f"game {first}: stale reply" in outcome and f"game {second}: d7-d5: moved" in outcome, outcome
    answer = table.text(ALICE, "digest-answer")  # one mail: the first game's part is the stale reply's notice
    assert "Reply to an old move request:" in answer and "answered an old move request, so it was not applied" in answer


def test_a_reply_to_the_digest_naming_no_game_is_told_how_to_name_one(server):
    table = Table(server)
    three_games(server)
    send_digests(server)
    assert table.reply(ALICE, "e7-e5", kind="digest") == "rejected: a reply to a digest naming no game"
    assert "named no game" in table.text(ALICE, "digest-error")


def test_digest_off_brings_back_the_move_requests_at_once_with_their_clocks(server):
    table = Table(server)
    games = three_games(server)
    assert "confirmed: digest off" in table.write_confirmed(ALICE, "digest off")
    requests = [mail for mail in table.mails(ALICE, "request")]
    assert sorted(mail.game_id for mail in requests) == sorted(games)
    assert all(table.game(game_id).deadline is not None for game_id in games)
    assert ": moved" in reply_in_game(server, games[0], ALICE, "e7-e5")
    move(server, games[0], OPPONENTS[0])
    assert table.last(ALICE).game_id == games[0] and table.last(ALICE).kind == "request"
    assert send_digests(server) == 0 and digests_to(server, ALICE) == []


def test_what_the_event_record_does_not_keep_waits_for_the_digest(server):
    """An opponent's vacation, and the fingerprints of hidden setups, come in the next digest."""
    table = Table(server)
    digest_on(server, ALICE)
    hidden = start_game(server, "looking-glass", ALICE, OPPONENTS[0])  # Alice moves first: her request held
    other = start_game(server, "side-view", OPPONENTS[1], ALICE)
    assert reply_in_game(server, other, OPPONENTS[1], "vacation 2") == "done: vacation"
    assert not table.mails(ALICE, "vacation")
    send_digests(server)
    text = table.text(ALICE, "digest")
    assert "is on vacation until" in text and "committed as sha256" in text
    assert f"Game {hidden}, " in text and "it is your move in 1 of 2" in text
    send_digests(server)
    assert "committed as sha256" not in table.text(ALICE, "digest")  # shown once


def test_the_digest_goes_out_at_its_hour_and_the_round_reads_only_the_players_due(server):
    table = Table(server)
    digest_on(server, ALICE, hour=9)
    game_id = start_game(server, "kriegspiel", OPPONENTS[0], ALICE)
    move(server, game_id, OPPONENTS[0])
    due = next_due(9, utcnow())
    assert table.game(game_id).deadline is None
    with statements_seen(server.db.engine) as seen:
        assert send_digests(server, due - timedelta(minutes=1), every=False) == 0
    assert len([statement for statement in seen if not statement.startswith("BEGIN")]) == 1
    assert send_digests(server, due + timedelta(seconds=5), every=False) == 1
    assert table.game(game_id).deadline == due + timedelta(seconds=5, days=3)
    assert send_digests(server, due + timedelta(minutes=1), every=False) == 0  # claimed: moved on a day
    assert send_digests(server, due + timedelta(days=1, seconds=5), every=False) == 1


def test_digest_and_remind_are_held_to_the_bare_address_and_done_at_once_in_a_game_reply(server):
    table = Table(server)
    game_id = start_game(server, "kriegspiel", ALICE, OPPONENTS[0])
    assert "held for confirmation" in table.write(ALICE, "remind 24h 2h\ndigest daily 18")
    confirm = table.text(ALICE, "confirm")
    assert "remind you 24 hours and 2 hours before each deadline" in confirm
    assert "one mail a day, at 18:00 UTC" in confirm
    table.confirm(ALICE)
    notices = " ".join(mail.body_text for mail in table.mails(ALICE, "notice"))
    assert "reminded 24 hours and 2 hours before each deadline" in notices and "18:00 UTC" in notices
    outcome = reply_in_game(server, game_id, ALICE, "digest off")
    assert outcome.startswith("done"), outcome
    assert "The daily digest is off" in table.text(ALICE, "notice")
    for wrong, said in (("digest daily 25", "write: digest daily HOUR"), ("digest weekly", "write: digest daily HOUR"),
                        ("remind 0h", "e.g. remind 24h 2h"), ("remind 1 2 3 4 5", "at most 4")):
        assert table.write(ALICE, wrong).startswith("rejected"), wrong
        assert said in table.text(ALICE, "error"), (wrong, table.text(ALICE, "error"))


def test_a_digest_reply_from_another_address_or_to_an_unknown_key_changes_nothing(server):
    table = Table(server)
    games = three_games(server)
    send_digests(server)
    plies = [table.game(game_id).ply for game_id in games]
    mallory = "mallory@evil.test"
    forged = reply(table.last(ALICE, "digest").raw, f"Game {games[0]}: resign", "gmail", mallory)
    assert table.deliver(forged).startswith("rejected: spoofed sender mallory@evil.test for digest")
    assert "does not belong to the player" in table.text(mallory)
    guessed = fresh(ALICE, f"referee+digest.{'a' * 26}@mirrorpost.test", f"Game {games[0]}: resign")
    assert table.deliver(guessed) == "rejected: a key for a digest that does not exist"
    assert "reply address not recognised" in table.last(ALICE).subject
    assert [table.game(game_id).ply for game_id in games] == plies
