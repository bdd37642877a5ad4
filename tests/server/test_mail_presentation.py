"""How the mails of every variant read and look, over real SMTP on loopback: the built-in listener in, an
aiosmtpd sink out (what a player's mail server receives).

Each test plays through the real pipeline and reads the mails as received: the news a home Palindromic player
gets, the game-over mail (each player's side, the last move marked, checkmate told as such, the record marked),
the order forms, refusals, and that every line of every text part fits a client that wraps at 78 columns.
"""

from __future__ import annotations

import json
import random
import re
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default

import pytest
from sqlalchemy import select

from app.games.models import Event
from app.games.models import Game as GameRow
from app.inbound.clients import fresh
from app.inbound.listener import start_listener
from app.present.registry import DECLARATIONS
from app.rules.registry import get_variant
from app.service import Service
from tests.conftest import make_server
from tests.rules.palindromic_helpers import ONE_KNIGHT_AWAY, REVERSED_HANDS
from tests.rules.qa4_positions import QA, qa_position
from tests.server.mailhost import Sink, free_port
from tests.server.smtp_game import ALICE, BOB, REFEREE, Game

LAST_MOVE_INK = "#f5c84c"  # the HTML part's background of a square of the last move
WIDTH = 78
URL_ALONE = re.compile(r"^\s*https?://\S+$")


@pytest.fixture
def mail(tmp_path):
    """A server with its SMTP listener and an SMTP sink for its mail out (SQLite: presentation only)."""
    with Sink() as sink:
        port = free_port()
        server = make_server(tmp_path, f"sqlite:///{tmp_path / 'mail.sqlite3'}", SMTP_HOST="127.0.0.1",
                             SMTP_PORT=str(sink.port), INBOUND_SMTP_PORT=str(port))
        listener = start_listener(server)
        try:
            yield Game(server, sink, port)
        finally:
            listener.stop()
            server.db.engine.dispose()


def started(mail: Game, variant: str, **options: str) -> int:
    """A game made by the service, accepted by both over SMTP (setups where asked), White to move."""
    with mail.server.db.engine.begin() as connection:
        service = Service(connection, mail.server.settings, mail.server.signer)
        game_id = service.create_game(variant, service.player(ALICE, "Alice"), service.player(BOB, "Bob"), options,
                                      None).id
    mail.worker.run_once()
    mail.reply(ALICE, "accept")
    mail.reply(BOB, "accept")
    if "choose your setup" in mail.subject(ALICE):
        mail.reply(ALICE, "setup 518")
        mail.reply(BOB, "setup random")
    return game_id


def put_state(mail: Game, game_id: int, state: dict) -> None:
    """Set a running game's position (a test's shortcut to a position that takes long to reach by moves)."""
    with mail.server.db.sessions() as session, session.begin():
        session.get(GameRow, game_id).state = state


def game_state(mail: Game, game_id: int):
    with mail.server.db.sessions() as session:
        row = session.get(GameRow, game_id)
        return get_variant(row.variant).from_json(row.state) if row.status != "over" else None


def events(mail: Game, game_id: int) -> list[Event]:
    with mail.server.db.sessions() as session:
        return list(session.scalars(select(Event).where(Event.game_id == game_id).order_by(Event.seq)))


def text_of(message: EmailMessage) -> str:
    return message.get_body(("plain",)).get_content().replace("\r\n", "\n")


def html_of(message: EmailMessage) -> str:
    return message.get_body(("html",)).get_content()


def last(mail: Game, player: str, subject: str) -> EmailMessage:
    found = [message for message in mail.sink.to(player) if subject in str(message["Subject"])]
    assert found, f"no mail with {subject!r} to {player}"
    return found[-1]


def record_tokens(text: str) -> list[str]:
    """The orders of "The game in moves" (numbers, '...' and the result left out)."""
    block = text.split("The game in moves:\n", 1)[1].split("\n\n", 1)[0]
    return [token for token in block.split() if not re.fullmatch(r"\d+\.(\.\.)?|\.\.\.|1-0|0-1|1/2-1/2|\*", token)]


def board_rows(text: str) -> list[str]:
    """The text part's rank lines of its diagrams ("  8  r  n ...  8")."""
    return [line for line in text.splitlines() if re.match(r"^\s+[1-8] [ \[(]", line)]


# --------------------------------------------------------------------------- PAL-4: news to both


def test_PAL_4_a_player_who_is_home_hears_of_each_move_and_each_pass_at_once(mail):
    """Black is home: the referee passes for Black after each of White's moves, so Black is never asked to move,
    and is told of every move and every pass as it happens, with the board; White hears of each pass."""
    started(mail, "palindromic", start=json.dumps({"board": ONE_KNIGHT_AWAY, "handed": REVERSED_HANDS}))
    for order, said in (("g4-e3", "knight g4 to e3 (Ne3)"), ("e3-g4", "knight e3 to g4 (Ng4)"),
                        ("g4-h6", "knight g4 to h6 (Nh6)")):
        before = len(mail.sink.to(BOB))
        mail.reply(ALICE, order)
        news = mail.sink.to(BOB)[before:]
        assert len(news) == 1 and "Alice moved - the referee passed for you" in str(news[0]["Subject"])
        text = " ".join(text_of(news[0]).split())
        assert f"Alice moved their {said}." in text and "the referee passed for you" in text
        assert board_rows(text_of(news[0])) and "[N]" in text_of(news[0])  # the board, the move marked
        assert "Bob is home: the referee passed for them." in mail.text(ALICE)
        assert "your move (White)" in mail.subject(ALICE)
    mail.reply(ALICE, "h6-g8")  # the reversal
    assert "game over" in mail.subject(BOB) and "You lost: the reversal is complete." in mail.text(BOB)


# --------------------------------------------------------------------------- the game-over mail


def test_SV_the_game_over_mail_tells_checkmate_draws_each_side_from_its_own_side_and_marks_the_last_move(mail):
    started(mail, "side-view", physics="1")
    for player, order in ((ALICE, "f2-f3"), (BOB, "e7-e5"), (ALICE, "g2-g4"), (BOB, "d8-h4")):
        mail.reply(player, order)
    loser, winner = last(mail, ALICE, "game over"), last(mail, BOB, "game over")
    lost = " ".join(text_of(loser).split())
    assert "The last move: - Bob moved. - Your king is checkmated." in lost and "is in check" not in lost
    assert "- Your queen went d8 to h4." in " ".join(text_of(winner).split())
    for message, files, top in ((loser, "a  b  c  d  e  f  g  h", "8"), (winner, "h  g  f  e  d  c  b  a", "1")):
        text = text_of(message)
        assert text.splitlines()[text.splitlines().index(next(line for line in text.splitlines()
                                                             if "The true position" in line)) + 1].strip() == files
        assert board_rows(text)[0].split()[0] == top  # the player's own side at the bottom
        h4 = next(row for row in board_rows(text) if row.split()[0] == "4")
        assert "[q]" in h4 and "Between [ ]: a square of the last move." in " ".join(text.split())
        assert f'bgcolor="{LAST_MOVE_INK}"' in html_of(message)
        assert record_tokens(text) == ["f2-f3", "e7-e5", "g2-g4", "d8-h4#"]
        assert max(len(line) for line in text.splitlines()) <= WIDTH  # the strips beside the board fit
    assert 'aria-label="What Black saw' in html_of(winner) and "What White saw" in text_of(winner)


def test_QA4_the_game_over_mail_draws_the_last_move_it_says_is_marked_and_never_promises_unmarked(mail):
    game_id = started(mail, "quasi-alice-4d")
    mail.reply(BOB, "resign")  # before any move: nothing to mark, so nothing is said to be marked
    assert "last move is marked" not in " ".join(text_of(last(mail, ALICE, "game over")).split())
    assert f'bgcolor="{LAST_MOVE_INK}"' not in html_of(last(mail, ALICE, "game over"))
    game_id = started(mail, "quasi-alice-4d")
    mail.reply(ALICE, "A:e2-e4>B")
    mail.reply(BOB, "A:g8-f6>C")
    mail.reply(ALICE, "resign")
    for player, top in ((ALICE, "8"), (BOB, "1")):
        message = last(mail, player, f"Game {game_id}: game over")
        text = text_of(message)
        assert "The last move is marked" in " ".join(text.split())
        marked = [row for row in board_rows(text) if "[" in row]
        assert {row.split()[0] for row in marked} == {"8", "6"}  # g8 and f6 on A, f6 on C
        assert board_rows(text)[0].split()[0] == top
        assert html_of(message).count(f'bgcolor="{LAST_MOVE_INK}"') == 3
        assert "The last move is marked" in html_of(message)


@pytest.mark.parametrize("name", ["looking-glass", "side-view", "quasi-alice-4d", "palindromic", "kriegspiel",
                                  "dark-chess"])
def test_the_record_marks_every_capture_check_and_mate_both_were_told_of(mail, name):
    """Random legal moves until a capture (or, in Palindromic, a few checks) has come, then a resignation: each
    order in the game-over mail's record carries x for a capture, + for a check, # for mate, and no other."""
    game_id = started(mail, name, **({"physics": "3"} if name == "side-view" else {}))
    variant, rng = get_variant(name), random.Random(name)
    players = {"white": ALICE, "black": BOB}
    for _ply in range(200):
        state = game_state(mail, game_id)
        if state is None:
            break
        moves = [event for event in events(mail, game_id) if variant.completes_turn(event.result)]
        if name != "palindromic" and any(captures(event) for event in moves) and len(moves) > 6:
            break
        if name == "palindromic" and len(moves) >= 40:
            break
        mail.reply(players[variant.orderer(state)], rng.choice(variant.legal_orders(state)))
    if game_state(mail, game_id) is not None:
        mail.reply(players[variant.orderer(game_state(mail, game_id))], "resign")
    moves = [event for event in events(mail, game_id) if variant.completes_turn(event.result) and event.by]
    tokens = record_tokens(text_of(last(mail, ALICE, "game over")))
    if name == "palindromic":  # PGN's notation: passes are --, comments in braces
        tokens = [token for token in tokens if not token.startswith("{") and not token.endswith("}")]
    assert len(tokens) == len(moves)
    for token, event in zip(tokens, moves, strict=True):
        told = [message for side in ("white", "black") for message in event.told.get(side, [])]
        mate = any(message["kind"] == "end" and message["reason"] == "checkmate" for message in told)
        check = any(message["kind"] == "check" for message in told)
        assert ("x" in token.split(">")[0] or ">x" in token) == captures(event), (token, told)
        assert token.endswith("#") == mate and token.endswith("+") == (check and not mate), (token, told)
    if name != "palindromic":
        assert any("x" in token for token in tokens)


def captures(event: Event) -> bool:
    told = [message for side in ("white", "black") for message in event.told.get(side, [])]
    return any((message["kind"] == "moved" and (message.get("captured") or message.get("landed_on")))
               or message["kind"] == "captured" for message in told)  # Kriegspiel tells a capture on its own


def test_PAL_the_mailed_pgn_is_dated_the_day_the_game_began(mail):
    game_id = started(mail, "palindromic")
    mail.reply(ALICE, "resign")
    with mail.server.db.sessions() as session:
        day = session.get(GameRow, game_id).created_at.strftime("%Y.%m.%d")
    pgn = next(part for part in last(mail, BOB, "game over").iter_attachments()
               if part.get_filename().endswith(".pgn")).get_content()
    assert f'[Date "{day}"]' in (pgn if isinstance(pgn, str) else pgn.decode())


# --------------------------------------------------------------------------- orders and what they are told


def test_SV_PAL_order_forms_say_each_thing_once_and_where_names_a_piece(mail):
    started(mail, "side-view")
    text = " ".join(mail.text(ALICE).split())
    assert text.count("an illegal one is answered only 'illegal'") == 1 and "another move" in text
    started(mail, "palindromic", start=json.dumps({"board": ONE_KNIGHT_AWAY, "handed": REVERSED_HANDS}))
    text = text_of(mail.sink.to(ALICE)[-1])
    assert " ".join(text.split()).count("standard notation such as Nf3 works too") == 1
    square = re.search(r"^\s+where ([a-h][1-8])\s", text, re.M).group(1)
    assert square == "g4"  # White's one piece not home (g1 is empty there)
    assert re.search(rf"N{square}\b", text)


def test_QA4_orders_are_refused_with_their_own_reason_and_castling_reads_as_king_and_rook_going_over(mail):
    game_id = started(mail, "quasi-alice-4d")
    put_state(mail, game_id, QA.to_json(qa_position(A="r3k3/8/8/8/8/8/8/R3K2R", C="8/2P5/8/8/8/8/8/8",
                                                    castling="K")))
    answer = mail.reply(ALICE, "C:c7-c8=K>D")
    assert "a pawn cannot promote to a king: only to a queen, rook, bishop or knight" in answer
    assert "Did you mean" not in answer and "could not be read" not in mail.subject(ALICE)
    mail.reply(ALICE, "A:O-O>B")
    told = " ".join(mail.text(BOB).split())
    assert ("Alice castled O-O on board A: the king went e1 to g1 and the rook h1 to f1, and king and rook went "
            "over to board B (A:O-O>B).") in told and "on board A, and it went over" not in told


# --------------------------------------------------------------------------- 78 columns


def play_every_kind(mail: Game, name: str, options: str) -> None:
    """A game by mail that brings every kind of mail of this variant, and the lobby's answers."""
    variant, rng = get_variant(name), random.Random(7)
    mail.send(ALICE, fresh(ALICE, REFEREE, f"challenge {BOB} {name} days=2 {options}".rstrip()), REFEREE)
    mail.reply(ALICE, "")  # confirms the challenge
    mail.reply(BOB, "accept")
    if "choose your setup" in mail.subject(ALICE):
        mail.reply(ALICE, "setup 518")
        mail.reply(BOB, "setup random")
    mail.reply(ALICE, "e2-e9 please")  # unreadable
    mail.reply(ALICE, "help")
    mail.reply(ALICE, "rules")
    mail.reply(BOB, "say Good luck! " + "and a long word " * 12)
    mail.reply(BOB, "offer draw")
    mail.reply(ALICE, "decline draw")
    players = {"white": ALICE, "black": BOB}
    for _ply in range(8):
        state = game_state(mail, 1)
        if state is None:
            break
        side = variant.orderer(state)
        mail.reply(players[side], rng.choice(variant.legal_orders(state)))
    mail.reply(BOB, "board")
    mail.reply(ALICE, "history")
    mail.reply(ALICE, "vacation 2")
    if game_state(mail, 1) is not None:
        mail.reply(BOB, "resign")
    mail.reply(BOB, "e2-e4")  # after the end
    for line in ("help", f"rules {name}", "games"):
        mail.send(ALICE, fresh(ALICE, REFEREE, line), REFEREE)


CASES = [(name, declaration.option_words(sample)) for name, declaration in DECLARATIONS.items()
         for sample in declaration.samples]  # every declared variant with the options of each of its sample games


@pytest.mark.parametrize(("name", "options"), CASES)
def test_every_text_part_of_every_kind_of_mail_keeps_within_78_columns(mail, name, options):
    """A client that wraps long lines would break a diagram apart. A link alone on its line is let be: cut, it
    would not work at all."""
    play_every_kind(mail, name, options)
    kinds, wide = set(), []
    for _sender, _rcpts, raw in mail.sink.received:
        message = message_from_bytes(raw, policy=default)
        kinds.add(str(message["Subject"]).split(":", 1)[-1].split(" - ")[0].strip())
        parts = [part for part in message.walk() if part.get_content_type() in ("text/plain", "text/x-chess-pgn")]
        assert parts
        for part in parts:
            content = part.get_content()
            for line in (content if isinstance(content, str) else content.decode()).splitlines():
                if len(line) > WIDTH and not URL_ALONE.match(line):
                    wide.append((str(message["Subject"]), part.get_filename(), len(line), line))
    assert len(mail.sink.received) > 25, kinds
    assert wide == []
