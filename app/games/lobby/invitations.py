"""Invitations: a challenge carried out, the game created, its invitations sent and answered."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from datetime import timedelta

from sqlalchemy import func, select

from app.config import Settings
from app.games.commands.reading import Reading
from app.games.errors import ServiceError
from app.games.lobby.challenges import held_challenge, read_challenge, split_options
from app.games.lobby.preferences import Preferences
from app.games.mail.mailing import Mailer
from app.games.models import Game
from app.games.play.turn import Turn
from app.games.records.rows import GameRecord, PlayerRecord
from app.games.records.work import UnitOfWork
from app.present.words import SIDE_TITLE
from app.rules.base import SIDES, other
from app.rules.registry import get_variant

ANSWERS = ("accept", "decline")  # the two words that answer an invitation
LINES_LOOKED_AT, FIRST_CHARACTERS = 50, 40  # of a reply to an invitation: enough for any answer, and bounded


class Invitations:
    """Games proposed, created and accepted or declined."""

    def __init__(self, work: UnitOfWork, settings: Settings, mailer: Mailer, turn: Turn,
                 preferences: Preferences) -> None:
        self.work = work
        self.settings = settings
        self.mailer = mailer
        self.turn = turn
        self.preferences = preferences  # a rated game begun puts both players in the club, each with a name

    def create_game(
        self, variant: str, white: PlayerRecord, black: PlayerRecord, raw_options: dict[str, str],
        challenger: PlayerRecord | None, rated: bool = False, names_only: bool = False, event: str | None = None,
    ) -> GameRecord:
        """A new game, its invitations sent; ``rated``: its end changes both players' ratings in the variant;
        ``names_only``: a game agreed by both (no invitation: a seek taken, a tournament's pairing), whose players
        know each other by name only; the caller starts it. ``event``: what it is part of, as its mails name it."""
        if white.id == black.id:
            raise ServiceError("a game needs two different players")
        days, options = split_options(variant, raw_options)
        state = get_variant(variant).new_game(options, random.SystemRandom())
        mailer = self.mailer
        game = self.work.new_game({
            "variant": variant,
            "options": options,
            "days": days,
            "status": "invited",
            "white_id": white.id,
            "black_id": black.id,
            "challenger_id": challenger.id if challenger else None,
            "white_accepted": names_only or (challenger is not None and challenger.id == white.id),
            "black_accepted": names_only or (challenger is not None and challenger.id == black.id),
            "ply": 0,
            "commitments": {},
            "rated": rated,
            "names_only": names_only,
            "event": event,
        }, state, white, black)
        for side in SIDES:
            if not getattr(game, f"{side}_accepted"):
                mailer.send_invitation(game, side)
        if challenger is not None:
            mailer.message(
                game, game.side_of(challenger), "challenge-sent",
                f"Game {game.id}: your challenge was sent",
                [f"Your challenge to {game.player(other(game.side_of(challenger))).email} for a "
                 f"{'rated ' if rated else ''}game of "
                 f"{get_variant(variant).title} ({mailer.options_text(game)}) was sent. You play "
                 f"{SIDE_TITLE[game.side_of(challenger)]}. You will hear when it is accepted or declined."],
            )
        self.work.flush()
        return game

    def held_challenge(self, challenger: str, text: str) -> str:
        """A challenge checked whole, to hold until its sender confirms it (``challenges.held_challenge``)."""
        return held_challenge(self.settings, challenger, text)

    def challenges_today(self, challenger: PlayerRecord) -> int:
        """Games this player proposed in the last 24 hours."""
        return self.work.connection.execute(select(func.count(Game.id)).where(
            Game.challenger_id == challenger.id, Game.created_at >= self.work.now - timedelta(days=1))).scalar() or 0

    def challenge(self, challenger: PlayerRecord, text: str) -> GameRecord:
        """Create the game a (confirmed) challenge asks for, within the challenger's daily allowance; its options
        are checked now (``create_game``), and what is wrong with them told to the challenger alone."""
        plan = read_challenge(self.settings, challenger.email, text)
        limit = self.settings.challenges_per_day
        if self.challenges_today(challenger) >= limit:
            raise ServiceError(f"you have proposed {limit} games in the last 24 hours, "
                               "the most the referee sends; try again tomorrow")
        opponent = self.work.player(plan.opponent)
        color = random.SystemRandom().choice(SIDES) if plan.color == "random" else plan.color
        white, black = (challenger, opponent) if color == "white" else (opponent, challenger)
        return self.create_game(plan.variant, white, black, dict(plan.options), challenger, plan.rated)

    # ------------------------------------------------------------------ the answer

    def reply(self, game: GameRecord, side: str, reading: Reading, text: str,
              error_notice: Callable[[], bool]) -> tuple[str, str]:
        """A reply to an invitation: accepted or declined, however it is worded around the word; else told the two
        words that answer it (while error notices may be sent). Returns (status, what was done)."""
        answer = answer_in(reading, text)
        if answer is not None:
            return "done", self.answer(game, side, answer)
        if error_notice():
            self.mailer.notice(game, side, "not-accepted", "accept or decline first", [
                f"Game {game.id} has not started yet.",
                "To play, reply with the one word: accept",
                "To refuse, reply with the one word: decline",
            ])
        return "rejected", "an invitation not answered"

    def answer(self, game: GameRecord, side: str, answer: str) -> str:
        """The invitation accepted or declined by ``side``; play starts once both have accepted."""
        mailer = self.mailer
        if answer == "decline":
            game.status = "declined"
            for each in SIDES:
                mailer.message(game, each, "declined", f"Game {game.id}: declined", [
                    f"{game.player(side).name} declined the game of {mailer.title(game)}."
                    if each != side else f"You declined game {game.id}."
                ])
            return "declined"
        setattr(game, f"{side}_accepted", True)
        if game.white_accepted and game.black_accepted:
            if game.rated:  # a rated game played: both players are in the club
                for each in SIDES:
                    self.preferences.enter_club(game.player(each))
            self.turn.start(game)
        else:
            mailer.message(game, side, "accepted", f"Game {game.id}: accepted", [
                f"You accepted game {game.id}. It starts when {game.player(other(side)).name} accepts too."
            ])
        return "accepted"


def answer_in(reading: Reading, text: str) -> str | None:
    """What a reply to an invitation answers: ``accept`` or ``decline``, on a line of its own or as the first word
    of a line ("Accept!  Looking forward to it."), but not ``accept draw``; None when it says neither, or both."""
    said = {command.kind for command in reading.commands if command.kind in ANSWERS}
    for line in text.splitlines()[:LINES_LOOKED_AT]:
        words = re.findall(r"[a-z]+", line[:FIRST_CHARACTERS].lower())
        if words and words[0] in ANSWERS and words[1:2] != ["draw"]:
            said.add(words[0])
    return said.pop() if len(said) == 1 else None
