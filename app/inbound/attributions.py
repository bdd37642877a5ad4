"""The lines mail clients write around a quote, in the languages their users set.

An attribution ("On <date>, <name> <address> wrote:", "W dniu ... napisał(a):", "... 写道："),
an "Original Message" separator or an Outlook header block ("From: ... Sent: ... To: ...
Subject: ...", "Von: ... Gesendet: ...", "发件人: ... 发送时间: ...") introduces the quoted
original; a signature or a forward ends what the player wrote. Each holds the quoted sender's
name and address, which may look like an order ("h4ck@example.com" names the square h4): none
may be read.

Every pattern is tried on one line of at most ``LONGEST`` characters, or on two or three such
lines joined, so the work is bounded on each line and linear in the text; none can backtrack far.
"""

from __future__ import annotations

import re

LONGEST = 400  # characters: no client writes a longer attribution, separator or header line
HEADER_BLOCK_LINES = 12  # the most lines a header block takes (fields, wrapped names and addresses)

# "wrote" (or "writes") in the languages mail clients are used in
WORD_VERBS = (
    "wrote", "schrieb", "a écrit", "a ecrit", "escribió", "escribio", "ha scritto", "schreef", "geschreven",
    "escreveu", "skrev", "kirjoitti", r"napisał\(a\)", "napisała", "napisał", "pisze", r"napsal\(a\)", "napsala",
    "napsal", r"napísal\(a\)", "napísal", r"написал\(а\)", "написала", "написал", "пишет", "пише", "написав",
    "написа", "yazdı", "έγραψε", "írta", "a scris", "đã viết", "kirjutas", "rašė", "rakstīja", "napisao",
    "va escriure", "menulis", "כתב", "كتب",
)
CJK_VERBS = ("写道", "寫道", "のメッセージ", "書きました", "작성")  # written against the name, with no space
VERB = "(?:(?<!\\w)(?:" + "|".join(WORD_VERBS) + ")(?!\\w)|" + "|".join(CJK_VERBS) + ")"
VERB_ANYWHERE = re.compile(VERB)
VERB_LAST = re.compile(VERB + r"\s*[:：]?$")
COLONS = (":", "：")
# words an attribution opens with: "On", "Am", "Le", "El", "Il giorno", "Op", "Em", "Den", "På", "W dniu", "Dne", ...
OPENING = re.compile(r"(?:on|am|le|el|il giorno|il|op|em|den|på|w dniu|dne|в|στις|vào|în|在)(?!\w)")
ADDRESS_COLON = re.compile(r"@[^\s@<>()\[\]]+[>)\]]\s*[:：]$")  # Gmail in Russian, Japanese, Hebrew: "... <a@b>:"
DATE = re.compile(r"\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}\b")  # an old Gmail's "2011/4/7 Name <a@b>", no verb
ADDRESS_LAST = re.compile(r"<[^<>\s@]+@[^<>\s@]+>\s*[:：]?$")
MAY_START = re.compile(r"\d[:.]\d\d|[@<]")  # a time, an address: a first line an attribution may go on from

SEPARATOR = re.compile(
    r"(?:-{2,}\s*(?:original message|reply message|ursprüngliche nachricht|antwort nachricht|message d'origine|"
    r"mensaje original|messaggio originale|oorspronkelijk bericht|mensagem original|oprindelig meddelelse|"
    r"opprinnelig melding|ursprungligt meddelande|alkuperäinen viesti|oryginalna wiadomość|wiadomość oryginalna|"
    r"původní zpráva|исходное сообщение|原始邮件|原始郵件|元のメッセージ|원본 메시지|orijinal ileti|"
    r"αρχικό μήνυμα|eredeti üzenet)\s*-{2,}|_{10,})$"
)
FORWARD = re.compile(
    r"(?:-{2,}\s*(?:forwarded message|weitergeleitete nachricht|message transféré|mensaje reenviado|"
    r"messaggio inoltrato|doorgestuurd bericht|mensagem encaminhada|videresendt meddelelse|"
    r"vidarebefordrat meddelande|przekazana wiadomość|пересылаемое сообщение|转发的邮件|転送メッセージ|"
    r"전달된 메시지)\s*-{2,}.*|begin forwarded message:?|anfang der weitergeleiteten nachricht:?|"
    r"début du message réexpédié\s*:?)$"
)
SIGNATURE = re.compile(
    r"(?:--\s*|sent from my .*|get outlook for .*|envoyé de mon .*|von meinem .* gesendet|enviado desde mi .*|"
    r"inviato da .*|sent from mail for windows.*|sent with proton ?mail.*)$"
)

# Outlook's header block, as Outlook and the webmails translate its field names
FIELDS = {
    "from": ("from", "von", "de", "da", "van", "fra", "från", "od", "от", "від", "kimden", "από", "feladó",
             "lähettäjä", "expéditeur", "remitente", "发件人", "寄件者", "寄件人", "差出人", "보낸 사람", "מאת", "من"),
    "date": ("sent", "date", "gesendet", "datum", "envoyé", "enviado", "enviada em", "enviada", "fecha", "inviato",
             "data", "verzonden", "sendt", "skickat", "wysłano", "odesláno", "отправлено", "дата", "надіслано",
             "gönderildi", "tarih", "στάλθηκε", "ημερομηνία", "elküldve", "dátum", "lähetetty", "päivämäärä",
             "发送时间", "日期", "寄件日期", "送信日時", "日付", "보낸 날짜", "날짜", "נשלח", "תאריך",
             "تاريخ الإرسال", "التاريخ"),
    "to": ("to", "an", "à", "a", "para", "aan", "til", "till", "do", "komu", "кому", "kime", "προς", "címzett",
           "vastaanottaja", "收件人", "收件者", "宛先", "받는 사람", "אל", "إلى"),
    "cc": ("cc", "kopie", "copie", "cópia", "kopia", "копия", "bilgi", "másolatot kap", "kopio",
           "抄送", "副本", "참조", "עותק", "نسخة"),
    "subject": ("subject", "betreff", "objet", "asunto", "oggetto", "onderwerp", "assunto", "emne", "ämne", "temat",
                "předmět", "тема", "konu", "θέμα", "tárgy", "aihe", "主题", "主旨", "件名", "제목", "נושא", "الموضوع"),
}
FIELD_KIND = {name: kind for kind, names in FIELDS.items() for name in names}
FIELD = re.compile(r"[*\s]*(" + "|".join(sorted(map(re.escape, FIELD_KIND), key=len, reverse=True)) + r")[*\s]*[:：]")


def is_attribution(line: str) -> bool:
    """Whether one line (or lines joined) reads as "<someone> wrote:" in one of the clients' languages."""
    lowered = line.strip().lower()
    if not lowered or len(lowered) > 3 * LONGEST:
        return False
    if VERB_LAST.search(lowered) and (lowered.endswith(COLONS) or OPENING.match(lowered)):
        return True
    if ADDRESS_COLON.search(lowered) or (DATE.match(lowered) and ADDRESS_LAST.search(lowered)):
        return True
    if not lowered.endswith(COLONS) or not VERB_ANYWHERE.search(lowered):
        return False
    # the verb before the name ("Den ... skrev Bob:"), or before a date ("... ezt írta (időpont: ...):")
    return bool(OPENING.match(lowered) or "@" in lowered)


def field_kind(line: str) -> str | None:
    """``"from"``, ``"date"``, ``"to"``, ``"cc"`` or ``"subject"`` for a header block's field line."""
    if len(line) > LONGEST:
        return None
    found = FIELD.match(line.lower())
    return FIELD_KIND[found.group(1)] if found else None


def header_block_end(lines: list[str], index: int) -> int | None:
    """The index past the header block starting at ``lines[index]``, if one does.

    A block opens with a From or Date field that another kind of field follows within three lines (the
    name or address of the first may stand on a line of its own, as Outlook 2003 writes it), and ends
    at a blank or quoted line.
    """
    first = field_kind(lines[index]) if index < len(lines) else None
    if first not in ("from", "date"):
        return None
    if not any(field_kind(line) not in (None, first) for line in lines[index + 1 : index + 4]):
        return None
    end = index + 1
    while end < min(len(lines), index + HEADER_BLOCK_LINES) and lines[end].strip() and not is_quoted(lines[end]):
        end += 1
    return end


def is_quoted(line: str) -> bool:
    return line.lstrip().startswith(">")


def intro_end(lines: list[str], index: int) -> int | None:
    """The index past the lines that introduce a quote, if an attribution, a separator or a header block
    starts at ``lines[index]``; else None."""
    line = lines[index].strip()
    if not line or len(line) > LONGEST or is_quoted(line):
        return None
    if is_attribution(line):
        return index + 1
    if SEPARATOR.match(line.lower()):
        after = index + 1
        while after < min(len(lines), index + HEADER_BLOCK_LINES) and not lines[after].strip():
            after += 1
        return header_block_end(lines, after) or index + 1
    block = header_block_end(lines, index)
    if block is not None:
        return block
    if not (OPENING.match(line.lower()) or MAY_START.search(line)):
        return None
    joined = line
    for following in range(index + 1, min(len(lines), index + 3)):
        more = lines[following].strip()
        if not more or len(more) > LONGEST or is_quoted(more) or _stands_alone(more):
            return None
        joined = f"{joined} {more}"
        if is_attribution(joined):
            return following + 1
    return None


def _stands_alone(line: str) -> bool:
    """An attribution of its own, opening with its first word or its date: the line above is not part of
    it (whereas a bare "wrote:" or "<address> wrote:" finishes the line above)."""
    return is_attribution(line) and bool(OPENING.match(line.lower()) or line[0].isdigit())


def ends_new_text(line: str) -> bool:
    """A signature or a forwarded message: nothing after it is the player's."""
    stripped = line.strip()
    if len(stripped) > LONGEST:
        return False
    lowered = stripped.lower()
    return bool(SIGNATURE.match(lowered) or FORWARD.match(lowered))
