"""Replies as real mail clients write them: Gmail, Outlook, Apple Mail, Thunderbird, HTML-only, in
several languages, with the new text above the quote, below it (bottom-posting) or between its
lines (inline replies).

Each takes the mail being answered (raw bytes, as we sent it) and the player's new text, and
returns the raw reply with that client's quoting style and threading headers. The demo and the
benchmarks play through these, and the tests check that the referee reads every one of them.
"""

from __future__ import annotations

import html
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from email import message_from_bytes
from email.header import Header
from email.message import EmailMessage, Message
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.policy import SMTP, default
from email.utils import format_datetime, parseaddr

from app.inbound.parse import best_text

WHEN = "Mon, 23 Nov 2026 at 10:00"


@dataclass
class Answer:
    """What a client has at hand when its user answers a mail."""

    sent: Message  # the mail answered
    text: str  # its text part
    html: str  # its HTML part
    body: str  # what the user wrote
    sender: str  # the user's address
    charset: str

    @property
    def who(self) -> str:
        return str(self.sent["From"])

    @property
    def name(self) -> str:
        return parseaddr(self.who)[0]

    @property
    def address(self) -> str:
        return parseaddr(self.who)[1]

    def plain(self, text: str) -> MIMEText:
        return MIMEText(text, "plain", self.charset)

    def alternative(self, plain: str, rich: str) -> MIMEMultipart:
        message = MIMEMultipart("alternative")
        message.attach(MIMEText(plain, "plain", self.charset))
        message.attach(MIMEText(rich, "html", self.charset))
        return message


def original(raw: bytes):
    message = message_from_bytes(raw, policy=default)
    text = best_text(message)[0]
    html_part = next((p.get_content() for p in message.walk() if p.get_content_type() == "text/html"), "")
    return message, text, html_part


def _headers(message, sent, sender: str) -> None:
    message["From"] = sender
    message["To"] = str(sent["Reply-To"])
    subject = "Re: " + str(sent["Subject"])
    message["Subject"] = subject if subject.isascii() else Header(subject, "utf-8").encode()  # RFC 2047, as clients do
    message["Date"] = format_datetime(datetime.now(UTC))
    message["Message-ID"] = f"<{secrets.token_hex(10)}@players.test>"
    message["In-Reply-To"] = str(sent["Message-ID"])
    message["References"] = f"{sent.get('References', '')} {sent['Message-ID']}".strip()


def quoted(text: str) -> str:
    return "\n".join("> " + line if line else ">" for line in text.splitlines())


def body_of(document: str) -> str:
    """The inside of an HTML document's body: what a client puts in the blockquote of its reply."""
    start = document.find(">", document.lower().find("<body")) + 1 if "<body" in document.lower() else 0
    end = document.lower().rfind("</body>")
    return document[start:end if end >= 0 else len(document)]


def split_for_inline(text: str) -> tuple[str, str]:
    """The mail answered, cut at the empty line nearest its middle: an inline answer goes there."""
    lines = text.splitlines()
    empty = [number for number, line in enumerate(lines) if not line.strip()] or [len(lines) // 2]
    cut = min(empty, key=lambda number: abs(number - len(lines) // 2))
    return "\n".join(lines[:cut]), "\n".join(lines[cut + 1 :])


# ---------------------------------------------------------------- new text above the quote

def gmail(answer: Answer) -> Message:
    plain = f"{answer.body}\n\nOn {WHEN}, {answer.name} <{answer.address}>\nwrote:\n\n{quoted(answer.text)}\n"
    rich = (f'<div dir="ltr">{html.escape(answer.body).replace(chr(10), "<br>")}</div><br><div class="gmail_quote">'
            f'<div dir="ltr" class="gmail_attr">On {WHEN}, {html.escape(answer.who)} wrote:<br></div>'
            f'<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex">{answer.html}</blockquote></div>')
    return answer.alternative(plain, rich)


def outlook(answer: Answer) -> Message:
    plain = (f"{answer.body}\n\n________________________________\nFrom: {answer.who}\n"
             f"Sent: Monday, November 23, 2026 10:00 AM\nTo: {answer.sender}\nSubject: {answer.sent['Subject']}\n\n"
             f"{answer.text}\n")
    rich = (f"<html><body><div>{html.escape(answer.body)}</div><div id=\"appendonsend\"></div><hr>"
            f"<div id=\"divRplyFwdMsg\"><b>From:</b> {html.escape(answer.who)}<br><b>Sent:</b> Monday</div>"
            f"{answer.html}</body></html>")
    return answer.alternative(plain, rich)


def apple(answer: Answer) -> Message:
    return answer.plain(f"{answer.body}\n\n> On 23 Nov 2026, at 10:00, {answer.name} <{answer.address}> wrote:\n> \n"
                        f"{quoted(answer.text)}\n")


def apple_attachment(answer: Answer) -> Message:
    """Apple Mail with a file dropped into the text: the text around it in parts of its own, the file inline
    with its name (a text file, whose lines are no part of the reply)."""
    message = MIMEMultipart("mixed")
    message.attach(answer.plain(f"{answer.body}\n\n"))
    notes = answer.plain("resign\nR e2-e4\nsay these are my notes\n")
    notes.add_header("Content-Disposition", "inline", filename="notes.txt")
    notes.set_param("name", "notes.txt")
    message.attach(notes)
    message.attach(answer.plain(f"\n> On 23 Nov 2026, at 10:00, {answer.name} <{answer.address}> wrote:\n> \n"
                                f"{quoted(answer.text)}\n"))
    return message


def thunderbird(answer: Answer) -> Message:
    message = answer.plain(f"{answer.body}\n\nOn 23/11/2026 10:00, {answer.name} wrote:\n{quoted(answer.text)}\n\n"
                           "-- \nAlice, sent with care\n")
    message.set_param("format", "flowed")
    return message


def html_only(answer: Answer) -> Message:
    rich = (f"<html><head><style>p{{margin:0}}</style></head><body><p>{html.escape(answer.body)}</p>"
            f"<blockquote type=\"cite\">{answer.html}</blockquote></body></html>")
    return MIMEText(rich, "html", answer.charset)


def no_markers(answer: Answer) -> Message:
    """A client that pastes the original below without any marker."""
    return answer.plain(f"{answer.body}\n\n{answer.text}\n")


def outlook_2003(answer: Answer) -> Message:
    """Outlook 2003's plain text: the sender's name on the line after "From:", the original unquoted."""
    return answer.plain(f"{answer.body}\n\n-----Original Message-----\nFrom: \n{answer.name} [mailto:{answer.address}] "
                        f"\nSent: Monday, November 23, 2026 10:00 AM\nTo: {answer.sender}\n"
                        f"Subject: {answer.sent['Subject']}\n\n{answer.text}\n")


OUTLOOK_FIELDS = {  # From, Sent, To, Subject, as Outlook writes them in each language (French: a space before ':')
    "de": ("Von:", "Gesendet: Montag, 23. November 2026 10:00", "An:", "Betreff:"),
    "fr": ("De\xa0:", "Envoyé\xa0: lundi 23 novembre 2026 10:00", "À\xa0:", "Objet\xa0:"),
    "ru": ("От:", "Отправлено: 23 ноября 2026 г. 10:00", "Кому:", "Тема:"),
    "zh": ("发件人:", "发送时间: 2026年11月23日 10:00", "收件人:", "主题:"),
}


def outlook_localized(language: str) -> Callable[[Answer], Message]:
    """Outlook for Windows in another language: the header block of its HTML, then the original, unquoted."""
    def write(answer: Answer) -> Message:
        sender, sent, to, subject = OUTLOOK_FIELDS[language]
        plain = (f"{answer.body}\n\n{sender} {answer.who}\n{sent}\n{to} {answer.sender}\n"
                 f"{subject} {answer.sent['Subject']}\n\n{answer.text}\n")
        rich = (f'<html><body><p class="MsoNormal">{html.escape(answer.body)}</p>'
                '<div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm">'
                f'<p class="MsoNormal"><b>{sender}</b> {html.escape(answer.who)}<br><b>{sent}</b><br>'
                f"<b>{to}</b> {html.escape(answer.sender)}<br>"
                f"<b>{subject}</b> {html.escape(str(answer.sent['Subject']))}</p></div>{body_of(answer.html)}"
                "</body></html>")
        return answer.alternative(plain, rich)
    return write


GMAIL_ATTRIBUTIONS = {  # Gmail's plain text in each language; a long one is broken inside the address
    "da": "man. 23. nov. 2026 kl. 10.00 skrev {name} <{address}>:",
    "pl": "pon., 23 lis 2026 o 10:00 {name} <{address}> napisał(a):",
    "ru": "пн, 23 нояб. 2026 г. в 10:00, {name} <\n{address}>:",
    "ja": "2026年11月23日(月) 10:00 {name} <{address}>:",
    "ko": "2026년 11월 23일 (월) 오전 10:00, {name} <{address}>님이 작성:",
    "zh": "{name} <{address}> 于2026年11月23日周一 10:00写道：",
}


def gmail_localized(language: str) -> Callable[[Answer], Message]:
    def write(answer: Answer) -> Message:
        attribution = GMAIL_ATTRIBUTIONS[language].format(name=answer.name, address=answer.address)
        return answer.plain(f"{answer.body}\n\n{attribution}\n\n{quoted(answer.text)}\n")
    return write


# ---------------------------------------------------------------- new text below the quote, or within it

def gmail_bottom(answer: Answer) -> Message:
    plain = f"On {WHEN}, {answer.name} <{answer.address}>\nwrote:\n\n{quoted(answer.text)}\n\n{answer.body}\n"
    rich = (f'<div dir="ltr"><br></div><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On {WHEN}, '
            f'{html.escape(answer.who)} wrote:<br></div><blockquote class="gmail_quote" style="margin:0px 0px 0px '
            f'0.8ex">{body_of(answer.html)}</blockquote><div dir="ltr">{html.escape(answer.body)}</div></div>')
    return answer.alternative(plain, rich)


def apple_bottom(answer: Answer) -> Message:
    return answer.plain(f"> On 23 Nov 2026, at 10:00, {answer.name} <{answer.address}> wrote:\n> \n"
                        f"{quoted(answer.text)}\n\n{answer.body}\n\nSent from my iPhone\n")


def thunderbird_inline(answer: Answer) -> Message:
    """The answer written between two parts of the quote, as inline repliers write."""
    above, below = split_for_inline(answer.text)
    message = answer.plain(f"On 23/11/2026 10:00, {answer.name} wrote:\n{quoted(above)}\n\n{answer.body}\n\n"
                           f"{quoted(below)}\n\n-- \nAlice, sent with care\n")
    message.set_param("format", "flowed")
    return message


def thunderbird_html_bottom(answer: Answer) -> Message:
    """Thunderbird's HTML mail: its attribution marked by class, the new text below the blockquote."""
    rich = (f'<html><body><div class="moz-cite-prefix">On 23/11/2026 10:00, {html.escape(answer.name)} wrote:<br>'
            f'</div><blockquote type="cite" cite="mid:{html.escape(str(answer.sent["Message-ID"]).strip("<>"))}">'
            f'{body_of(answer.html)}</blockquote><p>{html.escape(answer.body).replace(chr(10), "<br>")}</p>'
            "</body></html>")
    return MIMEText(rich, "html", answer.charset)


def webmail_html_bottom(answer: Answer) -> Message:
    """A webmail's HTML (Roundcube's, for one): a plain paragraph of attribution above the blockquote."""
    rich = (f"<html><body><p>On 2026-11-23 10:00, {html.escape(answer.who)} wrote:</p>"
            f'<blockquote type="cite" style="padding: 0 0.4em; border-left: #1010ff 2px solid; margin: 0">'
            f"{body_of(answer.html)}</blockquote><p>{html.escape(answer.body).replace(chr(10), '<br>')}</p>"
            "</body></html>")
    return MIMEText(rich, "html", answer.charset)


WRITERS: dict[str, Callable[[Answer], Message]] = {
    "gmail": gmail, "outlook": outlook, "apple": apple, "apple-attachment": apple_attachment,
    "thunderbird": thunderbird, "html-only": html_only,
    "no-markers": no_markers, "outlook-2003": outlook_2003,
    **{f"outlook-{language}": outlook_localized(language) for language in OUTLOOK_FIELDS},
    **{f"gmail-{language}": gmail_localized(language) for language in GMAIL_ATTRIBUTIONS},
    "gmail-bottom": gmail_bottom, "apple-bottom": apple_bottom, "thunderbird-inline": thunderbird_inline,
    "thunderbird-html-bottom": thunderbird_html_bottom, "webmail-html-bottom": webmail_html_bottom,
}
STYLES = tuple(WRITERS)


def reply(raw: bytes, body: str, style: str, sender: str, charset: str = "utf-8") -> bytes:
    """The raw reply of ``sender`` to the mail ``raw``, as the client ``style`` writes it."""
    if style not in WRITERS:
        raise ValueError(style)
    sent, text, sent_html = original(raw)
    message = WRITERS[style](Answer(sent, text, sent_html, body, sender, charset))
    _headers(message, sent, sender)
    return message.as_bytes(policy=SMTP)


def fresh(sender: str, to: str, body: str, subject: str = "hello", **headers: str) -> bytes:
    """A new message (not a reply)."""
    message = EmailMessage(policy=default)
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = format_datetime(datetime.now(UTC))
    message["Message-ID"] = f"<{secrets.token_hex(10)}@players.test>"
    for key, value in headers.items():
        message[key.replace("_", "-")] = value
    message.set_content(body)
    return message.as_bytes(policy=SMTP)
