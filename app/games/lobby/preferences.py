"""Names and preferences: what a player changes about themself, and what the club calls them.

A player is called by the name they chose (the confirmed ``name`` command), else by the name their own
mail client gives them in a reply to a mail of ours (``adopt_client_name``), else after their address;
the club gives a player still called after their address a name of its own (``give_name``). Their page
is public or private (``set_profile``), and a finished game's reveal is shown to anyone once both of
its players agree (``share_reveal``).
"""

from __future__ import annotations

from sqlalchemy import select

from app.config import Settings
from app.games.errors import ServiceError
from app.games.lobby.names import name_key
from app.games.records.rows import PLAYERS, GameRecord, PlayerRecord
from app.games.records.work import UnitOfWork, display_name

GIVEN_NAMES_TRIED = 50  # numbers tried for a club name ``Player N`` (from the player's id) before giving up


class Preferences:
    """Names, a player's page and the consent to a public reveal."""

    def __init__(self, work: UnitOfWork, settings: Settings) -> None:
        self.work = work
        self.settings = settings

    def adopt_client_name(self, player: PlayerRecord, name: str) -> None:
        """A player still called after their address takes the name their own mail client gives them."""
        if player.name == display_name("", player.email) and name.strip():
            player.name = display_name(name, player.email)

    def name_taken(self, player: PlayerRecord, name: str) -> bool:
        """Whether another player holds a name in the club that looks like ``name`` (``name_key``)."""
        return self.work.connection.execute(select(PLAYERS.c.id).where(
            PLAYERS.c.club_key == name_key(name), PLAYERS.c.id != player.id).limit(1)).first() is not None

    def claim_name(self, player: PlayerRecord, name: str) -> bool:
        """The player is called ``name`` from now on and holds it in the club, written at once: False, and nothing
        changed, when another player holds a name that looks like it (the database decides between two claims
        at once)."""
        if self.name_taken(player, name):
            return False
        return self.work.save_now(player, name=name, club_key=name_key(name))

    def give_name(self, player: PlayerRecord, name: str) -> None:
        """The player enters the club: they hold the name it shows them by (``name``, unless they hold one
        already), or, when another player holds one like it, the first name the club gives (``Player N``) that
        nobody holds."""
        if player.club_key is not None or self.claim_name(player, name):
            return
        for number in range(player.id, player.id + GIVEN_NAMES_TRIED):
            if self.claim_name(player, f"Player {number}"):
                return
        raise ServiceError("no club name could be given now; try again later")

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
