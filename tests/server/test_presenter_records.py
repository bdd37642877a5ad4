"""What the Palindromic and 4D Quasi-Alice presenters hand a player: a game record any chess program replays,
order forms whose every example the referee takes, and PAL-5 said where a player first reads the rules."""

import io
import json
import random

import chess
import chess.pgn

from app.present.base import Ply, Standing
from app.present.registry import presenter_for
from app.present.words import Names
from app.rules.base import Side
from app.rules.quasi_alice.state import GameState as QuasiAliceState
from tests.rules.palindromic_helpers import ONE_KNIGHT_AWAY, PAL, REVERSED, REVERSED_HANDS
from tests.rules.qa4_positions import QA, qa_position
from tests.server.harness import ALICE, BOB, Table
from tests.web_helpers import client_for

# Both sides castle by Chess960 rules (PAL-3): White's king e1-g1, Black's from d8 (PAL-1) to g8.
CASTLING_GAME = ["e3", "e6", "Be2", "Qe7", "Nf3", "g6", "O-O", "Bg7", "Re1", "Nf6", "Rf1", "O-O"]


def read_pgn(text: str) -> chess.pgn.Game:
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and game.errors == [], game.errors if game else text
    return game


def test_PAL_1_PAL_3_the_pgn_file_replays_in_a_chess_program_castlings_and_all(server):
    table = Table(server, "palindromic")
    game_id = table.start()
    for number, order in enumerate(CASTLING_GAME):
        table.reply(ALICE if number % 2 == 0 else BOB, order, kind="request")
    table.reply(ALICE, "resign", kind="request")
    game = read_pgn(table.attachment(BOB, "game-over", ".pgn"))
    headers = game.headers
    assert headers["Event"] == "Mirrorpost: Palindromic Chess"  # the game's name stays
    assert (headers["Variant"], headers["SetUp"]) == ("Chess960", "1")
    assert headers["FEN"] == "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"  # Black's king on d8
    final = game.end().board()
    assert final.board_fen() == table.game(game_id).state["fen"].split()[0]
    castlings = [node.parent.board().is_castling(node.move) for node in game.mainline()]
    assert castlings.count(True) == 2 and len(castlings) == len(CASTLING_GAME)
    assert final.piece_at(chess.G8) == chess.Piece(chess.KING, chess.BLACK)
    assert game.end().comment == "right-handed rook"  # the h8 rook's hand, as the game told it


def test_PAL_4_the_pgn_starts_from_the_start_option_and_keeps_the_referees_passes():
    """Passes only happen from a position given as the game's ``start`` option (PAL-5): the FEN is that
    position, each pass a null move, and a player's name with a quote stays one tag."""
    state = PAL.new_game({"start": {"board": ONE_KNIGHT_AWAY, "handed": REVERSED_HANDS, "to_move": "white"}})
    plies = []
    for order in ("Nf6", "Nh5", "Nf6", "Ng8"):
        number = PAL.move_number(state)
        outcome = PAL.play(state, "white", order)
        plies.append(Ply(number, "white", outcome.order, outcome.to["white"]))
        number = PAL.move_number(state)
        made = PAL.automatic(state)
        if made:
            plies.append(Ply(number, made[0], None, made[1].to[made[0]]))
    assert PAL.result(state) == ("1-0", "reversal") and len(plies) == 7  # a pass after each move but the last
    names = Names("white", 'Alice "Al" Liddell', "Bob")
    extension, kind, text = presenter_for("palindromic").record_file(plies, names, "1-0", state.options)
    game = read_pgn(text)
    assert (extension, kind, game.headers["White"]) == ("pgn", "text/x-chess-pgn", "Alice 'Al' Liddell")
    assert game.headers["FEN"] == f"{ONE_KNIGHT_AWAY} w - - 0 1"
    assert [node.move for node in game.mainline()].count(chess.Move.null()) == 3
    assert game.end().board().board_fen() == state.board.board_fen() == REVERSED


def forms_of(state: QuasiAliceState, side: Side) -> list[tuple[str, str]]:
    standing = Standing(QA.move_number(state), QA.orderer(state), QA.army_to_move(state), QA.public(state), {})
    return presenter_for("quasi-alice-4d").order_forms(QA.view(state, side), side, Names(side, "A", "B"), standing)


def assert_every_example_is_taken(state: QuasiAliceState) -> list[str]:
    """Every example in either player's forms is a move the referee plays for that player; the rest are words."""
    shown = []
    for side in ("white", "black"):
        for example, _meaning in forms_of(state, side):
            if not QA.is_order(example):
                assert example in ("move", "promotion", "castling"), example
                continue
            outcome = QA.play(QA.from_json(QA.to_json(state)), side, example)
            assert outcome.result == "moved", (side, example, outcome.to[side])
            shown.append(example)
    return shown


def test_QA4_8_every_example_order_is_taken_by_the_referee_at_the_start_and_after_random_play():
    start = QuasiAliceState.start()
    assert any(">" in example and ":" not in example for example in assert_every_example_is_taken(start))
    assert "e2-e4" not in dict(forms_of(start, "white"))  # onto B, C or D: an error at the start
    for seed in range(4):
        rng = random.Random(seed)
        state = QuasiAliceState.start()
        for _ply in range(12 * (seed + 1)):
            orders = QA.legal_orders(state)
            if QA.result(state)[0] is not None or not orders:
                break
            assert QA.play(state, QA.orderer(state), rng.choice(orders)).result == "moved"
            assert_every_example_is_taken(state)


def test_QA4_8_a_castling_and_a_promotion_are_shown_only_when_open_to_the_player():
    state = qa_position(A="4k3/P7/8/8/8/8/8/R3K2R", castling="K")
    shown = assert_every_example_is_taken(state)
    assert any("O-O" in example for example in shown) and any("=" in example for example in shown)
    assert {"promotion", "castling"} <= set(dict(forms_of(state, "black")))  # not Black's move: words only
    closed = qa_position(A="4k3/8/P7/8/8/8/8/R3K2R")
    assert {"promotion", "castling"} <= set(dict(forms_of(closed, "white")))
    assert assert_every_example_is_taken(closed)


PAL_5 = ("from the usual start, opposing pawns on one file can never pass each other, so no game from it can "
         "reach the reversal: the referee declares a game drawn as a dead position")


def test_PAL_5_the_invitation_and_help_say_the_reversal_cannot_be_reached_and_games_end_drawn(server):
    table = Table(server, "palindromic")
    table.new_game()
    assert PAL_5 in table.text(ALICE, "invitation") and PAL_5 in table.text(BOB, "invitation")
    table.reply(ALICE, "accept", kind="invitation")
    table.reply(BOB, "accept", kind="invitation")
    table.reply(ALICE, "help", kind="request")
    assert PAL_5 in table.text(ALICE, "help")


def test_PAL_5_an_invitation_from_a_start_position_shows_it_in_words_and_claims_nothing_of_it(server):
    """From a ``start`` position the reversal may well be reached: the invitation shows the position in words
    (never the option's data) and says only that the usual start cannot reach it."""
    table = Table(server, "palindromic")
    table.new_game(start=json.dumps({"board": ONE_KNIGHT_AWAY, "handed": REVERSED_HANDS, "to_move": "white"}))
    text = table.text(BOB, "invitation")
    assert "from a position of its own (White: Kd8, Qe8, Ra8, Rh8, Bc8, Bf8, Nb8, Ng4, Pa7" in text
    assert "the rooks on a1 and h8 right-handed, a8 and h1 left-handed; White moves first; no castling" in text
    assert "{" not in text and "'board'" not in text and "start=" not in text
    assert "no game can reach the reversal" not in text and PAL_5 in text


def test_PAL_4_the_mailed_pgn_of_a_game_with_a_start_option_starts_from_that_position(server):
    """The game's own options reach the record: the game-over mail's PGN (and the reveal page's record) start
    from the ``start`` position the game was created with, not from PAL-1's."""
    table = Table(server, "palindromic")
    start = {"board": ONE_KNIGHT_AWAY, "handed": REVERSED_HANDS, "to_move": "white"}
    game_id = table.new_game(start=json.dumps(start))
    table.reply(ALICE, "accept", kind="invitation")
    table.reply(BOB, "accept", kind="invitation")
    table.reply(ALICE, "resign", kind="request")
    game = read_pgn(table.attachment(BOB, "game-over", ".pgn"))
    assert game.headers["FEN"] == f"{ONE_KNIGHT_AWAY} w - - 0 1"
    page = client_for(server, game_id, table.game(game_id).white_id).get(f"/games/{game_id}/reveal").data.decode()
    assert "The game started from a position of its own (White: Kd8, Qe8, Ra8, Rh8, Bc8, Bf8, Nb8," in " ".join(
        page.split())
    assert "RNBKQB1R/" not in page  # in words, not as FEN
