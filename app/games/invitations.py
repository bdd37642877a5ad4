"""Invitations: a challenge read and checked, the game created, its invitations sent and answered."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import func, select

from app.addresses import AddressError, valid_address
from app.games.errors import ServiceError
from app.games.job import Job
from app.games.models import Game
from app.games.reading import Reading
from app.games.records import GameRecord, PlayerRecord
from app.present.words import SIDE_TITLE
from app.rules.base import SIDES, OptionError, other
from app.rules.registry import DEFAULT_VARIANT, VARIANTS, get_variant

MAX_DAYS = 30
ANSWERS = ("accept", "decline")  # the two words that answer an invitation
LINES_LOOKED_AT, FIRST_CHARACTERS = 50, 40  # of a reply to an invitation: enough for any answer, and bounded
OPEN, CLOSE = "{[", "}]"  # around a value written as JSON (a start position), which may have spaces in it


def read_option(item: str) -> tuple[str, str]:
    """``K=V`` as the referee reads an option, by mail and on the command line alike: the key in lower case, the
    value as written (a position's piece letters are upper and lower case; the variant checks the value)."""
    key, equals, value = item.partition("=")
    key = key.strip().lower()
    if not equals or not key:
        raise ServiceError("write each option as key=value, e.g. days=3")
    return key, value.strip()


def read_options(items: list[str]) -> dict[str, str]:
    """Options given one by one (``--option K=V``), read as ``read_option`` reads each."""
    return dict(read_option(item) for item in items)


def challenge_words(text: str) -> list[str]:
    """The words of a challenge, split at spaces, except inside a value in braces or brackets (JSON, whose quoted
    strings may hold anything): ``start={"board": "8/8/..."}`` stays one word. One pass over the text."""
    words: list[str] = []
    word, depth, quoted, escaped = "", 0, False, False
    for character in text:
        if quoted:
            quoted = escaped or character != '"'
            escaped = not escaped and character == "\\"
        elif character == '"' and depth:
            quoted = True
        elif character in OPEN:
            depth += 1
        elif character in CLOSE:
            depth = max(depth - 1, 0)
        elif character.isspace() and not depth:
            words, word = [*words, word] if word else words, ""
            continue
        word += character
    return [*words, word] if word else words


@dataclass(frozen=True)
class ChallengePlan:
    """A challenge as read and checked, before anything is created."""

    opponent: str
    variant: str
    options: dict[str, str]
    color: str

    def words(self) -> str:
        """The challenge in the referee's own words (after ``challenge``): what a confirmation holds."""
        options = " ".join(f"{key}={value}" for key, value in sorted(self.options.items()))
        return " ".join(part for part in (self.opponent, self.variant, options, f"color={self.color}") if part)


def split_options(variant_name: str, raw: dict[str, str]) -> tuple[int, dict[str, Any]]:
    """The days a move and the variant's options, checked (raises ServiceError saying what is wrong)."""
    if variant_name not in VARIANTS:
        raise ServiceError(f"unknown variant {variant_name!r}; known: {', '.join(sorted(VARIANTS))}")
    options = dict(raw)
    days_text = options.pop("days", "3")
    if not str(days_text).isdigit() or not 1 <= int(days_text) <= MAX_DAYS:
        raise ServiceError(f"days must be a whole number of days from 1 to {MAX_DAYS}")
    try:
        referee_options = get_variant(variant_name).parse_options(options)
    except OptionError as error:
        raise ServiceError(str(error)) from error
    return int(days_text), referee_options


class Invitations(Job):
    """Games proposed, created and accepted or declined."""

    def create_game(
        self, variant: str, white: PlayerRecord, black: PlayerRecord, raw_options: dict[str, str],
        challenger: PlayerRecord | None,
    ) -> GameRecord:
        if white.id == black.id:
            raise ServiceError("a game needs two different players")
        days, options = split_options(variant, raw_options)
        state = get_variant(variant).new_game(options, random.SystemRandom())
        service, mailer = self.service, self.service.mailer
        game = service.work.new_game({
            "variant": variant,
            "options": options,
            "days": days,
            "status": "invited",
            "white_id": white.id,
            "black_id": black.id,
            "challenger_id": challenger.id if challenger else None,
            "white_accepted": challenger is not None and challenger.id == white.id,
            "black_accepted": challenger is not None and challenger.id == black.id,
            "ply": 0,
            "commitments": {},
        }, state, white, black)
        for side in SIDES:
            if not getattr(game, f"{side}_accepted"):
                mailer.send_invitation(game, side)
        if challenger is not None:
            mailer.message(
                game, game.side_of(challenger), "challenge-sent",
                f"Game {game.id}: your challenge was sent",
                [f"Your challenge to {game.player(other(game.side_of(challenger))).email} for a game of "
                 f"{get_variant(variant).title} ({mailer.options_text(game)}) was sent. You play "
                 f"{SIDE_TITLE[game.side_of(challenger)]}. You will hear when it is accepted or declined."],
            )
        service.flush()
        return game

    def read_challenge(self, challenger: str, text: str) -> ChallengePlan:
        """``challenge bob@example.org <variant> days=3 color=black <its options>``, read but not carried out:
        the opponent a plain address (not the challenger's, not ours), the variant known, the colour one of ours.

        Its errors go to an address not yet proved to be the challenger's, so they quote nothing the challenger
        wrote; the options are checked when the game is created, after the challenger's confirming reply.
        """
        settings = self.service.settings
        words = challenge_words(text)
        usage = "write: challenge <email address> [variant] [options such as days=3 color=black]"
        if not words:
            raise ServiceError(usage)
        try:
            opponent = valid_address(words[0].strip("<>"))
        except AddressError:
            raise ServiceError(f"the first word after 'challenge' is not an email address; {usage}") from None
        if opponent == challenger:
            raise ServiceError("a game needs two different players")
        local, _, domain = opponent.rpartition("@")
        if domain == settings.server_domain and (local == settings.server_local
                                                 or local.startswith(settings.server_local + "+")):
            raise ServiceError("the referee does not play")
        variant = DEFAULT_VARIANT
        options: dict[str, str] = {}
        color = "white"
        for word in words[1:]:
            if "=" in word:
                key, value = read_option(word)
                if key in ("color", "colour", "as"):
                    color = value.lower()
                else:
                    options[key] = value
            else:
                variant = word.lower()
        if variant not in VARIANTS:
            raise ServiceError(f"there is no game by that name; the games: {', '.join(sorted(VARIANTS))}")
        if color not in (*SIDES, "random"):
            raise ServiceError("color must be white, black or random")
        return ChallengePlan(opponent, variant, options, color)

    def challenges_today(self, challenger: PlayerRecord) -> int:
        """Games this player proposed in the last 24 hours."""
        service = self.service
        return service.connection.execute(select(func.count(Game.id)).where(
            Game.challenger_id == challenger.id, Game.created_at >= service.now - timedelta(days=1))).scalar() or 0

    def challenge(self, challenger: PlayerRecord, text: str) -> GameRecord:
        """Create the game a (confirmed) challenge asks for, within the challenger's daily allowance; its options
        are checked now (``create_game``), and what is wrong with them told to the challenger alone."""
        plan = self.read_challenge(challenger.email, text)
        limit = self.service.settings.challenges_per_day
        if self.challenges_today(challenger) >= limit:
            raise ServiceError(f"you have proposed {limit} games in the last 24 hours, "
                               "the most the referee sends; try again tomorrow")
        opponent = self.service.player(plan.opponent)
        color = random.SystemRandom().choice(SIDES) if plan.color == "random" else plan.color
        white, black = (challenger, opponent) if color == "white" else (opponent, challenger)
        return self.create_game(plan.variant, white, black, dict(plan.options), challenger)

    # ------------------------------------------------------------------ the answer

    def reply(self, game: GameRecord, side: str, reading: Reading, text: str,
              error_notice: Callable[[], bool]) -> tuple[str, str]:
        """A reply to an invitation: accepted or declined, however it is worded around the word; else told the two
        words that answer it (while error notices may be sent). Returns (status, what was done)."""
        answer = answer_in(reading, text)
        if answer is not None:
            return "done", self.answer(game, side, answer)
        if error_notice():
            self.service.mailer.notice(game, side, "not-accepted", "accept or decline first", [
                f"Game {game.id} has not started yet.",
                "To play, reply with the one word: accept",
                "To refuse, reply with the one word: decline",
            ])
        return "rejected", "an invitation not answered"

    def answer(self, game: GameRecord, side: str, answer: str) -> str:
        """The invitation accepted or declined by ``side``; play starts once both have accepted."""
        mailer = self.service.mailer
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
            self.service.turn.start(game)
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
