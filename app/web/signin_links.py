"""Sign-in links asked for at /login: how many, and their mail, which is made away from the request.

Limits, per hour: ``PER_ADDRESS_AND_CLIENT`` requests for one address from one client and
``PER_CLIENT`` from one client whatever the address; past either, that client is told to wait. Nobody
else's requests use up a player's own: only the client asking is held back. The player's mailbox is
kept from a flood by ``MAILS_PER_ADDRESS``: past that many requests for an address in the hour (from any
clients), a request mails nothing while a link mailed to that address is still unused and valid (it is
in the mailbox; it signs in), and mails again once none is. An address gets at most
``MAILS_PER_ADDRESS`` links an hour and one more each ``LINK_MAX_AGE``.

Whether an address plays here shows neither in the answer nor in the work the request does: every
request runs the same statements (the counts of its client's requests, the insert of its row) and hands
the same job to a background thread; the job looks the player up, decides whether the mail is muted, and
makes and queues the mail, after the answer has gone (``queue_link_mail``).
"""

from __future__ import annotations

import logging
import secrets
import threading
from concurrent.futures import Future, ThreadPoolExecutor, wait
from datetime import timedelta

from itsdangerous import URLSafeTimedSerializer
from sqlalchemy import Select, case, func, select
from sqlalchemy.orm import Session

from app.db import utcnow
from app.games.models import Player
from app.server import Server
from app.service import Service
from app.web.auth import revoked
from app.web.models import LoginToken

log = logging.getLogger(__name__)

LINK_SALT = "mirrorpost.login-link"
LINK_MAX_AGE = timedelta(minutes=15)
LINK_MINUTES = int(LINK_MAX_AGE.total_seconds() // 60)
PER_ADDRESS_AND_CLIENT = 3
PER_CLIENT = 10
MAILS_PER_ADDRESS = 3
MAILS_WAITING = 256  # jobs queued at most; past it a request mails nothing (told in the log)

_jobs = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sign-in-mail")
_waiting: set[Future[None]] = set()
_lock = threading.Lock()


def link_serializer(secret_key: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret_key, salt=LINK_SALT)


def live_link(email: str) -> Select[tuple[int]]:
    """A link mailed to ``email`` that still signs in: mailed, unused, young enough, not voided since."""
    return select(LoginToken.id).where(
        LoginToken.email == email, LoginToken.player_id.is_not(None), LoginToken.used_at.is_(None),
        LoginToken.created_at >= utcnow() - LINK_MAX_AGE,
        ~revoked(LoginToken.player_id, LoginToken.created_at)).limit(1)


def ask_for_link(db_session: Session, email: str, client: str) -> int | None:
    """Count the request against the limits and, if allowed, record it: the new row's id (None: refused).

    Nothing here depends on whether the address plays here: the same statements run for any address."""
    since = utcnow() - timedelta(hours=1)
    by_client, by_both = db_session.execute(select(
        func.coalesce(func.sum(case((LoginToken.client == client, 1), else_=0)), 0),
        func.coalesce(func.sum(case((LoginToken.email == email, 1), else_=0)), 0),
    ).where(LoginToken.created_at >= since, LoginToken.client == client)).one()
    if by_client >= PER_CLIENT or by_both >= PER_ADDRESS_AND_CLIENT:
        return None
    row = LoginToken(nonce=secrets.token_urlsafe(24), email=email, player_id=None, client=client)
    db_session.add(row)
    db_session.flush()
    return row.id


def muted(db_session: Session, row: LoginToken) -> bool:
    """Past ``MAILS_PER_ADDRESS`` requests for the address in the hour before this one, while a link mailed
    to it still works."""
    earlier = db_session.scalar(select(func.count(LoginToken.id)).where(
        LoginToken.email == row.email, LoginToken.id < row.id,
        LoginToken.created_at >= row.created_at - timedelta(hours=1))) or 0
    return earlier >= MAILS_PER_ADDRESS and db_session.scalar(live_link(row.email)) is not None


def queue_link_mail(server: Server, token_id: int) -> None:
    """Hand the mail of a recorded request to the background thread, whoever asked for whatever address."""
    with _lock:
        if len(_waiting) >= MAILS_WAITING:
            log.warning("sign-in link %s not mailed: %s mails are waiting already", token_id, len(_waiting))
            return
        job = _jobs.submit(_mail_link, server, token_id)
        _waiting.add(job)
    job.add_done_callback(_finished)


def _finished(job: Future[None]) -> None:
    with _lock:
        _waiting.discard(job)


def wait_for_link_mail(timeout: float = 30.0) -> None:
    """Until every queued sign-in mail is made (tests, and a server stopping)."""
    with _lock:
        jobs = list(_waiting)
    wait(jobs, timeout)


def _mail_link(server: Server, token_id: int) -> None:
    """The link's mail, if the address plays here and the request is not muted; the row then names the player
    (only such a row signs in). The player's row is locked meanwhile, so that several processes making mail
    for one address decide one after the other."""
    try:
        with server.db.transaction() as db_session:
            row = db_session.get(LoginToken, token_id)
            player = db_session.scalar(select(Player).where(Player.email == row.email).with_for_update()) \
                if row else None
            if row is None or player is None or muted(db_session, row):
                return
            row.player_id = player.id
            link = f"{server.settings.base_url}/login/{link_serializer(server.settings.secret_key).dumps(row.nonce)}"
            Service(db_session.connection(), server.settings, server.signer).mailer.send_login_link(
                player, link, LINK_MINUTES)
    except Exception:  # the request was answered long ago: the log is the only place to say it
        log.exception("sign-in link %s could not be mailed", token_id)
