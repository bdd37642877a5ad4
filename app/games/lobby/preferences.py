"""Names and preferences: what a player changes about themself, and what the club calls them.

A player is called by the name they chose (the confirmed ``name`` command), else by the name their own
mail client gives them in a reply to a mail of ours (``adopt_client_name``), else after their address;
the club gives a player still called after their address a name of its own (``give_name``). Their page
is public or private (``set_profile``), and a finished game's reveal is shown to anyone once both of
its players agree (``share_reveal``).
"""

from __future__ import annotations

from app.config import Settings
from app.games.records.rows import GameRecord, PlayerRecord
from app.games.records.work import UnitOfWork, display_name


class Preferences:
    """Names, a player's page and the consent to a public reveal."""

    def __init__(self, work: UnitOfWork, settings: Settings) -> None:
        self.work = work
        self.settings = settings

    def adopt_client_name(self, player: PlayerRecord, name: str) -> None:
        """A player still called after their address takes the name their own mail client gives them."""
        if player.name == display_name("", player.email) and name.strip():
            player.name = display_name(name, player.email)

    def give_name(self, player: PlayerRecord, name: str) -> None:
        """The player is called ``name`` from now on, written at once (the club's name for a player it shows)."""
        if name != player.name:
            player.name = name
            self.work.flush()

    def set_profile(self, player: PlayerRecord, public: bool) -> str:
        """Show or hide the player's page on the web; says what was done."""
        player.profile_public = public
        self.work.flush()
        url = f"{self.settings.base_url}/players/{player.id}"
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
