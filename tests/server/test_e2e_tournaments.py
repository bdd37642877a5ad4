"""Two tournaments played to the end by mail over real SMTP on loopback: a round robin of six and a Swiss of
eight in three rounds. Every line goes to the bare address or answers a move request as a player's client
writes it; every game is played (White's first move, Black resigns) and the standings are checked."""

from __future__ import annotations

from sqlalchemy import select

from app.club.models import Tournament, TournamentPairing
from app.games.models import Player
from app.inbound.clients import fresh, reply
from app.inbound.parse import best_text
from tests.server.smtp_game import REFEREE

STYLES = ("gmail", "outlook", "apple", "thunderbird")


def players(count: int) -> list[str]:
    return [f"player{index}@players.test" for index in range(1, count + 1)]


def to_referee(game, sender: str, body: str) -> None:
    """A line to the bare address, and the confirming reply when it was held; every mail it caused delivered."""
    game.send(sender, fresh(sender, REFEREE, body, subject="tournament"), REFEREE)
    if "please confirm" in game.subject(sender):
        game.reply(sender, "", style=STYLES[len(sender) % len(STYLES)])
    delivered(game)


def delivered(game) -> None:
    """The outbox sent out whole (a start or a round makes more mails than one dispatch round takes)."""
    while game.worker.run_once()["sent"]:
        pass


def answer(game, player: str, game_id: int, body: str) -> None:
    """The player's reply to their latest move request of that game."""
    requests = [message for message in game.sink.to(player)
                if str(message["Subject"]).startswith(f"Game {game_id} (") and "your move" in str(message["Subject"])]
    assert requests, (player, game_id)
    raw = requests[-1].as_bytes()
    game.send(player, reply(raw, body, STYLES[game_id % len(STYLES)], player), str(requests[-1]["Reply-To"]))
    delivered(game)


def play_round(game, number: int, round_number: int) -> None:
    """Every game of the round: White's first move, then Black resigns."""
    with game.server.db.sessions() as session:
        boards = session.execute(select(TournamentPairing.game_id, TournamentPairing.white_id,
                                        TournamentPairing.black_id)
                                 .where(TournamentPairing.tournament_id == number,
                                        TournamentPairing.round == round_number)).all()
        emails = {player.id: player.email for player in session.scalars(select(Player))}
    for game_id, white, black in boards:
        if game_id is None:
            continue
        answer(game, emails[white], game_id, "e2-e4")
        answer(game, emails[black], game_id, "resign")


def status(game, number: int) -> str:
    with game.server.db.sessions() as session:
        return session.get(Tournament, number).status


def test_a_round_robin_of_six_by_mail_from_announcement_to_final_standings(game):
    six = players(6)
    to_referee(game, six[0], "tournament side-view players=6")
    number = int(game.text(six[0]).split("Your tournament is announced: Tournament ")[1].split(":")[0])
    for player in six[1:]:
        to_referee(game, player, f"enter {number}")
    assert status(game, number) == "running"
    subjects = [str(message["Subject"]) for message in game.sink.to(six[3])]
    assert len([subject for subject in subjects if subject.endswith("round robin has started")]) == 1, subjects
    for round_number in range(1, 6):
        play_round(game, number, round_number)
    assert status(game, number) == "finished"
    for player in six:
        ended = [message for message in game.sink.to(player) if str(message["Subject"]) ==
                 f"Mirrorpost: Tournament {number}: Side View Chess, round robin has ended"]
        assert len(ended) == 1, player
    text = " ".join(best_text(ended[0])[0].split())
    assert "Final standings" in text and "Sonneborn-Berger" in text and "Wins" in text
    # White won every game: each player's points are their Whites, as the Berger tables gave them
    with game.server.db.sessions() as session:
        whites = session.execute(select(TournamentPairing.white_id)).scalars().all()
    for player_id in set(whites):
        assert f"Player {player_id} {whites.count(player_id)} " in text, (player_id, text)
    assert sorted(whites.count(player_id) for player_id in set(whites)) == [2, 2, 2, 3, 3, 3]
    assert "@" not in text.replace(REFEREE, "")
    to_referee(game, six[5], f"standings {number}")
    assert "Final standings" in game.text(six[5])


def test_a_swiss_of_eight_in_three_rounds_by_mail_paired_round_by_round(game):
    eight = players(8)
    to_referee(game, eight[0], "tournament kriegspiel swiss players=8 rounds=3")
    number = int(game.text(eight[0]).split("Your tournament is announced: Tournament ")[1].split(":")[0])
    for player in eight[1:]:
        to_referee(game, player, f"enter {number}")
    for round_number in (1, 2, 3):
        assert status(game, number) == "running"
        if round_number > 1:
            paired = game.sink.to(eight[4])[-5:]
            assert any(f"round {round_number} of 3" in str(message["Subject"]) for message in paired)
        play_round(game, number, round_number)
    assert status(game, number) == "finished"
    with game.server.db.sessions() as session:
        met = [frozenset(pair) for pair in session.execute(select(TournamentPairing.white_id,
                                                                  TournamentPairing.black_id))]
    assert len(met) == 12 and len(set(met)) == 12  # nobody met twice
    ended = [message for message in game.sink.to(eight[7])
             if str(message["Subject"]) == f"Mirrorpost: Tournament {number}: Kriegspiel, Swiss has ended"]
    assert len(ended) == 1
    text = " ".join(best_text(ended[0])[0].split())
    assert "Buchholz Cut-1" in text and "Final standings" in text and "@" not in text.replace(REFEREE, "")
