"""The neutral diagram model reads FEN placements as python-chess does, and every renderer draws it whole."""

import random
import xml.etree.ElementTree as ElementTree

import chess

from app.outbound.render import figure_html
from app.present.diagram import (
    FOG,
    LAST,
    MARK_MEANINGS,
    SEEN,
    UNKNOWN,
    Figure,
    Marks,
    board_grid,
    piece_list,
    squares_of,
)
from app.present.svg import FILL, FOG_FILL, grid_svg, mark_key
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


def fogged_board() -> Figure:
    """A board with two squares in sight (e3 empty, d4 an enemy pawn), its own men, and fog on all the rest; the
    fogged d3 was named by a message."""
    own = {"e2": "P", "e1": "K"}
    fog = {chess.square_name(square) for square in chess.SQUARES} - set(own) - {"e3", "d4"}
    grid = board_grid("Your board", {**own, "d4": "p"}, marks=Marks(seen={"d3"}, fog=fog))
    return Figure(((grid,),), ("legend",))


def test_a_square_the_player_cannot_see_is_fog_not_an_empty_square():
    figure = fogged_board()
    cells = {f"{column}{row.label}": cell for row in figure.grids[0].rows
             for column, cell in zip(figure.grids[0].columns, row.cells, strict=True)}
    assert cells["e3"].fog is False and cells["e3"].piece == ""  # seen, and empty
    assert cells["h8"].fog is True and cells["h8"].piece == ""
    assert cells["d3"].fog is True and cells["d3"].mark == SEEN  # fog may carry a mark
    assert figure.marks() == [SEEN, FOG]
    assert figure.grids[0].description.endswith("Fog: ranks 5, 6, 7 and 8; a1, b1, c1, d1, f1, g1, h1, a2, b2, c2, "
                                                "d2, f2, g2, h2, a3, b3, c3, d3, f3, g3, h3, a4, b4, c4, e4, f4, g4, "
                                                "h4.")


def test_the_text_part_draws_fog_with_its_own_letter_and_says_so():
    lines = figure_lines(fogged_board())
    rank = {line.split()[0]: line for line in lines if line.strip()[:1].isdigit()}
    assert rank["3"].split()[1:9] == ["~", "~", "~", "(~)", ".", "~", "~", "~"]  # e3 seen empty, d3 told about
    assert rank["4"].split()[1:9] == ["~", "~", "~", "p", "~", "~", "~", "~"]
    legend = " ".join(" ".join(lines).split())
    assert f"'~': {MARK_MEANINGS[FOG]}" in legend and "'.' is an empty square" not in legend


def test_the_html_part_and_the_web_draw_fog_apart_from_both_shades_with_its_legend():
    figure = fogged_board()
    html = str(figure_html(figure))
    assert html.count('bgcolor="#8a8a8a"') == 64 - 4 - 1  # every fogged cell but d3, drawn as told about ...
    assert html.count(">~<") == 1  # ... with fog's letter on it
    assert "background:#8a8a8a" in html and MARK_MEANINGS[FOG] in html  # the legend's swatch and words
    svg = grid_svg(figure.grids[0])
    assert svg.count(f'fill="{FOG_FILL["light"]}"') + svg.count(f'fill="{FOG_FILL["dark"]}"') == 64 - 4
    assert not set(FOG_FILL.values()) & set(FILL.values())
    assert FOG_FILL["light"] in mark_key(FOG)


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
