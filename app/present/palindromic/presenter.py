"""Palindromic Chess in plain words and pictures: one board, each rook's hand, how many pieces are home
(PAL-1 .. PAL-6).

Both players see everything. Every rook carries its hand on the board (``L`` or ``R`` beside
it), and the ``where <square>`` command answers where a piece must go.
"""

from __future__ import annotations

import re
from typing import Any

from app.present.base import Answer, Ply, Presenter, Standing, VariantCommand
from app.present.diagram import PIECES_LEGEND, Figure, Marks, board_grid, squares_of
from app.present.words import REASONS, Names, capitalised, piece_name
from app.rules.base import Message, View
from app.rules.palindromic.start import read_start, standard_start, start_board
from app.rules.palindromic.view import destinations_of

HAND = {"left": "L", "right": "R"}
PAL_REASONS = {
    **REASONS,
    "reversal": "the reversal is complete",
    "dead position": "a dead position: every pawn is blocked for good",
    "threefold repetition": "threefold repetition",
    "50-move rule": "the 50-move rule",
}
SQUARE = re.compile(r"^\s*([a-h][1-8])\s*$", re.IGNORECASE)
PIECES = 16
PGN_PLAIN = str.maketrans({'"': "'", "\\": "/"})


def where(view: View, argument: str, preferences: dict[str, Any], names: Names) -> Answer:
    """``where e2``: the squares the piece on that square must reach (PAL-2), from the view alone."""
    match = SQUARE.match(argument)
    if not match:
        return Answer("where", ["Write 'where' and a square, for example 'where g1'."])
    square = match.group(1).lower()
    pieces = squares_of(view["board"])
    if square not in pieces:
        return Answer(f"where {square}", [f"There is no piece on {square}."])
    letter = pieces[square]
    whose = names.whose("white" if letter.isupper() else "black")
    hand = f"{view['handed'][square]}-handed " if square in view.get("handed", {}) else ""
    targets = destinations_of(view, square)
    home = " It is home." if square in targets else ""
    return Answer(f"where {square}", [
        f"{capitalised(whose)} {hand}{piece_name(letter)} on {square} must reach "
        f"{' or '.join(targets) if len(targets) < 3 else 'any of ' + ', '.join(targets)}.{home}"])


class PalindromicPresenter(Presenter):
    def summary(self) -> str:
        return ("Each side races to put every piece on the start square of the same kind of enemy piece "
                "(left- and right-handed rooks are different kinds); captures and promotions are illegal. "
                "Played as written, opposing pawns on one file can never pass each other, so no game can reach "
                "the reversal: the referee declares the game drawn as a dead position as soon as every pawn of "
                "both sides is blocked for good.")

    def help(self) -> list[str]:
        return [self.summary(), "Orders are coordinates (e2-e4, O-O) or standard notation (Nf3). "
                "'where <square>' tells you where the piece on that square must go."]

    def reason_words(self, reason: str | None) -> str:
        return PAL_REASONS.get(reason or "", reason or "")

    def describe(self, message: Message, names: Names) -> str:
        if message["kind"] != "moved":
            return super().describe(message, names)
        who = capitalised(names.of(message["color"]))
        if message.get("castle"):
            return (f"{who} castled {message['castle']}: the king went {message['from']} to {message['to']}, "
                    f"the {message['handed']}-handed rook {message['rook_from']} to {message['rook_to']}.")
        hand = f"{message['handed']}-handed " if message.get("handed") else ""
        whose = "your" if message["color"] == names.me else "their"
        return (f"{who} moved {whose} {hand}{piece_name(message['piece'])} "
                f"{message['from']} to {message['to']} ({message['san']}).")

    def status(self, view: View, side: str, names: Names, standing: Standing) -> list[str]:
        home = view.get("home", {})
        other = "black" if side == "white" else "white"
        lines = [f"Pieces home: you {home.get(side, 0)} of {PIECES}, {names.opponent} {home.get(other, 0)} "
                 f"of {PIECES}."]
        check = view.get("check")
        if check:
            lines.append("Your king is in check." if check == side else f"{names.opponent}'s king is in check.")
        return lines

    def figure(self, view: View, side: str, names: Names, preferences: dict[str, Any],
               messages: list[Message]) -> Figure:
        """The board from the player's side, each rook marked with its hand, the last move marked."""
        if not view:
            return Figure()
        marks = Marks(labels={square: HAND[hand] for square, hand in view.get("handed", {}).items()})
        for message in messages:
            if message["kind"] == "moved":
                marks.last = {message["from"], message["to"]} | (
                    {message["rook_from"], message["rook_to"]} if message.get("castle") else set())
        board = board_grid("The board", squares_of(view["board"]), side == "white", marks)
        hands = ", ".join(f"{HAND[hand]}{square}" for square, hand in sorted(view.get("handed", {}).items()))
        home = view.get("home", {})
        legend = (PIECES_LEGEND,
                  "L or R beside a rook (l or r in plain text): left-handed or right-handed (a1 and h8 start "
                  "right-handed, h1 and a8 left-handed); a rook must reach the enemy rook's start square of its "
                  "own hand.")
        notes = (f"Rooks: {hands}." if hands else "No rooks.",
                 f"Pieces home: White {home.get('white', 0)} of {PIECES}, Black {home.get('black', 0)} of {PIECES}.")
        return Figure(((board,),), legend, notes)

    def reveal(self, position: dict[str, str], views: dict[str, View], names: Names) -> Figure:
        view = views.get("white") or {"board": position["board"], "handed": {}, "home": {}}
        return self.figure(view, "white", names, {}, [])

    def order_forms(self, view: View, side: str, names: Names, standing: Standing) -> list[tuple[str, str]]:
        forms = [(example, "a move (from-to); standard notation such as Nf3 works too")
                 for example in self.variant.example_orders(view, side)]
        forms += [
            ("O-O", "castle (O-O-O the other side), by Chess960 rules"),
            ("where g1", "where the piece on g1 must go"),
        ]
        return forms

    def commands(self) -> list[VariantCommand]:
        return [VariantCommand("where", "<square>", "where the piece on that square must go", where)]

    def record_file(self, plies: list[Ply], names: Names, result: str | None,
                    options: dict[str, Any] | None = None) -> tuple[str, str, str] | None:
        """The game as PGN that any chess program replays: the real start as a FEN (Black's king on d8,
        PAL-1, or the game's ``start`` option) under the Chess960 variant, whose castling is PAL-3's,
        then the moves as ``record`` writes them. ``options`` are the game's options: without them the
        game is taken to start from PAL-1."""
        tags = [pgn_tag(name, value) for name, value in (
            ("Event", f"Mirrorpost: {self.title}"), ("Site", "?"), ("Date", "????.??.??"), ("Round", "-"),
            ("White", names.white), ("Black", names.black), ("Result", result or "*"),
            ("Variant", "Chess960"), ("SetUp", "1"), ("FEN", start_fen(options or {})))]
        moves = self.moves(plies, result)
        return "pgn", "text/x-chess-pgn", "\n".join([*tags, "", *moves]) + "\n"

    def record(self, plies: list[Ply], names: Names, result: str | None,
               options: dict[str, Any] | None = None) -> list[str]:
        """The moves in PGN's notation (the whole PGN goes with the game-over mail as a file), after the
        position the game started from when it was not PAL-1's."""
        start = [f"From the position {start_fen(options)}:"] if options and "start" in options else []
        return [*start, *self.moves(plies, result)]

    @staticmethod
    def moves(plies: list[Ply], result: str | None) -> list[str]:
        """PGN's move text in lines of 72: each rook move's hand as a comment, the referee's passes (PAL-4)
        as null moves."""
        moves: list[str] = []
        for ply in plies:
            moved = next((message for message in ply.messages if message["kind"] == "moved"), None)
            if ply.side == "white" or not moves:
                moves.append(f"{ply.move_number}." + ("" if ply.side == "white" else ".."))
            if moved is None:
                moves += ["--", "{the referee passed: every piece home}"]
                continue
            moves.append(moved["san"])
            if moved.get("handed"):
                moves.append(f"{{{moved['handed']}-handed rook}}")
        moves.append(result or "*")
        lines, line = [], ""
        for word in moves:
            if len(line) + len(word) + 1 > 72:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}".strip()
        return [*lines, line]


def start_fen(options: dict[str, Any]) -> str:
    """The FEN of where the game started: the ``start`` option, else PAL-1. Castling rights are written
    as X-FEN (file letters only where KQkq would be ambiguous), which Chess960 readers take."""
    board, _left = start_board(read_start(options["start"])) if "start" in options else standard_start()
    return board.fen()


def pgn_tag(name: str, value: str) -> str:
    """A PGN tag pair. A quote or backslash in a player's name becomes ' or /: some readers unescape
    backslash escapes and others (python-chess) do not, so leaving none reads the same everywhere."""
    return f'[{name} "{value.translate(PGN_PLAIN)}"]'
