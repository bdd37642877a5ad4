"""The club's mail commands: seeks, ratings and the player's page (``CLUB_COMMANDS``, read beside the game
service's by the service the doors use, ``app.service``).

``seeks`` and ``rating`` are answered at once: they only read, and a player's ratings go to that player's own
address (a forged From gets the owner of the address their own ratings). ``seek``, ``join N``, ``cancel seek N``
and ``profile private|public`` change something: to the bare address they are held until their sender confirms
them (a mail there proves nothing of its From).
"""

from __future__ import annotations

from sqlalchemy import Connection

from app.club.jobs import club
from app.club.ratings import PROVISIONAL_DEVIATION, RatingNow, ratings_of
from app.club.seeks import LIFETIME, MOST_OPEN, read_seek
from app.club.tournaments.commands import TOURNAMENT_COMMANDS
from app.games.commands.base import Held, InGame, InLobby, MailCommand
from app.games.commands.reading import Command, listed_number
from app.games.errors import ServiceError
from app.rules.registry import DEFAULT_VARIANT, VARIANTS

# ------------------------------------------------------------------ seeks


def list_seeks(context: InLobby, command: Command) -> None:
    base = context.jobs.settings.base_url
    context.tell("seeks", "open seeks", [*club(context.jobs).seeks.listing(),
                                         f"To take one: join N. All of them, on the web: {base}/seeks"])


def check_seek(context: InLobby, argument: str) -> str:
    return club(context.jobs).seeks.check_post(context.player, argument).written()


def describe_seek(argument: str) -> str:
    return f"post an open seek: {read_seek(argument).described()}"


def carry_out_seek(context: InLobby, argument: str) -> str:
    try:
        number = club(context.jobs).seeks.post(context.player, argument)
    except ServiceError as error:
        context.tell("error", "seek not posted", [f"Your seek was not posted: {error}."])
        return f"seek refused: {error}"
    context.tell("seek", f"your seek {number}", [
        f"Your seek {number} is open: {read_seek(argument).described()}. The first player who joins it starts "
        f"the game at once; you will get its first mail then. It lapses in {LIFETIME.days} days; to withdraw it: "
        f"cancel seek {number}.",
        f"You are known in the club as {context.player.name}; 'name <your name>' changes it.",
    ])
    return f"seek {number}"


def check_join(context: InLobby, argument: str) -> str:
    number = listed_number(argument, "seek", "join")
    club(context.jobs).seeks.check_join(context.player, number)
    return str(number)


def describe_join(number: str) -> str:
    return f"join seek {number}: its game starts at once"


def describe_found_join(context: InLobby, number: str) -> str:
    """The seek, its seeker and their rating: what the player agrees to play."""
    offered = club(context.jobs).seeks.offered(int(number))
    return f"join seek {number}, {offered}: its game starts at once" if offered else describe_join(number)


def carry_out_join(context: InLobby, argument: str) -> str:
    try:
        game = club(context.jobs).seeks.join(context.player, int(argument))
    except ServiceError as error:
        context.tell("error", "seek not joined", [f"You did not join: {error}."])
        return f"join refused: {error}"
    return f"joined seek {argument}: game {game.id}"


def check_cancel(context: InLobby, argument: str) -> str:
    number = listed_number(argument, "seek", "cancel seek")
    club(context.jobs).seeks.check_cancel(context.player, number)
    return str(number)


def carry_out_cancel(context: InLobby, argument: str) -> str:
    try:
        club(context.jobs).seeks.cancel(context.player, int(argument))
    except ServiceError as error:
        context.tell("error", "seek not cancelled", [f"Nothing was cancelled: {error}."])
        return f"cancel refused: {error}"
    context.tell("seek", f"seek {argument} cancelled", [f"Your seek {argument} is withdrawn."])
    return f"cancelled seek {argument}"


SEEK_COMMANDS = (
    MailCommand("seek", "<variant> [days=3] [options] [rated|unrated] [rating LOW-HIGH]",
                f"offer a game to anyone (rated unless you say unrated; at most {MOST_OPEN} open at once)",
                held=Held(check_seek, describe_seek, carry_out_seek)),
    MailCommand("seeks", "", "the open seeks, each with its number", in_lobby=list_seeks, also=("list seeks",)),
    MailCommand("join", "<N>", "take seek N: the game starts at once",
                held=Held(check_join, describe_join, carry_out_join, describe_found_join), also=("join seek",)),
    MailCommand("cancel seek", "<N>", "withdraw your seek N",
                held=Held(check_cancel, lambda number: f"withdraw your seek {number}", carry_out_cancel),
                also=("cancel",)),
)

# ------------------------------------------------------------------ ratings


def title_of(variant: str) -> str:
    return VARIANTS[variant].title if variant in VARIANTS else variant


def how_to_play_rated() -> str:
    return (f"A game is rated when its challenge says so (challenge friend@example.org {DEFAULT_VARIANT} rated) or "
            "when it comes from a seek, which is rated unless it says unrated. A rated game changes both ratings "
            "once each side has made two moves.")


def rating_paragraphs(connection: Connection, player_id: int) -> list[str]:
    """The player's ratings, one variant a line; a player with none is told where they start and how to play
    rated games."""
    ratings = ratings_of(connection, player_id)
    start = RatingNow()
    starting = f"{start.shown} (deviation {start.deviation:.0f})"
    if not ratings:
        return [f"You have no rated games yet: in every game you start at {starting}.", how_to_play_rated()]
    lines = [f"- {title_of(variant)}: {now.shown}, deviation {now.deviation:.0f}, "
             f"{now.games} rated game{'s' if now.games != 1 else ''}" for variant, now in ratings.items()]
    unrated = len(VARIANTS.keys() - ratings.keys())
    return [
        "Your ratings (Glicko-2), each game: rating, deviation, rated games played.",
        *lines,
        *([f"In {'any other game' if unrated > 1 else 'the other game'} you start at {starting}."] if unrated else []),
        f"A ? marks a provisional rating: its deviation (how unsure it is) is over {PROVISIONAL_DEVIATION:.0f}.",
        how_to_play_rated(),
    ]


def lobby_rating(context: InLobby, command: Command) -> None:
    context.tell("rating", "your ratings", rating_paragraphs(context.jobs.work.connection, context.player.id))


def game_rating(context: InGame, command: Command) -> None:
    context.mails.message(context.side, "rating", "your ratings",
                          rating_paragraphs(context.jobs.work.connection, context.player.id))


RATING = MailCommand("rating", "", "your rating in each game, with its deviation and the rated games played",
                     in_game=game_rating, in_lobby=lobby_rating, also=("ratings",))

# ------------------------------------------------------------------ the player's page

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
    context.tell("notice", f"your page is {choice}", [context.jobs.preferences.set_profile(context.player,
                                                                                      choice == "public")])
    return f"profile {choice}"


PROFILE = MailCommand("profile", "private|public", "hide or show your player page on the web",
                      held=Held(check_profile, describe_profile, carry_out_profile))


CLUB_COMMANDS = (RATING, *SEEK_COMMANDS, PROFILE, *TOURNAMENT_COMMANDS)  # in help's order, after the service's
