"""Commands as people write them: other names for a command (``ratings``, ``list seeks``, ``join seek 5``,
``cancel 5``), a sentence's full stop, a game by its title, a rating range without the word ``rating``; the
confirmation of ``join`` naming the game; and a line not understood answered by a short mail naming the
nearest commands, quoting it only to a sender whose mail is proven to be theirs."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app.club.models import Seek
from app.club.seeks import read_seek
from app.games.commands.base import MailCommand, find, nearest
from app.games.commands.reading import Command, read_commands
from app.inbound.clients import fresh
from app.rules.registry import VARIANTS
from app.service import BOOK, Service
from tests.server.harness import ALICE, BOB, Table
from tests.server.signing import Provider
from tests.server.smtp_game import REFEREE
from tests.server.test_proven_senders import deliver, said

CAROL, DAVE, ERIN = "carol@players.test", "dave@players.test", "erin@players.test"
LOBBY_COMMANDS, LOBBY_WORDS = BOOK.lobby, BOOK.lobby_words  # the game service's and the club's
WHOLE_HELP = "Mirrorpost referees your game by email"  # the first words of the whole help


def found(line: str) -> tuple[str, str]:
    """The command a line to the bare address is read as, and its argument."""
    (command,) = read_commands(line, None, LOBBY_WORDS).commands
    match = find(LOBBY_COMMANDS, command)
    assert match is not None, line
    return match[0].name, match[1].argument


@pytest.mark.parametrize(("line", "read"), [
    ("join seek 5", ("join", "5")), ("join #5", ("join", "#5")), ("Join 5.", ("join", "5")),
    ("JOIN SEEK 5!", ("join", "5")), ("cancel 5", ("cancel seek", "5")), ("cancel seek 5", ("cancel seek", "5")),
    ("ratings", ("rating", "")), ("list seeks", ("seeks", "")), ("List Seeks.", ("seeks", "")),
    ("name Ann L.", ("name", "Ann L.")),  # a name keeps its full stop: it is passed on as written
])
def test_a_command_is_read_by_each_of_its_names_and_without_the_sentences_full_stop(line, read):
    assert found(line) == read


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_seek_names_its_game_by_its_name_or_its_title_however_spaced(name):
    title = VARIANTS[name].title
    for written in (name, title, title.upper(), name.replace("-", " "), f"{title} days=2 unrated"):
        assert read_seek(written).variant == name, written


def test_a_seek_reads_a_rating_range_without_the_word_rating_or_quotes_to_a_proven_sender_the_word_it_cannot_read():
    plan = read_seek("kriegspiel 1400-1800")
    assert (plan.variant, plan.low, plan.high, plan.rated) == ("kriegspiel", 1400, 1800, True)
    assert (read_seek("kriegspiel 1400 - 1800 days=4").low, read_seek("kriegspiel rating 1500-1700").high) == \
           (1400, 1700)
    with pytest.raises(Exception) as refused:
        read_seek("kriegspiel dragons=3 soon")
    with pytest.raises(Exception) as unknown:
        read_seek("dragonchess")
    assert "'soon' is not an option of a seek" in refused.value.told(True)
    assert "soon" not in refused.value.told(False) and "not an option" in refused.value.told(False)
    assert "there is no game called 'dragonchess'" in unknown.value.told(True)
    assert "dragonchess" not in unknown.value.told(False)


def post_seek(server, address: str, terms: str = "side-view days=2") -> int:
    with server.db.engine.begin() as connection:
        service = Service(connection, server.settings, server.signer)
        return service.seeks.post(service.player(address), terms)


def status_of(server, number: int) -> str:
    with server.db.sessions() as session:
        return session.scalar(select(Seek.status).where(Seek.id == number))


def test_join_written_as_people_write_it_is_held_and_its_confirmation_names_the_game_and_the_seeker(server):
    table = Table(server)
    number = post_seek(server, ALICE)
    for player, line in ((BOB, f"join seek {number}"), (CAROL, f"join #{number}"), (DAVE, f"Join {number}.")):
        assert table.write(player, line) == f"done: held for confirmation: join {number}", line
    confirm = " ".join(table.last(DAVE, "confirm").body_text.split())
    assert f"join seek {number}, a rated game of Side View Chess (2 days a move; " in confirm, confirm
    assert "posted by Player 1 (1500?): its game starts at once" in confirm
    assert table.confirm(DAVE).startswith(f"done: confirmed: joined seek {number}: game ")
    assert status_of(server, number) == "taken"


def test_a_seek_by_its_title_with_a_bare_range_is_held_as_the_referee_writes_it(server):
    table = Table(server)
    assert table.write(ALICE, "seek side view") == \
        "done: held for confirmation: seek side-view days=3 physics=3 setup=standard rated"
    assert table.write(BOB, "Seek Kriegspiel 1400-1800.") == \
        "done: held for confirmation: seek kriegspiel days=3 setup=standard rated rating 1400-1800"


def test_cancel_n_withdraws_ones_own_open_seek_and_never_anothers(server):
    table = Table(server)
    mine, theirs = post_seek(server, ALICE), post_seek(server, BOB)
    assert table.write_confirmed(ALICE, f"cancel {mine}") == f"done: confirmed: cancelled seek {mine}"
    assert status_of(server, mine) == "cancelled"
    assert table.write(ALICE, f"cancel {theirs}").startswith("rejected: refused: cancel seek: you have no seek")
    assert status_of(server, theirs) == "open"


def test_ratings_and_list_seeks_are_answered_as_rating_and_seeks(server):
    table = Table(server)
    number = post_seek(server, BOB)
    assert table.write(ALICE, "ratings\nlist seeks") == "done: rating; seeks"
    assert "You have no rated games yet" in table.text(ALICE, "rating")
    assert f"Seek {number}: Side View Chess" in table.text(ALICE, "seeks")


# ------------------------------------------------------------------ lines not understood


def test_a_line_not_understood_gets_a_short_mail_naming_the_nearest_commands_and_quoting_nothing_unproven(server):
    table = Table(server)
    assert table.write(ALICE, "jion 5\nThanks, Alice") == "done: not understood"
    answer = table.last(ALICE)
    text = answer.body_text
    assert answer.subject == "Mirrorpost: not understood" and len(text) < 4096, len(text)
    assert "- join <N>: take seek N" in text and WHOLE_HELP not in text
    assert "Some lines of your mail could not be understood" in " ".join(text.split())
    assert "jion" not in text and "Thanks" not in text and "jion" not in answer.body_html


def test_the_line_nearly_a_command_is_the_one_answered_wherever_it_stands(server):
    table = Table(server)
    table.write(ALICE, "Hello there,\nI would like a game.\nMy friend said to write.\njion 5\nthanks")
    assert "- join <N>: take seek N" in table.text(ALICE)


def test_a_mistyped_line_beside_commands_is_named_and_the_commands_are_carried_out(server):
    table = Table(server)
    assert table.write(ALICE, "seeks\nsekk side-view\nBest, Alice").startswith("rejected: seeks; refused: A line "
                                                                                "was not understood; the nearest: seek")
    assert table.last(ALICE, "seeks") and "A line was not understood; the nearest: seek <variant>" in \
        " ".join(table.text(ALICE, "error").split())


def test_a_mail_with_nothing_in_it_still_gets_how_to_play(server):
    table = Table(server)
    assert table.write(ALICE, "") == "done: lobby help"
    assert WHOLE_HELP in table.text(ALICE, "help")


def test_the_nearest_commands_come_from_the_command_objects_a_new_command_included():
    scoreboard = MailCommand("scoreboard", "<T>", "a made-up command", in_lobby=lambda context, line: None)
    assert nearest([*LOBBY_COMMANDS, scoreboard], "scorebaord 3")[0] is scoreboard
    assert nearest(LOBBY_COMMANDS, "standigns 3")[0].name == "standings"
    assert nearest(LOBBY_COMMANDS, "ratigns")[0].name == "rating"
    assert nearest(LOBBY_COMMANDS, "list seek")[0].name == "seeks"
    assert find(LOBBY_COMMANDS, Command("cancel", "cancel seek 3", "seek 3"))[0].name == "cancel seek"


@pytest.fixture
def signed(game, dns_zone):
    """The server with its listener, and Alice's provider, which signs her mail (DKIM)."""
    game.players = Provider(dns_zone, "players.test")
    return game


def test_a_proven_sender_is_quoted_the_line_and_the_word_not_understood(signed):
    raw = signed.players.sign(fresh(ALICE, REFEREE, "jion 5\nseek kriegspiel soon", subject="club"))
    outcome = deliver(signed, raw, ALICE)
    assert outcome.startswith("rejected: refused: 'jion 5' was not understood; the nearest: join <N>"), outcome
    assert outcome.endswith("; seek: 'soon' is not an option of a seek; write: seek <variant> [days=3] [options] "
                            "[rated|unrated] [rating LOW-HIGH]"), outcome
    assert "'soon' is not an option of a seek" in said(signed.sink.to(ALICE)[-1])
    raw = signed.players.sign(fresh(ALICE, REFEREE, "hello referee", subject="club"))
    assert deliver(signed, raw, ALICE) == "done: not understood"
    assert "Not understood: 'hello referee'." in said(signed.sink.to(ALICE)[-1])


def test_a_challenge_and_rules_name_the_game_by_its_title_too(server):
    table = Table(server)
    assert table.write(ALICE, "challenge bob@players.test Side View Chess days=2") == \
        "done: held for confirmation: challenge bob@players.test side-view days=2 color=white physics=3 " \
        "setup=standard"
    assert table.write(BOB, "rules through the looking glass") == "done: rules"
    assert "The rules of Through the Looking-Glass" in table.text(BOB, "rules")
