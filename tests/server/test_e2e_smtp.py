"""A whole game over real SMTP on loopback: the built-in listener in, an aiosmtpd sink out."""

from app.inbound.clients import fresh, reply
from tests.server.smtp_game import ALICE, BOB, MALLORY, REFEREE


def test_whole_game_by_mail_from_challenge_to_king_capture(game):
    # The challenge, to the bare address.
    game.send(ALICE, fresh(ALICE, REFEREE, "Hi!\nchallenge bob@players.test looking-glass days=3", subject="new game"),
              REFEREE)
    assert "please confirm" in game.subject(ALICE) and not game.sink.to(BOB)  # nothing goes out unconfirmed
    game.reply(ALICE, "")
    assert "alice@players.test invites you" in game.text(BOB)
    game.reply(BOB, "accept")
    assert "choose your setup" in game.subject(ALICE)
    game.reply(ALICE, "setup 518", style="thunderbird")
    game.reply(BOB, "setup RNBQKBNR", style="apple")
    assert "your move (White)" in game.subject(ALICE)
    assert "Reply above this line" in game.text(ALICE)

    # A rejected home order, an unreadable one, then a strike: none moves the game on.
    assert "cannot move from e2 to e5" in game.reply(ALICE, "R e2-e5")
    assert "Could not read 'R e2-e9' as an order" in game.reply(ALICE, "R e2-e9")
    game.reply(ALICE, "M d4-d5")
    assert "strike 1 of 3" in game.subject(ALICE)

    # A vacation auto-reply gets no answer at all.
    before = len(game.sink.received)
    auto = reply(game.sink.last_raw(ALICE), "I am out of the office until Monday.", "outlook", ALICE)
    auto = auto.replace(b"Subject: Re:", b"Auto-Submitted: auto-replied\nSubject: Automatic reply: Re:", 1)
    game.send(ALICE, auto, str(game.sink.to(ALICE)[-1]["Reply-To"]))
    assert len(game.sink.received) == before

    # A spoofed sender using Alice's reply address is refused and changes nothing.
    game.reply(ALICE, "R e2-e3", sender=MALLORY)
    assert "not accepted" in game.text(MALLORY)

    game.reply(ALICE, "R e2-e3", style="html-only")
    old_request = game.sink.last_raw(ALICE)
    assert "your move (Black)" in game.subject(BOB)
    assert "asked about Mirror e3: empty" in game.text(BOB)
    game.reply(BOB, "M f7-f5", style="outlook")
    game.reply(ALICE, "R f1-a6", style="apple")
    game.reply(BOB, "M h7-h6", style="gmail")

    # A stale reply (to the request before last) is refused and shows the current request.
    before_stale = len(game.sink.received)
    game.send(ALICE, reply(old_request, "R g1-f3", "gmail", ALICE), str(game.sink.to(ALICE)[-2]["Reply-To"]))
    assert len(game.sink.received) == before_stale + 1
    assert "old move request" in game.subject(ALICE)

    # A shortened move (LG-5b): the bishop stops on b7, capturing a pawn, and falls through to Real b7.
    text = game.reply(ALICE, "M a6-c8", style="thunderbird").lower()
    assert "(shortened: c8 was ordered)" in text and "capturing bob's pawn on mirror b7" in text
    game.reply(BOB, "M a7-a5", style="no-markers")
    game.reply(ALICE, "R d1-h5", style="gmail")
    assert "queen arrived on Mirror h5 attacking your king on Mirror e8" in game.text(BOB)
    game.reply(BOB, "M b8-c6", style="html-only")
    game.reply(ALICE, "M h5-e8", style="outlook")

    for player in (ALICE, BOB):
        assert "White wins (the king was captured) - Through the Looking-Glass" in game.subject(player)
        assert "The setups and the keys to their fingerprints" in game.text(player)
    assert "You won: the king was captured." in game.text(ALICE) and "You lost" in game.text(BOB)
    # Every mail went out once: each Message-ID appears once at the players' server.
    ids = [str(message["Message-ID"]) for player in (ALICE, BOB, MALLORY) for message in game.sink.to(player)]
    assert len(ids) == len(set(ids))
