"""``profile private`` / ``profile public``: whether anyone may see the sender's page on the web (/players/ID).

Held until the sender confirms it: it changes something, and a mail to the bare address proves nothing of
its From.
"""

from __future__ import annotations

from app.games.commands import Held, InLobby, MailCommand
from app.games.errors import ServiceError

CHOICES = ("private", "public")


def check_profile(context: InLobby, argument: str) -> str:
    choice = argument.strip().lower()
    if choice not in CHOICES:
        raise ServiceError("write: profile private, or profile public")
    return choice


def describe_profile(choice: str) -> str:
    return ("hide your player page from everyone but you" if choice == "private"
            else "show your player page (name, ratings, finished games) to anyone")


def carry_out_profile(context: InLobby, choice: str) -> str:
    context.tell("notice", f"your page is {choice}", [context.service.desk.set_profile(context.player,
                                                                                      choice == "public")])
    return f"profile {choice}"


PROFILE = MailCommand("profile", "private|public", "hide or show your player page on the web",
                      held=Held(check_profile, describe_profile, carry_out_profile))
