"""A stored message read and handed on, in the transaction ``receive`` opens for it: screen, authenticate,
read, the game service.

``Pipeline.run`` takes what was stored (``Received``) and what the sender check found, and returns the status
and outcome the message is marked with. Every answer it causes is counted against whoever caused it, never
more than the limits allow (``answers``); reading runs within a time and size ``Budget``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection, bindparam, select, update

from app.addresses import AddressError, valid_address
from app.config import Settings
from app.db import utcnow
from app.games.errors import ServiceError
from app.games.lobby import confirmations
from app.games.models import Player
from app.games.records.rows import PlayerRecord
from app.inbound import budget as budgets
from app.inbound.answers import HOUR, LIMIT_KINDS, Answers
from app.inbound.authenticate import Identity, auth_results_problem, identify
from app.inbound.budget import Budget, OverBudget
from app.inbound.limits import header_facts
from app.inbound.parse import ParsedMail, decode_payload, parse, read_sender
from app.inbound.proof import Arrival, Authentication, not_checked
from app.inbound.quotes import new_text
from app.inbound.safe import storable
from app.inbound.screen import bounce_reason, robot_reason
from app.inbound.shown import shown_only
from app.outbound.models import OutboundMessage
from app.outbound.outbox import error_notices_since
from app.service import Service
from app.tokens import TokenSigner

log = logging.getLogger(__name__)

OUTBOX = OutboundMessage.__table__
DNS_WAIT = timedelta(hours=4)  # how long a message whose check its domain's DNS left unfinished is checked again
OUTCOME_LIMIT = 500  # characters of the outcome kept for an operator (it may quote what the sender wrote)
LATEST_SENT = (select(OUTBOX.c.body_text)
               .where(OUTBOX.c.game_id == bindparam("game_id"), OUTBOX.c.recipient == bindparam("recipient"))
               .order_by(OUTBOX.c.id.desc()).limit(3))


@dataclass(frozen=True)
class Received:
    """What processing needs of a stored message."""

    raw: bytes
    envelope_from: str | None
    envelope_to: list[str]
    full_size: int | None = None  # set when ``raw`` is only the header of a message too large to keep
    peer: str | None = None  # the host that handed it to the listener (SMTP/LMTP), and its greeting
    helo: str | None = None
    received_at: datetime | None = None  # when it was stored; None: just now

    @property
    def size(self) -> int:
        """How large the message was when it came in."""
        return len(self.raw) if self.full_size is None else self.full_size

    def too_large(self, settings: Settings) -> bool:
        """Only its header was kept, or it is larger than the referee reads: answered "too large", unread."""
        return self.full_size is not None or self.size > settings.max_message_bytes

    def arrival(self, settings: Settings) -> Arrival:
        """What the sender check needs of it."""
        return Arrival(self.raw, self.envelope_from, self.peer, self.helo, self.too_large(settings),
                       self.received_at.timestamp() if self.received_at else None)


class CheckAgain(Exception):
    """The message would be refused as not proven only because its domain's DNS did not answer in time: nothing
    in it is done, and it is checked again later (``receive.wait_for_dns``), until ``DNS_WAIT`` after it came."""


class Pipeline:
    """screen -> authenticate -> read -> game service, for one message, in one transaction.

    Reading a message (parse, screen, quotes, commands) runs within a ``Budget``; a message over it is
    marked failed with the reason and its sender told once (in this transaction, with the mark).
    """

    def __init__(self, connection: Connection, settings: Settings, signer: TokenSigner) -> None:
        self.connection = connection
        self.settings = settings
        self.signer = signer
        self.sender: str | None = None
        self.cause: str | None = None  # who caused this message to be answered: envelope sender, else From
        self.answering: str | None = None  # the Message-ID of the message being handled, which notices answer
        self.service = Service(connection, settings, signer)
        self.answers = Answers(connection, settings, self.service.now)
        self.authentication = not_checked(settings, "not read")  # what the sender check found (``run``)
        self.received_at = self.service.now

    def run(self, row: Received, authentication: Authentication) -> tuple[str, str]:
        self.authentication = authentication
        self.received_at = row.received_at or self.received_at
        budget = Budget(self.settings.message_time_budget, budgets.DECODED_LIMIT)
        try:
            status, outcome = self.read_and_handle(row, budget)
        except OverBudget as error:
            status, outcome = "failed", f"over its budget: {error}"
            if self.sender is None:  # over before its sender was read: read just that, on the raw header
                self.sender = read_sender(header_facts(row.raw))[0]
                self.cause = self.cause or cause_of(row.envelope_from, None) or self.sender
            self.refuse("over-budget", "your message could not be read", [
                f"Your message was not read: {error}. Please send your order again in a short plain-text "
                "reply, without attachments.",
            ])
        return status, storable(outcome[:OUTCOME_LIMIT])

    def read_and_handle(self, row: Received, budget: Budget) -> tuple[str, str]:
        too_large = row.too_large(self.settings)
        try:  # the body of a message too large to read is not parsed at all
            parsed = parse(row.raw, row.envelope_to, budget, header_only=too_large)
        except OverBudget:
            raise
        except Exception as error:
            return "ignored", f"unparseable message: {error.__class__.__name__}"
        self.sender = parsed.sender
        self.cause = cause_of(row.envelope_from, parsed)
        self.answering = parsed.message_id
        bounce = bounce_reason(parsed, row.envelope_from)
        identity = identify(parsed, self.signer, self.settings)
        if identity.bounce_of is not None or identity.bounce_key is not None or bounce:
            return "ignored", self.record_bounce(identity, bounce or "bounce")
        robot = robot_reason(parsed, self.settings.server_email)
        if robot:
            return "ignored", f"not answered: {robot}"
        if parsed.refused is not None:
            self.sender = parsed.sender or self.cause  # the envelope sender, if the From was the refused field
            self.refuse("refused", "your message could not be read", [
                f"Your message was not read: it has {parsed.refused}, more than any mail program writes.",
            ])
            return "rejected", f"header refused: {parsed.refused}"
        if parsed.sender is None:
            self.sender = self.cause  # the envelope sender, if any, is told why
            self.refuse("refused", "your message could not be read", [
                f"Your message was not read: {parsed.sender_problem}. The referee reads a message only when its "
                "From header names exactly one address, written the standard way.",
            ])
            return "rejected", f"From refused: {parsed.sender_problem}"
        if parsed.sender == self.settings.server_email or (parsed.sender.endswith("@" + self.settings.server_domain) \
                and parsed.sender.startswith(self.settings.server_local + "+")):
            return "ignored", "from ourselves"
        if too_large:
            self.refuse("too-large", "your message was too large", [
                f"Your message was {row.size // 1024} KB; the referee reads messages up to "
                f"{self.settings.max_message_bytes // 1024} KB. Please reply with plain text only, "
                "without attachments.",
            ])
            return "rejected", "too large"
        if parsed.unread_html is not None:
            self.refuse("refused", "your message could not be read", [
                f"Your message was not read: it is HTML only, and its styles hold {parsed.unread_html}, so the "
                "referee cannot tell what your mail program showed you (text it hides is never read as an order). "
                "Nothing in it was carried out. Please send it again as plain text, or without that formatting.",
            ])
            return "rejected", f"HTML not read: {parsed.unread_html}"
        border_problem = auth_results_problem(parsed, self.settings) if self.settings.authserv_id else "none"
        if self.settings.require_auth_results and border_problem is not None:
            self.refuse("refused", "your message could not be verified", [
                "Your message was not accepted: the mail system could not verify that it really came from "
                f"{parsed.sender} ({border_problem}).",
            ])
            return "rejected", f"not verified: {border_problem}"
        if border_problem is None and not self.authentication.proven:
            self.authentication = self.authentication.by_border()
        if identity.digest is not None:
            return self.digest_reply(parsed, identity.digest, budget)
        if identity.token is None:
            if identity.forged:
                self.refuse("refused", "reply address not recognised", [
                    "Your message was not accepted: the reply address it was sent to is not one the referee "
                    "gave out (it may have been changed). Reply to the referee's latest mail as it is.",
                ])
                return "rejected", "forged or damaged token"
            return self.lobby(parsed, budget)
        return self.game_reply(parsed, identity, budget)

    # ------------------------------------------------------------------ paths

    def game_reply(self, parsed: ParsedMail, identity: Identity, budget: Budget) -> tuple[str, str]:
        token = identity.token
        assert token is not None and parsed.sender is not None
        try:
            game, quoted = self.service.lock_quoting(token.game_id, parsed.references)
        except ServiceError:
            return "rejected", "token for a game that does not exist"
        player = game.player(token.side)
        if parsed.sender != player.email:
            self.refuse("refused", "message not accepted", [
                "Your message was not accepted: it was sent from an address that does not belong to the "
                "player this reply address was given to. Only that player can reply with it.",
            ])
            return "rejected", f"spoofed sender {parsed.sender} for game {game.id} {token.side}"
        refused = self.refuse_unproven(player.email, f"a reply to the referee's mail about game {game.id}", player)
        if refused is not None:
            return "rejected", refused
        self.service.adopt_client_name(player, parsed.sender_name)
        text = shown(parsed, new_text(parsed.text, quoted or self.latest_sent(game.id, player.email)), budget)
        sender = parsed.sender
        status, done = self.service.submit_text(game, player, text, token,
                                                error_notice=lambda: self.within_error_limit(sender))
        log.info("game %s, %s (%s): %s", game.id, token.side, sender, done)
        return status, done

    def digest_reply(self, parsed: ParsedMail, key: str, budget: Budget) -> tuple[str, str]:
        """A reply to a daily digest: orders for several games, each game's lines carried out as a reply to
        that game's move request would be (quotes stripped the same way, against the digest's own text)."""
        assert parsed.sender is not None
        found = self.service.digest_owner(key)
        if found is None:
            self.refuse("refused", "reply address not recognised", [
                "Your message was not accepted: the reply address it was sent to is not one the referee "
                "gave out (it may have been changed). Reply to the referee's latest mail as it is.",
            ])
            return "rejected", "a key for a digest that does not exist"
        digest_id, owner = found
        if parsed.sender != owner:
            self.refuse("refused", "message not accepted", [
                "Your message was not accepted: it was sent from an address that does not belong to the "
                "player this reply address was given to. Only that player can reply with it.",
            ])
            return "rejected", f"spoofed sender {parsed.sender} for digest {digest_id}"
        player = self.service.player(owner)
        refused = self.refuse_unproven(owner, "a reply to your daily digest", player)
        if refused is not None:
            return "rejected", refused
        self.service.adopt_client_name(player, parsed.sender_name)
        text = shown(parsed, new_text(parsed.text, self.service.digest_texts(parsed.references, owner)), budget)
        sender = parsed.sender
        status, done = self.service.submit_digest(player, digest_id, text,
                                                  error_notice=lambda: self.within_error_limit(sender),
                                                  answering=self.answering)
        log.info("digest %s (%s): %s", digest_id, sender, done)
        return status, done

    def lobby(self, parsed: ParsedMail, budget: Budget) -> tuple[str, str]:
        """Mail to the bare address: challenges, help, vacations, names, the list of games; a reply that
        confirms commands held for its sender carries them out."""
        assert parsed.sender is not None
        sender = parsed.sender
        key = confirmations.find_key([*parsed.recipients, *parsed.references])
        refused = self.refuse_unproven(sender, "a reply to the referee's \"please confirm\" mail" if key else
                                       f"a mail to the referee's address, {self.settings.server_email}")
        if refused is not None:
            return "rejected", refused
        text = shown(parsed, new_text(parsed.text), budget)

        proven = self.authentication.proven
        cause = self.cause or sender

        def may_answer() -> list[str] | None:
            """None when no more answers may go to the sender now; else what to add to this answer: that it is the
            last one for a while, when it reaches the limit. A proven sender's mail is never limited."""
            if proven:
                return []
            if not self.answers.may_answer(sender, cause):
                return None  # said in the answer that reached the limit
            self.answers.record(sender, cause, "answer")
            return self.limit_reached(sender, cause)

        if key is not None:
            held_at = confirmations.held_at(self.connection, key, sender)
            status, done = self.service.confirmed(sender, key, self.answering, may_answer)
            if status == "done" and held_at is not None:  # its owner asked for it: not an answer a forger caused
                self.answers.refund(sender, held_at)
            return status, done
        return self.service.lobby(sender, parsed.sender_name, text, self.answering, may_answer,
                                  answers_us=self.answers_us(parsed), proven=proven)

    def refuse_unproven(self, address: str, what: str, known: PlayerRecord | None = None) -> str | None:
        """Refuse a mail in ``address``'s name that is not proven when its domain's DMARC policy asks for that,
        or when that player's mail has been proven before (and they did not choose to have their unsigned mail
        accepted): nothing in it is done, and the address is told what arrived and why when it is a player's;
        another address is not told (its From is most likely forged: the notice would be backscatter), the
        refusal only recorded. A proven mail marks its player (``known``, the record already read, else read by
        address). Returns what the inbound record says, None when the mail goes on."""
        found = self.authentication
        if found.proven:
            self.service.prove(known or self.service.player(address))
            return None
        standing = known or self.service.sender_standing(address)
        if found.strict_policy:
            why = (f"{found.domain} publishes a DMARC policy (p={found.policy}) that asks mail servers to refuse "
                   "mail in its name that it did not sign or send itself, and this one was neither")
            outcome = f"not proven, and {found.domain} asks for p={found.policy}"
        elif standing is not None and standing.proven_at is not None and not standing.unsigned_ok:
            why = (f"mail from your address has been signed by your provider since {standing.proven_at:%Y-%m-%d}, "
                   f"and this one carried no valid signature of {found.domain} nor came from a server "
                   f"{found.domain} names for its mail")
            outcome = f"not proven, and mail from {address} was proven before"
        else:
            return None
        if found.signed_elsewhere:  # signed by the domain, but written to others: a copy sent on, or a Bcc
            why = (f"it was signed by {found.domain}, but for other recipients: the referee's address was neither "
                   "in its To nor in its Cc, so it may be a mail written to someone else and sent on")
            outcome += " (signed for other recipients)"
        elif found.trouble:
            if standing is not None and self.service.now < self.received_at + DNS_WAIT:
                raise CheckAgain(found.trouble)  # a player's: worth waiting for (a stranger's is refused unread)
            why += ("; the check could not be finished, as the DNS of your domain did not answer in time, though "
                    f"it was tried again for {DNS_WAIT // timedelta(hours=1)} hours: if you sent it, send it again "
                    "later")
            outcome += " (DNS did not answer)"
        if standing is None:  # no player's: its From is most likely forged, and a notice would be backscatter
            return outcome + "; no player's address: not told"
        own = "If you sent it yourself, send it again from your own mail provider (its web mail or app)."
        if found.signed_elsewhere:
            own = ("If you sent it yourself, send it again with the referee's address in To or Cc, not in Bcc: a "
                   "copy of a mail of yours sent to others does not act in your name.")
        elif not found.strict_policy:
            own += (" If your provider no longer signs your mail, sign in at "
                    f"{self.settings.base_url}/preferences and choose to have your unsigned mail accepted again.")
        self.refuse("not-proven", "a mail in your name was refused", [
            f"On {self.received_at:%Y-%m-%d at %H:%M} UTC the referee received {what}, sent in your name "
            f"({address}). It was refused whole, and nothing in it was done: {why}.",
            "If you did not send it, someone else tried to write in your name, perhaps with a mail of the "
            "referee forwarded to them; nothing they wrote was done, and they are not answered.",
            own,
        ])
        return outcome

    # ------------------------------------------------------------------ helpers

    def answers_us(self, parsed: ParsedMail) -> bool:
        """Whether the message answers an automatic answer of ours (it names one, or quotes our subject)."""
        ours = f"@{self.settings.server_domain}>"
        return any(reference.startswith("<mp.") and reference.endswith(ours) for reference in parsed.references) \
            or "mirrorpost:" in parsed.subject.lower()

    def latest_sent(self, game_id: int, recipient: str) -> list[str]:
        """The text parts of our latest mails to this player in this game: what a reply whose client kept
        no References most likely quotes (the mails it names are read with the game)."""
        return list(self.connection.execute(LATEST_SENT, {"game_id": game_id, "recipient": recipient}).scalars())

    def within_error_limit(self, address: str) -> bool:
        """At most a few error notices an hour to one address: a broken robot cannot start a loop."""
        sent = error_notices_since(self.connection, address, utcnow() - timedelta(hours=1))
        return sent < self.settings.error_notices_per_hour

    def limit_reached(self, address: str, cause: str) -> list[str]:
        """The paragraph to add to the answer that uses up its sender's answers (``Answers.limit_notice``: only its
        own mail's, never a forger's), once in the window; none otherwise."""
        limit = self.answers.limit_notice(address, cause)
        if limit is None:
            return []
        self.answers.record(address, cause, LIMIT_KINDS[limit.window])
        window = "an hour" if limit.window == HOUR else "a day"
        return [f"This is the last answer for now: the referee answers at most {limit.allowance} mails {window} "
                f"from one address to {self.settings.server_email}, and your mail has reached that limit. It "
                f"answers your mail there again from {limit.resumes:%Y-%m-%d %H:%M} UTC; until then such mail gets "
                "no answer. Replies to the mails of your games are not limited this way, nor is mail your provider "
                "signs (DKIM), nor commands you confirm."]

    def refuse(self, kind: str, subject: str, paragraphs: list[str]) -> None:
        """A notice refusing a message, to its sender if one was read: counted against the sender that caused
        it (``Answers``), never against a player's own error notices."""
        address, cause = self.sender, self.cause or self.sender
        if address is None or cause is None or not self.answers.may_refuse(address, cause):
            return
        self.answers.record(address, cause, "refusal")
        self.service.mailer.notify(address, kind, subject, paragraphs, self.answering)

    def record_bounce(self, identity: Identity, reason: str) -> str:
        if identity.bounce_of is None and identity.bounce_key is None:
            return f"not answered: {reason}"
        found = OUTBOX.c.envelope_key == identity.bounce_key if identity.bounce_key is not None \
            else OUTBOX.c.id == identity.bounce_of
        recipient = self.connection.execute(
            update(OUTBOX).where(found).values(status="bounced").returning(OUTBOX.c.recipient)
        ).scalar()
        if recipient is None:
            return "bounce for an unknown message"
        players = Player.__table__
        self.connection.execute(
            update(players).where(players.c.email == recipient).values(bounces=players.c.bounces + 1))
        return f"bounce recorded for {recipient}"


def shown(parsed: ParsedMail, text: str, budget: Budget) -> str:
    """The new text of a message, less the lines of its text part that its HTML alternative does not show
    (``shown.shown_only``)."""
    budget.check("finding the new text")
    if parsed.shown_html is None or not text.strip():
        return text
    html = decode_payload(parsed.shown_html)
    budget.decode(len(html), "decoding the HTML part")
    text = shown_only(text, html)
    budget.check("comparing the text with what the HTML shows")
    return text


def cause_of(envelope_from: str | None, parsed: ParsedMail | None) -> str | None:
    """Who made this message reach us: the envelope sender the door was given (or the Return-Path the
    final mail server wrote), else the From address."""
    return_paths = parsed.headers.get("return-path", ()) if parsed is not None else ()
    for candidate in (envelope_from, *return_paths):
        text = (candidate or "").strip().strip("<>").strip()
        if text:
            try:
                return valid_address(text)
            except AddressError:
                continue
    return parsed.sender if parsed is not None else None
