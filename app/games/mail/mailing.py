"""What each mail of a game says: rendered from plain values prepared for its one recipient.

The game service decides which mails a change causes (``Mails``); the ``Mailer`` asks the
variant's presenter for the words and pictures, from the recipient's own view and messages
only, renders both parts with the templates and queues them in the outbox, in the
service's transaction. It reads game state but never changes it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from markupsafe import Markup, escape
from sqlalchemy import Connection

from app.config import Settings
from app.games.lobby.challenges import terms
from app.games.mail.links import history_link, rules_link
from app.games.mail.mails import Mails, one_full_stop
from app.games.models import Player
from app.games.play.clock import describe_deadline
from app.games.play.commitment import committed_text
from app.games.records import rows
from app.games.records.rows import GameRecord, PlayerRecord
from app.outbound.compose import Thread, game_thread
from app.outbound.outbox import Attachment, Mail, enqueue
from app.outbound.render import ORDER_MARKER, Document, render, render_message, render_text
from app.present.base import Ply, Presenter, Standing
from app.present.diagram import Figure
from app.present.registry import presenter_for
from app.present.rules_pages import rules_html, rules_text
from app.present.words import SIDE_TITLE, Names
from app.rules.base import SIDES, View, other
from app.rules.registry import get_variant
from app.tokens import ReplyToken, TokenSigner

CommandForms = Callable[[Presenter], list[tuple[str, str]]]  # the mail commands' lines of a variant's order forms
SUBJECT_WIDTH = 78  # what a mail client shows whole, and RFC 5322's line length
MOST_CUT = 12  # characters of what happened a subject cut short keeps at least, before its last part


def subject_line(game: str, tail: str, title: str = "", move: int | None = None, event: str | None = None) -> str:
    """``game (event), move N: tail - title``, kept within SUBJECT_WIDTH: the game's number and its title stay, so
    that every mail of a game says which game it is, and so does the last part of what happened (``your move
    (White)``). Made shorter first by leaving out the move number (the mail says it), then by cutting the first
    part of what happened at a space, with ..., or leaving it out, then by leaving out what the game is part of
    (``event``: the mail names it too), and last by cutting all of what happened."""
    end = f" - {title}" if title else ""
    named = f"{game} ({event})" if event else game
    if move is not None and len(f"{named}, move {move}: {tail}{end}") <= SUBJECT_WIDTH:
        return f"{named}, move {move}: {tail}{end}"
    first, _, last = tail.rpartition(" - ")
    for head in dict.fromkeys((named, game)):
        if len(f"{head}: {tail}{end}") <= SUBJECT_WIDTH:
            return f"{head}: {tail}{end}"
        if not first:
            continue
        room = SUBJECT_WIDTH - len(f"{head}: ... - {last}{end}")
        if room >= MOST_CUT:
            return f"{head}: {cut_at_space(first, room)}... - {last}{end}"
        if len(f"{head}: {last}{end}") <= SUBJECT_WIDTH:
            return f"{head}: {last}{end}"
    return f"{game}: {cut_at_space(tail, SUBJECT_WIDTH - len(f'{game}: ...{end}'))}...{end}"


def cut_at_space(words: str, room: int) -> str:
    """``words`` cut to at most ``room`` characters, at a space where there is one."""
    cut = words[:room + 1].rsplit(" ", 1)[0] if " " in words[:room + 1] else words[:room]
    return cut[:room].rstrip(" ,-:")


@dataclass
class Told:
    """One mail of a game kept for a mail that answers several games at once: its kind, its subject after the
    game's number, its words, and whether it is a move request (the game as its request shows it) or shows the
    player's position (``told``: what it marks on it)."""

    kind: str
    subject: str
    paragraphs: list[str]
    request: bool = False
    show_position: bool = False
    show_forms: bool = False
    told: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Gathering:
    """The mails of games to one player kept while their reply for several games is carried out (a reply to the
    digest), each game's in order, to be told in one mail; every other mail goes out as always."""

    player_id: int
    games: dict[int, tuple[GameRecord, str, list[Told]]] = field(default_factory=dict)

    def keep(self, game: GameRecord, side: str, told: Told) -> None:
        self.games.setdefault(game.id, (game, side, []))[2].append(told)


class Mailer:
    """Renders and queues the mails of games; reads game state, never changes it."""

    def __init__(self, connection: Connection, settings: Settings, signer: TokenSigner, now: datetime,
                 state_of: Callable[[GameRecord], Any], command_forms: CommandForms) -> None:
        self.connection = connection
        self.settings = settings
        self.signer = signer
        self.now = now
        self.state_of = state_of  # a game's state, decoded once in the transaction (``UnitOfWork.state``)
        self.command_forms = command_forms  # written from the mail commands (``commands.registry.command_forms``)
        self.batch: list[Mail] | None = None  # mails of the ``send`` under way
        self.gathering: Gathering | None = None  # a player's mails kept for one answer (``gather``)

    # ----------------------------------------------------------------- what a mail is made from

    def presenter(self, game: GameRecord) -> Presenter:
        return presenter_for(game.variant)

    def options_text(self, game: GameRecord) -> str:
        return terms(game.variant, game.days, game.options)

    def title(self, game: GameRecord) -> str:
        return get_variant(game.variant).title

    def name(self, game: GameRecord, side: str | None) -> str:
        return game.player(side).name if side else "nobody"

    def names(self, game: GameRecord, side: str) -> Names:
        return Names(side, game.white.name, game.black.name)

    def standing(self, game: GameRecord, state: Any) -> Standing:
        variant = get_variant(game.variant)
        return Standing(variant.move_number(state), variant.orderer(state), variant.army_to_move(state),
                        variant.public(state), game.options)

    def token(self, game: GameRecord, side: str) -> str:
        return self.signer.reply_token(ReplyToken(game.id, side, game.ply))

    def history_url(self, game: GameRecord, side: str) -> str:
        return history_link(self.settings, game.id, game.player(side).id)

    def reveal_url(self, game: GameRecord) -> str:
        """The reveal page: open to both players after the game, and to anyone once both agree."""
        return f"{self.settings.base_url}/games/{game.id}/reveal"

    def rules_url(self, game: GameRecord) -> str:
        return rules_link(self.settings, game.variant)

    def rules_document(self, variant_name: str) -> Document:
        """A variant's rules for players, as its page has them: Markdown for the text part, HTML for the other."""
        return Document(rules_text(variant_name), Markup(rules_html(variant_name)))

    def figure(self, game: GameRecord, side: str, view: View, messages: list[dict[str, Any]]) -> Figure:
        return self.presenter(game).figure(view, side, self.names(game, side), game.player(side).preferences,
                                           messages)

    def forms(self, game: GameRecord, side: str, view: View, standing: Standing) -> list[tuple[str, str]]:
        """The order forms of this player now: the variant's, with examples from their view, then the rest."""
        presenter = self.presenter(game)
        return [
            *presenter.order_forms(view, side, self.names(game, side), standing),
            ("resign", "also: offer draw, accept draw, decline draw"),
            *self.command_forms(presenter),
        ]

    # ----------------------------------------------------------------- queueing

    @contextmanager
    def gather(self, player: PlayerRecord) -> Iterator[Gathering]:
        """While the block runs, the player's move requests and notices about games are kept, not sent (the
        game-over mail still goes, and is kept too): what their reply for several games caused, for one mail."""
        self.gathering = Gathering(player.id)
        try:
            yield self.gathering
        finally:
            self.gathering = None

    def kept(self, game: GameRecord, side: str, told: Told) -> bool:
        """Keep ``told`` for the player being gathered for (True), or not (False: send it)."""
        if self.gathering is None or game.player(side).id != self.gathering.player_id:
            return False
        self.gathering.keep(game, side, told)
        return True

    def send(self, game: GameRecord, mails: Mails) -> None:
        """Render the mails and queue them together."""
        self.batch = []
        try:
            self._send(game, mails)
            enqueue(self.connection, self.settings, *self.batch)
        finally:
            self.batch = None

    def _send(self, game: GameRecord, mails: Mails) -> None:
        told = game.told_since_move or {}
        for side, item in mails.settled(lambda side, message: message in told.get(side, [])):
            if item["type"] == "request":
                self.send_request(game, side, item["notice"], item["subject"], item["kind"],
                                  item.get("commitments", False))
            elif item["type"] == "game-over":
                self.send_game_over(game, side, item.get("notes", []), item["ended"])
            else:
                paragraphs = [*item["paragraphs"], *(self.fingerprints(game, side) if item.get("commitments") else [])]
                subject = subject_line(f"Game {game.id}", item["subject"], event=game.event)
                self.message(game, side, item["kind"], subject, paragraphs,
                             show_position=item["show_position"], show_forms=item["show_forms"],
                             document=item["document"], told=item["told"])

    def mail(self, game: GameRecord, side: str, kind: str, subject: str, text: str, html: str,
             auto: str = "auto-generated", attachments: tuple[Attachment, ...] = ()) -> None:
        player = game.player(side)
        names = (game.white.name, game.black.name)
        subject, text = one_full_stop(subject, names), one_full_stop(text, names)
        html = one_full_stop(html, (*names, *(str(escape(name)) for name in names)))
        thread = game_thread(self.settings, game.id, side, f"Game {game.id}: {self.title(game)}", game.created_at)
        mail = Mail(
            recipient=player.email, recipient_name=player.name, kind=kind, subject=subject, text=text, html=html,
            game_id=game.id, token=self.token(game, side), thread=thread, auto=auto, attachments=attachments,
        )
        if self.batch is not None:
            self.batch.append(mail)  # queued together at the end of ``send``
        else:
            enqueue(self.connection, self.settings, mail)

    # ----------------------------------------------------------------- the kinds of mail

    def request_context(self, game: GameRecord, side: str, notice: list[str], commitments: bool,
                        with_forms: bool = True) -> dict[str, Any]:
        """What a move request shows (``with_forms``: its order forms too; a digest shows them once a variant)."""
        variant = get_variant(game.variant)
        state = self.state_of(game)
        view = variant.view(state, side)
        opponent = other(side)
        names = self.names(game, side)
        standing = self.standing(game, state)
        since = (game.told_since_move or {}).get(side, [])
        fingerprints = self.fingerprints(game, side) if commitments else []
        presenter = self.presenter(game)
        return {
            "subject": "",
            "marker": ORDER_MARKER,
            "notice": notice,
            "game": SimpleNamespace(  # attributes: a template reads a dict's keys only after getattr fails
                id=game.id,
                title=self.title(game),
                event=game.event,
                side_title=SIDE_TITLE[side],
                opponent=self.name(game, opponent),
                move_number=standing.move_number,
                deadline=describe_deadline(game.deadline)
                if game.deadline and standing.orderer == side else None,
                days=game.days,
            ),
            "status": presenter.status(view, side, names, standing),
            "since": presenter.lines(since, names),
            "first_move": game.ply == 0,
            "figure": self.figure(game, side, view, since),
            "forms": self.forms(game, side, view, standing) if with_forms else [],
            "history_url": self.history_url(game, side),
            "commitments": fingerprints,
        }

    def fingerprints(self, game: GameRecord, side: str) -> list[str]:
        """The commitments to both hidden setups, shown to each player once, when play starts."""
        opponent = other(side)
        return [
            f"Your setup is committed as sha256 {game.commitments[side]['sha256']}; "
            f"{self.name(game, opponent)}'s as sha256 {game.commitments[opponent]['sha256']}. "
            "The keys are sent when the game ends, so either of you can check that no setup was changed."
        ]

    def send_request(self, game: GameRecord, side: str, notice: list[str], subject_tail: str, kind: str,
                     commitments: bool = False) -> None:
        if self.kept(game, side, Told(kind, subject_tail, [*notice, *(self.fingerprints(game, side) if commitments
                                                                       else [])], request=True)):
            return
        context = self.request_context(game, side, notice, commitments)
        subject = subject_line(f"Game {game.id}", subject_tail, self.title(game), context["game"].move_number,
                               game.event)
        context["subject"] = subject
        context["rules_url"] = self.rules_url(game)
        text, html = render("move_request", context)
        self.mail(game, side, kind, subject, text, html)

    def message(self, game: GameRecord, side: str, kind: str, subject: str, paragraphs: list[str],
                show_position: bool = False, show_forms: bool = False, document: Document | None = None,
                told: list[dict[str, Any]] | None = None) -> None:
        """A notice about the game; the position when asked for (with what the player was just ``told``
        marked on it), the order forms where it asks for an order. Kept with a player's other mails when they are
        gathered: a document (a page of rules) is then left to its link."""
        linked = paragraphs if document is None else [*paragraphs[:-1], paragraphs[-1].rstrip(":") + "."]
        if self.kept(game, side, Told(kind, subject.split(": ", 1)[-1], linked,
                                      show_position=show_position, show_forms=show_forms, told=told or [])):
            return
        figure = None
        forms: list[tuple[str, str]] = []
        if (show_position or show_forms) and game.status in ("active", "over"):
            variant = get_variant(game.variant)
            state = self.state_of(game)
            view = variant.view(state, side)
            if show_position:
                figure = self.figure(game, side, view, told or [])
            if show_forms:
                forms = self.forms(game, side, view, self.standing(game, state))
        text, html = render_message(subject, paragraphs, figure=figure, forms=forms, document=document,
                                    rules_url=self.rules_url(game))
        self.mail(game, side, kind, subject, text, html)

    def send_login_link(self, player: Player | PlayerRecord, link: str, minutes: int) -> None:
        """A sign-in link for the web pages (asked for at /login)."""
        subject = "Mirrorpost: your sign-in link"
        text, html = render_message(subject, [
            f"Here is your link to sign in to your games: {link}",
            f"It works once, for {minutes} minutes. If you did not ask for it, ignore this mail.",
        ], show_marker=False)
        enqueue(self.connection, self.settings, Mail(player.email, player.name, "login", subject, text, html))

    def notify(self, address: str, kind: str, subject: str, paragraphs: list[str], answering: str | None,
               document: Document | None = None) -> None:
        """A notice outside any game, threaded under the message it answers (RFC 3834)."""
        subject = f"Mirrorpost: {subject}"
        text, html = render_message(subject, paragraphs, document=document)
        enqueue(self.connection, self.settings, Mail(
            address, None, kind, subject, text, html, thread=Thread(answering) if answering else None,
            auto="auto-replied"))

    def notice(self, game: GameRecord, side: str, kind: str, subject_tail: str, paragraphs: list[str]) -> None:
        self.message(game, side, kind, subject_line(f"Game {game.id}", subject_tail, event=game.event), paragraphs)

    def send_invitation(self, game: GameRecord, side: str) -> None:
        inviter = game.player(other(side)) if game.challenger_id else None
        # Only the inviter's (confirmed) address: nothing the inviter wrote goes to someone who never played.
        who = f"{inviter.email} invites you" if inviter else "You are invited"
        subject = subject_line(f"Game {game.id}", f"an invitation to {self.title(game)}")
        self.message(game, side, "invitation", subject, [
            f"{who} to a game of {self.title(game)}, played by email.",
            f"You would play {SIDE_TITLE[side]}.",
            f"The game: {self.options_text(game)}.",
            *([f"The game is rated: its result changes both players' ratings in {self.title(game)} (a game that "
               "ends before each side has made two moves changes none)."] if game.rated else []),
            "To play, reply: accept",
            "To refuse, reply: decline",
            "The rules in brief: " + self.presenter(game).summary(),
        ])

    def send_setup_request(self, game: GameRecord, side: str) -> None:
        paragraphs = self.presenter(game).setup_request(side, self.names(game, side), game.options)
        subject = subject_line(f"Game {game.id}", "choose your setup", self.title(game), event=game.event)
        self.message(game, side, "setup-request", subject, paragraphs)

    def send_game_over(self, game: GameRecord, side: str, notes: list[str] | None = None,
                       ended: list[str] | None = None) -> None:
        """The players and the result, what the end did beyond the game (``ended``: the ratings of a rated game,
        a tournament's round), the last move, the final position, the setups
        with their keys and the game in moves; the record of the game goes with it as a file, every event on the
        reveal page. ``notes``: what else the reply that ended the game gave this player (a message passed on)."""
        variant = get_variant(game.variant)
        state = self.state_of(game)
        presenter = self.presenter(game)
        end = presenter.end_words(game.result, game.reason)
        position = variant.position(state)
        started = variant.started(state)
        views = {each: variant.view(state, each) for each in SIDES}  # the game is over: all may be shown
        setups = variant.hidden_setups(state)
        keys = [SimpleNamespace(side=SIDE_TITLE[each], row=setups.get(each), salt=entry["salt"], sha256=entry["sha256"],
                                check=committed_text(entry["salt"], game.variant, each, setups.get(each)))
                for each in SIDES if (entry := game.commitments.get(each))]
        recorded = rows.events_of(self.connection, game.id)
        plies = [Ply(event.move_number, event.by, event.order or None,
                     [*event.told.get(event.by, []), *event.told.get(other(event.by), [])])  # what both were told
                 for event in recorded if variant.completes_turn(event.result) and event.by]
        names = self.names(game, side)
        last_move = next((event for event in reversed(recorded) if variant.completes_turn(event.result)), None)
        last = last_move.told.get(side, []) if last_move else []  # what this player was told of it
        both = [message for each in SIDES for message in (last_move.told.get(each, []) if last_move else [])]
        figure = presenter.reveal(position, views, names, both) if started else Figure()
        subject = subject_line(f"Game {game.id}", f"game over - {end}", self.title(game), event=game.event)
        if "..." in subject:  # short of room, the result alone says that the game is over
            subject = subject_line(f"Game {game.id}", end, self.title(game), event=game.event)
        record = presenter.record(plies, names, game.result, game.options)
        reveal_url = self.reveal_url(game)
        whole = render_text("game_record", {
            "heading": f"Game {game.id}, {self.title(game)}: {game.white.name} (White) against {game.black.name} "
                       f"(Black). {end}.", "record": record, "keys": keys, "reveal_url": reveal_url})
        files = [Attachment(f"game-{game.id}.txt", "text/plain", whole)]
        pgn = presenter.record_file(plies, names, game.result, game.options, started=game.created_at.date())
        if pgn is not None:
            files.append(Attachment(f"game-{game.id}.{pgn[0]}", pgn[1], pgn[2]))
        text, html = render("game_over", {
            "subject": subject,
            "heading": f"Game {game.id}, {self.title(game)}{f' ({game.event})' if game.event else ''}: "
                       f"{game.white.name} (White) against {game.black.name} (Black).",
            "outcome": presenter.outcome_for(side, game.result, game.reason, names),
            "ended": ended or [],
            "notes": notes or [],
            "last": presenter.final_lines(last, names),
            "history_url": self.history_url(game, side),
            "reveal_url": reveal_url,
            "figure": figure, "keys": keys, "record": record, "rules_url": self.rules_url(game),
            "files": [file.filename for file in files],
        })
        self.mail(game, side, "game-over", subject, text, html, attachments=tuple(files))
        self.kept(game, side, Told("game-over", f"game over - {end}", [
            presenter.outcome_for(side, game.result, game.reason, names), *(ended or []),
            "The game-over mail, with the record of the game, is in this game's own thread."]))
