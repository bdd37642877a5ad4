"""The preferences page: the daily digest, its hour, the reminders before each deadline, the player page, and
whether mail in the player's name that their provider did not sign is accepted.

Signed in only, and every change goes through the game service (``Digests``), exactly as the same
commands by mail do: the page says back what the service did.
"""

from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from app.club.players import with_pages
from app.games.commands.digest import DEFAULT_HOUR, read_remind, remind_words
from app.games.errors import ServiceError
from app.games.models import Player
from app.web.acting import service_as
from app.web.auth import signed_in_player_id
from app.web.numbers import number_from

blueprint = Blueprint("preferences", __name__)
HOURS = range(24)
PROFILE_CHOICES = {"club": None, "public": True, "private": False}  # the page's choice, as ``set_profile`` takes it


def profile_choice(public: bool, chosen: bool) -> str:
    """Which of ``PROFILE_CHOICES`` the player's page follows now."""
    return "private" if not public else "public" if chosen else "club"


def server():
    return current_app.extensions["mirrorpost"]


@blueprint.get("/preferences")
def show() -> str | Response:
    player_id = signed_in_player_id()
    if player_id is None:
        return redirect(url_for("signin.login_form"))
    with server().db.sessions() as db_session:
        player = db_session.get(Player, player_id)
        if player is None:
            return redirect(url_for("signin.login_form"))
        return render_template("web/preferences.html", title="Your preferences", name=player.name,
                               on=player.digest_hour is not None, hour=player.digest_hour
                               if player.digest_hour is not None else DEFAULT_HOUR, hours=HOURS,
                               reminders=" ".join(str(hour) for hour in player.reminders or []),
                               profile=profile_choice(player.profile_public, player.profile_chosen),
                               shown=player.id in with_pages(db_session.connection(), [player]), player_id=player.id,
                               proven_at=player.proven_at, unsigned_ok=player.unsigned_ok)


@blueprint.post("/preferences")
def change() -> Response:
    """The form's values, checked as the mail commands check theirs; only what changed is carried out."""
    player_id = signed_in_player_id()
    if player_id is None:
        return redirect(url_for("signin.login_form"))
    on = request.form.get("digest") == "daily"
    wanted_hour = number_from(request.form.get("hour"), "The digest's hour (UTC)", HOURS.start, HOURS.stop - 1,
                              url_for("preferences.show")) if on else None
    written = (request.form.get("reminders") or "").strip()[:100]
    try:
        hours = read_remind(written or "default")
    except ServiceError as error:
        flash(f"Reminders not changed: {error}.")
        return redirect(url_for("preferences.show"))
    with server().db.transaction() as db_session:
        service, player = service_as(db_session, player_id)
        said = []
        if wanted_hour != player.digest_hour:
            said.append(service.digests.choose(player, wanted_hour))
        if remind_words(hours) != remind_words(player.reminders):
            said.append(service.digests.remind(player, hours))
        choice = request.form.get("profile")
        if choice in PROFILE_CHOICES and choice != profile_choice(player.profile_public, player.profile_chosen):
            said.append(service.preferences.set_profile(player, PROFILE_CHOICES[choice]))
        service.flush()
    for line in said or ["Nothing changed."]:
        flash(line)
    return redirect(url_for("preferences.show"))


@blueprint.post("/preferences/unsigned")
def unsigned() -> Response:
    """The player's choice about mail in their name that their provider did not sign: accepted again (their
    provider stopped signing), or refused again. Signing in proved the address, as a confirmation does."""
    player_id = signed_in_player_id()
    if player_id is None:
        return redirect(url_for("signin.login_form"))
    accept = request.form.get("accept") == "yes"
    with server().db.transaction() as db_session:
        service, player = service_as(db_session, player_id)
        said = service.accept_unsigned(player, accept) if accept != player.unsigned_ok else "Nothing changed."
    flash(said)
    return redirect(url_for("preferences.show"))
