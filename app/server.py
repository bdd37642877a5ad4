"""The parts of a running server, built once from the settings."""

from __future__ import annotations

import gc
from dataclasses import dataclass
from typing import Any

from app.config import Settings, load_settings
from app.db import Database
from app.outbound.outbox import Dispatcher, Transport, make_transport
from app.tokens import TokenSigner

FULL_COLLECTION_EVERY = 100  # middle-generation collections between full ones (Python's default: 10)


@dataclass
class Server:
    settings: Settings
    db: Database
    signer: TokenSigner

    @classmethod
    def from_settings(cls, settings: Settings) -> Server:
        return cls(settings, Database(settings.database_url), TokenSigner(settings.secret_key))

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Server:
        return cls.from_settings(load_settings(environ))

    def dispatcher(self, transport: Transport | None = None) -> Dispatcher:
        return Dispatcher(self.db, self.settings, transport or make_transport(self.settings), self.signer)


def web_server(app: Any, settings: Settings) -> Any:
    """Waitress serving ``app`` where ``WEB_HOST``/``WEB_PORT`` say (``run()`` until stopped).

    Waitress removes the X-Forwarded headers unless told otherwise. With ``TRUSTED_PROXIES`` set they are
    let through to the app, which believes them only on connections from ``TRUSTED_PROXY_ADDRESSES``
    (app/forwarding.py); without it they are removed here as well as never read.
    """
    from waitress.server import create_server

    return create_server(app, host=settings.web_host, port=settings.web_port, threads=8, ident="Mirrorpost",
                         clear_untrusted_proxy_headers=not settings.trusted_proxies)


def settle_garbage_collection() -> None:
    """Set the cyclic garbage collector up for a long-running process that makes little cyclic garbage.

    Modules, the schema, the mail policy and the like (about 100,000 objects) live as long as the
    process, yet every full collection walked them all again: about a tenth of a move's CPU.
    ``gc.freeze`` moves them to a generation no collection visits. A full collection is also
    considered only after every hundredth middle-generation one rather than every tenth: handling a
    message leaves no cycles behind, so what full collections find is rare. The young generations
    are collected as usual.
    """
    gc.collect()
    gc.freeze()
    young, middle, _old = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)
