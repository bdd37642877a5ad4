"""What each mail of a game says: rendered from plain values prepared for its one recipient.

The game service decides which mails a change causes (``Mails``); the ``Mailer``
turns each into text and HTML with the templates and queues it in the outbox,
in the service's transaction. It reads game state but never changes it.
"""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace
from typing import Any

from sqlalchemy import Connection

from app.config import Settings
from app.games import present, records
from app.games.clock import describe_deadline
from app.games.commitment import committed_text
from app.games.links import history_link
from app.games.models import Player
from app.games.records import GameRecord, PlayerRecord
from app.outbound.compose import Thread, game_thread
from app.outbound.outbox import Mail, enqueue
from app.outbound.render import ORDER_MARKER, render, render_message
from app.rules.base import SIDES, other
from app.rules.registry import get_variant
from app.tokens import ReplyToken, TokenSigner

SIDE_TITLE = {"white": "White", "black": "Black"}


def order_forms(game: GameRecord, side: str) -> list[tuple[str, str]]:
    """The accepted order forms, with examples fitted to the player's side."""
    if side == "white":
        home, away, pawn = "R e2-e4", "M d4-d5", "M e7-e8=N"
        home_name, away_name = "Real", "Mirror"
    else:
        home, away, pawn = "M e7-e5", "R d5-d4", "R d2-d1=N"
        home_name, away_name = "Mirror", "Real"
    return [
        (home, f"move in the {home_name} world (your world)"),
        (away, f"move in the {away_name} world: you cannot see it, and an impossible order costs a strike"),
        (pawn, "promotion (Q, R, B or N; queen if left out)"),
        ("O-O", "castle (O-O-O the other side)"),
        ("ask", f"do I have any legal move in the {away_name} world?"),
        ("resign", "also: offer draw, accept draw, decline draw"),
        ("say <text>", "a message passed on to your opponent"),
        ("board", "send me my position again; also: history, help"),
    ]


def help_paragraphs() -> list[str]:
    return [
        "Mirrorpost referees your game by email. Reply to your latest move request with one order "
        "on the first line. Lines with a square name or a command word are read as orders; other lines are "
        "ignored as chatter. Quoted text and signatures are never read.",
        "Other commands: say <text> (passed on to your opponent), board (your position again), history "
        "(a link to your history), notebook on|off, vacation <days> (pauses your clock), public on|off "
        "(share the reveal after the game), resign, offer draw, accept draw, decline draw.",
        "To start a new game, send 'challenge friend@example.org looking-glass days=3' to the referee's address.",
    ]


class Mails:
    """Mails decided while handling one message, at most one move request per player."""

    def __init__(self) -> None:
        self.items: list[tuple[str, dict[str, Any]]] = []

    def request(self, side: str, notice: list[str], subject: str, kind: str = "request") -> None:
        self.items = [(s, i) for s, i in self.items if not (s == side and i["type"] == "request")]
        self.items.append((side, {"type": "request", "notice": notice, "subject": subject, "kind": kind}))

    def message(self, side: str, kind: str, subject: str, paragraphs: list[str], show_position: bool = False,
                show_forms: bool = False) -> None:
        self.items.append((side, {"type": "message", "kind": kind, "subject": subject, "paragraphs": paragraphs,
                                  "show_position": show_position, "show_forms": show_forms}))

    def game_over(self, side: str) -> None:
        """The game-over mail replaces the player's other pending mails, but not a passed-on message."""
        self.items = [(s, i) for s, i in self.items if s != side or (i["type"] == "message" and i["kind"] == "said")]
        self.items.append((side, {"type": "game-over", "kind": "game-over"}))


class Mailer:
    """Renders and queues the mails of games; reads game state, never changes it."""

    def __init__(self, connection: Connection, settings: Settings, signer: TokenSigner, now: datetime) -> None:
        self.connection = connection
        self.settings = settings
        self.signer = signer
        self.now = now
        self.batch: list[Mail] | None = None  # mails of the ``send`` under way

    def options_text(self, game: GameRecord) -> str:
        parts = [f"{game.days} day{'s' if game.days != 1 else ''} a move"]
        parts += [f"{key}={value}" for key, value in sorted(game.options.items())]
        return ", ".join(parts)

    def title(self, game: GameRecord) -> str:
        return get_variant(game.variant).title

    def name(self, game: GameRecord, side: str | None) -> str:
        return game.player(side).name if side else "nobody"

    def names(self, game: GameRecord, side: str) -> present.Names:
        return present.Names(side, game.white.name, game.black.name)

    def token(self, game: GameRecord, side: str) -> str:
        return self.signer.reply_token(ReplyToken(game.id, side, game.ply))

    def history_url(self, game: GameRecord, side: str) -> str:
        return history_link(self.settings, game.id, game.player(side).id)

    def send(self, game: GameRecord, mails: Mails) -> None:
        """Render the mails and queue them together."""
        self.batch = []
        try:
            self._send(game, mails)
            enqueue(self.connection, self.settings, *self.batch)
        finally:
            self.batch = None

    def _send(self, game: GameRecord, mails: Mails) -> None:
        for side, item in mails.items:
            if item["type"] == "request":
                self.send_request(game, side, item["notice"], item["subject"], item["kind"],
                                  item.get("commitments", False))
            elif item["type"] == "game-over":
                self.send_game_over(game, side)
            else:
                self.message(game, side, item["kind"], f"Game {game.id}: {item['subject']}", item["paragraphs"],
                             show_position=item["show_position"], show_forms=item["show_forms"])

    def mail(self, game: GameRecord, side: str, kind: str, subject: str, text: str, html: str,
             auto: str = "auto-generated") -> None:
        player = game.player(side)
        thread = game_thread(self.settings, game.id, side, f"Game {game.id}: {self.title(game)}", game.created_at)
        mail = Mail(
            recipient=player.email, recipient_name=player.name, kind=kind, subject=subject, text=text, html=html,
            game_id=game.id, token=self.token(game, side), thread=thread, auto=auto,
        )
        if self.batch is not None:
            self.batch.append(mail)  # queued together at the end of ``send``
        else:
            enqueue(self.connection, self.settings, mail)

    def request_context(self, game: GameRecord, side: str, notice: list[str], commitments: bool) -> dict[str, Any]:
        variant = get_variant(game.variant)
        state = variant.from_json(game.state)
        view = variant.view(state, side)
        player = game.player(side)
        opponent = other(side)
        names = self.names(game, side)
        strikes = variant.strikes(state)
        limit = game.options.get("strikes", 3)
        fingerprints = []
        if commitments:
            fingerprints = [
                f"Your setup is committed as sha256 {game.commitments[side]['sha256']}; "
                f"{self.name(game, opponent)}'s as sha256 {game.commitments[opponent]['sha256']}. "
                "The keys are sent when the game ends, so either of you can check that no setup was changed."
            ]
        diagrams = present.looking_glass_diagrams(view, side, player.preferences.get("notebook", True))
        return {
            "subject": "",
            "marker": ORDER_MARKER,
            "notice": notice,
            "game": SimpleNamespace(  # attributes: a template reads a dict's keys only after getattr fails
                id=game.id,
                title=self.title(game),
                side_title=SIDE_TITLE[side],
                world="Real" if side == "white" else "Mirror",
                opponent=self.name(game, opponent),
                move_number=variant.move_number(state),
                strikes_line=f"you {strikes[side]} of {limit}, "
                             f"{self.name(game, opponent)} {strikes[opponent]} of {limit}",
                deadline=describe_deadline(game.deadline)
                if game.deadline and variant.orderer(state) == side else None,
                days=game.days,
                proxy=getattr(state, "proxy", False) and variant.orderer(state) == side,
            ),
            "since": self.since(game, side, names),
            "diagrams": diagrams,
            "diagram_lines": present.side_by_side(diagrams),
            "notes": present.notebook_notes(view, side, self.name(game, opponent))
            if player.preferences.get("notebook", True) else "",
            "tray": present.tray_words(view["tray"]),
            "forms": order_forms(game, side),
            "history_url": self.history_url(game, side),
            "commitments": fingerprints,
        }

    def since(self, game: GameRecord, side: str, names: present.Names) -> list[str]:
        """Every message the player was told since their own last completed move."""
        return [present.describe(message, names) for message in (game.told_since_move or {}).get(side, [])]

    def send_request(self, game: GameRecord, side: str, notice: list[str], subject_tail: str, kind: str,
                     commitments: bool = False) -> None:
        variant = get_variant(game.variant)
        state = variant.from_json(game.state)
        context = self.request_context(game, side, notice, commitments)
        subject = f"Game {game.id}, move {variant.move_number(state)}: {subject_tail} - {self.title(game)}"
        context["subject"] = subject
        text, html = render("move_request", context)
        self.mail(game, side, kind, subject, text, html)

    def message(self, game: GameRecord, side: str, kind: str, subject: str, paragraphs: list[str],
                show_position: bool = False, show_forms: bool = False) -> None:
        """A notice about the game; while it is under way, with the order forms, as on every mail of a game."""
        diagrams: list[present.Diagram] = []
        tray = ""
        if show_position and game.status in ("active", "over"):
            variant = get_variant(game.variant)
            view = variant.view(variant.from_json(game.state), side)
            diagrams = present.looking_glass_diagrams(view, side, game.player(side).preferences.get("notebook", True))
            tray = present.tray_words(view["tray"])
        text, html = render_message(subject, paragraphs, diagram_lines=present.side_by_side(diagrams), tray=tray,
                                    forms=order_forms(game, side) if show_forms or game.status == "active" else [])
        self.mail(game, side, kind, subject, text, html)

    def send_login_link(self, player: Player | PlayerRecord, link: str, minutes: int) -> None:
        """A sign-in link for the web pages (asked for at /login)."""
        subject = "Mirrorpost: your sign-in link"
        text, html = render_message(subject, [
            f"Here is your link to sign in to your games: {link}",
            f"It works once, for {minutes} minutes. If you did not ask for it, ignore this mail.",
        ], show_marker=False)
        enqueue(self.connection, self.settings, Mail(player.email, player.name, "login", subject, text, html))

    def notify(self, address: str, kind: str, subject: str, paragraphs: list[str], answering: str | None) -> None:
        """A notice outside any game, threaded under the message it answers (RFC 3834)."""
        subject = f"Mirrorpost: {subject}"
        text, html = render_message(subject, paragraphs)
        enqueue(self.connection, self.settings, Mail(
            address, None, kind, subject, text, html, thread=Thread(answering) if answering else None,
            auto="auto-replied"))

    def notice(self, game: GameRecord, side: str, kind: str, subject_tail: str, paragraphs: list[str]) -> None:
        self.message(game, side, kind, f"Game {game.id}: {subject_tail}", paragraphs)

    def send_invitation(self, game: GameRecord, side: str) -> None:
        inviter = game.player(other(side)) if game.challenger_id else None
        # Only the inviter's (confirmed) address: nothing the inviter wrote goes to someone who never played.
        who = f"{inviter.email} invites you" if inviter else "You are invited"
        self.message(game, side, "invitation", f"Game {game.id}: an invitation to {self.title(game)}", [
            f"{who} to a game of {self.title(game)} by email. You would play {SIDE_TITLE[side]}; "
            f"{self.options_text(game)}.",
            "Reply 'accept' to play or 'decline' to refuse.",
            "The rules in brief: two boards, the Real world (White's) and the Mirror world (Black's). "
            "You see only your own; pieces fall through portals into the other world, and you order "
            "moves there blind. Capture the enemy king to win.",
        ])

    def send_setup_request(self, game: GameRecord, side: str) -> None:
        world = "Real" if side == "white" else "Mirror"
        rank = "1" if side == "white" else "8"
        self.message(game, side, "setup-request", f"Game {game.id}: choose your setup - {self.title(game)}", [
            f"The game is on. You play {SIDE_TITLE[side]}; your army stands in the {world} world, "
            f"pieces on rank {rank}. Choose the order of your back rank, a-file to h-file, in private:",
            "setup RNBQKBNR   (eight letters: bishops on squares of opposite colour, the king between the rooks)",
            "setup 518        (a Chess960 number from 0 to 959; 518 is the standard row)",
            "setup random",
            f"Your opponent's setup is hidden from you, and yours from them. {self.name(game, other(side))} "
            "does not learn your choice; its fingerprint is shown to both of you when play starts.",
        ])

    def send_game_over(self, game: GameRecord, side: str) -> None:
        """The result, then the whole game: both worlds, both setups with their keys, and every event with
        what each player was told."""
        variant = get_variant(game.variant)
        state = variant.from_json(game.state)
        result_words = present.RESULT_WORDS.get(game.result or "", game.result)
        reason = present.REASONS.get(game.reason or "", game.reason)
        diagrams = [present.Diagram(f"{present.WORLD_NAMES[world]} world (true position)", present.cells(fen))
                    for world, fen in variant.position(state).items()]
        if not any(cell != "." for diagram in diagrams for row in diagram.rows for cell in row):
            diagrams = []  # over before the armies were set up: no worlds to show
        rows = variant.hidden_setups(state)
        keys = [SimpleNamespace(side=SIDE_TITLE[each], row=rows.get(each), salt=entry["salt"], sha256=entry["sha256"],
                                check=committed_text(entry["salt"], game.variant, each, rows.get(each)))
                for each in SIDES if (entry := game.commitments.get(each))]
        events = [SimpleNamespace(
            heading=f"{event.seq}. move {event.move_number}, {SIDE_TITLE.get(event.by or '', 'Referee')}: "
                    f"{event.order or '-'} -> {event.result}",
            told=[(SIDE_TITLE[each], present.describe(message, self.names(game, each)))
                  for each in SIDES for message in event.told.get(each, [])],
        ) for event in records.events_of(self.connection, game.id)]
        subject = f"Game {game.id}: game over - {result_words} ({reason}) - {self.title(game)}"
        text, html = render("game_over", {
            "subject": subject, "over": f"Game {game.id} is over: {result_words} ({reason}).",
            "history_url": self.history_url(game, side), "diagrams": diagrams,
            "diagram_lines": present.side_by_side(diagrams), "keys": keys, "events": events,
        })
        self.mail(game, side, "game-over", subject, text, html)


