"""The mails one change of a game causes, decided before any is written (the ``Mailer`` writes them)."""

from __future__ import annotations

from typing import Any

from app.outbound.render import Document


class Mails:
    """Mails decided while handling one message, at most one move request per player."""

    def __init__(self) -> None:
        self.items: list[tuple[str, dict[str, Any]]] = []

    def request(self, side: str, notice: list[str], subject: str, kind: str = "request") -> None:
        self.items = [(s, i) for s, i in self.items if not (s == side and i["type"] == "request")]
        self.items.append((side, {"type": "request", "notice": notice, "subject": subject, "kind": kind}))

    def message(self, side: str, kind: str, subject: str, paragraphs: list[str], show_position: bool = False,
                show_forms: bool = False, document: Document | None = None,
                told: list[dict[str, Any]] | None = None) -> None:
        """A notice; ``told``: what the player was just told, marked on the position it shows."""
        self.items.append((side, {"type": "message", "kind": kind, "subject": subject, "paragraphs": paragraphs,
                                  "show_position": show_position, "show_forms": show_forms, "document": document,
                                  "told": told or []}))

    def game_over(self, side: str) -> None:
        """The game-over mail replaces the player's other pending mails, but not a passed-on message."""
        self.items = [(s, i) for s, i in self.items if s != side or (i["type"] == "message" and i["kind"] == "said")]
        self.items.append((side, {"type": "game-over", "kind": "game-over"}))
