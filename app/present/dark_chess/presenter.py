"""Dark Chess in plain words and pictures: your own men, every square they could move to with what stands
there, and the fog over the rest (DC-1 .. DC-6).

A player's figure is their board as their sight shows it: their own men, the enemy men in sight, the squares
in sight that are empty, and fog on every other square (drawn as fog, never as an empty square). The mover
hears their move in full; the opponent hears only that a move was made and what they lost. Nothing here sees
more than the player's view and messages, so every example order is a move the view itself shows.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.present.base import Ply, Presenter, Standing, example_forms, marked, promotion_form
from app.present.diagram import FILES, PIECES_LEGEND, Figure, Grid, Marks, board_grid, squares_of
from app.present.words import REASONS, SIDE_TITLE, Names, capitalised, piece_name, tray_words
from app.rules.base import Message, View
from app.rules.messages import moved_by

DC_REASONS = {
    **REASONS,
    "king captured": "the king was captured",
    "stalemate": "stalemate, the player to move had no move at all",
    "fifty moves": "fifty moves of each side without a capture or a pawn move",
}
SQUARES = {f"{file}{rank}" for file in FILES for rank in range(1, 9)}
SIGHT_LEGEND = ("You see your own pieces and every square they could move to, with what stands there; "
                "every other square is fog.")


def sight_pieces(view: View) -> dict[str, str]:
    """What the player sees stand where: their own men and the enemy men in sight."""
    pieces = squares_of(view["own"])
    pieces.update({square: letter for square, letter in view["seen"].items() if letter})
    return pieces


def king_onto_rook(view: View, side: str) -> str | None:
    """The king's order onto its rook on the h-side of the back rank, as the view shows them (``e1-h1``; in
    Chess960 wherever they stand), or None when no rook stands there beside a king on its back rank."""
    back = "1" if side == "white" else "8"
    king, rook = ("K", "R") if side == "white" else ("k", "r")
    own = {square: letter for square, letter in squares_of(view["own"]).items() if square[1] == back}
    kings = [square for square, letter in own.items() if letter == king]
    rooks = [square for square, letter in own.items() if letter == rook and kings and square[0] > kings[0][0]]
    return f"{kings[0]}-{max(rooks)}" if rooks else None


def fog_of(view: View) -> set[str]:
    """The squares the player cannot see: neither their own men's nor in sight."""
    return SQUARES - set(squares_of(view["own"])) - set(view["seen"])


def marked_order(ply: Ply) -> str | None:
    """``e4xd5``: the order with the capture its mover was told of (there is no check in Dark Chess)."""
    moved = next((message for message in ply.messages if moved_by(message) == ply.side), None)
    if moved is None or not ply.order:
        return ply.order
    return marked(ply.order, bool(moved.get("captured")), False, False)


class DarkChessPresenter(Presenter):
    def summary(self) -> str:
        return ("Chess without check, in the fog: you see your own pieces and every square they could move to, "
                "with what stands there, and nothing else. A move that is not possible is refused with its reason "
                "and you move again at no cost. Capture the enemy king to win.")

    def help(self) -> list[str]:
        return [
            self.summary(),
            "Orders are moves from square to square: e2-e4 (or e2e4), e7-e8=N for a promotion (a queen if you "
            "leave the letter out), O-O and O-O-O to castle (or move your king onto the rook: e1-h1).",
            "There is no check: your king may stand attacked, move onto an attacked square, and castle out of, "
            "through or into attack. After your opponent's move you are told only whether they took a man of "
            "yours, and where; the rest you see, or do not, in your new sight.",
        ]

    def option_lines(self, options: dict[str, Any]) -> list[str]:
        setup = options.get("setup", "standard")
        return ["a Chess960 start, the same for both" if setup == "chess960" else "the standard start"]

    def reason_words(self, reason: str | None) -> str:
        return DC_REASONS.get(reason or "", reason or "")

    # ----------------------------------------------------------------- messages

    def describe(self, message: Message, names: Names) -> str:
        kind = message["kind"]
        if kind == "moved":
            if message.get("castle"):
                text = f"You castled {message['castle']}: your king went to {message['to']}"
            else:
                text = f"You moved your {piece_name(message['piece'])} {message['from']}-{message['to']}"
            taken = message.get("captured")
            if taken:
                text += f", taking {names.whose(taken['color'])} {piece_name(taken['piece'])}"
                text += f" on {taken['square']}" if taken["square"] != message["to"] else ""
            if message.get("en_passant"):
                text += " en passant"
            if message.get("promotion"):
                text += f", promoting it to a {piece_name(message['promotion'])}"
            return text + "."
        if kind == "opponent-moved":
            who = capitalised(names.of(message["color"]))
            lost = message.get("lost")
            if lost:
                return f"{who} moved and took your {piece_name(lost['piece'])} on {lost['square']}."
            return f"{who} moved."
        return super().describe(message, names)

    def status(self, view: View, side: str, names: Names, standing: Standing) -> list[str]:
        if standing.move_number == 1 and "board" not in view:
            return ["New to Dark Chess? There is no check: you win by taking the enemy king. You see your own "
                    "pieces and every square they could move to, with what stands there; the rest of the board "
                    "is fog, and your opponent's moves in it are not told to you."]
        return []

    # ----------------------------------------------------------------- pictures

    def figure(self, view: View, side: str, names: Names, preferences: dict[str, Any],
               messages: list[Message]) -> Figure:
        """Your board as your sight shows it, fog drawn as fog (the whole board once the game is over)."""
        if not view:
            return Figure()
        if "board" in view:
            board = board_grid("The whole board (the game is over)", squares_of(view["board"]), side == "white",
                               self.last_marks(messages))
            return Figure(((board,),), (PIECES_LEGEND,), (tray_words(view["tray"]),))
        return Figure(((self.sight_grid("Your board", view, side == "white", messages),),),
                      (PIECES_LEGEND, SIGHT_LEGEND), (tray_words(view["tray"]),))

    @staticmethod
    def last_marks(messages: list[Message]) -> Marks:
        marks = Marks()
        for message in messages:
            if message["kind"] == "moved":
                marks.last = {message["from"], message["to"]}
            elif message["kind"] == "opponent-moved" and message.get("lost"):
                marks.seen.add(message["lost"]["square"])
        return marks

    def sight_grid(self, caption: str, view: View, white_below: bool, messages: list[Message]) -> Grid:
        """A board of one player's sight: the last move marked where it is in sight, a man lost marked."""
        marks = self.last_marks(messages)
        marks.fog = fog_of(view)
        marks.last -= marks.fog  # a square the mover left may be out of sight now: it is fog like any other
        return board_grid(caption, sight_pieces(view), white_below, marks)

    def reveal(self, position: dict[str, str], views: dict[str, View], names: Names,
               last: list[Message] | None = None) -> Figure:
        """The true position from ``names.me``'s side with the last move marked, and beside it what each player
        saw at that moment."""
        white_below = names.me == "white"
        marks = Marks()
        for message in last or []:
            if message["kind"] == "moved":
                marks.last = {message["from"], message["to"]}
        grids = [board_grid("The true position", squares_of(position["board"]), white_below, marks)]
        grids += [self.sight_grid(f"What {SIDE_TITLE[side]} saw", views[side], white_below, [])
                  for side in ("white", "black") if views.get(side, {}).get("own") is not None]
        tray = next((view["tray"] for view in views.values() if "tray" in view), "")
        return Figure((tuple(grids),), (PIECES_LEGEND,), (tray_words(tray),))

    def record(self, plies: list[Ply], names: Names, result: str | None,
               options: dict[str, Any] | None = None) -> list[str]:
        """The moves as ordered, with their captures marked: the record is shown only after the end, when all
        may be known (each ply's messages are what both players were told)."""
        return super().record([replace(ply, order=marked_order(ply)) for ply in plies], names, result, options)

    # ----------------------------------------------------------------- orders

    def order_forms(self, view: View, side: str, names: Names, standing: Standing) -> list[tuple[str, str]]:
        playing = bool(view) and "board" not in view
        examples = self.variant.example_orders(view, side) if playing else []
        forms = example_forms(examples, "a move, from-to, that your sight shows; one that is not possible is "
                                        "refused with its reason, and you move again")
        known = {**sight_pieces(view), **{square: "?" for square in fog_of(view)}} if playing else {}
        onto = king_onto_rook(view, side) if playing else None
        forms += [
            promotion_form(known, side),
            ("O-O", "castle (O-O-O the other side; or move your king onto the rook" + (f", {onto}" if onto else "")
             + "): attacks do not matter"),
        ]
        return forms
