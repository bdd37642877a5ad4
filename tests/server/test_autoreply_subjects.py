"""Out-of-office replies in the languages people write them in get no answer, even with no RFC 3834 header;
a player's own reply, whatever its subject's prefix and language, is always read. Over real SMTP."""

from email.header import Header

import pytest

from app.inbound.autoreplies import is_auto_reply_subject
from app.inbound.clients import fresh, reply
from tests.server.harness import Table
from tests.server.smtp_game import ALICE, BOB, REFEREE

OUR_SUBJECT = "Re: Game 4, move 12: your move (White)"
AUTO_REPLIES = {  # Outlook's own prefix in each language, then what people give their notes
    "English": "Automatic reply: " + OUR_SUBJECT,
    "English, by hand": "Out of the office until 3 June",
    "French": "Réponse automatique : " + OUR_SUBJECT,
    "Spanish": "Respuesta automática: " + OUR_SUBJECT,
    "Dutch": "Automatisch antwoord: " + OUR_SUBJECT,
    "German": "Automatische Antwort: " + OUR_SUBJECT,
    "German, by hand": "AW: Abwesenheitsnotiz",
    "Italian": "Risposta automatica: " + OUR_SUBJECT,
    "Italian, by hand": "R: Fuori ufficio",
    "Portuguese": "Resposta automática: " + OUR_SUBJECT,
    "Polish": "Odpowiedź automatyczna: " + OUR_SUBJECT,
    "Polish, by hand": "Odp: Poza biurem do 12.06",
    "Czech": "Automatická odpověď: " + OUR_SUBJECT,
    "Swedish": "Automatiskt svar: " + OUR_SUBJECT,
    "Danish": "Automatisk svar: " + OUR_SUBJECT,
    "Norwegian, by hand": "Fraværende: " + OUR_SUBJECT,
    "Finnish": "Automaattinen vastaus: " + OUR_SUBJECT,
    "Finnish, by hand": "VS: Poissaoloviesti",
    "Russian": "Автоматический ответ: " + OUR_SUBJECT,
    "Russian, by hand": "Отв: Вне офиса",
    "Ukrainian": "Автоматична відповідь: " + OUR_SUBJECT,
    "Turkish": "Otomatik yanıt: " + OUR_SUBJECT,
    "Japanese": "自動応答: " + OUR_SUBJECT,
    "Chinese": "自动回复: " + OUR_SUBJECT,
    "Chinese, traditional": "自動回覆: " + OUR_SUBJECT,
    "Korean": "자동 회신: " + OUR_SUBJECT,
    "Hungarian": "Automatikus válasz: " + OUR_SUBJECT,
    "Greek": "Αυτόματη απάντηση: " + OUR_SUBJECT,
    "Romanian": "Răspuns automat: " + OUR_SUBJECT,
    "a word and a colon": "Urlaub: " + OUR_SUBJECT,
    "a word and its dates": "Vacation (back on Monday)",
    "upper case, fullwidth, behind a tag": "[EXT] ＡＵＴＯＭＡＴＩＣ ＲＥＰＬＹ: " + OUR_SUBJECT,
}
PLAYERS = {  # subjects a person writes: never taken for an auto-reply
    "our subject": OUR_SUBJECT,
    "our subject, German": "AW: Game 4, move 12: your move (White)",
    "our subject, Polish": "Odp: Game 4, move 12: your move (White)",
    "our subject, Chinese": "回复: Game 4, move 12: your move (White)",
    "a new game's": "Re: Game 4, move 1: the game has started - your move (White)",
    "the vacation command": "vacation",
    "a vacation, said": "On vacation next week",
    "a vacation, in German": "Urlaub",
    "a holiday": "Holiday plans and a new game",
    "absent-minded": "Absent-minded blunder, sorry",
    "out of ideas": "I am out of ideas",
    "out of the opening": "Out of the opening: Re: Game 4",
    "away from the board": "Away from the board all week",
    "an automatic promotion": "Automatic promotion? Re: Game 4",
    "auto-castling": "Auto-castling question",
    "a French answer": "Réponse à votre invitation",
    "a confirmation": "Re: Mirrorpost: please confirm",
}


@pytest.mark.parametrize("language", AUTO_REPLIES)
def test_an_out_of_office_subject_is_an_auto_reply_in_every_common_language(language):
    assert is_auto_reply_subject(AUTO_REPLIES[language])


@pytest.mark.parametrize("kind", PLAYERS)
def test_a_players_subject_is_never_taken_for_an_auto_reply(kind):
    assert not is_auto_reply_subject(PLAYERS[kind])


def with_subject(raw: bytes, subject: str) -> bytes:
    """``raw`` with its Subject made ``subject`` (RFC 2047-encoded, as clients write it) and no other change."""
    head, body = raw.split(b"\r\n\r\n", 1)
    lines = [line for line in head.split(b"\r\n") if not line.lower().startswith(b"subject:")]
    encoded = Header(subject, "utf-8").encode() if not subject.isascii() else subject
    return b"\r\n".join([*lines, f"Subject: {encoded}".encode()]) + b"\r\n\r\n" + body


@pytest.mark.parametrize("language", ["German", "Russian", "Japanese", "Greek"])
def test_an_auto_reply_to_a_move_request_gets_no_answer_over_smtp(game, language):
    game_id = Table(game.server).start()
    game.worker.run_once()
    before = len(game.sink.received)
    raw = reply(game.sink.last_raw(ALICE), "I am away until Monday. R e2-e4", "outlook", ALICE)
    game.send(ALICE, with_subject(raw, AUTO_REPLIES[language]), str(game.sink.to(ALICE)[-1]["Reply-To"]))
    assert len(game.sink.received) == before
    assert Table(game.server).game(game_id).ply == 0


def test_an_auto_reply_to_the_bare_address_gets_no_answer_over_smtp(game):
    game.send(ALICE, fresh(ALICE, REFEREE, "Ich bin bis Montag nicht im Büro.", subject=AUTO_REPLIES["German"]),
              REFEREE)
    assert game.sink.received == []


@pytest.mark.parametrize("kind", ["our subject, Polish", "a new game's"])
def test_a_players_reply_with_such_a_subject_is_played_over_smtp(game, kind):
    game_id = Table(game.server).start()
    game.worker.run_once()
    raw = reply(game.sink.last_raw(ALICE), "R e2-e4", "outlook", ALICE)
    game.send(ALICE, with_subject(raw, PLAYERS[kind]), str(game.sink.to(ALICE)[-1]["Reply-To"]))
    assert "your move (Black)" in game.subject(BOB)
    assert Table(game.server).game(game_id).ply == 1


def test_a_vacation_command_under_the_subject_vacation_is_answered_over_smtp(game):
    game.send(ALICE, fresh(ALICE, REFEREE, "vacation 5", subject="vacation"), REFEREE)
    assert "please confirm" in game.subject(ALICE)
