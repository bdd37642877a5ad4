"""Every command and form that names a game reads it alike (``app.rules.variant_names``): ``seek``,
``challenge``, ``rules``, ``tournament`` by mail, and the web's seek and tournament forms take each registered
variant by its name or its title, in any case, with spaces, hyphens or nothing between its words."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select

from app.club.models import Seek, Tournament
from app.club.seeks import read_seek
from app.club.tournaments.core import read_terms
from app.games.lobby.challenges import challenge_words, read_challenge
from app.rules.registry import VARIANTS
from tests.rules.test_variant_names import SPELLINGS
from tests.server.harness import ALICE, BOB, Table
from tests.web.test_seeks_page import players
from tests.web_helpers import client_for, csrf_of


@pytest.mark.parametrize(("name", "spelling"), SPELLINGS)
def test_a_seek_a_challenge_and_a_tournament_read_a_game_alike(name, spelling):
    assert read_seek(f"{spelling} days=5 rated").variant == name
    assert read_terms(challenge_words(f"{spelling} swiss players=8"), today=date(2026, 11, 28)).variant == name


def test_a_challenge_reads_a_game_alike(server):
    for name, spelling in SPELLINGS:
        assert read_challenge(server.settings, ALICE, f"{BOB} {spelling} days=5").variant == name, spelling


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_rules_by_mail_and_the_web_forms_read_a_game_by_its_title_however_written(server, name):
    title = VARIANTS[name].title
    spoken, joined = title.upper().replace("-", " "), "-".join(title.replace("-", " ").split())
    table = Table(server)
    table.write(ALICE, f"rules {spoken}")
    assert table.last(ALICE).subject.endswith(f"the rules of {title}")
    alice, = players(server, ALICE)
    client = client_for(server, None, alice)
    token = csrf_of(client.get("/seeks").data)
    assert client.post("/seeks", data={"csrf_token": token, "variant": joined, "days": "3"}).status_code == 302
    assert client.post("/tournaments", data={"csrf_token": token, "variant": spoken, "format": "swiss",
                                             "players": "8", "days": "3"}).status_code == 302
    with server.db.sessions() as session:
        assert session.scalars(select(Seek.variant)).all() == [name]
        assert session.scalars(select(Tournament.variant)).all() == [name]
