"""A whole game of Kriegspiel over real SMTP on loopback, with tries (KS-5), to checkmate: what each player's mails
say, and that nothing of a player's tries reaches the other."""

from app.inbound.clients import fresh
from tests.server.smtp_game import ALICE, BOB, REFEREE

# Each reply: the player, the lines (tries first, then the move played), and the tries the referee refuses.
REPLIES = [
    (ALICE, "e2-e5\ne2-e4", ["e2-e5"]),
    (BOB, "e7-e5", []),
    (ALICE, "d1-d3\nd1-h5", ["d1-d3"]),
    (BOB, "b8-d7\na8-a6\nb8-c6", ["b8-d7", "a8-a6"]),
    (ALICE, "f1-c4", []),
    (BOB, "g8-f6", []),
    (ALICE, "h5-h8\nh5xf7\nc4-b5", ["h5-h8"]),  # mate with the second line: the third is never tried
]


def test_kriegspiel_by_mail_with_tries_to_checkmate(game):
    game.send(ALICE, fresh(ALICE, REFEREE, f"challenge {BOB} kriegspiel days=3", subject="a game"), REFEREE)
    game.reply(ALICE, "")  # the challenger confirms
    assert "Kriegspiel" in game.text(BOB) and "invites you" in game.text(BOB)
    game.reply(BOB, "accept")
    first = game.text(ALICE)
    assert "your move (White)" in game.subject(ALICE)
    assert "New to Kriegspiel? You see only your own pieces" in first
    assert "on the next line, another move: tried only if the one above is illegal" in first
    assert "Pawn tries: you have none." in first
    assert "Only your own pieces are drawn" in first

    mails = {player: len(game.sink.to(player)) for player in (ALICE, BOB)}
    for player, lines, illegal in REPLIES[:-1]:
        opponent = BOB if player == ALICE else ALICE
        game.reply(player, lines)
        sent = {each: game.sink.to(each)[mails[each]:] for each in (ALICE, BOB)}
        assert len(sent[player]) == 1 and len(sent[opponent]) == 1  # one mail each, tries or not
        mails = {each: len(game.sink.to(each)) for each in (ALICE, BOB)}
        told = game.text(player)
        if illegal:
            assert ("Tried first, in your order, and not played: " + ", ".join(f"{line} (illegal)" for line in illegal)
                    ) in told
        else:
            assert "Tried first" not in told
        assert "your move was made" in game.subject(player)
        request = game.text(opponent)
        assert "your move" in game.subject(opponent) and "moved." in request
        assert not any(line in request for line in illegal) and "Tried first" not in request

    assert "You captured" not in game.text(ALICE)
    player, lines, illegal = REPLIES[-1]
    game.reply(ALICE, lines)
    for each in (ALICE, BOB):
        assert "game over - White wins (checkmate)" in game.subject(each)
    won, lost = game.text(ALICE), game.text(BOB)
    assert "You won: checkmate." in won and "Tried first, in your order, and not played: h5-h8 (illegal)." in won
    assert "You lost: checkmate." in lost
    assert "A pawn of yours was captured on f7." in lost and "You are in check on the short diagonal." in lost
    assert "h5-h8" not in lost and "c4-b5" not in lost
    for text in (won, lost):
        assert "1. e2-e4 e7-e5 2. d1-h5 b8-c6 3. f1-c4 g8-f6 4. h5xf7# 1-0" in text
        assert "The whole board" in text or "The true position" in text
    # Nothing of White's tries ever reached Black, in any mail or header; nor of Black's, White.
    for receiver, others in ((BOB, ["e2-e5", "d1-d3", "h5-h8", "c4-b5"]), (ALICE, ["b8-d7", "a8-a6"])):
        for message in game.sink.to(receiver):
            seen = [f"{name}: {value}" for name, value in message.items()]
            seen += [part.get_content() for part in message.walk() if part.get_content_maintype() == "text"]
            assert seen[-1] and not any(line in "\n".join(seen) for line in others), (receiver, message["Subject"])
