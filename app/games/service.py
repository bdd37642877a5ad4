"""The game service: the only writer of game state, one part per job.

Each call runs inside the caller's transaction. The unit of work (``work``) locks each game row
once, decodes its state once and writes every change once (``flush``); the lobby answers mail to
the bare address; invitations create games and take their answers; the turn plays orders, hands
the turn over and tells its listeners of each game's end; the clocks keep deadlines, reminders
and vacations; replies read a player's reply and send each command to its job. Mail and web both
come in through here, and every entry point ends with ``flush``.

It knows nothing of the club above it: the service the doors use (``app.service``) hands it the
commands it reads (``book``), the listeners to the end of games (``listeners``) and the club's jobs
beside its own (``extend``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial

from sqlalchemy import Connection

from app.config import Settings
from app.db import utcnow
from app.games.commands.base import CommandBook, Jobs
from app.games.commands.registry import BOOK, command_forms
from app.games.digest.digests import Digests
from app.games.digest.holding import Holding
from app.games.digest.replies import DigestReplies
from app.games.lobby.desk import Desk, MayAnswer
from app.games.lobby.invitations import Invitations
from app.games.lobby.preferences import Preferences
from app.games.mail.mailing import Mailer
from app.games.mail.mails import Mails
from app.games.play.clocks import Clocks, next_look
from app.games.play.replies import Replies
from app.games.play.turn import GameEnded, Turn
from app.games.records import rows
from app.games.records.events import EventRecord
from app.games.records.rows import GameRecord, PlayerRecord
from app.games.records.work import UnitOfWork
from app.tokens import ReplyToken, TokenSigner


class GameService:
    """The entry points of mail, the web, the worker and the command line; each job does the work.

    Each job is given what it needs, below it: the unit of work, the mailer, the event record and the jobs it
    calls. The commands get them together (``Jobs``), and the parts that read a message (the replies about a
    game, the lobby's desk, the replies to a digest) hand each command its job. Nothing below holds the service.
    """

    def __init__(self, connection: Connection, settings: Settings, signer: TokenSigner,
                 now: datetime | None = None, *, book: CommandBook = BOOK, listeners: Sequence[GameEnded] = (),
                 extend: Callable[[Jobs], Jobs] = lambda jobs: jobs) -> None:
        self.connection = connection
        self.settings = settings
        self.signer = signer
        self.now = now or utcnow()
        self.book = book
        self.work = UnitOfWork(connection, self.now, next_look)
        self.mailer = Mailer(connection, settings, signer, self.now, self.work.state,
                             partial(command_forms, book=book))
        self.events = EventRecord(self.work)
        self.holding = Holding(self.work, self.mailer)
        self.turn = Turn(self.work, self.mailer, self.events, self.holding, listeners)
        self.clocks = Clocks(self.work, settings, self.events, self.turn)
        self.preferences = Preferences(self.work, settings)
        self.invitations = Invitations(self.work, settings, self.mailer, self.turn, self.preferences)
        self.digests = Digests(self.work, self.mailer, self.turn)
        self.jobs = extend(Jobs(settings, self.work, self.mailer, self.events, self.turn, self.clocks,
                                self.invitations, self.preferences, self.digests, book))
        self.replies = Replies(self.jobs)
        self.desk = Desk(self.jobs)  # the lobby's desk (``lobby`` is its entry point for mail to the bare address)
        self.digest_replies = DigestReplies(self.jobs, self.replies)

    @property
    def actor_id(self) -> int | None:
        """The player whose mail or page is being answered: told at once, even on the digest."""
        return self.work.actor_id

    @actor_id.setter
    def actor_id(self, player_id: int | None) -> None:
        self.work.actor_id = player_id

    def flush(self) -> None:
        """Write every change made to the records handed out (cheap when there is none)."""
        self.work.flush()

    # ------------------------------------------------------------------ players and games

    def player(self, email: str, name: str | None = None) -> PlayerRecord:
        return self.work.player(email, name)

    def adopt_client_name(self, player: PlayerRecord, name: str) -> None:
        self.preferences.adopt_client_name(player, name)

    def lock(self, game_id: int) -> GameRecord:
        return self.work.lock(game_id)

    def try_lock(self, game_id: int) -> GameRecord | None:
        return self.work.try_lock(game_id)

    def lock_quoting(self, game_id: int, message_ids: list[str]) -> tuple[GameRecord, list[str]]:
        return self.work.lock_quoting(game_id, message_ids)

    def create_game(self, variant: str, white: PlayerRecord, black: PlayerRecord, raw_options: dict[str, str],
                    challenger: PlayerRecord | None, rated: bool = False) -> GameRecord:
        return self.invitations.create_game(variant, white, black, raw_options, challenger, rated)

    def challenge(self, challenger: PlayerRecord, words: list[str]) -> GameRecord:
        return self.invitations.challenge(challenger, " ".join(words))

    def share_reveal(self, game: GameRecord, side: str, agree: bool) -> None:
        self.preferences.share_reveal(game, side, agree)

    # ------------------------------------------------------------------ mail outside any game

    def act_for(self, address: str) -> None:
        """What is done now answers this address's own mail: it is told at once, even on the digest."""
        known = rows.player_by_email(self.connection, address.strip().lower())
        self.actor_id = known.id if known else None

    def lobby(self, sender: str, sender_name: str, text: str, answering: str | None,
              may_answer: MayAnswer = lambda: [], answers_us: bool = False,
              proven: bool = False) -> tuple[str, str]:
        self.act_for(sender)
        return self.desk.lobby(sender, sender_name, text, answering, may_answer, answers_us, proven)

    def confirmed(self, sender: str, key: str, answering: str | None,
                  may_answer: MayAnswer = lambda: []) -> tuple[str, str]:
        self.act_for(sender)
        return self.desk.confirmed(sender, key, answering, may_answer)

    def sender_standing(self, address: str) -> PlayerRecord | None:
        """The player with this address, if there is one: whether their mail was proven, and their choice."""
        return rows.player_by_email(self.connection, address.strip().lower())

    def prove(self, player: PlayerRecord) -> None:
        """Mail in this player's name was proven (DKIM or SPF for their domain): they are marked, once."""
        self.preferences.prove(player)

    def accept_unsigned(self, player: PlayerRecord, accept: bool) -> str:
        """A signed-in player's choice: their mail accepted unproven again, or refused again."""
        return self.preferences.accept_unsigned(player, accept)

    # ------------------------------------------------------------------ a reply about a game

    def submit_text(self, game: GameRecord, player: PlayerRecord, text: str, token: ReplyToken,
                    error_notice: Callable[[], bool] = lambda: True) -> tuple[str, str]:
        """Read a player's new text and carry it out: the one path for mail and the web form.

        ``error_notice`` says whether an error notice may be sent now (rate limits), asked only when needed.
        Returns (status, what was done) for the inbound record.
        """
        self.actor_id = player.id
        outcome = self.replies.carry_out(game, player, text, token, error_notice)
        self.flush()
        return outcome

    # ------------------------------------------------------------------ the daily digest

    def digest_owner(self, key: str) -> tuple[int, str] | None:
        """The digest with this key, and the address it went to (None: no such digest)."""
        return self.digest_replies.owner(key)

    def digest_texts(self, message_ids: list[str], address: str) -> list[str]:
        """The text of the digest a reply answers (what it quotes)."""
        return self.digest_replies.quoted(message_ids, address)

    def submit_digest(self, player: PlayerRecord, digest_id: int, text: str,
                      error_notice: Callable[[], bool] = lambda: True, answering: str | None = None) -> tuple[str, str]:
        """A reply to a digest: each game's lines carried out as a reply to that game's move request would be, and
        answered in one mail under the reply (``answering``)."""
        self.actor_id = player.id
        outcome = self.digest_replies.carry_out(player, digest_id, text, error_notice, answering)
        self.flush()
        return outcome

    def due_digests(self, every: bool = False) -> list[tuple[int, datetime]]:
        return self.digests.due(every)

    def send_digest(self, player_id: int, seen: datetime) -> int:
        """One player's digest, claimed so that no other worker sends it too (1 if it went out)."""
        sent = self.digests.send(player_id, seen)
        self.flush()
        return sent

    # ------------------------------------------------------------------ clocks

    def due_games(self) -> list[int]:
        return self.clocks.due_games()

    def tick_game(self, game_id: int) -> int:
        """A reminder before the deadline, or the loss on time after it (1 if acted)."""
        acted = self.clocks.tick(game_id)
        self.flush()
        return acted

    def vacation(self, player: PlayerRecord, argument: str, side: str, game: GameRecord | None = None,
                 mails: Mails | None = None) -> str:
        return self.clocks.vacation(player, argument, side, game, mails)
