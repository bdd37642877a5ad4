"""4D Quasi-Alice Chess in plain words and pictures: four boards, 2x2, both players see everything (QA4-1 .. QA4-9).

The last move is marked on the board it was played on (from and to) and on the board the
piece went over to (where it landed).
"""

from __future__ import annotations

import re
from typing import Any

from app.present.base import Presenter, Standing
from app.present.diagram import Figure, Marks, board_grid, legend_of_pieces, squares_of
from app.present.words import REASONS, SIDE_TITLE, Names, capitalised, piece_name
from app.rules.base import Message, View

BOARDS = ("A", "B", "C", "D")
LAYOUT = (("A", "B"), ("C", "D"))  # the 2x2 of the seed page
MOVE = re.compile(r"^(?P<board>[A-D]):(?:(?P<castle>O-O(?:-O)?)|(?P<from>[a-h][1-8])-(?P<to>[a-h][1-8])\S*)"
                  r">(?P<onto>[A-D])$")
QA_REASONS = {**REASONS, "threefold repetition": "threefold repetition", "50-move rule": "the 50-move rule"}


def last_move_marks(order: str | None, side: str) -> dict[str, Marks]:
    """The squares to mark on each board for the last move (castling: the king's squares)."""
    marks = {name: Marks() for name in BOARDS}
    match = MOVE.match(order or "")
    if not match:
        return marks
    if match["castle"]:
        rank = "1" if side == "white" else "8"
        start, to = f"e{rank}", (f"g{rank}" if match["castle"] == "O-O" else f"c{rank}")
    else:
        start, to = match["from"], match["to"]
    marks[match["board"]].last |= {start, to}
    marks[match["onto"]].last.add(to)
    return marks


class QuasiAlicePresenter(Presenter):
    def summary(self) -> str:
        return ("Four boards, A to D, and the game starts on A. Each move is an ordinary chess move on one board, "
                "after which the piece goes over to the same square of another board (one with a king on it), "
                "which must be empty. Checkmate wins; both players see everything.")

    def reason_words(self, reason: str | None) -> str:
        return QA_REASONS.get(reason or "", reason or "")

    def describe(self, message: Message, names: Names) -> str:
        if message["kind"] != "moved":
            return super().describe(message, names)
        who = capitalised(names.of(message["color"]))
        if message.get("castle"):
            text = f"{who} castled {message['castle']} on board {message['board']}"
        else:
            whose = "your" if message["color"] == names.me else "their"
            text = (f"{who} moved {whose} {piece_name(message['piece'])} on board "
                    f"{message['board']} from {message['from']} to {message['to']}")
        captured = message.get("captured")
        if captured:
            text += f", capturing {names.whose(captured['color'])} {piece_name(captured['piece'])}"
            if message.get("en_passant"):
                text += " en passant"
        if message.get("promotion"):
            text += f", promoting to a {piece_name(message['promotion'])}"
        text += f", and it went over to board {message['onto']}"
        landed = message.get("landed_on")
        if landed:
            text += f", where it captured {names.whose(landed['color'])} {piece_name(landed['piece'])}"
        order = message.get("order")
        return f"{text} ({order})." if order else f"{text}."

    def status(self, view: View, side: str, names: Names, standing: Standing) -> list[str]:
        lines = ["Both players see all four boards."]
        check = view.get("check")
        if check:
            whose = "Your" if check["color"] == side else f"{names.opponent}'s"
            lines.append(f"{whose} king is in check on board {check['board']}.")
        if view.get("last_move"):
            lines.append(f"Last move: {view['last_move']}.")
        return lines

    def figure(self, view: View, side: str, names: Names, preferences: dict[str, Any],
               messages: list[Message]) -> Figure:
        """The four boards, 2x2 as on the seed page, from the player's side, the last move marked."""
        if not view:
            return Figure()
        mover = "black" if view.get("to_move") == "white" else "white"
        marks = last_move_marks(view.get("last_move"), mover)
        layout = tuple(tuple(board_grid(f"Board {name}", squares_of(view["boards"][name]), side == "white",
                                        marks[name]) for name in row) for row in LAYOUT)
        legend = (legend_of_pieces(),
                  "The last move is marked ([x] in plain text): its start and end on the board it was played "
                  "on, and the square it landed on on the board it went over to.")
        return Figure(layout, legend)

    def reveal(self, position: dict[str, str], views: dict[str, View], names: Names) -> Figure:
        view = {"boards": position}
        return self.figure(view, "white", names, {}, [])

    def order_forms(self, view: View, side: str, names: Names, standing: Standing) -> list[tuple[str, str]]:
        forms = [(example, "a move: board, from-to, then > the board it goes over to")
                 for example in self.variant.example_orders(view, side)]
        rank = ("7", "8") if side == "white" else ("2", "1")
        forms += [
            (f"A:e{rank[0]}-e{rank[1]}=N>B", "promotion (Q, R, B or N; queen if left out)"),
            ("A:O-O>C", "castle on board A, king and rook going over to C (O-O-O the other side)"),
            ("e2-e4" if side == "white" else "e7-e5", "the board may be left out when only one board has a piece "
             "of yours there, and >B when only one board can take it"),
        ]
        return forms

    def setup_request(self, side: str, names: Names, options: dict[str, Any]) -> list[str]:
        return [f"You play {SIDE_TITLE[side]}."]
