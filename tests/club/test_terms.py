"""A tournament's terms as organisers write them: defaults, spellings, and a specific answer to each mistake that
repeats nothing the organiser wrote."""

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.club.tournaments.core.terms import Terms, TermsError, read_terms, terms_from
from app.club.tournaments.core.values import ROUND_ROBIN, SWISS
from app.rules.registry import VARIANTS
from app.rules.variant_names import variant_named

TODAY = date(2026, 11, 28)


def read(line: str) -> Terms:
    return read_terms(line.split(), today=TODAY)


def refused(line: str) -> str:
    with pytest.raises(TermsError) as raised:
        read(line)
    return str(raised.value)


def test_a_game_alone_is_a_rated_round_robin_of_six_at_three_days_a_move():
    terms = read("kriegspiel")
    assert terms == Terms(variant="kriegspiel", format=ROUND_ROBIN, players=6, rated=True, days=3, rounds=None,
                          starts=None, options={"setup": "standard"})
    assert terms.fewest == 3
    assert [terms.rounds_for(entrants) for entrants in (3, 4, 5, 6)] == [3, 3, 5, 5]


def test_a_swiss_has_eight_places_and_rounds_to_suit_its_entrants_unless_given():
    terms = read("kriegspiel swiss")
    assert (terms.format, terms.players, terms.rounds, terms.fewest) == (SWISS, 8, None, 4)
    assert [terms.rounds_for(entrants) for entrants in (4, 5, 8, 9, 17)] == [3, 4, 4, 5, 6]
    given_rounds = read("kriegspiel swiss players=20 rounds=7")
    assert [given_rounds.rounds_for(entrants) for entrants in (5, 8, 20)] == [4, 7, 7]


def test_every_term_is_read():
    terms = read("looking-glass impossible=forfeit win=extinction Swiss rounds=5 players=10 unrated "
                 "starts=2027-01-01 days=5")
    assert terms == Terms(variant="looking-glass", format=SWISS, players=10, rated=False, days=5, rounds=5,
                          starts=date(2027, 1, 1), options={"strikes": 3, "impossible": "forfeit", "win": "extinction"})


@pytest.mark.parametrize("words", ["round-robin", "round robin", "Round Robin", "roundrobin", "RR", "round_robin",
                                   "format=round-robin", "format=rr"])
def test_round_robin_as_people_write_it(words):
    assert read(f"kriegspiel {words} players=5").format == ROUND_ROBIN


@pytest.mark.parametrize("words", ["swiss", "Swiss", "SWISS", "format=swiss"])
def test_swiss_as_people_write_it(words):
    assert read(f"kriegspiel {words}").format == SWISS


@pytest.mark.parametrize(("phrase", "name"), [
    ("side-view", "side-view"), ("side view", "side-view"), ("Side View Chess", "side-view"),
    ("SIDE_VIEW", "side-view"), ("looking glass", "looking-glass"), ("Through the Looking-Glass", "looking-glass"),
    ("4D Quasi-Alice Chess", "quasi-alice-4d"), ("quasi alice 4d", "quasi-alice-4d"),
    ("Palindromic Chess", "palindromic"), ("kriegspiel", "kriegspiel"),
])
def test_a_game_by_its_name_or_its_title(phrase, name):
    assert variant_named(phrase.split()) == (name, len(phrase.split()))
    assert read(f"{phrase} swiss").variant == name


def test_the_game_may_come_among_the_terms():
    assert read("swiss Side View players=12 Chess").variant == "side-view"


def test_an_unknown_game_is_answered_with_the_nearest_name_and_never_the_word_written():
    message = refused("sideveiw swiss")
    assert message.startswith("there is no game by that name; did you mean side-view?")
    assert "kriegspiel, looking-glass" in message and "sideveiw" not in message
    far = refused("zanzibar")
    assert far.startswith("there is no game by that name; the games:") and "zanzibar" not in far


def test_words_after_the_game_that_are_no_term_are_answered_with_how_terms_are_written():
    assert refused("kriegspiel 8 players").startswith("after the game come its terms, each as key=value")


def test_no_game_at_all():
    assert refused("swiss players=8").startswith("name the game first")


@pytest.mark.parametrize(("line", "answer"), [
    ("side-view physics=zebra", "physics must be 1, 2 or 3, not the value given"),
    ("kriegspiel gallop=1", "Kriegspiel has no option by that name; its options: setup=standard|chess960"),
    ("quasi-alice-4d setup=chess960", "4D Quasi-Alice Chess takes no options"),
    ('palindromic start={"board":"qqqzebra"}', "an option's value is not one the game takes; its options: start={...}"),
    ("kriegspiel color=white", "colours in a tournament come from its pairings: leave out color="),
    ("kriegspiel =3", "write each term as key=value, e.g. players=8"),
    ("kriegspiel players=5 players=6", "players= is given twice"),
    ("side-view physics=1 physics=2", "an option is given twice"),
    ("kriegspiel swiss rr", "write round-robin or swiss, not both"),
    ("kriegspiel rated unrated", "write rated or unrated, not both"),
    ("kriegspiel format=knockout", "a tournament is a round-robin or a swiss"),
    ("kriegspiel players=2", "a round robin has 3 to 16 players: players=N"),
    ("kriegspiel players=17", "a round robin has 3 to 16 players: players=N"),
    ("kriegspiel swiss players=3", "a Swiss has 4 to 128 players: players=N"),
    ("kriegspiel swiss players=129", "a Swiss has 4 to 128 players: players=N"),
    ("kriegspiel swiss players=-8", "a Swiss has 4 to 128 players: players=N"),
    ("kriegspiel swiss players=8.0", "a Swiss has 4 to 128 players: players=N"),
    ("kriegspiel swiss players=0000000000000000008", "a Swiss has 4 to 128 players: players=N"),
    ("kriegspiel swiss players=٨", "a Swiss has 4 to 128 players: players=N"),  # an Arabic-Indic eight
    ("kriegspiel swiss players=８", "a Swiss has 4 to 128 players: players=N"),  # a full-width eight
    ("kriegspiel swiss rounds=0", "a Swiss of 8 players has 1 to 7 rounds: rounds=N"),
    ("kriegspiel swiss rounds=8", "a Swiss of 8 players has 1 to 7 rounds: rounds=N"),
    ("kriegspiel swiss players=100 rounds=100", "a Swiss of 100 players has 1 to 99 rounds: rounds=N"),
    ("kriegspiel rounds=3", "in a round robin everyone plays everyone once: leave out rounds="),
    ("kriegspiel days=0", "days must be a whole number of days from 1 to 30"),
    ("kriegspiel days=31", "days must be a whole number of days from 1 to 30"),
    ("kriegspiel starts=tomorrow", "write the start day as year-month-day: starts=2026-12-05"),
    ("kriegspiel starts=20261201", "write the start day as year-month-day: starts=2026-12-05"),
    ("kriegspiel starts=2026-W49-1", "write the start day as year-month-day: starts=2026-12-05"),
    ("kriegspiel starts=2027-02-29", "the start day given is not a day of the calendar; for example "
                                     "starts=2026-12-05"),
    ("kriegspiel starts=2026-11-28", "the start day must be after today (2026-11-28, UTC)"),
    ("kriegspiel starts=2025-12-01", "the start day must be after today (2026-11-28, UTC)"),
    ("kriegspiel starts=2027-11-29", "the start day must be within a year, by 2027-11-28"),
])
def test_each_mistake_has_its_own_answer(line, answer):
    assert refused(line) == answer


def test_a_start_within_the_year_is_taken():
    assert read("kriegspiel starts=2026-11-29").starts == date(2026, 11, 29)
    assert read("kriegspiel starts=2027-11-28").starts == date(2027, 11, 28)


def test_an_announcement_of_many_words_is_refused_whole():
    assert refused("kriegspiel " + "rated " * 40) == "an announcement has at most 40 words"


def test_the_command_line_gives_the_same_terms_one_by_one():
    assert terms_from("Side View", format="swiss", players=12, rounds=5, rated=False, days=4,
                      starts=date(2027, 3, 1), options={"physics": "2"}, today=TODAY) == \
        read("side-view physics=2 swiss players=12 rounds=5 unrated days=4 starts=2027-03-01")
    with pytest.raises(TermsError, match="a Swiss has 4 to 128 players"):
        terms_from("kriegspiel", format="swiss", players=True, today=TODAY)
    with pytest.raises(TermsError, match="a tournament is a round-robin or a swiss"):
        terms_from("kriegspiel", format="arena", today=TODAY)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_each_game_can_be_announced(variant):
    assert read(f"{variant} swiss").options == VARIANTS[variant].parse_options({})


@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from(sorted(VARIANTS)), swiss=st.booleans(), players=st.integers(4, 16),
       rounds=st.integers(0, 15), rated=st.booleans(), days=st.integers(1, 30), starts=st.integers(0, 365))
def test_the_written_terms_read_back_as_the_same(variant, swiss, players, rounds, rated, days, starts):
    terms = terms_from(variant, format="swiss" if swiss else "rr", players=players, rated=rated, days=days,
                       rounds=min(rounds, players - 1) or None if swiss else None,
                       starts=date.fromordinal(TODAY.toordinal() + starts) if starts else None, today=TODAY)
    assert read_terms(terms.written().split(), today=TODAY) == terms


def test_a_position_as_an_option_is_written_back_as_one_word():
    start = '{"board":"r3k2r/8/8/8/8/8/8/R3K2R","handed":{"a1":"left","h1":"right","a8":"right","h8":"left"}}'
    terms = read(f"palindromic start={start}")
    assert terms.options["start"]["board"] == "r3k2r/8/8/8/8/8/8/R3K2R"
    assert read_terms(terms.written().split(), today=TODAY) == terms
