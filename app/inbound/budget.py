"""A budget of time and memory for the work on one message.

Every step from the raw bytes to the commands is linear in what it is given, and what
it is given is bounded (``limits``), so a message costs at most a bounded amount. The
budget is the check that this holds: steps report the time spent and the bytes they
decode, and a message over either is stopped with the reason, kept, marked failed and
answered once.

Why no subprocess or signal: no step holds the interpreter lock for long (the only long
call in C, libxml2's parse, releases it; no pattern backtracks over unbounded input), so
the web app's threads keep their turns every few milliseconds while a message is read,
and a check between steps stops a message soon after it runs over. A process per message
would cost more than reading a reply does.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

DEFAULT_SECONDS = 5.0  # for reading one message (parse, screen, quotes, commands); a reply takes ~1 ms
DECODED_LIMIT = 8 * 1024 * 1024  # bytes of MIME parts decoded for one message (the text it reads)


class OverBudget(Exception):
    """The work on one message ran over its budget; ``str`` says where and by how much."""


@dataclass
class Budget:
    """Time and decoded bytes allowed for one message, checked by each step."""

    seconds: float = DEFAULT_SECONDS
    decoded_limit: int = DECODED_LIMIT
    started: float = field(default_factory=time.monotonic)
    decoded: int = 0

    def check(self, step: str) -> None:
        """Raise OverBudget when the message has taken longer than its time."""
        spent = time.monotonic() - self.started
        if spent > self.seconds:
            raise OverBudget(f"reading it took longer than {self.seconds:g} s (at {step})")

    def decode(self, size: int, step: str) -> None:
        """Count ``size`` bytes decoded; raise OverBudget past the memory allowed."""
        self.decoded += size
        if self.decoded > self.decoded_limit:
            raise OverBudget(f"it needed more than {self.decoded_limit // 1024} KB decoded (at {step})")
        self.check(step)
