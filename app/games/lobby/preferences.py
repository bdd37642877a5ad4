"""Names and preferences: what a player changes about themself, and what the club calls them.

A player is called by the name they chose (the confirmed ``name`` command), else by the name their own
mail client gives them in a reply to a mail of ours (``adopt_client_name``), else after their address.
Every name a player holds in the club comes through one door (``give_name``): the name chosen, adopted, or
held on entering the club (``enter_club``: a seek posted or joined, a rated game begun, a tournament entered),
held with its key (``name_key``) in the database, whose unique key decides between two players at once; a
name refused is said in words, and a name the player did not choose falls back to one the club gives
(``Player 12``). Their page is public or private (``set_profile``), and a finished game's reveal is shown to
anyone once both of its players agree (``share_reveal``).
"""

from __future__ import annotations

from contextlib import suppress

from sqlalchemy import select

from app.config import Settings
from app.games.errors import ServiceError
from app.games.lobby.names import GIVEN, called_after_address, generated, name_key, unseen_name
from app.games.records.rows import PLAYERS, GameRecord, PlayerRecord
from app.games.records.work import UnitOfWork, display_name

GIVEN_NAMES_TRIED = 50  # numbers tried for a club name ``Player N`` (from the player's id) before giving up
ADDRESS = "the club shows no part of an address; choose a name that is not your address"
UNSEEN = "a name needs at least one letter or digit that can be seen"
GIVEN_BY_CLUB = "a name like 'Player 12' is one the club gives; choose another"
TAKEN = "another player has that name, or one that looks like it; choose another"
TAKEN_MEANWHILE = "another player took that name meanwhile; choose another"


class Preferences:
    """Names, a player's page and the consent to a public reveal."""

    def __init__(self, work: UnitOfWork, settings: Settings) -> None:
        self.work = work
        self.settings = settings

    def name_taken(self, player: PlayerRecord, key: str) -> bool:
        """Whether another player holds a name in the club with this key (``name_key``)."""
        return self.work.connection.execute(select(PLAYERS.c.id).where(
            PLAYERS.c.club_key == key, PLAYERS.c.id != player.id).limit(1)).first() is not None

    def name_refused(self, player: PlayerRecord, name: str) -> str | None:
        """Why the player may not hold ``name`` in the club, in words; None when they may (as far as the database
        shows now: ``give_name`` holds it)."""
        if called_after_address(name, player.email):
            return ADDRESS
        if unseen_name(name):
            return UNSEEN
        key = name_key(name)
        if generated(key) and key != player.club_key:
            return GIVEN_BY_CLUB
        return TAKEN if self.name_taken(player, key) else None

    def hold(self, player: PlayerRecord, name: str) -> bool:
        """The player is called ``name`` and holds its key, written at once: False, and nothing changed, when
        another transaction holds the key meanwhile (the unique key refuses it)."""
        return self.work.save_now(player, name=name, club_key=name_key(name))

    def give_name(self, player: PlayerRecord, wanted: str, chosen: bool = False) -> str | None:
        """The one way a player gets a club name: ``wanted`` when they may hold it; else, for a name they did not
        choose, they keep the name they hold, or get the first name the club gives (``Player N``) that nobody
        holds. Returns why ``wanted`` was refused, in words (None: they hold it now)."""
        refused = self.name_refused(player, wanted) or (None if self.hold(player, wanted) else TAKEN_MEANWHILE)
        if refused is None or chosen or player.club_key is not None:
            return refused
        for number in range(player.id, player.id + GIVEN_NAMES_TRIED):
            given = f"{GIVEN} {number}"
            if not self.name_taken(player, name_key(given)) and self.hold(player, given):
                return refused
        raise ServiceError("no club name could be given now; try again later")

    def enter_club(self, player: PlayerRecord) -> None:
        """The player enters the club: they hold the name they are called by, unless they hold one already, or
        another holds one like it, or it is after their address (the club shows no part of an address)."""
        if player.club_key is None:
            self.give_name(player, player.name)

    def adopt_client_name(self, player: PlayerRecord, name: str) -> None:
        """A player who chose no name (called after their address, or by a name the club gave) takes the name
        their own mail client gives them, when nobody holds one like it (``give_name``)."""
        chose_none = called_after_address(player.name, player.email) or generated(player.club_key or "")
        wanted = display_name(name, player.email)
        if not chose_none or called_after_address(wanted, player.email) or name_key(wanted) == player.club_key:
            return
        with suppress(ServiceError):  # no name the club gives is free now: they keep the name they have
            self.give_name(player, wanted)

    def set_profile(self, player: PlayerRecord, public: bool | None) -> str:
        """Show or hide the player's page on the web, as they chose; None: as it comes (shown once they are in
        the club). Says what was done."""
        player.profile_public, player.profile_chosen = public is not False, public is not None
        self.work.flush()
        url = f"{self.settings.base_url}/players/{player.id}"
        if public is None:
            return (f"Your page, {url}, is shown to anyone once you are in the club (a seek posted or joined, a "
                    "rated game), with your name, ratings and finished games.")
        return (f"Your page is public: anyone may see your name, ratings and finished games at {url}." if public
                else f"Your page is private: only you see it, signed in, at {url}.")

    def prove(self, player: PlayerRecord) -> None:
        """Mail in the player's name was proven: from now on their mail that is not proven is refused (unless
        they choose, signed in, to have it accepted)."""
        if player.proven_at is None:
            player.proven_at = self.work.now
            self.work.flush()

    def accept_unsigned(self, player: PlayerRecord, accept: bool) -> str:
        """The player's choice about their mail that is not proven; says what was done."""
        player.unsigned_ok = accept
        self.work.flush()
        return ("Your mail is accepted again without your provider's signature." if accept else
                "Mail in your name that your provider did not sign is refused again.")

    def share_reveal(self, game: GameRecord, side: str, agree: bool) -> None:
        """A player's consent to show the reveal to anyone with the link (both must agree)."""
        setattr(game, f"public_{side}", agree)
        self.work.flush()
