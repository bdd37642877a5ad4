"""Who holds an outbox lease: a worker's identity, the same again after a restart.

A worker claims rows with a lease; one killed mid-round leaves them leased until the
lease runs out (five minutes). Each worker holds an exclusive lock on a slot file in the
instance folder for as long as it lives, and its identity is the machine's name and that
slot. The kernel releases the lock when the process dies, however it dies, so a worker
that gets a slot knows that the slot's previous holder is gone, and takes back at once the
rows leased in that identity.
"""

from __future__ import annotations

import fcntl
import socket
from pathlib import Path
from typing import IO

SLOTS = 1000


class WorkerIdentity:
    """The lowest free slot of this machine, locked while this object lives."""

    def __init__(self, instance_path: Path) -> None:
        folder = instance_path / "workers"
        folder.mkdir(parents=True, exist_ok=True)
        host = socket.gethostname()[:80] or "localhost"
        self.name = ""
        self._lock: IO[str] | None = None
        for slot in range(1, SLOTS + 1):
            handle = open(folder / f"{host}-{slot}.lock", "a")  # noqa: SIM115 - held open while this object lives
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                handle.close()
                continue
            self.name, self._lock = f"{host}:{slot}", handle
            return
        raise RuntimeError(f"more than {SLOTS} workers on {host}")
