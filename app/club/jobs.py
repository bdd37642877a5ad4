"""The club's jobs beside the game service's: what the club's mail commands work with.

The service the doors use (``app.service``) hands its commands these; the game service's own jobs know
nothing of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.club.ratings import Ratings
from app.club.seeks import Seeks
from app.club.tournaments.jobs import Tournaments
from app.games.commands.base import Jobs


@dataclass(frozen=True)
class ClubJobs(Jobs):
    """The game service's jobs and the club's, in one transaction."""

    ratings: Ratings
    seeks: Seeks
    tournaments: Tournaments


def club(jobs: Jobs) -> ClubJobs:
    """The club's jobs of the service a command runs in (a club command is read only by a service that has them)."""
    assert isinstance(jobs, ClubJobs), "a club command runs in the service with the club"
    return jobs
