"""Kriegspiel's record of a game (KS-3, KS-4): after the end, every move with the captures, checks and mate the
referee announced marked, in the game-over mail, its text file and the reveal; from the standard start a PGN file
any chess program replays; a Chess960 game, whose start no presenter is told, has none."""

import io
from email import message_from_bytes
from email.policy import default

import chess
import chess.pgn

from tests.server.harness import ALICE, BOB, Table
from tests.web_helpers import client_for

SCHOLARS_MATE = [(ALICE, "e2-e4"), (BOB, "e7-e5"), (ALICE, "d1-h5"), (BOB, "b8-c6"), (ALICE, "f1-c4"),
                 (BOB, "g8-f6"), (ALICE, "e2-e3\nh5xf7")]  # the last with a try before it


def test_ks4_the_record_marks_captures_checks_and_mate_and_the_pgn_replays(server):
    table = Table(server, "kriegspiel")
    game_id = table.start()
    for address, order in SCHOLARS_MATE:
        table.reply(address, order, kind="request")
    assert (table.game(game_id).result, table.game(game_id).reason) == ("1-0", "checkmate")
    for address in (ALICE, BOB):
        text = table.text(address, "game-over")
        assert "1. e2-e4 e7-e5 2. d1-h5 b8-c6 3. f1-c4 g8-f6 4. h5xf7# 1-0" in text
        assert f"game-{game_id}.txt, game-{game_id}.pgn" in text
        record = table.attachment(address, "game-over")
        assert "4. h5xf7#" in record and "e2-e3" not in record  # a try is no move of the record
    game = chess.pgn.read_game(io.StringIO(table.attachment(BOB, "game-over", ".pgn")))
    assert game is not None and game.errors == []
    assert game.headers["Event"] == "Mirrorpost: Kriegspiel" and game.headers["Result"] == "1-0"
    assert (game.headers["White"], game.headers["Black"]) == ("Alice", "Bob")
    assert [node.san() for node in game.mainline()][-1] == "Qxf7#"
    assert game.end().board().is_checkmate()
    state = table.game(game_id).state
    board = chess.Board(state["start"])
    for uci in state["moves"]:
        board.push_uci(uci)
    assert game.end().board().board_fen() == board.board_fen()
    reveal = client_for(table.server, game_id, table.game(game_id).white_id).get(f"/games/{game_id}/reveal")
    assert "h5xf7#" in reveal.data.decode()


def test_ks1_a_chess960_game_has_no_pgn_its_record_is_in_text(server):
    table = Table(server, "kriegspiel")
    game_id = table.start(setup="chess960")
    table.reply(ALICE, "resign", kind="request")
    assert table.game(game_id).result == "0-1"
    text = table.text(BOB, "game-over")
    assert f"game-{game_id}.txt" in text and ".pgn" not in text
    assert "0-1" in table.attachment(BOB, "game-over")


def test_ks3_a_move_request_tells_the_pawn_tries_once_in_both_parts(server):
    """With the move they follow, among what happened since the player's last move; not again under the heading.
    Before White's first move, when no move has told them, the heading says them (KS-3: none)."""
    table = Table(server, "kriegspiel")
    table.start()
    first = message_from_bytes(table.last(ALICE, "request").raw, policy=default)
    assert first.get_body(("plain",)).get_content().count("Pawn tries: you have none.") == 1
    table.reply(ALICE, "e2-e4", kind="request")
    table.reply(BOB, "d7-d5", kind="request")
    request = message_from_bytes(table.last(ALICE, "request").raw, policy=default)
    for part in ("plain", "html"):
        said = " ".join(request.get_body((part,)).get_content().split()).lower()
        assert said.count("pawn tr") == 1 and "you have 1 pawn try." in said, part
