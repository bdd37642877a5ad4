"""Kriegspiel in plain words and pictures: your own men on a board, and what the referee announces (KS-1 .. KS-6).

A player's figure is their own men only, with what they have lost and taken; the referee's
announcements of a move (a capture, a check and its direction, the pawn tries) are told as
one line. Nothing here sees more than the player's view and messages, so the examples are
moves of the player's own men that the board of their own men allows.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

import chess

from app.present.base import Ply, Presenter, Standing, Tidings, marked, promotion_form
from app.present.diagram import PIECES_LEGEND, Figure, Marks, board_grid, squares_of
from app.present.pgn import pgn_file, wrapped
from app.present.words import REASONS, Names, capitalised, counted, piece_name, tray_words
from app.rules.base import Message, View
from app.rules.fide import legal_by_order
from app.rules.messages import checked, kind_of, mates, moved_by

KS_REASONS = {
    **REASONS,
    "insufficient material": "neither side has the men left to checkmate",
    "threefold repetition": "the same position for the third time",
    "50-move rule": "fifty moves of each side without a capture or a pawn move",
}
DIRECTION_WORDS = {
    "rank": "on the rank",
    "file": "on the file",
    "long-diagonal": "on the long diagonal",
    "short-diagonal": "on the short diagonal",
    "knight": "by a knight",
}
ANNOUNCEMENTS = ("captured", "check", "pawn-tries")  # told with the move they follow, on its line
ILLEGAL = "illegal"


def tries_words(count: int) -> str:
    """"no pawn tries", "1 pawn try", "3 pawn tries"."""
    return "no pawn tries" if count == 0 else "1 pawn try" if count == 1 else f"{count} pawn tries"


def men_words(letters: str) -> str:
    """Men as letters, in words: "a knight and two pawns", "nothing"."""
    kinds = [counted(letters.upper().count(letter), piece_name(letter)) for letter in "QRBNP" if letter in
             letters.upper()]
    if not kinds:
        return "nothing"
    return ", ".join(kinds[:-1]) + " and " + kinds[-1] if len(kinds) > 1 else kinds[0]


def taken_words(taken: dict[str, int]) -> str:
    pawns, pieces = taken.get("pawns", 0), taken.get("pieces", 0)
    if not pawns and not pieces:
        return "nothing"
    parts = [f"{pawns} pawn{'s' if pawns != 1 else ''}" if pawns else "",
             f"{pieces} piece{'s' if pieces != 1 else ''}" if pieces else ""]
    return " and ".join(part for part in parts if part)


def marked_order(ply: Ply) -> str | None:
    """``e4xd5``, ``d8-h4#``, ``O-O+``: the order with the capture and the check the referee announced after it."""
    if not ply.order or not any(moved_by(message) == ply.side for message in ply.messages):
        return ply.order
    capture = any(kind_of(message) == "captured" for message in ply.messages)
    check = any(checked(message) not in (None, ply.side) for message in ply.messages)
    return marked(ply.order, capture, check, mates(ply.messages))


def pgn_moves(plies: list[Ply], result: str | None) -> list[str] | None:
    """The moves in PGN's notation (SAN), replayed from the standard start; None if an order does not replay."""
    board = chess.Board()
    words: list[str] = []
    for ply in plies:
        move = legal_by_order(board).get(ply.order or "")
        if move is None:
            return None
        if board.turn == chess.WHITE or not words:
            words.append(f"{board.fullmove_number}." + ("" if board.turn == chess.WHITE else ".."))
        words.append(board.san(move))
        board.push(move)
    return wrapped([*words, result or "*"])


class KriegspielPresenter(Presenter):
    def summary(self) -> str:
        return ("Chess by the ordinary rules, except that you see only your own pieces: the referee alone sees "
                "the whole board. A move that is not legal is answered only 'illegal', and you try another at no "
                "cost. After each move both players are told any capture (a pawn or a piece, and where), any check "
                "and its direction, and how many pawn captures the player to move has ('pawn tries'). "
                "Checkmate wins.")

    def help(self) -> list[str]:
        return [
            self.summary(),
            "Orders are moves from square to square: e2-e4 (or e2e4), e7-e8=Q for a promotion (a queen if you "
            "leave the letter out), O-O and O-O-O to castle.",
            f"Tries: a reply may hold up to {self.variant.move_lines} moves, one to a line, best first. The referee "
            "plays the first legal one and tells you which of those before it were illegal; if none is legal, it is "
            "still your move. Your opponent learns nothing of your tries.",
            "Check is told by its direction as seen from the king in check: on the rank, on the file, on the "
            "long or the short diagonal (of the two diagonals through the king's square, the one with more or "
            "fewer squares), or by a knight. Pawn tries are the captures the player to move could make with a "
            "pawn now, en passant included.",
        ]

    def option_lines(self, options: dict[str, Any]) -> list[str]:
        setup = options.get("setup", "standard")
        return ["a Chess960 start, the same for both" if setup == "chess960" else "the standard start"]

    def reason_words(self, reason: str | None) -> str:
        return KS_REASONS.get(reason or "", reason or "")

    # ----------------------------------------------------------------- messages

    def describe(self, message: Message, names: Names) -> str:
        kind = message["kind"]
        if kind == "moved":
            if message.get("castle"):
                return f"You castled {message['castle']}: your king went to {message['to']}."
            text = f"You moved your {piece_name(message['piece'])} {message['from']}-{message['to']}"
            if message.get("en_passant"):
                text += ", taking en passant"
            if message.get("promotion"):
                text += f", promoting it to a {piece_name(message['promotion'])}"
            return text + "."
        if kind == "opponent-moved":
            return f"{capitalised(names.of(message['color']))} moved."
        if kind == "captured":
            if message["color"] == names.me:
                return f"A {message['man']} of yours was captured on {message['square']}."
            return f"You captured a {message['man']} on {message['square']}."
        if kind == "check":
            ways = " and ".join(DIRECTION_WORDS.get(way, way) for way in message["directions"])
            twice = " twice:" if len(message["directions"]) > 1 else ""
            if message["color"] == names.me:
                return f"You are in check{twice} {ways}."
            return f"{capitalised(names.of(message['color']))} is in check{twice} {ways}."
        if kind == "pawn-tries":
            if message["color"] == names.me:
                return f"You have {tries_words(message['count'])}."
            return f"{capitalised(names.of(message['color']))} has {tries_words(message['count'])}."
        if kind == "rejected" and message["reason"] == ILLEGAL:
            return "Illegal: that move cannot be played."
        return super().describe(message, names)

    def lines(self, messages: list[Message], names: Names) -> list[str]:
        """One line a move: what was moved, then what the referee announced about it."""
        lines: list[str] = []
        following = False  # the last line is a move's, so its announcements go on it
        for message in messages:
            text = self.describe(message, names)
            if following and message["kind"] in ANNOUNCEMENTS:
                lines[-1] += " " + text
                continue
            lines.append(text)
            following = message["kind"] in ("moved", "opponent-moved")
        return lines

    def status(self, view: View, side: str, names: Names, standing: Standing) -> list[str]:
        """Before the first move, what the game is and the pawn tries announced before it (KS-3: none). After it,
        every move's announcement tells the pawn tries, among what happened since the player's last move: said
        here again, they would be said twice."""
        if standing.move_number > 1 or standing.army != "white" or "board" in view:
            return []
        lines = ["New to Kriegspiel? You see only your own pieces; the referee sees the whole board. After every "
                 "move it tells you both of any capture, any check and its direction, and the pawn tries of the "
                 "player to move: the captures their pawns could make."]
        tries = standing.public.get("pawn_tries")
        if tries:
            who = "you have" if tries["color"] == side else f"{names.of(tries['color'])} has"
            lines.append(f"Pawn tries: {who} {tries['count'] or 'none'}.")
        return lines

    # ----------------------------------------------------------------- pictures

    def figure(self, view: View, side: str, names: Names, preferences: dict[str, Any],
               messages: list[Message]) -> Figure:
        """Your own pieces (the whole board once the game is over), what you lost and what you took."""
        if not view:
            return Figure()
        marks = Marks()
        for message in messages:
            if message["kind"] == "moved":
                marks.last = {message["from"], message["to"]}
            elif message["kind"] == "captured":
                marks.seen.add(message["square"])
        over = "board" in view
        caption = "The whole board (the game is over)" if over else "Your pieces"
        board = board_grid(caption, squares_of(view["board"] if over else view["own"]), side == "white", marks)
        seen = "" if over else "Only your own pieces are drawn: your opponent's stand, unseen, on empty squares."
        notes = (f"You have lost {men_words(view['lost'])}; you have taken {taken_words(view['taken'])}.",)
        return Figure(((board,),), (PIECES_LEGEND, seen) if seen else (PIECES_LEGEND,), notes)

    def reveal(self, position: dict[str, str], views: dict[str, View], names: Names,
               last: list[Message] | None = None) -> Figure:
        """The whole board at the end, from ``names.me``'s side, with the last move marked."""
        marks = Marks()
        for message in last or []:
            if message["kind"] == "moved":
                marks.last = {message["from"], message["to"]}
        board = board_grid("The true position", squares_of(position["board"]), names.me == "white", marks)
        lost = "".join(views.get(side, {}).get("lost", "") for side in ("white", "black"))
        return Figure(((board,),), (PIECES_LEGEND,), (tray_words(lost),))

    def record(self, plies: list[Ply], names: Names, result: str | None,
               options: dict[str, Any] | None = None) -> list[str]:
        """The moves as ordered, with the captures, checks and mate the referee announced marked: the record is
        shown only after the end, when all may be known (each ply's messages are what both players were told)."""
        return super().record([replace(ply, order=marked_order(ply)) for ply in plies], names, result, options)

    def record_file(self, plies: list[Ply], names: Names, result: str | None,
                    options: dict[str, Any] | None = None, started: date | None = None) -> tuple[str, str, str] | None:
        """The game as PGN, from the standard start, that any chess program replays. A Chess960 game has none: its
        start position is the referee's, and nothing a presenter is given (the moves and what was told of them)
        says it."""
        if (options or {}).get("setup", "standard") != "standard":
            return None
        moves = pgn_moves(plies, result)
        return pgn_file(self.title, names, result, started, moves) if moves is not None else None

    # ----------------------------------------------------------------- orders

    def order_forms(self, view: View, side: str, names: Names, standing: Standing) -> list[tuple[str, str]]:
        examples = self.variant.example_orders(view, side) if view and "board" not in view else []
        forms = []
        if examples:
            forms.append((examples[0], "a move, from-to: if it is not legal you are told only 'illegal', and you "
                                       "move again at no cost"))
        if len(examples) > 1:
            forms.append((examples[1], "on the next line, another move: tried only if the one above is illegal "
                                       f"(up to {self.variant.move_lines} lines, best first); your opponent learns "
                                       "nothing of your tries"))
        forms += [
            promotion_form(squares_of(view["own"]) if view else {}, side),
            ("O-O", "castle (O-O-O the other side)"),
        ]
        return forms

    def tell(self, result: str, messages: list[Message], actor: bool, order: str, names: Names,
             standing: Standing) -> Tidings | None:
        if result == "rejected" and actor and any(m.get("reason") == ILLEGAL for m in messages):
            return Tidings("notice", "illegal move", [
                f"Your move {order} is illegal. {names.opponent} is told nothing of it."])
        return super().tell(result, messages, actor, order, names, standing)

