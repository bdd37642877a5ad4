"""Dark Chess as a player reads it (DC-2 .. DC-5): each message in plain words, the board of one's sight with the
fog drawn as fog, order forms from one's own view, the whole board at the end and in the reveal, and the record
with its captures."""

from __future__ import annotations

import random

import pytest

from app.present.base import Ply, Standing
from app.present.diagram import FOG
from app.present.registry import presenter_for
from app.present.text import figure_lines
from app.present.words import Names
from tests.rules.dark_chess_helpers import DC, play_all, position

PRESENTER = presenter_for("dark-chess")
WHITE = Names("white", "Alice", "Bob")
BLACK = Names("black", "Alice", "Bob")


def standing(state) -> Standing:
    return Standing(DC.move_number(state), DC.orderer(state), DC.orderer(state), DC.public(state), {})


def cells(figure) -> dict[str, object]:
    """Each square of a figure's first board, by name."""
    grid = figure.grids[0]
    return {f"{column}{row.label}": cell for row in grid.rows for column, cell in zip(grid.columns, row.cells,
                                                                                     strict=True)}


@pytest.mark.parametrize(("message", "names", "words"), [
    ({"kind": "moved", "color": "white", "from": "e2", "to": "e4", "piece": "P", "promotion": None, "castle": None,
      "en_passant": False, "captured": None}, WHITE, "You moved your pawn e2-e4."),
    ({"kind": "moved", "color": "white", "from": "e4", "to": "d5", "piece": "P", "promotion": None, "castle": None,
      "en_passant": False, "captured": {"piece": "Q", "color": "black", "square": "d5"}}, WHITE,
     "You moved your pawn e4-d5, taking Bob's queen."),
    ({"kind": "moved", "color": "white", "from": "e5", "to": "d6", "piece": "P", "promotion": None, "castle": None,
      "en_passant": True, "captured": {"piece": "P", "color": "black", "square": "d5"}}, WHITE,
     "You moved your pawn e5-d6, taking Bob's pawn on d5 en passant."),
    ({"kind": "moved", "color": "black", "from": "b2", "to": "a1", "piece": "P", "promotion": "N", "castle": None,
      "en_passant": False, "captured": {"piece": "R", "color": "white", "square": "a1"}}, BLACK,
     "You moved your pawn b2-a1, taking Alice's rook, promoting it to a knight."),
    ({"kind": "moved", "color": "white", "from": "e1", "to": "g1", "piece": "K", "promotion": None, "castle": "O-O",
      "en_passant": False, "captured": None}, WHITE, "You castled O-O: your king went to g1."),
    ({"kind": "opponent-moved", "color": "black", "lost": None}, WHITE, "Bob moved."),
    ({"kind": "opponent-moved", "color": "white", "lost": {"piece": "N", "color": "black", "square": "f6"}}, BLACK,
     "Alice moved and took your knight on f6."),
    ({"kind": "rejected", "reason": "a bishop does not move so"}, WHITE, "Not accepted: a bishop does not move so."),
    ({"kind": "end", "result": "0-1", "reason": "king captured"}, WHITE,
     "The game is over: Black wins (the king was captured)."),
    ({"kind": "end", "result": "1/2-1/2", "reason": "fifty moves"}, BLACK,
     "The game is over: Draw (fifty moves of each side without a capture or a pawn move)."),
])
def test_dc4_dc5_each_message_in_plain_words(message, names, words):
    assert PRESENTER.describe(message, names) == words


def test_dc3_the_board_is_the_players_sight_and_every_other_square_is_fog():
    state = DC.new_game({})
    (move,) = play_all(state, "g1-f3")
    view = DC.view(state, "white")
    figure = PRESENTER.figure(view, "white", WHITE, {}, move.to["white"])
    squares = cells(figure)
    ranks_5_to_8 = {f"{file}{rank}" for file in "abcdefgh" for rank in "5678"}
    # the knight sees e5 and g5; f4 is no one's: the f-pawn is blocked by the knight, so cannot step twice
    assert {name for name, cell in squares.items() if cell.fog} == ranks_5_to_8 - {"e5", "g5"} | {"f4"}
    assert squares["f3"].piece == "N" and squares["f3"].mark == "last" and squares["g1"].mark == "last"
    assert squares["e5"].fog is False and squares["e5"].piece == ""  # seen, and empty: not fog
    assert FOG in figure.marks()
    text = "\n".join(figure_lines(figure))
    assert "'~': fog, a square you cannot see" in " ".join(text.split())


def test_dc3_a_square_the_mover_left_is_not_marked_when_it_is_out_of_sight_now():
    state = position("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    (move,) = play_all(state, "e2-e4")
    squares = cells(PRESENTER.figure(DC.view(state, "white"), "white", WHITE, {}, move.to["white"]))
    assert squares["e2"].fog is False  # the king could step there
    state = position("4k3/8/8/8/8/8/6P1/K7 w - - 0 1")
    (move,) = play_all(state, "g2-g4")
    squares = cells(PRESENTER.figure(DC.view(state, "white"), "white", WHITE, {}, move.to["white"]))
    assert squares["g2"].fog is True and squares["g2"].mark == "" and squares["g4"].mark == "last"


def test_dc4_a_man_lost_in_the_fog_is_marked_on_its_square():
    state = DC.new_game({})
    moves = play_all(state, "e2-e4", "d7-d5", "e4-d5")
    squares = cells(PRESENTER.figure(DC.view(state, "black"), "black", BLACK, {}, moves[-1].to["black"]))
    assert squares["d5"].mark == "seen"


def test_dc3_after_the_end_the_whole_board_and_the_reveal_shows_what_each_saw():
    state = position("4k3/8/8/8/8/8/4q3/4K3 b - - 0 1")
    (move,) = play_all(state, "e2-e1")
    figure = PRESENTER.figure(DC.view(state, "white"), "white", WHITE, {}, move.to["white"])
    assert figure.grids[0].caption.startswith("The whole board") and not any(cell.fog for cell in cells(
        figure).values())
    views = {side: DC.view(state, side) for side in ("white", "black")}
    reveal = PRESENTER.reveal(DC.position(state), views, WHITE, move.to["white"])
    assert [grid.caption for grid in reveal.grids] == ["The true position", "What White saw", "What Black saw"]
    assert any(cell.fog for row in reveal.grids[2].rows for cell in row.cells)


def test_dc2_the_order_forms_show_moves_the_view_shows_and_castling_as_the_king_onto_its_rook():
    state = DC.new_game({})
    play_all(state, "e2-e4")
    forms = dict(PRESENTER.order_forms(DC.view(state, "black"), "black", BLACK, standing(state)))
    examples = [example for example in forms if "-" in example and example[0] in "abcdefgh"]
    assert examples and set(examples) <= set(DC.legal_orders(state))
    assert "e8-h8" in forms["O-O"] and "attacks do not matter" in forms["O-O"]


def test_dc2_in_chess960_the_king_onto_its_rook_is_written_where_the_two_stand():
    state = DC.new_game({"setup": "chess960"}, random.Random(7))
    row = DC.position(state)["board"].split("/")[-1]
    king, rook = f"{'abcdefgh'[row.index('K')]}1", f"{'abcdefgh'[row.rindex('R')]}1"
    forms = dict(PRESENTER.order_forms(DC.view(state, "white"), "white", WHITE, standing(state)))
    assert f"onto the rook, {king}-{rook})" in forms["O-O"], (row, forms["O-O"])


def test_dc5_the_record_marks_captures_and_nothing_else():
    state = DC.new_game({})
    outcomes = play_all(state, "e2-e4", "d7-d5", "e4-d5", "d8-d5")
    plies = [Ply(1 + index // 2, ("white", "black")[index % 2], outcome.order,
                 outcome.to["white"] + outcome.to["black"]) for index, outcome in enumerate(outcomes)]
    assert PRESENTER.record(plies, WHITE, None) == ["1. e2-e4 d7-d5", "2. e4xd5 d8xd5"]
