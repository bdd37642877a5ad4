"""Side View Chess in plain words and pictures: your own pieces, and the enemy as seen from the east (SV-1 .. SV-5).

A player's figure is their board (their own pieces, and an enemy piece only where the
physics gives its square) and beside it a strip per rank: what they see of that rank
looking along it from the h-file side, nearest first.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.present.base import Ply, Presenter, Standing, Tidings, example_forms, marked, promotion_form
from app.present.diagram import PIECES_LEGEND, SEEN, Cell, Figure, Grid, Marks, Row, board_grid, squares_of
from app.present.words import REASONS, SIDE_TITLE, Names, capitalised, piece_name, tray_words
from app.rules.base import Message, View
from app.rules.messages import checked, mates, moved_by

PHYSICS = {
    1: "on each rank you see the piece nearest the h-file side, if it is your opponent's: its type, not its file",
    2: "on each rank you see every piece of your opponent's and the order of all pieces along the rank, "
       "but not their files",
    3: "on each rank you see the piece nearest the h-file side, if it is your opponent's, on its square",
}
SV_REASONS = {
    **REASONS,
    "insufficient material": "insufficient material",
    "75-move rule": "the 75-move rule",
    "fivefold repetition": "fivefold repetition",
    "threefold repetition": "threefold repetition, claimed",
    "50-move rule": "the 50-move rule, claimed",
}


def marked_order(ply: Ply) -> str | None:
    """``e4xd5``, ``d8-h4#``, ``O-O+``: the order with what the move took (its mover's message says) and what it
    gave."""
    moved = next((message for message in ply.messages if moved_by(message) == ply.side), None)
    if moved is None or not ply.order:
        return ply.order
    check = any(checked(message) not in (None, ply.side) for message in ply.messages)
    return marked(ply.order, bool(moved.get("captured")), check, mates(ply.messages))


def letter(entry: dict[str, Any]) -> str:
    return entry["piece"] if entry["color"] == "white" else entry["piece"].lower()


class SideViewPresenter(Presenter):
    def summary(self) -> str:
        return ("Chess by the ordinary rules, except that you see only your own pieces, and of your opponent's "
                "only what you would see looking along each rank from the h-file side. An illegal order is "
                "answered only 'illegal', and you order again at no cost. Checkmate wins.")

    def option_lines(self, options: dict[str, Any]) -> list[str]:
        physics = int(options.get("physics", 3))
        setup = options.get("setup", "standard")
        start = {"standard": "the standard start", "chess960": "a Chess960 start, the same for both",
                 "hidden": "each player chooses their own back rank in private"}.get(setup, setup)
        return [f"physics {physics}: {PHYSICS[physics]}", start]

    def reason_words(self, reason: str | None) -> str:
        return SV_REASONS.get(reason or "", reason or "")

    # ----------------------------------------------------------------- messages

    def describe(self, message: Message, names: Names) -> str:
        kind = message["kind"]
        if kind == "moved":
            piece = piece_name(message["piece"])
            if message.get("castle"):
                text = f"You castled {message['castle']}"
            else:
                text = f"Your {piece} went {message['from']} to {message['to']}"
            captured = message.get("captured")
            if captured:
                text += f", capturing {names.whose(captured['color'])} {piece_name(captured['piece'])} on " \
                        f"{captured['square']}"
            if message.get("en_passant"):
                text += " (en passant)"
            if message.get("promotion"):
                text += f", promoting to a {piece_name(message['promotion'])}"
            return text + "."
        if kind == "opponent-moved":
            who = capitalised(names.of(message["color"]))
            lost = message.get("lost")
            if lost:
                return f"{who} moved and captured your {piece_name(lost['piece'])} on {lost['square']}."
            return f"{who} moved."
        if kind == "rejected" and message["reason"] == "illegal":
            return "That order is illegal (the referee says no more)."
        if kind == "answer" and message.get("claim"):
            return "Your draw claim is not valid: the position has not stood three times, and fifty moves " \
                   "of each side have not passed without a capture or a pawn move."
        return super().describe(message, names)

    def status(self, view: View, side: str, names: Names, standing: Standing) -> list[str]:
        physics = int(view.get("physics", standing.options.get("physics", 3)))
        return [f"You see your own pieces; {PHYSICS[physics]} (physics {physics})."]

    # ----------------------------------------------------------------- pictures

    def figure(self, view: View, side: str, names: Names, preferences: dict[str, Any],
               messages: list[Message]) -> Figure:
        """The player's board and, beside it, what they see of each rank from the east."""
        if not view:
            return Figure()
        white_below = side == "white"
        pieces = squares_of(view["own"])
        marks = Marks()
        for message in messages:
            if message["kind"] == "moved":
                marks.last = {message["from"], message["to"]}
            if message["kind"] == "opponent-moved" and message.get("lost"):
                marks.seen.add(message["lost"]["square"])
        for entry in view["seen"]:
            if entry["color"] != side and entry["square"]:
                pieces[entry["square"]] = letter(entry)
                marks.seen.add(entry["square"])
        board = board_grid("Your board", pieces, white_below, marks)
        strip = self.strip(view, side, white_below)
        physics = int(view["physics"])
        legend = (
            PIECES_LEGEND,
            "Your board shows your pieces, and your opponent's only where you see their square. "
            "From the east: each rank as seen along it from the h-file side, nearest piece first"
            + (", with its square" if physics == 3 else "; your own pieces with their squares" if physics == 2
               else "") + "; '.' means nothing of your opponent's is seen there.",
        )
        return Figure(((board, strip),), legend, (tray_words(view["tray"]),))

    @staticmethod
    def strip(view: View, side: str, white_below: bool) -> Grid:
        ranks = range(8, 0, -1) if white_below else range(1, 9)
        by_rank: dict[int, list[Cell]] = {rank: [] for rank in ranks}
        for entry in view["seen"]:
            own = entry["color"] == side
            by_rank[entry["rank"]].append(Cell(letter(entry), label=entry["square"] or "",
                                               mark="" if own else SEEN))
        rows = tuple(Row(str(rank), tuple(by_rank[rank]) or (Cell(),)) for rank in ranks)
        description = " ".join(
            f"Rank {rank}: " + ", ".join(f"{cell.piece}{cell.label}" for cell in by_rank[rank]) + "."
            for rank in ranks if by_rank[rank]) or "Nothing is seen."
        return Grid("From the east", rows, (), description)

    def reveal(self, position: dict[str, str], views: dict[str, View], names: Names,
               last: list[Message] | None = None) -> Figure:
        """The true position from ``names.me``'s side with the last move marked, and beside it what each player
        saw from the east at that moment."""
        white_below = names.me == "white"
        marks = Marks()
        for message in last or []:
            if message["kind"] == "moved":
                marks.last = {message["from"], message["to"]}
        grids = [board_grid("The true position", squares_of(position["board"]), white_below, marks)]
        seen = [side for side in ("white", "black") if views.get(side)]
        for side in seen:
            grids.append(replace(self.strip(views[side], side, white_below), caption=f"What {SIDE_TITLE[side]} saw"))
        saw = capitalised(" and ".join(f"what {SIDE_TITLE[side]} saw" for side in seen))
        legend = (PIECES_LEGEND, f"{saw}: each rank as seen along it from the h-file side, nearest piece first.") \
            if seen else (PIECES_LEGEND,)
        return Figure((tuple(grids),), legend)

    def record(self, plies: list[Ply], names: Names, result: str | None,
               options: dict[str, Any] | None = None) -> list[str]:
        """The moves as ordered, with their captures, checks and mate marked: the record is shown only after
        the end, when all may be known (each ply's messages are what both players were told)."""
        return super().record([replace(ply, order=marked_order(ply)) for ply in plies], names, result, options)

    # ----------------------------------------------------------------- orders

    def order_forms(self, view: View, side: str, names: Names, standing: Standing) -> list[tuple[str, str]]:
        examples = self.variant.example_orders(view, side) if view else []
        forms = example_forms([example for example in examples if not example.startswith("setup")],
                              "a move (from-to); an illegal one is answered only 'illegal'")
        forms += [
            promotion_form(squares_of(view["own"]) if view else {}, side),
            ("O-O", "castle (O-O-O the other side)"),
            ("claim draw", "threefold repetition or fifty moves without a capture or pawn move"),
        ]
        return forms

    def tell(self, result: str, messages: list[Message], actor: bool, order: str, names: Names,
             standing: Standing) -> Tidings | None:
        if result == "rejected" and actor and any(m.get("reason") == "illegal" for m in messages):
            return Tidings("notice", "illegal order", [f"Your order {order} is illegal."])
        if result == "answered" and actor:
            return Tidings("answer", "your draw claim is not valid", self.lines(messages, names))
        return super().tell(result, messages, actor, order, names, standing)
