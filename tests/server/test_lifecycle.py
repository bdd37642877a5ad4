"""A game's life by email: invitation, setup, move requests, notices, the end and the reveal."""

import hashlib

from app.outbound.render import NOTICE_MARKER, ORDER_MARKER
from app.present.base import PROMOTION_MEANING, promotion_form
from tests.server.harness import ALICE, BOB, Table
from tests.web_helpers import client_for


def test_invitation_accept_setup_and_first_move_request(server):
    table = Table(server)
    game_id = table.new_game(days="3", strikes="3")
    invitation = table.text(BOB, "invitation")
    assert ("Reply 'accept'" in invitation and "White" in invitation) or "Black" in invitation
    table.reply(ALICE, "accept", kind="invitation")
    assert table.game(game_id).status == "invited"
    table.reply(BOB, "Sure, let's play!\naccept", style="outlook", kind="invitation")
    assert table.game(game_id).status == "setup"
    assert "setup RNBQKBNR" in table.text(ALICE, "setup-request")
    table.reply(ALICE, "setup 518", kind="setup-request")
    assert "your setup is in" in table.last(ALICE).subject
    table.reply(BOB, "setup RBBQKNNR", style="apple", kind="setup-request")
    game = table.game(game_id)
    assert game.status == "active"
    assert table.last(ALICE, "request").body_text.startswith(ORDER_MARKER + "\n")
    request = table.text(ALICE, "request")
    assert "You are White. You see the Real world." in request
    assert "P P P P P P P P" in request
    assert "sha256" in request and "RBBQKNNR" not in request  # committed, not revealed
    assert "R e2-e4" in request
    assert game.deadline is not None
    assert "the game has started - waiting for White" in table.last(BOB).subject


def test_a_move_goes_to_the_opponent_as_a_private_move_request(server):
    table = Table(server)
    game_id = table.start()
    table.reply(ALICE, "R e2-e4", kind="request")
    assert table.game(game_id).ply == 1
    received = table.text(ALICE, "move-received")
    assert "passed through the portal to Mirror e4" in received
    request = table.text(BOB, "request")
    assert "Since your last move:" in request
    assert "a piece stopped on Real e4 and asked about Mirror e4: empty" in request
    assert "arrived on Mirror e4" in request
    assert "You are Black. You see the Mirror world." in request


def test_the_movers_confirmation_marks_their_move_on_the_board(server):
    """LG-10: the mover's own position shows the squares of the move it confirms, as a request marks the last
    move: Real e2 and e4, which the pawn crossed on its way through the portal, and Mirror e4 where it arrived."""
    table = Table(server)
    table.start()
    table.reply(ALICE, "R e2-e4", kind="request")
    received = table.text(ALICE, "move-received")
    assert received.count("[.]") == 2  # Real e2 and e4, both empty now: the pawn went through the portal
    assert "(P)" in received  # Mirror e4, where it arrived
    assert "Between [ ]: a square of the last move; between ( ): a square you were told about." in received
    html = table.last(ALICE, "move-received").body_html
    assert html.count('bgcolor="#f5c84c"') == 2 and html.count('bgcolor="#d9c2f0"') == 1
    assert "A square of the last move; " in html and "a square you were told about." in html  # the key


def test_the_html_boards_name_their_pieces_by_character_reference(server):
    """The HTML part stays ASCII (the players' names here are), each chess glyph written as &#NNNN;."""
    table = Table(server)
    table.start()
    html = table.last(ALICE, "request").body_html
    assert html.isascii()
    assert html.count("&#9817;") == 8 and html.count("&#9812;") == 1  # White's pawns and king, in the Real world


def test_each_part_explains_the_pieces_as_it_draws_them(server):
    """Letters in the text part, figures in the HTML part and on the web: each legend says what it shows."""
    table = Table(server)
    game_id = table.start()
    request = table.last(ALICE, "request")
    assert "Upper case is White" in table.text(ALICE, "request")
    assert "the hollow figures, Black&#39;s the solid ones" in request.body_html
    assert "Upper case is White" not in request.body_html
    page = client_for(server, game_id, table.game(game_id).white_id).get(f"/games/{game_id}").data.decode()
    assert "drawn light, Black&#39;s dark" in page and "Upper case is White" not in page


def test_strike_notice_says_only_impossible_and_keeps_the_turn(server):
    table = Table(server)
    game_id = table.start()
    table.reply(ALICE, "M d4-d5", kind="request")
    strike = table.last(ALICE)
    assert "strike 1 of 3 - your move again - Through the Looking-Glass" in strike.subject
    assert "The referee does not say why" in table.text(ALICE)
    assert table.game(game_id).ply == 0
    table.reply(ALICE, "R d2-d4", kind="request")
    request = table.text(BOB, "request")
    assert "order M:d4-d5 in your world was impossible: strike 1" in request


def test_rejected_and_unreadable_orders_cost_nothing_and_say_why(server):
    table = Table(server)
    game_id = table.start()
    table.reply(ALICE, "R e2-e5", kind="request")
    assert "cannot move from e2 to e5" in table.text(ALICE)
    table.reply(ALICE, "R e2-e9 please", kind="request")
    text = table.text(ALICE)
    assert "Could not read 'R e2-e9 please' as an order: e9 is not a square" in text
    assert "in one of these forms" in text
    assert text.count("R e2-e4") == 1 and "Accepted forms" not in text  # the forms once, as a table
    game = table.game(game_id)
    assert game.ply == 0 and game.state["strikes"] == {"white": 0, "black": 0}


def test_order_out_of_turn_is_rejected(server):
    table = Table(server)
    table.start()
    table.reply(BOB, "M e7-e5", kind="setup-request")
    assert "not your turn" in table.text(BOB)


def test_stale_reply_shows_the_current_request(server):
    table = Table(server)
    game_id = table.start()
    table.reply(ALICE, "R e2-e4", kind="request")
    old_request = table.last(ALICE, "request")
    table.reply(BOB, "M e7-e5", kind="request")
    table.reply(ALICE, "R d2-d4", kind="request")
    assert table.game(game_id).ply == 3
    from app.inbound.clients import reply

    table.deliver(reply(old_request.raw, "real g1 f3", "gmail", ALICE))
    assert table.game(game_id).ply == 3
    stale = table.last(ALICE)
    assert "old move request" in stale.subject
    assert "Your order R:g1-f3 answered an old move request, so it was not applied" in table.text(ALICE)  # as
    # the referee writes orders everywhere else (the strike notices, the records)


def test_say_is_passed_on_word_for_word(server):
    table = Table(server)
    table.start()
    table.reply(ALICE, "say Good luck, Bob! May the portals be kind.", kind="request")
    assert "Good luck, Bob! May the portals be kind." in table.text(BOB, "said")


def test_game_over_mail_tells_the_whole_game_in_both_parts(server):
    """The reveal: both true positions as boards, each setup with its key and the line to hash, and every
    event with what each player was told, in lines a fixed-width reader need not scroll."""
    table = Table(server)
    game_id = table.start(black_row="RBBQKNNR")
    for address, order in ((ALICE, "R e2-e4"), (BOB, "M e7-e5"), (ALICE, "M d4-d5"), (ALICE, "R g1-f3")):
        table.reply(address, order, kind="request")
    table.reply(BOB, "resign", kind="request")
    game = table.game(game_id)
    assert game.status == "over"
    mail = table.last(ALICE, "game-over")
    text, html = mail.body_text, mail.body_html
    assert all(len(line) <= 78 for line in text.splitlines()), max(text.splitlines(), key=len)
    for side, row in (("white", "RNBQKBNR"), ("black", "RBBQKNNR")):
        entry = game.commitments[side]
        check = f"{entry['salt']}:looking-glass:{side}:{row}"
        assert hashlib.sha256(check.encode()).hexdigest() == entry["sha256"]
        for part in (text, html):
            assert check in part and entry["sha256"] in part and entry["salt"] in part
    record = table.attachment(ALICE, "game-over")  # the record of the game goes with the mail as a file
    assert "game-1.txt" in text and "1. R:e2-e4 M:e7-e5" in record and entry["salt"] in record
    reveal = client_for(server, game_id, game.white_id).get(f"/games/{game_id}/reveal?step=3").data.decode()
    told = "a piece stopped on Real e4 and asked about Mirror e4: empty, so it came through into your world."
    assert told in " ".join(reveal.split()) and "Every event" not in html  # every event: on the reveal page
    # Both true positions are drawn as boards, then what each player's notebook held at the end.
    assert html.count("world (true position)</td>") == 2
    assert html.count("notebook of the ") == 4  # each notebook's caption and accessible name
    pieces = sum(1 for fen in game.state["worlds"].values() for char in fen.split()[0] if char.isalpha())
    assert sum(html.count(f"&#{code};") for code in range(9812, 9824)) > pieces
    # Who won first, then the last move, the keys, the final boards and the moves, in both parts.
    for part, board in ((text, "Real world (true position)"), (html, "Real world (true position)</td>")):
        order = [part.index(landmark) for landmark in ("You won", "The last move", "The setups and the keys",
                                                      board, "The game in moves")]
        assert order == sorted(order), order


def test_the_order_forms_stand_on_mails_that_ask_for_an_order_with_the_players_own_orders(server):
    """The forms on mails that ask for an order (move requests, answers on one's turn), not on notices, with
    examples that are this player's orders in this position (never White's to Black)."""
    table = Table(server)
    table.start()
    table.reply(ALICE, "R e2-e4", kind="request")
    table.reply(BOB, "say Good luck!\nask", kind="request")
    for mail in (table.last(BOB, "answer"), table.last(BOB, "request")):
        forms = [line.split()[:2] for line in mail.body_text.splitlines() if "move in the Mirror world (your" in line]
        assert forms and all(world == "M" for world, _move in forms), mail.kind
        assert "R e2-e4" not in mail.body_text and "say &lt;text&gt;</td>" in mail.body_html, mail.kind
        long = [line for line in mail.body_text.splitlines() if len(line) > 78 and "://" not in line]
        assert long == [], (mail.kind, long)  # the forms' meanings are wrapped under themselves
    for mail in (table.last(ALICE, "move-received"), table.last(ALICE, "said"), table.last(ALICE, "invitation")):
        assert "say <text>" not in mail.body_text and "move in the Real world" not in mail.body_text, mail.kind


def test_the_promotion_form_names_one_of_the_players_own_pawns_or_is_told_in_words(server):
    """At the start nobody has a pawn one step from promoting: the form is told in words, no example given."""
    table = Table(server)
    table.start()
    request = table.text(ALICE, "request")
    assert "e7-e8=N" not in request and "none of your pawns is one step from it now" in request
    assert promotion_form({"c7": "P", "e7": "P", "e8": "k"}, "white") == ("c7-c8=N", PROMOTION_MEANING)
    assert promotion_form({"g2": "p"}, "black")[0] == "g2-g1=N"
    assert promotion_form({"g2": "P"}, "black")[0] == "promotion"  # White's pawn is no example for Black


def test_a_game_over_before_both_setups_shows_no_empty_worlds(server):
    table = Table(server)
    table.new_game()
    table.reply(ALICE, "accept", kind="invitation")
    table.reply(BOB, "accept", kind="invitation")
    table.reply(ALICE, "setup 518", kind="setup-request")
    table.reply(BOB, "resign", kind="setup-request")
    mail = table.last(BOB, "game-over")
    assert mail.body_text.startswith(NOTICE_MARKER + "\n")  # no order is asked for now
    assert "White wins (resignation)" in mail.subject
    assert "true position" not in mail.body_text and "true position" not in mail.body_html
    assert "You lost: you resigned." in mail.body_text and "The last move" not in mail.body_text
    assert "game-1.txt" in mail.body_text and "Black wins" not in table.attachment(BOB, "game-over")


def test_game_over_reveals_setups_with_keys_that_match_the_commitments(server):
    table = Table(server)
    game_id = table.start(black_row="RBBQKNNR")
    table.reply(BOB, "resign", kind="setup-request")
    game = table.game(game_id)
    assert (game.status, game.result, game.reason) == ("over", "1-0", "resigned")
    for address in (ALICE, BOB):
        text = table.text(address, "game-over")
        assert "White wins (resignation)" in table.last(address, "game-over").subject
        assert "RBBQKNNR" in text
    entry = game.commitments["black"]
    digest = hashlib.sha256(f"{entry['salt']}:looking-glass:black:RBBQKNNR".encode()).hexdigest()
    assert digest == entry["sha256"]
    assert entry["sha256"] in table.text(ALICE, "request")
