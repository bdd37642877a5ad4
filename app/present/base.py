"""How a variant reads to a player: the presenter every variant has, with defaults for what all share.

A presenter turns one player's own part of the event record (their view and their messages)
and what both players know (``Standing``) into plain values: sentences, a figure of the
neutral diagram model, order forms, notices. It never sees a game's state, so nothing it
says can tell a player more than the rules did. The game service, the mailer, the web pages
and the templates ask it and name no variant.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from app.present.diagram import Figure
from app.present.words import REASONS, RESULT_WORDS, SIDE_TITLE, Names, capitalised
from app.rules import messages as told
from app.rules.base import Message, Variant, View


@dataclass(frozen=True)
class Standing:
    """What both players know of a game at a moment, beside their views."""

    move_number: int
    orderer: str | None  # who is to send the next move order
    army: str | None  # whose army moves next (another than the orderer's where one orders for the other)
    public: dict[str, Any]  # what else both know (``Variant.public``)
    options: dict[str, Any]


@dataclass(frozen=True)
class Ply:
    """One completed turn of the game record: who, at which move, the order as read, what both were told."""

    move_number: int
    side: str
    order: str | None
    messages: list[Message]


@dataclass(frozen=True)
class Tidings:
    """What one player is told at once about an order: the kind of mail, its subject and its lines."""

    kind: str
    subject: str
    lines: list[str]
    show_position: bool = False


@dataclass
class Answer:
    """A variant command's answer: lines to send, preferences to change."""

    subject: str
    lines: list[str]
    preferences: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class VariantCommand:
    """A command a variant adds to the common ones: answered from the player's view and preferences."""

    name: str
    argument: str  # how its argument is written in help, "" for none
    help: str  # one line
    answer: Callable[[View, str, dict[str, Any], Names], Answer]


class Presenter:
    """The defaults every presenter shares; a variant's presenter overrides what is its own."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant

    @property
    def title(self) -> str:
        return self.variant.title

    # ----------------------------------------------------------------- the game in words

    def summary(self) -> str:
        """What the game is, in three sentences: for invitations, help and the rules page."""
        return f"{self.title} is played by email: reply to each move request with your order."

    def option_lines(self, options: dict[str, Any]) -> list[str]:
        """The game's options in plain words (none by default)."""
        return [f"{key}={value}" for key, value in sorted(options.items())]

    def reason_words(self, reason: str | None) -> str:
        return REASONS.get(reason or "", reason or "")

    def outcome_for(self, side: str, result: str | None, reason: str | None, names: Names) -> str:
        """The end as one player hears it: "You won: the king was captured.", "You lost: you ran out of time."."""
        if result == "1/2-1/2":
            return f"A draw: {self.reason_words(reason)}."
        if result not in ("1-0", "0-1"):
            return f"The game ended: {self.reason_words(reason)}."
        won = (result == "1-0") == (side == "white")
        loser = names.opponent if won else "you"
        why = {"resigned": f"{loser} resigned", "time": f"{loser} ran out of time"}.get(reason or "")
        return f"You {'won' if won else 'lost'}: {why or self.reason_words(reason)}."

    def end_words(self, result: str | None, reason: str | None) -> str:
        return f"{RESULT_WORDS.get(result or '', result)} ({self.reason_words(reason)})"

    def describe(self, message: Message, names: Names) -> str:
        """One referee message in plain words, for the player ``names.me``."""
        kind = message["kind"]
        who = capitalised(names.of(message.get("color", names.me)))
        if kind == "end":
            return f"The game is over: {self.end_words(message['result'], message['reason'])}."
        if kind == "rejected":
            return f"Not accepted: {message['reason']}."
        if kind == "error":
            return f"Could not be read: {message['reason']}"
        if kind == "setup":
            return f"Your setup {message['row']} (Chess960 number {message['index']}) is in."
        if kind == "setup-done":
            return f"{who} has sent their setup."
        if kind == "start":
            return "Both setups are in: the game has started. White moves first."
        if kind == "draw-offered":
            return "You offered a draw." if message["color"] == names.me else f"{who} offered a draw."
        if kind == "draw-declined":
            return f"{who} declined the draw offer."
        if kind == "said":
            return f"{who} says: {message['text']}"
        if kind == "timeout":
            return f"{who} ran out of time."
        if kind == "forfeit":
            return f"{who} forfeited the game."
        if kind == "passed":
            return (f"{who} {'are' if who == 'You' else 'is'} home: the referee passed for "
                    f"{'you' if who == 'You' else 'them'}.")
        if kind == "check":
            board = f" on {message['board']}" if message.get("board") else ""
            state = "checkmated" if message.get("mate") else "in check"
            return f"{capitalised(names.whose(message['color']))} king is {state}{board}."
        return kind

    def lines(self, messages: list[Message], names: Names) -> list[str]:
        """Messages in plain words, one line each (a presenter may join messages that belong together)."""
        return [self.describe(message, names) for message in messages]

    def final_lines(self, messages: list[Message], names: Names) -> list[str]:
        """The last move as the game-over mail tells it, under the end it already states: a check that ended
        the game is told as checkmate (``"mate"`` on the check), the end itself is not said again."""
        mate = told.mates(messages)
        shown = [{**message, "mate": True} if mate and told.checked(message) else message
                 for message in messages if not told.is_end(message)]
        return self.lines(shown, names)

    def status(self, view: View, side: str, names: Names, standing: Standing) -> list[str]:
        """Lines under a move request's heading (whose move, counts): none by default."""
        return []

    # ----------------------------------------------------------------- pictures

    def figure(self, view: View, side: str, names: Names, preferences: dict[str, Any],
               messages: list[Message]) -> Figure:
        """The player's position as the neutral diagram model; ``messages`` mark what just happened."""
        return Figure()

    def reveal(self, position: dict[str, str], views: dict[str, View], names: Names,
               last: list[Message] | None = None) -> Figure:
        """The true position after the game (and what each player saw), for the reveal, drawn from ``names.me``'s
        side; ``last``: what both players were told of the last move, where the caller has it, to mark it."""
        return Figure()

    def record_file(self, plies: list[Ply], names: Names, result: str | None,
                    options: dict[str, Any] | None = None, started: date | None = None) -> tuple[str, str, str] | None:
        """The record as a file in the variant's own format, if it has one: (extension, type, text).
        ``options``: the game's, for a variant whose start depends on them; ``started``: the day it began."""
        return None

    def record(self, plies: list[Ply], names: Names, result: str | None,
               options: dict[str, Any] | None = None) -> list[str]:
        """The moves of the game in the variant's notation, numbered as players number them."""
        lines: list[str] = []
        for ply in plies:
            if ply.side == "white" or not lines:
                lines.append(f"{ply.move_number}." + ("" if ply.side == "white" else " ..."))
            lines[-1] += f" {ply.order or '(passed)'}"
        if result:
            lines.append(result)
        return lines

    # ----------------------------------------------------------------- orders

    def order_forms(self, view: View, side: str, names: Names, standing: Standing) -> list[tuple[str, str]]:
        """The variant's order forms, (example, meaning), with examples this player could send now."""
        return [(example, "a move") for example in self.variant.example_orders(view, side)]

    def setup_request(self, side: str, names: Names, options: dict[str, Any]) -> list[str]:
        """The paragraphs asking ``side`` for their setup (only asked where the variant has one)."""
        rank = "1" if side == "white" else "8"
        return [
            f"The game is on. You play {SIDE_TITLE[side]}. Choose the order of your back rank (rank {rank}), "
            "a-file to h-file, in private:",
            "setup RNBQKBNR   (eight letters: bishops on squares of opposite colour, the king between the rooks)",
            "setup 518        (a Chess960 number from 0 to 959; 518 is the standard row)",
            "setup random",
            f"{names.opponent} does not learn your choice; its fingerprint is shown to both of you when play starts.",
        ]

    def commands(self) -> list[VariantCommand]:
        """Commands the variant adds to the common ones."""
        return []

    def help(self) -> list[str]:
        """What the variant's help adds to the common help."""
        return [self.summary()]

    # ----------------------------------------------------------------- what to say at once

    def tried(self, tried: list[tuple[str, str]], names: Names, none_played: bool = False) -> str:
        """The move lines of one reply that were tried and not played, each with why, in order (tries, where a
        variant takes several move lines in a reply), for their sender alone: before the one a mail tells of, or,
        with ``none_played``, every line of the reply."""
        listed = ", ".join(f"{order} ({reason})" for order, reason in tried)
        if none_played:
            return f"None of your moves could be played. Tried in your order: {listed}. {names.opponent} is told " \
                   "nothing of them."
        return f"Tried first, in your order, and not played: {listed}. {names.opponent} is told nothing of them."

    def tell(self, result: str, messages: list[Message], actor: bool, order: str, names: Names,
             standing: Standing) -> Tidings | None:
        """What one player is told at once after an order, or None when it waits for their next request.

        ``actor``: the player gave the order. Only the results every variant shares are answered here;
        a presenter adds its own. When the player is now to order, the service turns the tidings into
        a move request (with their subject) instead of a separate mail.
        """
        lines = self.lines(messages, names)
        if actor:
            if result in ("error", "rejected"):
                heading = "could not be read" if result == "error" else "was not accepted"
                return Tidings("notice", f"your order {heading}", [f"Your order '{order}' {heading}.", *lines])
            if self.variant.completes_turn(result):
                return Tidings("move-received", f"your move was made - waiting for {names.opponent}", lines,
                               show_position=True)
            if result == "answered":
                return Tidings("answer", "your question was answered", lines, show_position=True)
            if result == "offered":
                return Tidings("notice", "your draw offer was sent", ["Your draw offer was passed on."])
            if result == "declined":
                return Tidings("notice", "you declined the draw offer",
                               [f"You declined {names.opponent}'s draw offer."])
            if result == "setup":
                return Tidings("setup-received", "your setup is in",
                               [*lines, f"The game starts when {names.opponent} has sent their setup."])
            return None
        if result == "offered":
            answer = "A move also answers the offer." if standing.orderer == names.me else \
                "Or answer it with your next move, in reply to the move request that brings it."
            return Tidings("draw-offer", f"{names.opponent} offers a draw", [
                f"{names.opponent} offers a draw. Reply 'accept draw' or 'decline draw'. {answer}"])
        if result == "declined":
            return Tidings("notice", "draw declined", [f"{names.opponent} declined your draw offer."])
        if result == "setup" and any(told.kind_of(message) == told.SETUP_DONE for message in messages):
            return Tidings("notice", f"{names.opponent} has sent their setup", [
                *lines, "The game starts as soon as you send yours."])
        return None


def marked(order: str, capture: bool, check: bool, mate: bool) -> str:
    """``e4xd5``, ``d8-h4#``, ``O-O+``: an order in coordinates with what it took (``x``, never on castling) and
    what it gave (``+``, or ``#`` for mate), for the record of a game shown after its end."""
    written = order.replace("-", "x", 1) if capture and not order.startswith("O") else order
    return written + ("#" if mate else "+" if check else "")


PROMOTION_MEANING = "promotion (Q, R, B or N; a queen if left out)"


def promotion_form(pieces: dict[str, str], side: str) -> tuple[str, str]:
    """The promotion form, with one of the player's own pawns one step from the last rank, nothing seen in its
    way, as its example when there is one; else told in words, so that no example names a pawn the player
    does not have."""
    pawn, rank, last = ("P", "7", "8") if side == "white" else ("p", "2", "1")
    for name, letter in sorted(pieces.items()):
        if letter == pawn and name[1] == rank and f"{name[0]}{last}" not in pieces:
            return f"{name}-{name[0]}{last}=N", PROMOTION_MEANING
    return "promotion", f"=Q, =R, =B or =N after a pawn's move to rank {last} (a queen if left out); " \
                        "none of your pawns is one step from it now"


def example_forms(examples: list[str], meaning: str) -> list[tuple[str, str]]:
    """Example orders of one kind: the first with what it means, the others as more of the same, so that the
    forms say each thing once."""
    return [(example, meaning if index == 0 else "another move") for index, example in enumerate(examples)]
