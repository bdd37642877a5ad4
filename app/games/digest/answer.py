"""The answer to a reply to the digest: one mail that tells, game by game, what the reply did.

Each game's part says what a reply to that game's move request would have been told, in the same words:
the player's mails kept while their reply was carried out (``Mailer.gather``), in the order they were
told (what was played, refused or stale, a message passed on, the end of a game, whose game-over mail
still comes in its own thread). Where it is the player's move again, the part shows the game as its
move request does (a section as the digest draws one), with the order forms once a variant; a part
that showed the position after a move shows it in fixed-width type while there is room.

The mail answers the player's reply (it is threaded under it), and its reply address is a digest's of its
own, listing the games where it is their move again: a reply to it carries their orders as a reply to the
digest does. It stays within the digest's size (``MAIL_LIMIT``): every game's words first, each cut short
only when all of them would not fit, then the sections as the digest fits its own, then the positions
after a move; what is left out is named, with its link.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

from markupsafe import escape

from app.games.digest import mail
from app.games.digest.mail import (
    GAME_LINE,
    NOTE_STYLE,
    PLAIN_FRAME,
    PRE_STYLE,
    SECTION_FRAME,
    DigestMail,
    Entry,
    Section,
    frame_size,
    html_size,
    text_size,
    wire_size,
)
from app.games.mail.listing import game_title
from app.games.mail.mailing import Gathering, Told
from app.games.mail.mails import one_full_stop
from app.games.records.rows import GameRecord, PlayerRecord
from app.outbound.compose import Thread
from app.outbound.outbox import Mail
from app.outbound.render import NOTICE_MARKER, ORDER_MARKER, figure_text, render
from app.rules.registry import get_variant

CUT = "(The rest of this game's answer is left out to keep this mail small; its history has every move.)"
SMALLEST_SHARE = 600  # what each game's words may be cut down to, at least (its first words)
SMALLEST_WORDS = 80  # characters of a game's first paragraph kept, at least
KIND = "digest-answer"


@dataclass
class Part:
    """One game's part of the answer: what the player was told of it, in order, and how it is drawn."""

    game: GameRecord
    side: str
    told: list[Told]
    history_url: str
    section: Section | None = None  # the game as its move request shows it, where it is the player's move
    drawn: str = ""  # else the position a notice showed, in fixed-width type, when there is room
    left: bool = False  # a position left out for want of room (its history shows it)

    @property
    def anchor(self) -> str:
        return f"game-{self.game.id}"

    @property
    def title(self) -> str:
        return game_title(self.game, self.side)

    @property
    def words(self) -> int:
        """What the part's words take in both parts of the mail."""
        said = [told.subject for told in self.told] + [line for told in self.told for line in told.paragraphs]
        return sum(text_size(line) + html_size(str(escape(line))) for line in said) + GAME_LINE

    def cut(self, room: int) -> None:
        """Keep the part's words within ``room``, its first paragraphs first, and say so."""
        for told in self.told:
            told.paragraphs = [line for line in told.paragraphs if line != CUT]
        while self.words > room and sum(len(told.paragraphs) for told in self.told) > 1:
            last = next(told for told in reversed(self.told) if told.paragraphs)
            last.paragraphs = last.paragraphs[:-1]
        first = next((told for told in self.told if told.paragraphs), None)
        if first is not None and self.words > room:  # the first words, as many as fit
            over = self.words - room
            kept = first.paragraphs[0][: max(len(first.paragraphs[0]) - over // 2, SMALLEST_WORDS)]
            first.paragraphs = [kept.rsplit(" ", 1)[0] + " ..."]
        self.told[-1].paragraphs = [*self.told[-1].paragraphs, CUT]


def section_size(section: Section) -> int:
    """What a section takes in both parts, its figure as chosen."""
    return text_size(section.text) + html_size(section.head_html) + html_size(section.figure_html) + SECTION_FRAME


class DigestAnswer(DigestMail):
    """Renders the answer to one reply to the digest, through the digest's sections and the game mailer."""

    def make(self, player: PlayerRecord, gathering: Gathering, general: list[str], token: str,
             answering: str | None) -> Mail:
        """The mail: every game's words, and as many positions as fit."""
        parts = [Part(game, side, told, self.mailer.history_url(game, side))
                 for _id, (game, side, told) in sorted(gathering.games.items())]
        to_move = [Entry(part.game, part.side, part.side) for part in parts if self.to_move(part)]
        forms = self.forms(to_move)
        used = frame_size({}, forms) + sum(text_size(line) * 2 for line in general)
        words = sum(part.words for part in parts)
        share = (mail.MAIL_LIMIT - used) // max(len(parts), 1)
        if used + words > mail.MAIL_LIMIT:  # every game keeps its first words
            self.cut(parts, share)
            words = sum(part.words for part in parts)
        sections = self.fit(to_move, used + words)
        by_game = {section.entry.game.id: section for section in sections}
        used += words + sum(section_size(section) for section in sections)
        for part in parts:
            part.section = by_game.get(part.game.id)
            if part.section is None:
                used += self.position(part, mail.MAIL_LIMIT - used, any(entry.game is part.game for entry in to_move))
        text, html = self.fitted(sections, lambda: self.render_answer(parts, general, forms, to_move))
        while wire_size(text, html) > mail.MAIL_LIMIT and share > SMALLEST_SHARE:  # the words alone are too many
            share = share * 3 // 4
            self.cut(parts, share)
            for part in parts:
                part.drawn, part.left = "", part.left or bool(part.drawn)
            text, html = self.render_answer(parts, general, forms, to_move)
        return Mail(recipient=player.email, recipient_name=player.name, kind=KIND,
                    subject=self.answer_subject(parts, to_move), text=text, html=html, token=token,
                    thread=Thread(answering) if answering else None, auto="auto-replied")

    @staticmethod
    def cut(parts: list[Part], share: int) -> None:
        """Each part's words within ``share`` (the longest cut short, the others whole)."""
        for part in parts:
            if part.words > share:
                part.cut(share)

    def to_move(self, part: Part) -> bool:
        return part.game.status == "active" and self.work.orderer(part.game) == part.side

    def position(self, part: Part, room: int, to_move: bool) -> int:
        """The position the part's last notice showed, in fixed-width type, if it fits in ``room`` (a game to
        move whose section did not fit is left to the web, as the digest leaves one); what it takes."""
        shown = next((told for told in reversed(part.told) if told.show_position), None)
        if to_move or shown is None or part.game.status not in ("active", "over"):
            part.left = to_move
            return 0
        variant, state = get_variant(part.game.variant), self.mailer.state_of(part.game)
        drawn = figure_text(self.mailer.figure(part.game, part.side, variant.view(state, part.side), shown.told))
        cost = text_size(drawn) + html_size(str(escape(drawn))) + PLAIN_FRAME
        if cost > room:
            part.left = True
            return 0
        part.drawn = drawn
        return cost

    @staticmethod
    def answer_subject(parts: list[Part], to_move: list[Entry]) -> str:
        games = f"{len(parts)} game{'s' if len(parts) != 1 else ''}"
        again = f" - your move in {len(to_move)}" if to_move else ""
        return f"Mirrorpost digest: your reply, game by game ({games}){again}"

    def render_answer(self, parts: list[Part], general: list[str], forms: list[SimpleNamespace],
                      to_move: list[Entry]) -> tuple[str, str]:
        again = [entry.game.id for entry in to_move]
        text, html = render("digest_answer", {
            "subject": self.answer_subject(parts, to_move), "marker": ORDER_MARKER if again else NOTICE_MARKER,
            "parts": parts, "general": general, "forms": forms, "again": again,
            "example": self.example(to_move, forms), "pre_style": PRE_STYLE, "note_style": NOTE_STYLE,
            "preferences_url": f"{self.mailer.settings.base_url}/preferences",
        })
        names = {part.game.player(side).name for part in parts for side in ("white", "black")}
        text = one_full_stop(text, names)
        html = one_full_stop(html, {*names, *(str(escape(name)) for name in names)})
        return text, html.encode("ascii", "xmlcharrefreplace").decode("ascii")
