"""``rating``: the sender's rating in each variant, with its deviation and the rated games it counts.

Answered at once, to the bare address or in a reply about a game: it only reads, and a player's ratings
go to that player's own address (a forged From gets the owner of the address their own ratings).
"""

from __future__ import annotations

from sqlalchemy import Connection

from app.games.club_rows import PROVISIONAL_DEVIATION, RatingNow, ratings_of
from app.games.commands import Command, InGame, InLobby, MailCommand
from app.rules.registry import DEFAULT_VARIANT, VARIANTS


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
    context.tell("rating", "your ratings", rating_paragraphs(context.service.connection, context.player.id))


def game_rating(context: InGame, command: Command) -> None:
    context.mails.message(context.side, "rating", "your ratings",
                          rating_paragraphs(context.service.connection, context.player.id))


RATING = MailCommand("rating", "", "your rating in each game, with its deviation and the rated games played",
                     in_game=game_rating, in_lobby=lobby_rating)
