"""Fixtures of the server tests."""

import pytest

from app.inbound.listener import start_listener
from tests.conftest import make_server
from tests.server.mailhost import Sink, free_port
from tests.server.smtp_game import Game


@pytest.fixture
def game(tmp_path, database_url):
    with Sink() as sink:
        port = free_port()
        server = make_server(tmp_path, database_url, SMTP_HOST="127.0.0.1", SMTP_PORT=str(sink.port),
                             INBOUND_SMTP_PORT=str(port))
        listener = start_listener(server)
        try:
            yield Game(server, sink, port)
        finally:
            listener.stop()
            server.db.engine.dispose()
