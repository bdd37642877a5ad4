"""What every job of the game service shares: the service it belongs to and the unit of work."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.games.service import GameService


class Job:
    """One job of the game service; it reaches the others through the service.

    The service holds its jobs and each job holds the service weakly, so there is no reference cycle: a
    handled message is freed by reference counting alone, without waiting for the cyclic collector.
    """

    def __init__(self, service: GameService) -> None:
        self.belongs_to = weakref.ref(service)
        self.work = service.work

    @property
    def service(self) -> GameService:
        service = self.belongs_to()
        assert service is not None, "a job outlived its game service"
        return service
