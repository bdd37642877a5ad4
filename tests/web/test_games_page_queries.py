"""The games page reads a player's games with their opponents in a fixed number of statements (no query per game)."""

from tests.server.harness import ALICE, Table, statements_seen
from tests.web_helpers import client_for

CAROL = "carol@players.test"


def statements_of_the_games_page(server, client) -> list[str]:
    with statements_seen(server.db.engine) as seen:
        page = client.get("/games")
    assert page.status_code == 200
    return [statement for statement in seen if not statement.startswith("BEGIN")]


def test_the_games_page_runs_as_many_statements_for_many_games_as_for_few(server):
    """The games, then both players of all of them by primary key (a join could walk the whole players table)."""
    table = Table(server)
    game_id = table.start()  # Alice is White against Bob
    table.new_game(CAROL, ALICE)  # and Black against Carol
    client = client_for(server, game_id, table.game(game_id).white_id)
    few = statements_of_the_games_page(server, client)
    for number in range(24):  # against new opponents each time, as White and as Black
        opponent = f"player{number}@players.test"
        table.new_game(ALICE, opponent) if number % 2 else table.new_game(opponent, ALICE)
    many = statements_of_the_games_page(server, client)
    assert len(many) == len(few) <= 5, many  # the session, the player, the games, both sides' players
    assert not any("JOIN players" in statement for statement in many)
    page = client.get("/games").data.decode()
    assert "Player23" in page and "Carol" in page and "Bob" in page  # every opponent is on the page
