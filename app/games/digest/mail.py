"""The digest mail: every game where it is the player's move, each as its move request shows it, in one mail.

Each such game is a section made with the move request's own template for a game
(``mail/_request_game``): the game, the deadline, what the player was told since their last move
and their position, drawn by the variant's presenter for them; then its history link and what was
kept for the digest. The order forms come once a variant, with examples from the player's own
position in the first of its games. A contents list heads the mail, and every game that needs
nothing from the player is one line (whose move, by when).

The whole mail stays under ``MAIL_LIMIT`` bytes as sent: the first games get their boards drawn as
in a move request; when that would pass the limit, the later games' boards are drawn as fixed-width
text (as the text part draws them, one grid under another), and when even that would not fit, the
last games are left to the web, each named with its link. Each section's size is counted as it is
made, the rest of the mail estimated, and the mail rendered once the choice is made.
"""

from __future__ import annotations

import binascii
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from types import SimpleNamespace
from typing import Any

from markupsafe import Markup, escape

from app.games.mail.listing import game_line, game_title
from app.games.mail.mailing import Mailer
from app.games.mail.mails import one_full_stop
from app.games.play.clock import describe_deadline
from app.games.records.rows import GameRecord, PlayerRecord
from app.games.records.work import UnitOfWork
from app.outbound.outbox import Mail, enqueue
from app.outbound.render import (
    ORDER_MARKER,
    environment,
    figure_html,
    figure_text,
    forms_html,
    forms_text,
    render,
)
from app.present.diagram import Figure
from app.rules.registry import get_variant

MAIL_LIMIT = 100_000  # bytes of the whole mail as it goes on the wire
HEADERS_AND_MIME = 3_000  # the headers and the MIME structure around the two parts, at most
FRAME_WORDS = 5_000  # the digest's own words in both parts, without its games
GAME_LINE = 350  # a game's line in both parts, beyond its words: markup, and the link of a game left to the web
SECTION_FRAME = 450  # a section's markup and history link, beyond what it shows
PLAIN_FRAME = 400  # the line saying why a figure is drawn in fixed-width type, and its markup
FORMS_FRAME = 800  # a variant's order forms' heading and link
SMTP_LINE = 998
PRE_STYLE = ("margin:4px 0 8px 0;font-family:'Courier New',Courier,monospace;font-size:12px;line-height:1.25;"
             "color:#222222;white-space:pre-wrap;")
NOTE_STYLE = "margin:8px 0 2px 0;font-size:12px;color:#5c574d;"


@dataclass
class Entry:
    """One game of a digest: the player's side, whose move it is, and what was kept for the digest."""

    game: GameRecord
    side: str
    orderer: str | None
    notes: list[str] = field(default_factory=list)

    @property
    def to_move(self) -> bool:
        return self.orderer == self.side


@dataclass
class Section:
    """One game where it is the player's move, rendered for both parts; its figure drawn ``full`` (as in a
    move request) or as fixed-width text."""

    entry: Entry
    context: dict[str, Any]
    text: str
    head_html: Markup
    drawn: str  # the figure as the text part draws it
    full: bool = False
    figure_html: str = ""  # set once the choice is made: tables, or fixed-width type (Markup)

    @property
    def plain_size(self) -> int:
        """What the figure takes drawn in fixed-width type: about its text, and a line saying why."""
        return len(self.drawn) + self.drawn.count("\n") * 2 + PLAIN_FRAME if self.drawn else 0

    @property
    def anchor(self) -> str:
        return f"game-{self.entry.game.id}"


def wire_size(text: str, html: str) -> int:
    """The bytes both parts take on the wire, encoded as ``app.outbound.compose.assemble`` encodes them."""
    return part_size(text, 78, quoted=True) + part_size(html, SMTP_LINE, quoted=False) + HEADERS_AND_MIME


def part_size(body: str, longest: int, quoted: bool) -> int:
    lines = body.count("\n") + 1
    if body.isascii() and all(len(line) <= longest for line in body.splitlines()):
        return len(body) + lines  # CRLF line ends
    data = body.encode("utf-8")
    if quoted:
        return len(binascii.b2a_qp(data)) + lines * 2
    return math.ceil(len(data) / 57) * 78


def text_size(piece: str) -> int:
    """A piece of the text part as quoted-printable would make it (never less than as it is): ASCII grows by its
    equals signs and a soft break for each 76 characters of a long line."""
    if not piece.isascii():
        return len(binascii.b2a_qp(piece.encode("utf-8"))) + piece.count("\n") * 2
    breaks = sum(len(line) // 76 for line in piece.split("\n") if len(line) > 76)
    return len(piece) + 2 * piece.count("=") + 3 * breaks + piece.count("\n") * 2


def html_size(piece: str) -> int:
    """A piece of the HTML part, which goes as it is (ASCII: non-ASCII letters become character references)."""
    return len(piece.encode("ascii", "xmlcharrefreplace")) + piece.count("\n")


def frame_size(lines: dict[int, str], forms: list[SimpleNamespace]) -> int:
    """What the mail takes besides its sections, at most: its headers, the fixed words, a line a game (with its
    link, for a game left to the web), and the order forms of each variant."""
    size = HEADERS_AND_MIME + FRAME_WORDS + sum(2 * len(line) + GAME_LINE for line in lines.values())
    for group in forms:
        size += text_size(forms_text(group.forms)) + html_size(forms_html(group.forms)) + FORMS_FRAME
    return size


class DigestMail:
    """Renders one player's digest and queues it, through the game mailer's words and pictures."""

    def __init__(self, mailer: Mailer, work: UnitOfWork) -> None:
        self.mailer = mailer
        self.work = work  # the games, locked and decoded once

    def send(self, player: PlayerRecord, entries: list[Entry], token: str) -> Mail:
        mail = self.make(player, entries, token)
        enqueue(self.mailer.connection, self.mailer.settings, mail)
        return mail

    def make(self, player: PlayerRecord, entries: list[Entry], token: str) -> Mail:
        """The mail: as many sections as fit, as fully drawn as fit (``MAIL_LIMIT``), rendered once (again only in
        the rare case the estimate fell short)."""
        to_move = [entry for entry in entries if entry.to_move]
        forms = self.forms(to_move)
        lines = {entry.game.id: game_line(self.work, entry.game, entry.side) for entry in entries}
        sections = self.fit(to_move, frame_size(lines, forms))
        text, html = self.fitted(sections, lambda: self.render(player, entries, sections, forms, lines))
        return Mail(recipient=player.email, recipient_name=player.name, kind="digest",
                    subject=self.subject(to_move), text=text, html=html, token=token)

    def fit(self, to_move: list[Entry], used: int) -> list[Section]:
        """The sections of the games to move that fit in ``MAIL_LIMIT`` beside what is ``used`` already: the first
        games whole, in text, then their boards as a move request draws them while they fit, the rest in
        fixed-width type."""
        sections: list[Section] = []
        smallest: dict[str, int] = {}  # each variant's smallest section so far: a game that cannot fit is not drawn
        for entry in to_move:  # text first: a game left out of the mail is left out whole
            if used + smallest.get(entry.game.variant, 0) * 9 // 10 > MAIL_LIMIT:
                break
            section = self.section(entry)
            cost = text_size(section.text) + html_size(section.head_html) + section.plain_size + SECTION_FRAME
            if used + cost > MAIL_LIMIT:
                break
            smallest[entry.game.variant] = min(cost, smallest.get(entry.game.variant, cost))
            sections.append(section)
            used += cost
        for section in sections:  # then the boards, as a move request draws them, while they fit
            full = figure_html(section.context["figure"])
            cost = html_size(full) - section.plain_size
            if used + cost > MAIL_LIMIT:
                break
            section.figure_html, section.full = full, True
            used += cost
        for section in sections:
            if not section.full:
                section.figure_html = self.plain_figure(section.context["figure"], section.drawn)
        return sections

    def fitted(self, sections: list[Section], render: Callable[[], tuple[str, str]]) -> tuple[str, str]:
        """Both parts as ``render`` makes them from ``sections``, within ``MAIL_LIMIT`` as sent: where the estimate
        fell short, the last board drawn goes back to fixed-width type, else the last game is left to the web."""
        text, html = render()
        while wire_size(text, html) > MAIL_LIMIT and sections:
            drawn = [section for section in sections if section.full]
            if drawn:
                drawn[-1].figure_html = self.plain_figure(drawn[-1].context["figure"], drawn[-1].drawn)
                drawn[-1].full = False
            else:
                sections.pop()
            text, html = render()
        return text, html

    # ------------------------------------------------------------------ the parts

    def section(self, entry: Entry) -> Section:
        """A game as its move request shows it (without the order forms); its figure is drawn for the HTML part
        once the choice is made (``Section.drawn``), meanwhile counted at the size of its text."""
        context = self.mailer.request_context(entry.game, entry.side, [], False, with_forms=False)
        env, figure = environment(), context["figure"]
        bare = {**context, "figure": Figure()}  # the template draws a figure last: drawn here, once for both parts
        drawn = figure_text(figure) if figure else ""
        text = env.get_template("mail/_request_game.txt").render(**bare) + (f"{drawn}\n\n" if figure else "")
        head = Markup(env.get_template("mail/_request_game.html").render(**bare))
        return Section(entry, context, text, head, drawn)

    @staticmethod
    def plain_figure(figure: Figure, drawn: str = "") -> Markup:
        """The figure in fixed-width type, as the text part draws it (``drawn``) but one grid under another (narrow
        enough for a phone): a tenth of the size of the tables."""
        if not figure:
            return Markup("")
        if any(len(row) > 1 for row in figure.layout) or not drawn:
            drawn = figure_text(replace(figure, layout=tuple((grid,) for row in figure.layout for grid in row)))
        return Markup(f'<p style="{NOTE_STYLE}">Drawn in plain type to keep this mail small; your history of this '
                      f'game shows it as a picture.</p><pre style="{PRE_STYLE}">{escape(drawn)}</pre>')

    def forms(self, to_move: list[Entry]) -> list[SimpleNamespace]:
        """The order forms once a variant, with examples from the player's own position in its first game."""
        found: dict[str, SimpleNamespace] = {}
        for entry in to_move:
            game = entry.game
            if game.variant in found:
                found[game.variant].games.append(game.id)
                continue
            variant, state = get_variant(game.variant), self.mailer.state_of(game)
            forms = self.mailer.forms(game, entry.side, variant.view(state, entry.side),
                                      self.mailer.standing(game, state))
            found[game.variant] = SimpleNamespace(title=variant.title, games=[game.id], example_game=game.id,
                                                  forms=forms, rules_url=self.mailer.rules_url(game))
        return list(found.values())

    def subject(self, to_move: list[Entry]) -> str:
        count = len(to_move)
        moves = f"your move in {count} game{'s' if count != 1 else ''}" if count else "news of your games"
        return f"Mirrorpost digest: {moves}"

    def render(self, player: PlayerRecord, entries: list[Entry], sections: list[Section],
               forms: list[SimpleNamespace], lines: dict[int, str]) -> tuple[str, str]:
        """Both parts, from the sections chosen; ``lines``: each game's line (whose move, by when)."""
        shown = {section.entry.game.id for section in sections}
        to_move = [entry for entry in entries if entry.to_move]
        contents = [SimpleNamespace(id=entry.game.id, anchor=f"game-{entry.game.id}", shown=entry.game.id in shown,
                                    line=lines[entry.game.id], history_url=None if entry.game.id in shown else
                                    self.mailer.history_url(entry.game, entry.side))  # the games left to the web
                    for entry in to_move]
        waiting = [lines[entry.game.id] + (" (News below.)" if entry.notes else "")
                   for entry in entries if not entry.to_move]
        news = [SimpleNamespace(title=game_title(entry.game, entry.side), notes=entry.notes)
                for entry in entries if entry.notes and not entry.to_move]
        day = describe_deadline(self.mailer.now)[:15]
        heading = (f"Your games on {day}: it is your move in {len(to_move)} of {len(entries)}." if to_move else
                   f"Your games on {day}: none waits for your move.")
        text, html = render("digest", {
            "subject": self.subject(to_move), "marker": ORDER_MARKER, "heading": heading,
            "example": self.example(to_move, forms), "contents": contents, "waiting": waiting, "news": news,
            "sections": sections, "forms": forms, "left": [item for item in contents if not item.shown],
            "preferences_url": f"{self.mailer.settings.base_url}/preferences",
        })
        names = {entry.game.player(side).name for entry in entries for side in ("white", "black")}
        text = one_full_stop(text, names)
        html = one_full_stop(html, {*names, *(str(escape(name)) for name in names)})
        return text, html.encode("ascii", "xmlcharrefreplace").decode("ascii")  # no base64 for a name's letters

    @staticmethod
    def example(to_move: list[Entry], forms: list[SimpleNamespace]) -> str:
        """A line a reply could hold: the first game's first example order, or ``board`` without one."""
        if not to_move:
            return ""
        first = to_move[0].game
        found = next((form for form in forms if first.id in form.games), None)
        order = found.forms[0][0] if found and found.forms else "board"
        return f"Game {first.id}: {order}"
