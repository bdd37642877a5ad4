"""JSON columns are written and read by orjson (``app.db.json_text``, ``json_value``); every value must
come back exactly as the standard library's JSON would bring it back, on both databases."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import select, text

from app.db import Database, json_text, json_value, utcnow
from app.games.models import Event, Game, Player
from app.games.records.rows import add_event

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.floats(allow_nan=False, allow_infinity=False), st.text(),
)
KEYS = st.one_of(st.text(), st.integers(min_value=-(2**63), max_value=2**63 - 1), st.booleans(), st.none())
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.tuples(inner, inner), st.dictionaries(KEYS, inner, max_size=5)), max_leaves=30)
# What orjson refuses and the standard library writes: a lone surrogate (text decoded with surrogateescape
# from undecodable mail), an integer beyond 64 bits.
REFUSED_BY_ORJSON = [{"name": "caf\udce9"}, [2**70, -(2**70)], {"told": ["\ud800 alone"]}]


def standard_round_trip(value):
    return json.loads(json.dumps(value))


@settings(max_examples=300, deadline=None)
@given(VALUES)
def test_a_value_reads_back_as_the_standard_library_would_read_it(value):
    assert json_value(json_text(value)) == standard_round_trip(value)
    assert json_value(json_text(value).encode()) == standard_round_trip(value)  # psycopg hands over bytes
    assert json_value(json.dumps(value)) == standard_round_trip(value)  # rows written before orjson


def test_what_orjson_refuses_is_written_and_read_by_the_standard_library():
    for value in REFUSED_BY_ORJSON:
        assert json_text(value) == json.dumps(value)
        assert json_value(json_text(value)) == standard_round_trip(value)


def test_json_columns_round_trip_on_the_database(database_url):
    """Through the ORM and through the game service's Core statements alike."""
    db = Database(database_url)
    db.upgrade()
    options = {"days": 3, 7: "seven", "name": "Zoë \u265a", "nested": [{"a": None}, (1, 2.5)]}
    told = {"white": ["your pawn on e4 \u2014 attacked"], "black": []}
    views = {"white": {"tray": ["\u265b"], "big": 2**64 - 1}, "black": {"notes": "caf\udce9"}}
    try:
        with db.transaction() as session:
            white, black = Player(email="w@x.test", name="W"), Player(email="b@x.test", name="B")
            session.add_all([white, black])
            session.flush()
            game = Game(variant="looking-glass", status="active", white_id=white.id, black_id=black.id,
                        options=options, state={"phase": "play"})
            session.add(game)
            session.flush()
            game_id = game.id
        with db.engine.begin() as connection:
            add_event(connection, {
                "game_id": game_id, "seq": 1, "by": "white", "order": "e2-e4", "result": "moved",
                "move_number": 1, "ply": 1, "told": told, "views": views, "position": {"R": "8/8/8/8/8/8/8/8"},
                "created_at": utcnow()})
        with db.engine.connect() as connection:  # the engine writes what json_text makes, as it makes it
            stored = connection.execute(text("SELECT CAST(options AS TEXT) FROM games WHERE id = :id"),
                                        {"id": game_id}).scalar_one()
        assert stored == json_text(options)
        with db.sessions() as session:
            assert session.get(Game, game_id).options == standard_round_trip(options)
            event = session.scalars(select(Event).where(Event.game_id == game_id)).one()
            assert event.told == standard_round_trip(told)
            assert event.views == standard_round_trip(views)
    finally:
        db.engine.dispose()
