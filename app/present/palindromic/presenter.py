"""Palindromic Chess in plain words and pictures: one board, each rook's hand, how many pieces are home
(PAL-1 .. PAL-6).

Both players see everything. Every rook carries its hand on the board, ``<`` (left-handed) or ``>``
(right-handed) beside it: signs no piece letter can be taken for. The ``where <square>`` command answers
where a piece must go.
"""

from __future__ import annotations

import re
import textwrap
from datetime import date
from typing import Any

import chess

from app.present.base import Answer, Ply, Presenter, Standing, Tidings, VariantCommand, example_forms
from app.present.diagram import PIECES_LEGEND, Figure, Marks, board_grid, piece_list, squares_of
from app.present.pgn import pgn_file, wrapped
from app.present.words import REASONS, SIDE_TITLE, Names, capitalised, piece_name
from app.rules.base import Message, View
from app.rules.palindromic.start import read_start, standard_start, start_board
from app.rules.palindromic.view import destinations_of

HAND = {"left": "<", "right": ">"}  # beside a rook on the board: no piece letter, so never read as one
HANDS_LEGEND = ("Beside each rook, its hand: < left-handed, > right-handed (White's a1 and Black's h8 rook start "
                "right-handed, h1 and a8 left-handed); a rook must reach the enemy rook's start square of its own "
                "hand.")
PAL_REASONS = {
    **REASONS,
    "reversal": "the reversal is complete",
    "dead position": "every pawn is blocked for good, so the position is dead",
    "threefold repetition": "threefold repetition",
    "50-move rule": "the 50-move rule",
}
SQUARE = re.compile(r"^\s*([a-h][1-8])\s*$", re.IGNORECASE)
PIECES = 16


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
                "Played as written from the usual start, opposing pawns on one file can never pass each other, "
                "so no game from it can reach the reversal: the referee declares a game drawn as a dead position "
                "as soon as every pawn of both sides is blocked for good.")

    def option_lines(self, options: dict[str, Any]) -> list[str]:
        """The ``start`` option in words, never as the data it is given in."""
        return [start_words(options["start"])] if "start" in options else []

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
        """The board from the player's side, each rook marked with its hand, the last move marked (from the
        messages, else from the view's ``last_move``: on the reveal there are no messages)."""
        if not view:
            return Figure()
        marks = Marks(labels={square: HAND[hand] for square, hand in view.get("handed", {}).items()})
        for message in messages or ([view["last_move"]] if view.get("last_move") else []):
            if message["kind"] == "moved":
                marks.last = {message["from"], message["to"]} | (
                    {message["rook_from"], message["rook_to"]} if message.get("castle") else set())
        board = board_grid("The board", squares_of(view["board"]), side == "white", marks)
        home = view.get("home", {})
        notes = (hands_words(view.get("handed", {})),
                 f"Pieces home: White {home.get('white', 0)} of {PIECES}, Black {home.get('black', 0)} of {PIECES}.")
        return Figure(((board,),), (PIECES_LEGEND, HANDS_LEGEND), notes)

    def reveal(self, position: dict[str, str], views: dict[str, View], names: Names,
               last: list[Message] | None = None) -> Figure:
        """The board from ``names.me``'s side (both saw the same), the last move marked."""
        view = views.get(names.me) or views.get("white") or {"board": position["board"], "handed": {}, "home": {}}
        return self.figure(view, names.me, names, {}, [])

    def order_forms(self, view: View, side: str, names: Names, standing: Standing) -> list[tuple[str, str]]:
        forms = example_forms(self.variant.example_orders(view, side),
                              "a move (from-to); standard notation such as Nf3 works too")
        square = where_example(view, side)
        forms += [
            ("O-O", "castle (O-O-O the other side), by Chess960 rules"),
            (f"where {square}", f"where the piece on {square} must go"),
        ]
        return forms

    def tell(self, result: str, messages: list[Message], actor: bool, order: str, names: Names,
             standing: Standing) -> Tidings | None:
        """PAL-4: a player who is home is passed for at once after each move of the opponent's, so is never
        asked to move: each move, and the pass, is told to them in a mail of its own."""
        if result == "moved" and not actor and standing.orderer not in (None, names.me):
            return Tidings("move-news", f"{names.opponent} moved - the referee passed for you", [
                *self.lines(messages, names),
                f"Every piece of yours is home, so the referee passed for you: it is {names.opponent}'s move "
                "again. You will hear of each move until the game ends."], show_position=True)
        return super().tell(result, messages, actor, order, names, standing)

    def commands(self) -> list[VariantCommand]:
        return [VariantCommand("where", "<square>", "where the piece on that square must go", where)]

    def record_file(self, plies: list[Ply], names: Names, result: str | None,
                    options: dict[str, Any] | None = None, started: date | None = None) -> tuple[str, str, str] | None:
        """The game as PGN that any chess program replays: the real start as a FEN (Black's king on d8,
        PAL-1, or the game's ``start`` option) under the Chess960 variant, whose castling is PAL-3's,
        then the moves as ``record`` writes them. ``options`` are the game's options: without them the
        game is taken to start from PAL-1. ``started``: the day the game began, PGN's Date."""
        return pgn_file(self.title, names, result, started, self.moves(plies, result),
                        (("Variant", "Chess960"), ("SetUp", "1"), ("FEN", start_fen(options or {}))))

    def record(self, plies: list[Ply], names: Names, result: str | None,
               options: dict[str, Any] | None = None) -> list[str]:
        """The moves in PGN's notation (the whole PGN goes with the game-over mail as a file), after the
        position the game started from, in words, when it was not PAL-1's."""
        start = textwrap.wrap(f"The game started {start_words(options['start'])}:", 72) \
            if options and "start" in options else []
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
        return wrapped([*moves, result or "*"])


def start_fen(options: dict[str, Any]) -> str:
    """The FEN of where the game started: the ``start`` option, else PAL-1. Castling rights are written
    as X-FEN (file letters only where KQkq would be ambiguous), which Chess960 readers take."""
    board, _left = start_board(read_start(options["start"])) if "start" in options else standard_start()
    return board.fen()


def start_words(raw: Any) -> str:
    """A ``start`` option in words: "from a position of its own (White: Kd8, ... Black: ...); the rooks on a1
    and h8 right-handed, a8 and h1 left-handed; White moves first; no castling"."""
    start = read_start(raw)
    board, _left = start_board(start)
    rooks = [chess.SQUARE_NAMES[square] for square in chess.scan_forward(board.castling_rights)]
    castling = f"castling still open with the rook{'s' if len(rooks) > 1 else ''} on {', '.join(rooks)}" \
        if rooks else "no castling"
    hands = hands_words(start["handed"]).rstrip(".").replace("Rooks: ", "the rooks on ")
    return (f"from a position of its own ({piece_list(squares_of(start['board'])).rstrip('.')}); {hands}; "
            f"{SIDE_TITLE[start['to_move']]} moves first; {castling}")


def hands_words(handed: dict[str, str]) -> str:
    """"Rooks: a1 and h8 right-handed, a8 and h1 left-handed." (the hands in words, never in letters)."""
    said = []
    for hand in ("right", "left"):
        squares = sorted(square for square, each in handed.items() if each == hand)
        if squares:
            said.append(" and ".join([", ".join(squares[:-1]), squares[-1]] if len(squares) > 1 else squares)
                        + f" {hand}-handed")
    return "Rooks: " + ", ".join(said) + "." if said else "No rooks."


def where_example(view: View, side: str) -> str:
    """A square for the ``where`` example that holds a piece: one of the player's own not yet home, else any."""
    pieces = squares_of(view["board"]) if view else {}
    mine = str.isupper if side == "white" else str.islower
    away = [square for square in sorted(view.get("destinations", {}) if view else {})
            if square in pieces and mine(pieces[square])]
    return (away or sorted(square for square, letter in pieces.items() if mine(letter)) or sorted(pieces) or ["e2"])[0]
