"""What one player is shown, as plain values and plain words.

Templates (mail and web) receive only what these functions return, built from
that player's own part of the event record: their view and their messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import chess

from app.rules.placement import cells_of
from app.rules.placement import placement as fen_placement

WORLD_NAMES = {"R": "Real", "M": "Mirror"}
WORLDS_OF = {"white": ("R", "M"), "black": ("M", "R")}  # (home world, other world) by side
PIECE_NAMES = {"P": "pawn", "N": "knight", "B": "bishop", "R": "rook", "Q": "queen", "K": "king"}
REASONS = {
    "king captured": "the king was captured",
    "strikes": "too many strikes",
    "stalemate": "stalemate: no legal move in either world",
    "resigned": "resignation",
    "agreement": "draw by agreement",
    "extinction": "a piece type was wiped out",
    "time": "loss on time",
}
RESULT_WORDS = {"1-0": "White wins", "0-1": "Black wins", "1/2-1/2": "Draw"}
FILES = "abcdefgh"


@dataclass
class Names:
    """How to call the two players in one player's mail."""

    me: str  # "white" or "black"
    white: str
    black: str

    def of(self, side: str) -> str:
        return "you" if side == self.me else (self.white if side == "white" else self.black)

    def whose(self, side: str) -> str:
        return "your" if side == self.me else f"{self.of(side)}'s"

    @property
    def opponent(self) -> str:
        return self.black if self.me == "white" else self.white


def square(where: str) -> str:
    """``"M:e4"`` -> ``"Mirror e4"``."""
    world, name = where.split(":")
    return f"{WORLD_NAMES[world]} {name}"


def piece_name(letter: str) -> str:
    return PIECE_NAMES[letter.upper()]


def _capture(captured: dict[str, str] | None, names: Names) -> str:
    if not captured:
        return ""
    whose, what, where = names.whose(captured["color"]), piece_name(captured["piece"]), square(captured["square"])
    return f", capturing {whose} {what} on {where}"


def _portal(message: dict[str, Any]) -> str:
    world, name = message["final"].split(":")
    if message["through"]:
        return f" and passed through the portal to {WORLD_NAMES[world]} {name}"
    return f"; the portal was closed, so it stayed in the {WORLD_NAMES[message['world']]} world"


def describe(message: dict[str, Any], names: Names) -> str:
    """One referee message in plain words, for the player ``names.me``."""
    kind = message["kind"]
    if kind == "moved":
        who = names.of(message["color"])
        piece = piece_name(message["piece"])
        where = WORLD_NAMES[message["world"]]
        lead = ""
        if message.get("proxy"):
            lead = f"Proxy order for {names.whose(message['color'])} army: "
        elif message["color"] != names.me:
            lead = f"{who} ordered in your world: {message['world']} {message['from']}-{message['ordered']}. "
        whose = names.whose(message["color"])
        went = f"{piece} went {where} {message['from']} to {message['to']}"
        text = f"{lead}{whose.capitalize()} {went}"
        if message.get("castle"):
            text = f"{lead}{who.capitalize()} castled {message['castle']}: {whose} {went}"
        text += _capture(message["captured"], names)
        if message["en_passant"]:
            text += " (en passant)"
        if message["shortened"]:
            text += f" (shortened: {message['ordered']} was ordered)"
        if message["promotion"]:
            text += f", promoting to a {piece_name(message['promotion'])}"
        return text + _portal(message) + "."
    if kind == "landed":
        world, name = message["square"].split(":")
        other = "Mirror" if world == "R" else "Real"
        who = names.of(message["color"])
        answer = "empty, so it came through into your world" if message["through"] else (
            f"occupied, so it stayed in the {WORLD_NAMES[world]} world"
        )
        text = (f"{who.capitalize()} moved in their own world; a piece stopped on {WORLD_NAMES[world]} {name} "
                f"and asked about {other} {name}: {answer}.")
        if message.get("captured"):
            captured = message["captured"]
            text += f" It captured your {piece_name(captured['piece'])} on {square(captured['square'])}."
        return text
    if kind == "arrived":
        whose = names.whose(message["color"])
        attacks = message["attacks"]
        if attacks:
            targets = ", ".join(
                f"{names.whose(target['color'])} {piece_name(target['piece'])} on {square(target['square'])}"
                for target in attacks
            )
        else:
            targets = "nothing"
        text = f"{whose.capitalize()} {piece_name(message['piece'])} arrived on {square(message['square'])}"
        text += f" attacking {targets}"
        front = message["front"]
        if front == "empty":
            text += "; the square in front of it is empty"
        elif front:
            text += f"; in front of it stands {names.whose(front['color'])} {piece_name(front['piece'])}"
        return text + "."
    if kind == "strike":
        if message["color"] == names.me:
            return f"Your order was impossible: strike {message['count']}."
        who = names.of(message["color"])
        return f"{who}'s order {message['order']} in your world was impossible: strike {message['count']} for {who}."
    if kind == "forfeit":
        if message["color"] == names.me:
            return f"Your order was impossible: {names.opponent} now orders one move for your army."
        who, whose = names.of(message["color"]), names.whose(message["color"])
        return f"{who}'s order {message['order']} was impossible: you now order one move for {whose} army."
    if kind == "impossible":
        return f"The proxy order {message['order']} was impossible: {names.of(message['color'])} orders again."
    if kind == "rejected":
        return f"Not accepted: {message['reason']}."
    if kind == "error":
        return f"Could not be read: {message['reason']}"
    if kind == "answer":
        yes = "yes" if message["legal_move"] else "no"
        return f"You asked whether you have any legal move in the {WORLD_NAMES[message['world']]} world: {yes}."
    if kind == "asked":
        who, world = names.of(message["color"]).capitalize(), WORLD_NAMES[message["world"]]
        return f"{who} asked whether they have any legal move in the {world} world."
    if kind == "end":
        reason = REASONS.get(message["reason"], message["reason"])
        return f"The game is over: {RESULT_WORDS[message['result']]} ({reason})."
    if kind == "setup":
        return f"Your setup {message['row']} (Chess960 number {message['index']}) is in."
    if kind == "setup-done":
        return f"{names.of(message['color']).capitalize()} has sent their setup."
    if kind == "start":
        return "Both setups are in: the game has started. White moves first."
    if kind == "draw-offered":
        if message["color"] == names.me:
            return "You offered a draw."
        return f"{names.of(message['color']).capitalize()} offered a draw."
    if kind == "draw-declined":
        return f"{names.of(message['color']).capitalize()} declined the draw offer."
    if kind == "said":
        return f"{names.of(message['color']).capitalize()} says: {message['text']}"
    if kind == "timeout":
        return f"{names.of(message['color']).capitalize()} ran out of time."
    return kind


EMPTY_RUNS = str.maketrans({str(run): "." * run for run in range(1, 9)})  # FEN's digits: runs of empty squares


def cells(placement: str) -> list[list[str]]:
    """FEN placement -> 8 rows (rank 8 first) of 8 letters, ``"."`` where empty."""
    return [list(rank.translate(EMPTY_RUNS)) for rank in placement.split("/")]


@dataclass
class Diagram:
    title: str
    rows: list[list[str]]  # rank 8 first

    def text_lines(self) -> list[str]:
        lines = ["  a b c d e f g h  "]
        for index, row in enumerate(self.rows):
            rank = 8 - index
            lines.append(f"{rank} {' '.join(row)} {rank}")
        lines.append("  a b c d e f g h  ")
        return lines


def own_pieces_only(placement: str, side: str) -> str:
    """A FEN placement with only ``side``'s pieces: the other world with the notebook switched off."""
    color = chess.WHITE if side == "white" else chess.BLACK
    return fen_placement(cells_of(chess.BaseBoard(placement), color))


def looking_glass_diagrams(view: dict[str, Any], side: str, notebook_on: bool = True) -> list[Diagram]:
    """The player's own world and their notebook of the other, side by side."""
    home, away = WORLDS_OF[side]
    boards = [Diagram(f"{WORLD_NAMES[home]} world (what you see)", cells(view["home"]))]
    if notebook_on:
        notebook = cells(view["notebook"])
        for name in view["unknown"]:
            notebook[8 - int(name[1])][FILES.index(name[0])] = "?"
        boards.append(Diagram(f"{WORLD_NAMES[away]} world (your notebook)", notebook))
    else:
        own = cells(own_pieces_only(view["notebook"], side))
        boards.append(Diagram(f"{WORLD_NAMES[away]} world (your pieces)", own))
    return boards


def side_by_side(diagrams: list[Diagram], gap: int = 6) -> list[str]:
    """Text diagrams next to each other, titles above (no lines for no diagrams)."""
    if not diagrams:
        return []
    columns = [[d.title, *d.text_lines()] for d in diagrams]
    width = max(len(line) for column in columns for line in column)
    return [(" " * gap).join(line.ljust(width) for line in row).rstrip() for row in zip(*columns, strict=True)]


def notebook_notes(view: dict[str, Any], side: str, opponent: str) -> str:
    """"n on e5 seen at move 11; ? on g6 at move 11" for the notebook's marked entries."""
    cells_ = cells(view["notebook"])
    notes = []
    for name, number in sorted(view["marks"].items(), key=lambda item: (item[1], item[0])):
        if name in view["unknown"]:
            notes.append(f"? on {name} (a piece of {opponent}'s) at move {number}")
        else:
            letter = cells_[8 - int(name[1])][FILES.index(name[0])]
            notes.append(f"{piece_name(letter)} on {name} seen at move {number}")
    return "; ".join(notes)


def tray_words(tray: str) -> str:
    white = " ".join(letter for letter in tray if letter.isupper()) or "none"
    black = " ".join(letter.upper() for letter in tray if letter.islower()) or "none"
    return f"White {white}. Black {black}."
