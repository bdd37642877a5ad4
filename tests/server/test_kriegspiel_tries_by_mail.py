"""Kriegspiel's tries by mail (KS-5): a reply's move lines are played in turn until one is legal, one event
each; the sender is told in one mail which were illegal and what was played; the opponent learns nothing of them.
Other variants keep "two move orders in one message" an error."""

from tests.server.harness import ALICE, BOB, Table


def since(table, address, count):
    return table.mails(address)[count:]


def test_ks5_illegal_tries_then_a_legal_move_give_one_mail_to_each_and_one_event_a_line(server):
    table = Table(server, "kriegspiel")
    game_id = table.start()
    before = {address: len(table.mails(address)) for address in (ALICE, BOB)}
    outcome = table.reply(ALICE, "Let's see.\ne2-e5\nd1-h5\ne2-e4\ng1-f3", kind="request")
    assert "e2-e5: rejected; d1-h5: rejected; e2-e4: moved" in outcome
    events = table.events(game_id)
    assert [(event.by, event.order, event.result) for event in events] == [
        ("white", "e2-e5", "rejected"), ("white", "d1-h5", "rejected"), ("white", "e2-e4", "moved")]
    assert all(event.told["black"] == [] for event in events[:2])
    white = since(table, ALICE, before[ALICE])
    black = since(table, BOB, before[BOB])
    assert [mail.kind for mail in white] == ["move-received"] and [mail.kind for mail in black] == ["request"]
    text = table.text(ALICE)
    tried = "Tried first, in your order, and not played: e2-e5 (illegal), d1-h5 (illegal). Bob is told nothing of them."
    assert tried in text
    assert text.index("Tried first") < text.index("You moved your pawn e2-e4.")
    assert "g1-f3" not in text  # the line after the move played is not tried
    told_black = table.text(BOB)
    assert "Alice moved." in told_black
    assert "e2-e5" not in told_black and "d1-h5" not in told_black and "Tried first" not in told_black
    assert table.game(game_id).ply == 1


def test_ks5_when_every_try_is_illegal_it_is_still_the_senders_move_and_the_opponent_hears_nothing(server):
    table = Table(server, "kriegspiel")
    game_id = table.start()
    bob_before = len(table.mails(BOB))
    table.reply(ALICE, "e2-e5\nd1-h5\nf1-b5", kind="request")
    assert [event.result for event in table.events(game_id)] == ["rejected"] * 3
    assert len(table.mails(BOB)) == bob_before
    mail = table.last(ALICE)
    assert mail.kind == "notice" and "your move again" in mail.subject
    text = table.text(ALICE)
    assert ("None of your moves could be played. Tried in your order: e2-e5 (illegal), d1-h5 (illegal), f1-b5 "
            "(illegal). Bob is told nothing of them. It is still your move.") in text
    assert "Your move f1-b5 is illegal" not in text  # told once, with the others
    assert table.game(game_id).ply == 0 and table.game(game_id).deadline is not None


def test_ks5_more_move_lines_than_allowed_play_none(server):
    table = Table(server, "kriegspiel")
    game_id = table.start()
    nine = "\n".join(["e2-e5"] * 8 + ["e2-e4"])
    table.reply(ALICE, nine, kind="request")
    assert table.events(game_id) == [] and table.game(game_id).ply == 0
    text = table.text(ALICE)
    assert "9 move lines" in text and "at most 8" in text and "Nothing in that message was applied" in text


def test_ks5_tries_go_with_other_commands_and_an_unreadable_line_stops_them_all(server):
    table = Table(server, "kriegspiel")
    game_id = table.start()
    table.reply(ALICE, "e2-e5\ne2-e9\ne2-e4", kind="request")
    assert table.events(game_id) == []
    assert "could not be read" in table.last(ALICE).subject
    table.reply(ALICE, "say good luck\nd2-d5\nd2-d4", kind="request")
    assert [event.result for event in table.events(game_id)] == ["said", "rejected", "moved"]
    assert "good luck" in table.text(BOB) and "d2-d5" not in table.text(BOB)


def test_ks5_a_try_that_mates_tells_the_tries_in_the_game_over_mail(server):
    table = Table(server, "kriegspiel")
    game_id = table.start()
    for address, order in ((ALICE, "f2-f3"), (BOB, "e7-e5"), (ALICE, "g2-g4")):
        table.reply(address, order, kind="request")
    table.reply(BOB, "d8-d5\nd8-h4", kind="request")
    assert table.game(game_id).result == "0-1" and table.game(game_id).reason == "checkmate"
    text = table.text(BOB, "game-over")
    assert "Tried first, in your order, and not played: d8-d5 (illegal)." in text
    assert "d8-d5" not in table.text(ALICE, "game-over")


def test_other_variants_keep_two_move_orders_in_one_message_an_error(server):
    table = Table(server, "side-view")
    game_id = table.start()
    table.reply(ALICE, "e2-e5\ne2-e4", kind="request")
    assert table.events(game_id) == [] and "two move orders" in table.text(ALICE)
