"""Players with many games, the daily digest turned on, and replies to it, through the real pipeline."""

from __future__ import annotations

import random
import re
from datetime import datetime

from sqlalchemy import select

from app.inbound.clients import reply
from app.outbound.models import OutboundMessage
from app.rules.registry import get_variant
from app.worker import Worker
from tests.server.harness import Table


def start_game(server, variant: str, white: str, black: str, **options: str) -> int:
    """A game between these two, accepted and set up by mail (back rank 518), White to move."""
    table = Table(server, variant)
    game_id = table.new_game(white=white, black=black, **options)
    for address in (white, black):
        assert "accepted" in reply_in_game(server, game_id, address, "accept")
    if table.game(game_id).status == "setup":
        for address in (white, black):
            reply_in_game(server, game_id, address, "setup 518")
    assert table.game(game_id).status == "active"
    return game_id


def latest_in_game(server, game_id: int, address: str) -> OutboundMessage:
    with server.db.sessions() as session:
        found = session.scalars(select(OutboundMessage).where(OutboundMessage.game_id == game_id,
                                                              OutboundMessage.recipient == address)
                                .order_by(OutboundMessage.id.desc())).first()
    assert found is not None, (game_id, address)
    return found


def reply_in_game(server, game_id: int, address: str, body: str, style: str = "gmail") -> str | None:
    """The player's reply to their latest mail about this game."""
    return Table(server).deliver(reply(latest_in_game(server, game_id, address).raw, body, style, address))


def move(server, game_id: int, address: str, rng: random.Random | None = None) -> str:
    """A legal order of the player to move, sent in reply to their latest mail about the game."""
    table = Table(server)
    game = table.game(game_id)
    variant = get_variant(game.variant)
    state = variant.from_json(game.state)
    order = (rng or random.Random(game_id)).choice(sorted(variant.legal_orders(state)))
    outcome = reply_in_game(server, game_id, address, order)
    assert outcome and ": moved" in outcome, outcome
    return order


def digest_on(server, address: str, hour: int = 7) -> None:
    """The player turns the digest on by mail to the bare address, and confirms."""
    assert "confirmed: digest" in Table(server).write_confirmed(address, f"digest daily {hour}")


def send_digests(server, now: datetime | None = None, every: bool = True) -> int:
    """``manage.py digest --now`` (``every``), or the worker's round at ``now``."""
    return Worker(server).digests(now, every=every)


def digests_to(server, address: str) -> list[OutboundMessage]:
    return Table(server).mails(address, "digest")


def text_section(text: str, game_id: int) -> str:
    """A game's section of a digest's text part: from its first line to its history link."""
    found = re.search(rf"^(Game {game_id}, .*?)^Your history of this game:", text, re.M | re.S)
    assert found, text
    return found.group(1)


def request_section(text: str, game_id: int) -> str:
    """The same part of a move request's text: from the game's first line to the order forms."""
    found = re.search(rf"^(Game {game_id}, .*?)^Your order goes on the first line", text, re.M | re.S)
    assert found, text
    return found.group(1)


def html_section(html: str, game_id: int) -> str:
    """A game's section of a digest's HTML part (its figure included), line ends aside."""
    found = re.search(rf'<div id="game-{game_id}"[^>]*>(.*?)<p style="margin:8px 0 0 0;"><a href=', html, re.S)
    assert found, html[:2000]
    return found.group(1).replace("\n", "")


def request_html_section(html: str, game_id: int) -> str:
    found = re.search(rf'(<p style="margin:0 0 8px 0;"><strong>Game {game_id}, .*?)<p style="margin:12px 0 4px 0;">'
                      "Your order goes", html, re.S)
    assert found, html[:2000]
    return found.group(1).replace("\n", "")
