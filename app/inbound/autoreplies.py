"""Out-of-office subjects in the languages mail is written in: the last sign of an auto-reply.

Most auto-replies say what they are in their headers (RFC 3834's Auto-Submitted, Outlook's
X-Auto-Response-Suppress, ...: ``screen``); some relays strip those, and some programs never write
them. Their subject still says it, in the language of whoever set it up: Outlook's "Automatic reply:"
in each of its languages, and the words people give their own out-of-office notes.

A subject is compared after its reply and forward prefixes (``Re:``, ``AW:``, ``SV:``, ``Odp:``,
``回复:`` ...) and a bracket or two, with case, accents and compatibility forms set aside. Two lists:

- ``AUTOMATIC``: phrases that only an automatic answer begins with ("automatic reply", "out of
  office", "Abwesenheitsnotiz", "自动回复"): the subject that begins with one is an auto-reply;
- ``ABSENT``: single words a person might also begin a subject with ("Vacation", "Urlaub",
  "Absent"): only an auto-reply's shape counts, the word then a colon, a parenthesis or a spaced
  dash ("Urlaub: Re: Game 4", "Absent (until Monday)"), never the word alone or in a sentence,
  since a player's mail to the referee may be about a vacation.

A player's reply keeps our subject after its prefix ("Re: Game 4, move 12: ..."), which begins with
none of these, so it is never taken for one.
"""

from __future__ import annotations

import re
import unicodedata

AUTOMATIC = (
    # English
    "automatic reply", "automatic response", "auto reply", "auto-reply", "autoreply", "auto response",
    "auto-response", "autoresponse", "auto:", "out of office", "out of the office", "ooo:", "i am out of the office",
    "i am out of office", "i'm out of the office", "i'm out of office", "i am currently out of the office",
    "away from the office", "away from my desk", "away from office", "not in the office", "vacation reply",
    "holiday reply",
    # German
    "automatische Antwort", "Abwesenheitsnotiz", "Abwesenheitsmeldung", "nicht im Büro", "außer Haus",
    "urlaubsbedingt",
    # French
    "réponse automatique", "absence du bureau", "absent du bureau", "absente du bureau", "message d'absence",
    "hors du bureau",
    # Spanish
    "respuesta automática", "fuera de la oficina", "fuera de oficina", "mensaje de ausencia",
    "ausente de la oficina",
    # Dutch
    "automatisch antwoord", "automatisch bericht", "afwezigheidsbericht", "niet aanwezig", "buiten kantoor",
    "niet op kantoor",
    # Italian
    "risposta automatica", "fuori ufficio", "fuori sede", "messaggio di assenza",
    # Portuguese
    "resposta automática", "fora do escritório", "mensagem de ausência",
    # Polish
    "automatyczna odpowiedź", "odpowiedź automatyczna", "autoodpowiedź", "poza biurem",
    # Czech and Slovak
    "automatická odpověď", "automatická odpoveď", "mimo kancelář", "mimo kancelárie",
    # Swedish, Danish, Norwegian
    "autosvar", "automatiskt svar", "automatisk svar", "inte på kontoret", "ej på kontoret", "ikke på kontoret",
    # Finnish
    "automaattinen vastaus", "automaattivastaus", "poissa toimistolta", "poissaoloviesti", "lomaviesti",
    # Russian, Ukrainian, Bulgarian, Serbian
    "автоматический ответ", "автоответ", "нет на месте", "вне офиса", "автоматична відповідь",
    "автовідповідь", "поза офісом", "немає на місці", "автоматичен отговор", "извън офиса",
    "аутоматски одговор",
    # Turkish
    "otomatik yanıt", "otomatik cevap", "ofis dışında", "ofiste değilim",
    # Japanese, Chinese, Korean
    "自動応答", "自動返信", "自動返答", "不在通知", "不在のお知らせ", "外出中",
    "自动回复", "自動回覆", "自動回復", "自动答复", "自動答覆", "不在办公室", "不在辦公室",
    "자동 회신", "자동회신", "자동 응답", "자동응답", "부재중", "부재 중",
    # Hungarian, Greek, Romanian
    "automatikus válasz", "házon kívül", "irodán kívül",
    "αυτόματη απάντηση", "εκτός γραφείου", "răspuns automat", "în afara biroului",
    # Other languages of Europe
    "automatski odgovor", "izvan ureda", "van kancelarije", "samodejni odgovor", "automatinis atsakymas",
    "automātiska atbilde", "automaatne vastus", "kontorist väljas",
    # Hebrew, Arabic, Persian, Hindi, Thai, Vietnamese, Indonesian and Malay
    "תשובה אוטומטית", "מחוץ למשרד", "رد تلقائي", "خارج المكتب", "پاسخ خودکار", "स्वचालित उत्तर",
    "ตอบกลับอัตโนมัติ", "trả lời tự động", "balasan otomatis", "balasan automatik", "di luar kantor",
)
ABSENT = (
    "vacation", "holiday", "holidays", "absence", "absent", "away", "on vacation", "on holiday", "on leave",
    "i am away", "i'm away",
    "Urlaub", "Ferien", "abwesend", "Abwesenheit", "im Urlaub",
    "vacances", "absente", "je suis absent", "je suis absente", "en congé", "en vacances",
    "vacaciones", "ausente", "ausencia", "de vacaciones", "estoy fuera",
    "vakantie", "afwezig", "afwezigheid", "met vakantie",
    "ferie", "assente", "assenza", "in ferie", "sono in ferie",
    "férias", "ausência", "de férias", "em férias",
    "urlop", "nieobecność", "nieobecny", "nieobecna", "jestem na urlopie",
    "dovolená", "nepřítomnost", "nepřítomen", "nepřítomna", "jsem na dovolené", "som na dovolenke",
    "semester", "frånvaro", "frånvarande", "fravær", "fraværende", "på semester", "på ferie",
    "loma", "poissa", "lomalla", "olen lomalla",
    "отпуск", "отсутствую", "отсутствие", "в отпуске", "відпустка", "відсутній", "відсутня", "відсутність",
    "у відпустці",
    "izin", "izinde", "izindeyim",
    "休暇", "休暇中", "不在", "休假", "外出", "휴가", "외출",
    "szabadság", "szabadságon", "távol vagyok", "άδεια", "απουσία", "concediu", "cuti",
    "odsutan", "odsutna", "odsoten", "odsotna",
)
# Reply and forward prefixes, in the languages of the lists above, each with its colon (and a count: Re[2]:).
PREFIXES = re.compile(
    r"^(?:\s*(?:re|aw|sv|vs|antw|antwort|wg|fw|fwd|tr|r|rif|i|odp|pd|va|ynt|cevap|ilt|res|enc|rv|ref|atb|odg|"
    r"vast|doorst|vl|fs|отв|ответ|відп|σχετ|απ|πρθ|回复|回覆|答复|转发|轉寄|답장|전달|返信|転送)"
    r"\s*(?:\[\d+\]|\(\d+\))?\s*[:：]\s*)+"
)
BRACKETS = re.compile(r"^(?:\s*[\[(【「]\s*)+")
TAGS = re.compile(r"^(?:\s*(?:\[[^\]]{0,40}\]|【[^】]{0,40}】))+\s*")  # [EXT], [External], 【外部】 ...


def plain(text: str) -> str:
    """``text`` with case, accents and compatibility forms set aside, spaces run together."""
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(char for char in text if unicodedata.category(char) != "Mn")
    return " ".join(text.split())


AUTOMATIC_FORMS = tuple(sorted({plain(phrase) for phrase in AUTOMATIC}))
ABSENT_SHAPE = re.compile(r"^(?:{})\s*(?:[:：(]|\s[-–—|]\s)".format(
    "|".join(sorted({re.escape(plain(word)) for word in ABSENT}, key=len, reverse=True))))


def is_auto_reply_subject(subject: str) -> bool:
    """Whether a subject says, in any of the common languages, that an auto-reply wrote it."""
    text = PREFIXES.sub("", plain(subject[:300]))
    untagged = PREFIXES.sub("", TAGS.sub("", text))  # "[EXT] Re: Out of office", "Re: [External] Autosvar"
    for each in (BRACKETS.sub("", text), BRACKETS.sub("", untagged)):  # "[Auto-Reply] ..."
        if each.startswith(AUTOMATIC_FORMS) or ABSENT_SHAPE.match(each) is not None:
            return True
    return False
