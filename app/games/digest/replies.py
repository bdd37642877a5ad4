"""A reply to a daily digest: orders for several games, each game's lines carried out as a reply to its move request.

The reply's new text (quotes stripped by the inbound side, as for any reply) is cut into games
(``split``): a line ``Game N: ORDER``, or a line ``Game N`` followed by that game's lines up to the next
``Game`` line; a game named twice has its lines in the order written. Lines before the first ``Game``
line are not read. The games the digest listed are locked in id order (the unit of work), so two
replies never wait on each other in opposite orders. Each game's part is marked answered in the
digest's row first, once (``rows.answer``): a second copy of the reply, whatever its Message-ID,
finds it answered and is told "stale" for that game. Then its lines go to ``Replies.carry_out`` with
the ply the digest showed: the same checks (the player's own game, its current turn: a game that moved
on since the digest is told "stale") and the same answers, game by game. A game the digest did not list
is refused in one notice; no game's part stops another's.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from sqlalchemy import bindparam, select

from app.games.commands.base import Jobs
from app.games.digest import rows
from app.games.digest.answer import KIND, DigestAnswer
from app.games.mail.mailing import Gathering
from app.games.mail.mails import Mails
from app.games.play.replies import Replies
from app.games.records.rows import GameRecord, PlayerRecord
from app.outbound.models import OutboundMessage
from app.outbound.outbox import enqueue
from app.present.words import SIDE_TITLE
from app.rules.base import other
from app.tokens import ReplyToken

# ``Game 12: ORDER``, ``Game 12`` alone, ``game #12 - ORDER``; not ``Game 12, <title>...`` (our own heading).
GAME_LINE = re.compile(r"^[\s*_]*game\s*#?\s*([0-9]{1,12})(?:\s*[:.)\-]\s*|\s+|$)(.*?)[\s*_]*$", re.IGNORECASE)
GAMES_READ = 50  # games one reply may carry orders for
LINE_READ = 2000  # characters of a line looked at for a ``Game`` line
OUTBOX = OutboundMessage.__table__
QUOTED_KINDS = ("digest", KIND)  # the mails whose reply address is a digest's: the digest, and an answer to a reply
QUOTED = (select(OUTBOX.c.body_text).where(OUTBOX.c.message_id.in_(bindparam("ids", expanding=True)),
                                           OUTBOX.c.recipient == bindparam("recipient"),
                                           OUTBOX.c.kind.in_(QUOTED_KINDS)))
LATEST = (select(OUTBOX.c.body_text).where(OUTBOX.c.recipient == bindparam("recipient"),
                                           OUTBOX.c.kind.in_(QUOTED_KINDS))
          .order_by(OUTBOX.c.id.desc()).limit(1))


def split(text: str) -> dict[int, list[str]]:
    """Each game named in a reply, with its lines (in order; the lines before the first ``Game`` line are left)."""
    parts: dict[int, list[str]] = {}
    current: int | None = None
    for line in text.splitlines():
        match = GAME_LINE.match(line[:LINE_READ])
        if match:
            current = int(match.group(1))
            parts.setdefault(current, [])
            if match.group(2).strip():
                parts[current].append(match.group(2))
        elif current is not None:
            parts[current].append(line)
    return parts


class DigestReplies:
    """Replies to digests, each in one transaction that locks the games it names in id order."""

    def __init__(self, jobs: Jobs, replies: Replies) -> None:
        self.jobs = jobs
        self.work = jobs.work
        self.replies = replies  # each game's part is carried out as a reply to that game would be

    def owner(self, key: str) -> tuple[int, str] | None:
        return rows.owner(self.work.connection, key)

    def quoted(self, message_ids: list[str], address: str) -> list[str]:
        """The text of the digest a reply answers (named in its In-Reply-To or References), else of the latest
        digest to that address: what the reply most likely quotes."""
        connection = self.work.connection
        found = list(connection.execute(QUOTED, {"ids": message_ids[:2] or [""], "recipient": address}).scalars())
        return found or list(connection.execute(LATEST, {"recipient": address}).scalars())

    def carry_out(self, player: PlayerRecord, digest_id: int, text: str, error_notice: Callable[[], bool],
                  answering: str | None = None) -> tuple[str, str]:
        """Each game's lines carried out on its own, and answered in one mail (``answer``) under the reply
        (``answering``: its Message-ID); returns (status, what was done) for the inbound record."""
        listed = rows.listed(self.work.connection, digest_id)
        parts = split(text)
        if not parts:
            self.tell(player, error_notice, [
                "Your reply to the digest named no game, so nothing in it was carried out. Write each game's "
                "orders after a line that names it: 'Game 12: ORDER', or a line 'Game 12' and that game's lines "
                "below it. Quoted text is never read."])
            return "rejected", "a reply to a digest naming no game"
        named = sorted(parts)
        taken = [game_id for game_id in named if game_id in listed][:GAMES_READ]
        refused = [game_id for game_id in named if game_id not in taken]
        summary = []
        with self.jobs.mailer.gather(player) as gathering:  # what each game's part is told, for one answer
            for game_id in taken:  # in id order
                game = self.work.lock(game_id)
                side = game.side_of(player)
                if side is None:  # a digest lists only its player's games
                    refused.append(game_id)
                    continue
                if not rows.answer(self.work.connection, digest_id, game_id, self.work.now):
                    self.answered_before(game, side, error_notice)
                    summary.append(f"game {game_id}: stale (answered before)")
                    continue
                status, done = self.replies.carry_out(game, player, "\n".join(parts[game_id]),
                                                      ReplyToken(game_id, side, listed[game_id]), error_notice)
                summary.append(f"game {game_id}: {done}" if status == "done" else f"game {game_id}: {status}: {done}")
        general = [
            f"Nothing was carried out for {'game' if len(refused) == 1 else 'games'} "
            f"{', '.join(map(str, sorted(refused)))}: "
            + (f"a reply carries orders for at most {GAMES_READ} games, and " if len(taken) == GAMES_READ
               else "") + "a reply to a digest carries orders only for the games it lists as your move. "
            "Reply to that game's own latest mail instead."] if refused else []
        self.answer(player, gathering, general, answering, error_notice)
        if refused:
            summary.append("not in the digest: " + ", ".join(map(str, sorted(refused))))
        done_any = any(": stale" not in line and ": rejected" not in line for line in summary
                       if not line.startswith("not in"))
        return ("done" if done_any else "rejected"), "; ".join(summary)

    def answer(self, player: PlayerRecord, gathering: Gathering, general: list[str], answering: str | None,
               error_notice: Callable[[], bool]) -> None:
        """One mail for the whole reply: each game's part as its own reply would have been told it, and the games
        where it is the player's move again, listed by a digest row of its own so that a reply to this mail
        carries their orders. The player is told now, so each turn that waited for a digest starts its clock."""
        if not gathering.games:
            if general:
                self.tell(player, error_notice, general)
            return
        again = {}
        for game, side, _told in gathering.games.values():
            if game.status == "active" and self.work.orderer(game) == side:
                if game.deadline is None:
                    self.jobs.turn.hand_over(game, side, told_now=True)
                again[game.id] = game.ply
        token = rows.add_digest(self.work.connection, player.id, self.work.now, again)
        mail = DigestAnswer(self.jobs.mailer, self.work).make(player, gathering, general, token, answering)
        enqueue(self.work.connection, self.jobs.settings, mail)

    def answered_before(self, game: GameRecord, side: str, error_notice: Callable[[], bool]) -> None:
        """A game's part of a reply that a reply to this digest carried out before (a copy): nothing applied; the
        current move request again, or a word to wait."""
        if not error_notice():
            return
        notice = [f"Your reply to the digest for game {game.id} was not applied: that digest's part for this game "
                  "was answered already, and a copy of a reply is never applied twice."]
        mails = Mails()
        if self.work.orderer(game) == side:
            notice.append("Here is your current move request. Reply to this mail with your order.")
            mails.request(side, notice, "old digest - here is your move request", kind="stale")
        elif game.status == "active":
            notice.append(f"It is now {game.player(other(side)).name}'s turn ({SIDE_TITLE[other(side)]}).")
            mails.message(side, "stale", "reply to an old digest", notice, show_position=True)
        else:
            mails.message(side, "stale", "reply to an old digest", notice)
        self.jobs.turn.send(game, mails)

    def tell(self, player: PlayerRecord, error_notice: Callable[[], bool], paragraphs: list[str]) -> None:
        if error_notice():
            self.jobs.mailer.notify(player.email, "digest-error", "your reply to the digest", paragraphs, None)
