"""The neutral diagram model reads FEN placements as python-chess does, and every renderer draws it whole."""

import random
import xml.etree.ElementTree as ElementTree

import chess

from app.present.diagram import LAST, UNKNOWN, Figure, Marks, board_grid, piece_list, squares_of
from app.present.svg import grid_svg
from app.present.text import WIDTH, figure_lines


def random_board(rng: random.Random) -> chess.BaseBoard:
    board = chess.BaseBoard.empty()
    for square in rng.sample(chess.SQUARES, rng.randint(0, 32)):
        board.set_piece_at(square, chess.Piece(rng.choice(chess.PIECE_TYPES), rng.choice(chess.COLORS)))
    return board


def test_squares_of_puts_every_piece_where_python_chess_has_it():
    rng = random.Random(11)
    for _ in range(200):
        board = random_board(rng)
        pieces = squares_of(board.board_fen())
        assert pieces == {chess.square_name(square): piece.symbol() for square, piece in board.piece_map().items()}


def test_a_board_is_drawn_from_the_players_side():
    pieces = {"a1": "R", "h8": "k"}
    white = board_grid("w", pieces)
    black = board_grid("b", pieces, white_below=False)
    assert white.rows[0].label == "8" and white.rows[7].cells[0].piece == "R" and white.columns[0] == "a"
    assert black.rows[0].label == "1" and black.rows[0].cells[7].piece == "R" and black.columns[0] == "h"
    assert black.rows[7].cells[0].piece == "k"
    assert white.rows[7].cells[0].shade == "dark" and white.rows[7].cells[7].shade == "light"  # a1 dark, h1 light


def test_the_piece_list_names_every_piece_king_first():
    assert piece_list({"e1": "K", "a2": "P", "d1": "Q", "e8": "k"}) == "White: Ke1, Qd1, Pa2. Black: Ke8."
    assert piece_list({}, ["g6"]) == "Unknown: g6."


def test_text_diagrams_fit_a_fixed_width_reader_and_mark_the_last_move():
    rng = random.Random(5)
    grids = [board_grid(f"board {n}", squares_of(random_board(rng).board_fen()), marks=Marks(last={"e2", "e4"}))
             for n in range(4)]
    figure = Figure(((grids[0], grids[1]), (grids[2], grids[3])), ("a legend line " * 12,), ("a note",))
    lines = figure_lines(figure)
    assert max(len(line) for line in lines) <= WIDTH
    assert sum("[" in line for line in lines) >= 4  # e2 and e4 marked on each board of the first row


def test_every_svg_is_well_formed_and_named_by_its_pieces():
    grid = board_grid("Real world", {"e1": "K", "e4": UNKNOWN}, marks=Marks(last={"e2"}, seen_at={"e4": 3}))
    assert grid.rows[6].cells[4].mark == LAST
    svg = grid_svg(grid)
    root = ElementTree.fromstring(svg)
    assert root.get("aria-label") == "Real world: White: Ke1."
    assert "m3" in svg and ">?<" in svg


def test_lg_7_a_castling_reads_as_one_move_to_both_players():
    from app.present.registry import presenter_for
    from app.present.words import Names
    from app.rules.registry import get_variant

    variant, presenter = get_variant("looking-glass"), presenter_for("looking-glass")
    state = variant.new_game({})
    for side, order in (("white", "setup 518"), ("black", "setup 518"), ("white", "R g1-f3"), ("black", "M g8-f6"),
                        ("white", "R e2-e3"), ("black", "M e7-e6"), ("white", "R f1-e2"), ("black", "M f8-e7")):
        variant.play(state, side, order)
    outcome = variant.play(state, "white", "O-O")
    mine = presenter.lines(outcome.to["white"], Names("white", "Alice", "Bob"))
    theirs = presenter.lines(outcome.to["black"], Names("black", "Alice", "Bob"))
    assert mine[0].startswith("You castled O-O: your king went Real e1 to g1") and "your rook went Real h1" in mine[0]
    assert theirs[0].startswith("Alice castled in their own world: two pieces stopped, on Real g1 and Real f1")
    assert len(mine) == len(theirs) == 3  # the castling, then each piece's arrival
