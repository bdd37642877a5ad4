"""What two new players meet by mail: each mail right, short and clear (the bugs found playing by mail)."""

from email import message_from_bytes
from email.policy import default

import pytest

from app.rules.registry import VARIANTS
from tests.server.harness import ALICE, BOB, Table
from tests.web_helpers import client_for


def text_of(mail) -> str:
    return message_from_bytes(mail.raw, policy=default).get_body(("plain",)).get_content().replace("\r\n", "\n")


def test_an_order_after_the_end_gets_a_short_word_to_the_sender_alone(server):
    table = Table(server)
    game_id = table.start()
    table.reply(ALICE, "resign", kind="request")
    counts = (len(table.mails(ALICE)), len(table.mails(BOB)))
    events = len(table.events(game_id))
    table.reply(BOB, "mirror e7 e5", kind="game-over")
    assert (len(table.mails(ALICE)), len(table.mails(BOB))) == (counts[0], counts[1] + 1)  # nothing to Alice
    notice = table.last(BOB)
    assert notice.kind == "notice" and "already over" in text_of(notice) and len(text_of(notice)) < 1500
    assert "Your order M:e7-e5 was not played." in " ".join(text_of(notice).split())  # written as the referee does
    assert len(table.events(game_id)) == events  # the history does not open on it


@pytest.mark.parametrize("words", ["Thanks, good game!", "What a game!\nM e7-e9"])
def test_a_reply_to_the_game_over_mail_without_an_order_gets_the_same_short_word(server, words):
    """Chatter or an unreadable line after the end: no 'order could not be read', no order forms."""
    table = Table(server)
    table.start()
    table.reply(ALICE, "resign", kind="request")
    count = len(table.mails(ALICE))
    table.reply(BOB, words, kind="game-over")
    assert len(table.mails(ALICE)) == count
    notice = table.last(BOB)
    text = " ".join(text_of(notice).split())
    assert notice.kind == "notice" and "already over" in text and "not passed on to your opponent" in text
    assert "could not be read" not in text and "offer draw" not in text and len(text) < 1500


def test_one_numbering_everywhere_black_s_move_1_is_move_1_in_the_record_and_on_the_web(server):
    table = Table(server)
    game_id = table.start()
    table.reply(ALICE, "R e2-e4", kind="request")
    assert ", move 1:" in table.last(BOB, "request").subject
    table.reply(BOB, "M e7-e5", kind="request")
    assert [event.move_number for event in table.events(game_id) if event.result == "moved"] == [1, 1]
    page = client_for(server, game_id, table.game(game_id).black_id).get(f"/games/{game_id}").data.decode()
    assert "move 2" not in page and "move 1" in page
    assert ", move 2:" in table.last(ALICE, "request").subject


def test_an_unreadable_order_is_answered_once_with_a_guess(server):
    table = Table(server)
    table.start()
    table.reply(ALICE, "R e2-e4", kind="request")
    table.reply(BOB, "M g8f7", kind="request")  # g8-f7 is no knight move: readable, but not legal
    table.reply(BOB, "M g8-f66", kind="request")
    text = text_of(table.last(BOB, "error"))
    assert "Could not read 'M g8-f66' as an order: f66 is not a square" in " ".join(text.split())
    assert "Did you mean M g8-f6?" in text
    assert text.count("could not") + text.count("Could not") == 1 and text.count("M e7-e5") <= 1
    assert "Accepted forms" not in text


def test_a_setup_against_the_rules_says_which_rule_and_shows_a_valid_row(server):
    table = Table(server)
    table.new_game()
    table.reply(ALICE, "accept", kind="invitation")
    table.reply(BOB, "accept", kind="invitation")
    table.reply(ALICE, "setup KRRQBBNN", kind="setup-request")
    text = " ".join(text_of(table.last(ALICE)).split())
    assert "could not be read" not in text and "was not accepted" in text
    assert "the king must stand between the two rooks; for example RKRQBBNN would do" in text


def test_a_move_in_reply_to_a_draw_offer_is_played_and_answers_it(server):
    table = Table(server)
    game_id = table.start()
    table.reply(ALICE, "R e2-e4", kind="request")
    table.reply(BOB, "M e7-e5", kind="request")
    table.reply(BOB, "offer draw", kind="request")  # out of turn: an offer is fine any time
    offer = table.last(ALICE, "draw-offer")
    assert "A move also answers the offer" in " ".join(text_of(offer).split())
    table.reply(ALICE, "R g1-f3", kind="draw-offer")
    game = table.game(game_id)
    assert game.ply == 3 and game.state["draw_offer"] is None


def test_a_draw_offered_on_ones_own_turn_is_answered_by_a_reply_or_by_the_next_move(server):
    """An offer made before one's own move reaches a player who cannot move yet: the mail says the next move
    request is where a move answers it, and 'accept draw' sent to it still counts after the offerer moved."""
    table = Table(server)
    game_id = table.start()
    table.reply(ALICE, "offer draw", kind="request")
    offer = " ".join(text_of(table.last(BOB, "draw-offer")).split())
    assert "A move also answers" not in offer and "with your next move" in offer
    table.reply(ALICE, "R e2-e4", kind="request")
    table.reply(BOB, "accept draw", kind="draw-offer")
    game = table.game(game_id)
    assert game.status == "over" and game.result == "1/2-1/2"


def test_both_players_get_the_setup_fingerprints_when_play_starts(server):
    table = Table(server)
    table.start()
    for player, kind in ((ALICE, "request"), (BOB, "started")):
        assert "committed as sha256" in " ".join(text_of(table.last(player, kind)).split()), player


def test_a_player_is_told_when_the_opponent_has_sent_their_setup(server):
    table = Table(server)
    table.new_game()
    table.reply(ALICE, "accept", kind="invitation")
    table.reply(BOB, "accept", kind="invitation")
    table.reply(ALICE, "setup 518", kind="setup-request")
    mail = table.last(BOB)
    assert "Alice has sent their setup" in mail.subject and "as soon as you send yours" in text_of(mail)


def test_vacation_is_told_to_the_opponent_with_the_deadline_that_moved(server):
    table = Table(server)
    game_id = table.start()
    before = table.game(game_id).deadline
    table.reply(ALICE, "vacation 5", kind="request")
    assert (table.game(game_id).deadline - before).days == 5
    told = text_of(table.last(BOB, "vacation"))
    assert "Alice is on vacation until" in " ".join(told.split()) and "now due by" in told


def test_every_line_of_every_mail_of_a_game_wraps_within_78_columns(server):
    table = Table(server)
    table.start()
    table.reply(ALICE, "M d4-d5", kind="request")  # a strike
    table.reply(ALICE, "R e2-e4", kind="request")
    table.reply(BOB, "M e7-e5", kind="request")
    table.reply(ALICE, "R d2-d4", kind="request")  # Alice's old request answered: a stale reply
    for address in (ALICE, BOB):
        for mail in table.mails(address):
            long = [line for line in text_of(mail).splitlines() if len(line) > 78 and "://" not in line]
            assert long == [], (mail.kind, long)


def test_subjects_stay_within_78_characters(server):
    table = Table(server)
    table.start(strikes="3")
    table.reply(ALICE, "M d4-d5", kind="request")  # "strike 1 of 3 - your move again"
    table.reply(ALICE, "R e2-e4", kind="request")
    table.reply(BOB, "offer draw", kind="request")
    for address in (ALICE, BOB):
        for mail in table.mails(address):
            assert len(mail.subject) <= 78, mail.subject
    assert "strike 1 of 3" in table.mails(ALICE, "notice")[0].subject


def test_say_and_decline_draw_are_confirmed_to_the_sender(server):
    table = Table(server)
    table.start()
    table.reply(ALICE, "say Have fun!", kind="request")
    assert "passed on to Bob" in text_of(table.last(ALICE, "notice"))
    table.reply(BOB, "offer draw", kind="started")
    table.reply(ALICE, "decline draw", kind="draw-offer")
    assert "You declined Bob's draw offer." in " ".join(text_of(table.last(ALICE)).split())


def test_the_first_move_request_says_it_is_the_first_move(server):
    table = Table(server)
    table.start()
    text = " ".join(text_of(table.last(ALICE, "request")).split())
    assert "this is the first move of the game" in text and "Nothing has happened" not in text


def test_rules_by_mail_in_a_game_and_to_the_bare_address_and_a_link_in_every_game_mail(server):
    table = Table(server, "palindromic")
    table.start()
    table.reply(ALICE, "rules", kind="request")
    text = text_of(table.last(ALICE, "rules"))
    assert "# Palindromic Chess" in text and "the reversal can never happen" in " ".join(text.split())
    table.write("carol@players.test", "rules side-view")
    assert "# Side View Chess" in text_of(table.last("carol@players.test", "rules"))
    table.write("carol@players.test", "rules tiddlywinks")
    unknown = " ".join(text_of(table.last("carol@players.test")).split())
    assert unknown.endswith(f"there is no game by that name; the games: {', '.join(sorted(VARIANTS))}")
    assert "tiddlywinks" not in unknown  # nothing a stranger wrote goes back to an address not proved theirs
    for mail in table.mails(ALICE):
        if mail.game_id:
            assert "How to play: http://mirrorpost.test/rules/palindromic" in text_of(mail), mail.kind


def test_every_mail_of_a_long_game_of_each_variant_stays_under_100_kb(tmp_path):
    """Gmail clips a mail larger than about 100 KB: the largest kinds (move requests with every board, the
    game-over mail with its record) of a long game, in every variant."""
    import random

    from app.present.registry import DECLARATIONS
    from app.rules.registry import VARIANTS, get_variant
    from tests.conftest import make_server

    for name in sorted(VARIANTS):
        server = make_server(tmp_path / name, f"sqlite:///{tmp_path / (name + '.sqlite3')}")
        table, variant, rng = Table(server, name), get_variant(name), random.Random(name)
        game_id = table.start(**DECLARATIONS[name].sample.options)
        for _ply in range(120):
            game = table.game(game_id)
            state = variant.from_json(game.state)
            side = variant.orderer(state)
            if game.status != "active" or side is None:
                break
            table.reply(ALICE if side == "white" else BOB, variant.random_order(state, side, rng))
        if table.game(game_id).status == "active":
            side = variant.orderer(variant.from_json(table.game(game_id).state))
            table.reply(ALICE if side == "white" else BOB, "resign")
        sizes: dict[str, int] = {}
        for mail in table.mails(ALICE) + table.mails(BOB):
            raw = mail.raw
            sizes[mail.kind] = max(sizes.get(mail.kind, 0), len(raw))
            html = message_from_bytes(raw, policy=default).get_body(("html",))
            assert html["Content-Transfer-Encoding"] == "7bit", (name, mail.kind)  # as written: no base64 growth
        assert "game-over" in sizes and max(sizes.values()) < 100 * 1024, (name, sizes)
        server.db.engine.dispose()


def test_an_unreadable_line_before_play_begins_promises_no_order_forms(server):
    table = Table(server)
    table.new_game()
    table.reply(ALICE, "accept", kind="invitation")
    table.reply(BOB, "accept", kind="invitation")
    table.reply(ALICE, "R e2-e9", kind="setup-request")
    text = " ".join(text_of(table.last(ALICE)).split())
    assert "Could not read" in text and "Send it again." in text and "these forms" not in text
