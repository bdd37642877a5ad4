"""Words every presenter shares: piece names, how to call the two players, results and their reasons."""

from __future__ import annotations

from dataclasses import dataclass

PIECE_NAMES = {"K": "king", "Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "P": "pawn"}
SIDE_TITLE = {"white": "White", "black": "Black"}
RESULT_WORDS = {"1-0": "White wins", "0-1": "Black wins", "1/2-1/2": "Draw"}
REASONS = {  # the end reasons every variant may give; a presenter adds its own
    "resigned": "resignation",
    "agreement": "mutual agreement",
    "time": "loss on time",
    "checkmate": "checkmate",
    "stalemate": "stalemate",
}


@dataclass(frozen=True)
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

    @property
    def mine(self) -> str:
        return self.white if self.me == "white" else self.black


def piece_name(letter: str) -> str:
    return PIECE_NAMES[letter.upper()]


def capitalised(text: str) -> str:
    """The first letter upper case, the rest as it is ("you" -> "You", "bob's" -> "Bob's")."""
    return text[:1].upper() + text[1:]


def tray_words(tray: str) -> str:
    """Captured pieces in words, from their letters: "Captured: White has lost a queen and two pawns; Black
    has lost nothing."."""
    if not tray:
        return "Captured: nothing yet."
    said = []
    for color, test in (("White", str.isupper), ("Black", str.islower)):
        letters = [letter.upper() for letter in tray if test(letter)]
        pieces = [counted(letters.count(letter), PIECE_NAMES[letter]) for letter in "KQRBNP" if letter in letters]
        lost = ", ".join(pieces[:-1]) + " and " + pieces[-1] if len(pieces) > 1 else (pieces or ["nothing"])[0]
        said.append(f"{color} has lost {lost}")
    return "Captured: " + "; ".join(said) + "."


def counted(number: int, name: str) -> str:
    """"a queen", "two pawns"."""
    if number == 1:
        return f"an {name}" if name[0] in "aeiou" else f"a {name}"
    return f"{NUMBERS.get(number, str(number))} {name}s"


NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}
