"""What each variant's presenter puts in front of a player, through the real pipeline: pictures in both parts
of the mail and on the web, the variant's own commands, and the record of the game."""

import re
from email import message_from_bytes
from email.policy import default

from app.rules.registry import get_variant
from tests.server.harness import ALICE, BOB, Table
from tests.web_helpers import client_for


def parts(mail) -> tuple[str, str]:
    message = message_from_bytes(mail.raw, policy=default)
    text = message.get_body(("plain",)).get_content().replace("\r\n", "\n")
    return text, message.get_body(("html",)).get_content()


def test_QA4_9_all_four_boards_2x2_in_both_parts_and_on_the_web_with_the_last_move_marked_twice(server):
    table = Table(server, "quasi-alice-4d")
    game_id = table.start()
    table.reply(ALICE, "A:e2-e4>B", kind="request")
    text, html = parts(table.last(BOB, "request"))
    assert max(len(line) for line in text.splitlines() if "://" not in line) <= 72  # a 72-column reader
    lines = text.splitlines()
    top = next(n for n, line in enumerate(lines) if re.match(r"^\s+Board A\s+Board B$", line))
    assert re.match(r"^\s+Board C\s+Board D$", lines[top + 12])  # 2x2: a blank line under the first row
    marked = [line for line in text.splitlines() if "[" in line]
    assert any(line.strip().startswith("2") for line in marked)  # e2 on board A, where it was played
    assert sum(line.count("[") for line in marked if line.strip().startswith("4")) == 2  # e4 on A and on B
    assert html.count('role="img"') == 4 and html.count("<td bgcolor") == 256
    assert "Last move: A:e2-e4&gt;B." in html
    assert "A:" in text and ">B" in text and "your move (Black)" in table.last(BOB, "request").subject
    page = client_for(server, game_id, table.game(game_id).black_id).get(f"/games/{game_id}").data.decode()
    assert page.count("<svg") - page.count("<svg class=\"key\"") == 4 and 'aria-label="Board B: White: Pe4."' in page


def test_QA4_9_the_game_over_mail_and_the_reveal_give_every_move_in_QA4_notation(server):
    table = Table(server, "quasi-alice-4d")
    game_id = table.start()
    table.reply(ALICE, "A e2-e4 > B", kind="request")
    table.reply(BOB, "A:e7-e5>C", kind="request")
    table.reply(ALICE, "resign", kind="request")
    text, _html = parts(table.last(ALICE, "game-over"))
    assert "The game in moves:\n  1. A:e2-e4>B A:e7-e5>C\n  0-1" in text
    client = client_for(server, game_id, table.game(game_id).white_id)
    assert "1. A:e2-e4&gt;B A:e7-e5&gt;C" in client.get(f"/games/{game_id}/reveal").data.decode()


def test_PAL_1_each_rooks_hand_is_drawn_in_text_html_and_svg_with_a_legend(server):
    """A rook's hand is a sign no piece letter can be taken for (R would read as a rook): < left, > right; the
    notes say the hands in words."""
    table = Table(server, "palindromic")
    game_id = table.start()
    text, html = parts(table.last(ALICE, "request"))
    first_rank = next(line for line in text.splitlines() if re.match(r"^\s+1 ", line))
    assert first_rank.split()[1:3] == ["R>", "N"] and first_rank.split()[-2] == "R<"  # a1 right, h1 left
    assert "Beside each rook, its hand: < left-handed, > right-handed" in " ".join(text.split())
    assert "Rooks: a1 and h8 right-handed, a8 and h1 left-handed." in " ".join(text.split())
    assert not re.search(r"\bL[a-h][1-8]\b", text) and "Rooks: R" not in text  # no hand written as a letter
    assert "Pieces home: you 0 of 16" in text
    assert html.count(">&gt;</span></div>") == 2 and html.count(">&lt;</span></div>") == 2
    page = client_for(server, game_id, table.game(game_id).white_id).get(f"/games/{game_id}").data.decode()
    assert page.count(">&gt;</text>") == 2 and page.count(">&lt;</text>") == 2


def test_PAL_2_where_answers_a_pieces_destinations_from_the_players_view(server):
    table = Table(server, "palindromic")
    table.start()
    table.reply(ALICE, "where g1", kind="request")
    assert "Your knight on g1 must reach b8 or g8." in table.text(ALICE)
    table.reply(ALICE, "where h1", kind="notice")
    assert "Your left-handed rook on h1 must reach a8." in table.text(ALICE)
    table.reply(BOB, "where e5", kind="started")
    assert "There is no piece on e5." in table.text(BOB)


def test_PAL_6_the_record_of_the_game_is_pgn_with_the_rooks_hands(server):
    table = Table(server, "palindromic")
    table.start()
    for side, order in ((ALICE, "a4"), (BOB, "h5"), (ALICE, "Ra3"), (BOB, "Rh6"), (ALICE, "resign")):
        table.reply(side, order, kind="request")
    text, _html = parts(table.last(BOB, "game-over"))
    assert "[Variant" not in text and '[Variant "Chess960"]' in table.attachment(BOB, "game-over", ".pgn")  # the
    # file replays in chess programs (test_presenter_records); the mail shows the moves
    assert "1. a4 h5 2. Ra3 {right-handed rook} Rh6 {right-handed rook} 0-1" in " ".join(text.split())


def test_SV_2_physics_1_shows_the_rank_strip_and_no_enemy_square(server):
    table = Table(server, "side-view")
    game_id = table.start(physics="1")
    text, html = parts(table.last(ALICE, "request"))
    assert "From the east" in text and "Rank 8: r." in text
    board_rows = [line for line in text.splitlines() if re.match(r"^\s+[78] ", line)]
    assert all(not re.search(r"[a-z]", line.split("    ")[0][4:]) for line in board_rows)  # no enemy on the board
    assert 'aria-label="From the east: Rank 8: r. Rank 7: p."' in html
    assert "between ( )" not in text.lower() and "A square you were told about" in html  # the strip: lilac, no ( )
    variant = get_variant("side-view")
    view = variant.view(variant.from_json(table.game(game_id).state), "white")
    examples = variant.example_orders(view, "white")
    assert examples and all(example in text for example in examples[:2])  # the forms come from White's own view
