"""4D Quasi-Alice Chess in plain words and pictures: four boards, 2x2, both players see everything (QA4-1 .. QA4-9).

The last move is marked on the board it was played on (from and to) and on the board the
piece went over to (where it landed).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from app.present.base import PROMOTION_MEANING, Presenter, Standing
from app.present.diagram import PIECES_LEGEND, Figure, Marks, board_grid, squares_of
from app.present.words import REASONS, SIDE_TITLE, Names, capitalised, piece_name
from app.rules.base import Message, View
from app.rules.quasi_alice.views import legal_orders_in_view

BOARDS = ("A", "B", "C", "D")
LAYOUT = (("A", "B"), ("C", "D"))  # the 2x2 of the seed page
MOVE = re.compile(r"^(?P<board>[A-D]):(?:(?P<castle>O-O(?:-O)?)|(?P<from>[a-h][1-8])-(?P<to>[a-h][1-8])\S*)"
                  r">(?P<onto>[A-D])$")
CANONICAL = re.compile(r"^(?P<board>[A-D]):(?P<body>[a-h][1-8]-[a-h][1-8](?:=[QRBN])?|O-O(?:-O)?)>(?P<onto>[A-D])$")
MOVE_MEANING = "a move: board, from-to, then > the board it goes over to"
SHORT_MEANING = ("the board may be left out when only one board has a piece of yours on the from-square, "
                 "and > with its board when only one board can take the piece")
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
        legend = (PIECES_LEGEND,
                  "The last move is marked ([x] in plain text): its start and end on the board it was played "
                  "on, and the square it landed on on the board it went over to.")
        return Figure(layout, legend)

    def reveal(self, position: dict[str, str], views: dict[str, View], names: Names) -> Figure:
        view = {"boards": position}
        return self.figure(view, "white", names, {}, [])

    def order_forms(self, view: View, side: str, names: Names, standing: Standing) -> list[tuple[str, str]]:
        """Only orders the referee takes from this player now (QA4-8), worked out from their view: a few
        moves, a castling and a promotion if they have one, a move written short. A kind of order with no
        legal instance now is told in words, so no example is answered with an error or a rejection."""
        legal = legal_orders_in_view(view, side) if view else []
        shown = list(self.variant.example_orders(view, side)) if view else []
        castlings = [order for order in legal if "O-O" in order]
        promotions = [order for order in legal if "=N" in order]
        if castlings and not any("O-O" in order for order in shown):
            shown.append(castlings[0])
        if promotions and not any("=" in order for order in shown):
            shown.append(promotions[0])
        forms = [(order, order_meaning(order)) for order in shown]
        short = shortened(legal, view, side)
        example = next((order for order in [*shown, *legal] if order in short), None)
        if example:
            forms.append((short[example], SHORT_MEANING))
        if not legal:
            forms.append(("move", f"{MOVE_MEANING}; examples come with your move request"))
        if not any("=" in order for order in shown):
            forms.append(("promotion", "=Q, =R, =B or =N after a pawn's move to the last rank (a queen if left "
                                       "out); no promotion is open to you now"))
        if not any("O-O" in order for order in shown):
            forms.append(("castling", "the board, O-O (O-O-O on the long side), then > the board king and rook "
                                      "go over to; no castling is open to you now"))
        return forms

    def setup_request(self, side: str, names: Names, options: dict[str, Any]) -> list[str]:
        return [f"You play {SIDE_TITLE[side]}."]


def order_meaning(order: str) -> str:
    """What a canonical example order shows."""
    match = CANONICAL.match(order)
    if match and match["body"].startswith("O-O"):
        length = "short" if match["body"] == "O-O" else "long"
        return f"castle {length} on board {match['board']}, king and rook going over to {match['onto']}"
    return PROMOTION_MEANING if "=" in order else MOVE_MEANING


def shortened(legal: list[str], view: View, side: str) -> dict[str, str]:
    """Each legal move written with what QA4-8 lets a player leave out left out: the board when only that
    board has a piece of theirs on the from-square, ``>`` and the destination board when the move is legal
    onto no other board. Moves with nothing to leave out (and castlings) are not in it."""
    mine = str.isupper if side == "white" else str.islower
    boards: Counter[str] = Counter()  # how many boards have a piece of the player's on each square
    for name in BOARDS:
        boards.update(square for square, letter in squares_of(view["boards"][name]).items() if mine(letter))
    moves = [match for order in legal if (match := CANONICAL.match(order)) and not match["body"].startswith("O-O")]
    ontos = Counter((match["board"], match["body"]) for match in moves)
    forms: dict[str, str] = {}
    for match in moves:
        text = match["body"] if boards[match["body"][:2]] == 1 else f"{match['board']}:{match['body']}"
        text = text if ontos[match["board"], match["body"]] == 1 else f"{text}>{match['onto']}"
        if text != match.string:
            forms[match.string] = text
    return forms
