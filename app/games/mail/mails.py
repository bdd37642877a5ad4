"""The mails one change of a game causes, decided before any is written (the ``Mailer`` writes them)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from app.outbound.render import Document


class Mails:
    """Mails decided while handling one message, at most one move request per player."""

    def __init__(self) -> None:
        self.items: list[tuple[str, dict[str, Any]]] = []

    def request(self, side: str, notice: list[str], subject: str, kind: str = "request", at_once: bool = False) -> None:
        """A move request; ``at_once``: sent even to a player on the digest (the last warning before a loss on
        time)."""
        self.items = [(s, i) for s, i in self.items if not (s == side and i["type"] == "request")]
        item = {"type": "request", "notice": notice, "subject": subject, "kind": kind}
        self.items.append((side, {**item, "at_once": True} if at_once else item))

    def message(self, side: str, kind: str, subject: str, paragraphs: list[str], show_position: bool = False,
                show_forms: bool = False, document: Document | None = None,
                told: list[dict[str, Any]] | None = None) -> None:
        """A notice; ``told``: what the player was just told, marked on the position it shows."""
        self.items.append((side, {"type": "message", "kind": kind, "subject": subject, "paragraphs": paragraphs,
                                  "show_position": show_position, "show_forms": show_forms, "document": document,
                                  "told": told or []}))

    def passed_on(self, side: str, subject: str, paragraphs: list[str], told: dict[str, Any]) -> None:
        """A message passed on to ``side`` (``told``: as the record keeps it): inside the other mail this reply
        gives them, if any, else a mail of its own (``settled``)."""
        self.items.append((side, {"type": "said", "kind": "said", "subject": subject, "paragraphs": paragraphs,
                                  "told": told}))

    def note(self, side: str, subject: str, paragraphs: list[str]) -> None:
        """A word to ``side`` on what their reply did: inside the other mail this reply gives them, if any."""
        self.items.append((side, {"type": "note", "kind": "notice", "subject": subject, "paragraphs": paragraphs}))

    def game_over(self, side: str, ended: list[str] | None = None) -> None:
        """The game-over mail replaces the player's other pending mails, but not a passed-on message or a note.
        ``ended``: what the end did beyond the game, for this player (their rating in a rated game, their
        tournament), as the layers above the game service word it."""
        self.items = [(s, i) for s, i in self.items if s != side or i["type"] in FOLDED]
        self.items.append((side, {"type": "game-over", "kind": "game-over", "ended": ended or []}))

    def settled(self, already_told: Callable[[str, dict[str, Any]], bool]) -> list[tuple[str, dict[str, Any]]]:
        """The mails to write. A message passed on and a note go inside the player's other mail from this reply
        (a move request, a notice or the game-over mail), so that a move sent with ``say`` gives each player one
        mail; a move request leaves out a message it already tells among what happened since the player's last
        move (``already_told``). Without another mail, each is a mail of its own."""
        targets: dict[str, dict[str, Any]] = {}
        for side, item in self.items:
            if item["type"] not in FOLDED and (side not in targets or item["type"] == "request"):
                targets[side] = item
        settled = []
        for side, item in self.items:
            target = targets.get(side) if item["type"] in FOLDED else None
            if item["type"] not in FOLDED:
                settled.append((side, item))
            elif target is None:
                settled.append((side, {"type": "message", "kind": item["kind"], "subject": item["subject"],
                                       "paragraphs": item["paragraphs"], "show_position": False,
                                       "show_forms": False, "document": None, "told": []}))
            elif target["type"] == "request":
                if not (item["type"] == "said" and already_told(side, item["told"])):
                    target["notice"] = [*target["notice"], *item["paragraphs"]]
            else:
                field = "paragraphs" if target["type"] == "message" else "notes"
                target[field] = [*target.get(field, []), *item["paragraphs"]]
        return settled


FOLDED = ("said", "note")  # what goes inside a player's other mail from the same reply


def one_full_stop(text: str, names: Iterable[str]) -> str:
    """Where a sentence ends on a name that ends in a full stop ("Ann L."), one full stop, not "Ann L..":
    sentences put a full stop after a name, whatever the name."""
    for name in {name for name in names if name.endswith(".")}:
        text = re.sub(rf"{re.escape(name)}\.(?!\.)", lambda _match, name=name: name, text)
    return text
