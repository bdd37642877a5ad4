"""4D Quasi-Alice Chess in plain words and pictures: four boards, 2x2, both players see everything (QA4-1 .. QA4-9).

The last move is marked on the board it was played on (from and to) and on the board the
piece went over to (where it landed), in every request and on the reveal.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import Any

from app.present.base import PROMOTION_MEANING, Ply, Presenter, Standing
from app.present.diagram import PIECES_LEGEND, Figure, Marks, board_grid, squares_of
from app.present.words import REASONS, SIDE_TITLE, Names, capitalised, piece_name
from app.rules.base import Message, View
from app.rules.quasi_alice.views import legal_orders_in_view

BOARDS = ("A", "B", "C", "D")
LAYOUT = (("A", "B"), ("C", "D"))  # the 2x2 its author draws
MOVE = re.compile(r"^(?P<board>[A-D]):(?:(?P<castle>O-O(?:-O)?)|(?P<from>[a-h][1-8])-(?P<to>[a-h][1-8])\S*)"
                  r">(?P<onto>[A-D])$")
CANONICAL = re.compile(r"^(?P<board>[A-D]):(?P<body>[a-h][1-8]-[a-h][1-8](?:=[QRBN])?|O-O(?:-O)?)>(?P<onto>[A-D])$")
MOVE_MEANING = "a move: board, from-to, then > the board it goes over to"
SHORT_MEANING = ("the board may be left out when only one board has a piece of yours on the from-square, "
                 "and > with its board when only one board can take the piece")
QA_REASONS = {**REASONS, "threefold repetition": "threefold repetition", "50-move rule": "the 50-move rule"}


def last_move_marks(order: str | None, boards: dict[str, str], mover: str | None) -> dict[str, Marks]:
    """The squares to mark on each board for the last move (castling: the king's squares, on the mover's back
    rank; once the game is over and the mover is not given, the rank of a king on its castled square)."""
    marks = {name: Marks() for name in BOARDS}
    match = MOVE.match(order or "")
    if not match:
        return marks
    if match["castle"]:
        file = "g" if match["castle"] == "O-O" else "c"
        white = mover == "white" if mover else squares_of(boards[match["onto"]]).get(f"{file}1") == "K"
        rank = "1" if white else "8"
        start, to = f"e{rank}", f"{file}{rank}"
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
        if message.get("castle"):  # QA4-4: both pieces move on their board, then both go over
            rook = message.get("rook") or {}
            return (f"{who} castled {message['castle']} on board {message['board']}: the king went {message['from']} "
                    f"to {message['to']} and the rook {rook.get('from', '')} to {rook.get('to', '')}, and king and "
                    f"rook went over to board {message['onto']} ({message['order']}).")
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
        """The four boards, 2x2 as its author draws them, from the player's side, the last move marked."""
        if not view:
            return Figure()
        mover = {"white": "black", "black": "white"}.get(view.get("to_move") or "")
        marks = last_move_marks(view.get("last_move"), view["boards"], mover)
        layout = tuple(tuple(board_grid(f"Board {name}", squares_of(view["boards"][name]), side == "white",
                                        marks[name]) for name in row) for row in LAYOUT)
        legend = (PIECES_LEGEND,) + (("The last move is marked: its start and end on the board it was played on, "
                                      "and the square it landed on on the board it went over to.",)
                                     if any(mark.last for mark in marks.values()) else ())
        return Figure(layout, legend)

    def reveal(self, position: dict[str, str], views: dict[str, View], names: Names,
               last: list[Message] | None = None) -> Figure:
        """The four boards from ``names.me``'s side, the last move marked as in every request."""
        view = {**(views.get(names.me) or views.get("white") or {}), "boards": position}
        return self.figure(view, names.me, names, {}, [])

    def record(self, plies: list[Ply], names: Names, result: str | None,
               options: dict[str, Any] | None = None) -> list[str]:
        """The moves as ordered, canonically, with what both players were told of each marked: ``x`` for a
        capture on the board it was played on (``>xB`` for a king's on landing), ``+`` check, ``#`` mate."""
        return super().record([replace(ply, order=marked_order(ply)) for ply in plies], names, result, options)

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
        forms: list[tuple[str, str]] = []
        for order in shown:  # what a plain move means is said once
            meaning = order_meaning(order)
            repeated = meaning == MOVE_MEANING and any(said == MOVE_MEANING for _example, said in forms)
            forms.append((order, "another move" if repeated else meaning))
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


def marked_order(ply: Ply) -> str | None:
    """The ply's canonical order with its capture, check and mate marks (QA4-9: both were told all of them)."""
    moved = next((m for m in ply.messages if m["kind"] == "moved" and m["color"] == ply.side), None)
    match = CANONICAL.match(ply.order or "")
    if moved is None or match is None:
        return ply.order
    body = match["body"].replace("-", "x", 1) if moved.get("captured") and not moved.get("castle") else match["body"]
    onto = f">x{match['onto']}" if moved.get("landed_on") else f">{match['onto']}"
    mate = any(m["kind"] == "end" and m.get("reason") == "checkmate" for m in ply.messages)
    check = any(m["kind"] == "check" and m["color"] != ply.side for m in ply.messages)
    return f"{match['board']}:{body}{onto}" + ("#" if mate else "+" if check else "")


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
