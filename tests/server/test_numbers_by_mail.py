"""Numbers in mail commands are read by the one reader of the digits 0 to 9 (after the command line is folded:
other scripts' decimal digits and "²" are written as ASCII ones first). A digit no folding makes ASCII
(Kharoshthi's, which ``str.isdigit`` passes and ``int`` refuses) or an underscore ``int`` would skip is an
error the sender is told, never an internal error nor another number."""

import pytest

from tests.server.harness import ALICE, BOB, Table

KHAROSHTHI_ONE = "\U00010a40"  # a digit to isdigit(), not to int(), and no ASCII one after NFKC
ZEROS = "0" * 5000 + "1"  # one, in more digits than ``int`` reads: too large


@pytest.mark.parametrize(("line", "said"), [
    (f"vacation {KHAROSHTHI_ONE}", "write: vacation <number of days>"),
    (f"join {KHAROSHTHI_ONE}", "write the seek's number"),
    (f"cancel seek {KHAROSHTHI_ONE}", "write the seek's number"),
    (f"challenge {BOB} side-view days={KHAROSHTHI_ONE}", "days must be a whole number of days from 1 to 30"),
    (f"challenge {BOB} side-view days=1_0", "days must be a whole number of days from 1 to 30"),
    (f"challenge {BOB} looking-glass strikes=1_0", "strikes must be a whole number"),
    (f"challenge {BOB} looking-glass strikes={KHAROSHTHI_ONE}", "strikes must be a whole number"),
    (f"seek side-view days={KHAROSHTHI_ONE}", "days must be a whole number of days from 1 to 30"),
    (f"digest daily {KHAROSHTHI_ONE}", "write: digest daily HOUR"),
    (f"join {ZEROS}", "join: write the seek's number, as 'seeks' lists it: join 12"),
    (f"cancel seek {ZEROS}", "cancel seek: write the seek's number, as 'seeks' lists it: cancel seek 12"),
    (f"enter {ZEROS}", "enter: write the tournament's number, as 'tournaments' lists it: enter 12"),
    (f"enter T{KHAROSHTHI_ONE}", "enter: write the tournament's number, as 'tournaments' lists it: enter 12"),
    (f"standings {ZEROS}", "standings: write the tournament's number, as 'tournaments' lists it: standings 12"),
    (f"challenge {BOB} side-view days={ZEROS}", "days must be a whole number of days from 1 to 30"),
    (f"seek side-view days={ZEROS}", "days must be a whole number of days from 1 to 30"),
    (f"tournament side-view days={ZEROS}", "days must be a whole number of days from 1 to 30"),
    (f"tournament side-view players={ZEROS}", "a round robin has 3 to 16 players"),
    (f"vacation {ZEROS}", "write: vacation <number of days>"),
])
def test_a_number_in_a_mail_command_that_is_no_number_is_told_as_an_error(server, line, said):
    table = Table(server)
    table.start()
    outcome = table.write(ALICE, line)
    assert outcome is not None and outcome.startswith("rejected:") and "refused: " in outcome and said in outcome, \
        outcome
    assert said in table.text(ALICE)


def test_folded_digits_are_still_read_as_the_player_meant_them(server):
    """A phone that writes Arabic-Indic or fullwidth digits: folded to ASCII before the reader sees them."""
    table = Table(server)
    table.start()
    outcome = table.write(ALICE, f"challenge {BOB} side-view days=\u0661\u0662")
    assert "held for confirmation" in outcome and "12 days" in table.text(ALICE)


def test_a_setup_number_that_is_no_number_is_an_error_in_the_game(server):
    table = Table(server, "side-view")
    game_id = table.new_game(setup="hidden")
    table.reply(ALICE, "accept", kind="invitation")
    table.reply(BOB, "accept", kind="invitation")
    outcome = table.reply(ALICE, f"setup 5{KHAROSHTHI_ONE}8", kind="setup-request")
    assert outcome is not None and table.game(game_id).status == "setup", outcome
