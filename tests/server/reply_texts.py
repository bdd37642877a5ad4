"""Reply texts in the shapes mail clients give them: a move request of ours, and the attributions and
header blocks clients write above what they quote, in many languages.

Every attribution and header block names a sender whose name and address hold a square name
("h4ck", "h4ck@example.com"): read as a line of the player's, it would be an unreadable order.
"""

MOVE_REQUEST = """Reply above this line with your order.
------------------------------------------------------------------
Bob has moved: it is your move.

Game 7, Through the Looking-Glass. You are White.
Opponent: Bob. Move 4.
Reply by Thu 26 Nov 2026, 22:59 UTC (3 days a move).

  Real world (what you see): White: Ke1, Qd1, Ra1, Rh1, Bc1, Bf1, Nb1,
    Ng1, Pa2, Pb2, Pc2, Pd2, Pe4, Pf2, Pg2, Ph2.
  Captured: White none. Black none.

Your order goes on the first line of your reply, for example:
   R e2-e4      move in the Real world (your world)
   M e4-e5      the form of a move in the Mirror world: an impossible
                order costs a strike
   O-O          castle (O-O-O the other side), in your own world
   resign       also: offer draw, accept draw, decline draw

Your history of this game:
http://mirrorpost.test/games/7?key=WzcsMV0.h4ck
"""

# The original as clients paste it unquoted below a header block or attribution: no marker of ours
# heads it (Outlook's HTML alternative drops our hidden first line), and its example orders are readable.
UNQUOTED_ORIGINAL = """Game 7, Through the Looking-Glass. You are White.
Your order goes on the first line of your reply, for example:
   R e2-e4      move in the Real world (your world)
   O-O          castle (O-O-O the other side), in your own world
"""

ATTRIBUTIONS = {
    "gmail": "On Mon, 23 Nov 2026 at 10:00, h4ck <h4ck@example.com> wrote:",
    "gmail, a narrow space before PM": "On Mon, Nov 23, 2026 at 10:00\u202fPM h4ck <h4ck@example.com> wrote:",
    "gmail, broken before the address": "On Mon, Nov 23, 2026 at 10:00 AM h4ck <\nh4ck@example.com> wrote:",
    "gmail, broken before wrote": "On Mon, 23 Nov 2026 at 10:00, h4ck <h4ck@example.com>\nwrote:",
    "apple, on three lines": "On Nov 23, 2026, at 10:00 AM, h4ck <\nh4ck@example.com>\nwrote:",
    "thunderbird": "On 23/11/2026 10:00, h4ck wrote:",
    "german thunderbird": "Am 23.11.26 um 10:00 schrieb h4ck:",
    "german gmail, broken": "Am Mo., 23. Nov. 2026 um 10:00 Uhr schrieb h4ck <\nh4ck@example.com>:",
    "french gmail": "Le lun. 23 nov. 2026 à 10:00, h4ck <h4ck@example.com> a écrit\u00a0:",
    "spanish gmail": "El lun, 23 nov 2026 a las 10:00, h4ck (<h4ck@example.com>) escribió:",
    "italian gmail": "Il giorno lun 23 nov 2026 alle ore 10:00 h4ck <h4ck@example.com> ha scritto:",
    "dutch gmail": "Op ma 23 nov. 2026 om 10:00 schreef h4ck <h4ck@example.com>:",
    "portuguese gmail": "Em seg., 23 de nov. de 2026 às 10:00, h4ck <h4ck@example.com> escreveu:",
    "danish": "Den man. 23. nov. 2026 kl. 10.00 skrev h4ck <h4ck@example.com>:",
    "danish gmail": "23. nov. 2026 kl. 10.00 skrev h4ck <h4ck@example.com>:",
    "danish, broken before skrev": "Den man. 23. nov. 2026 kl. 10.00 h4ck <h4ck@example.com>\nskrev:",
    "norwegian": "Den 23.11.2026 10:00, skrev h4ck:",
    "swedish gmail": "Den mån 23 nov. 2026 kl 10:00 skrev h4ck <h4ck@example.com>:",
    "polish": "W dniu 23.11.2026 o 10:00, h4ck pisze:",
    "polish gmail": "pon., 23 lis 2026 o 10:00 h4ck <h4ck@example.com> napisał(a):",
    "polish, broken before napisał": "W dniu 23 listopada 2026 10:00 użytkownik h4ck <h4ck@example.com>\nnapisał:",
    "czech gmail": "po 23. 11. 2026 v 10:00 odesílatel h4ck <h4ck@example.com> napsal:",
    "russian gmail": "пн, 23 нояб. 2026 г. в 10:00, h4ck <h4ck@example.com>:",
    "russian thunderbird": "23.11.2026 10:00, h4ck пишет:",
    "ukrainian gmail": "пн, 23 лист. 2026 о 10:00 h4ck <h4ck@example.com> пише:",
    "chinese gmail": "h4ck <h4ck@example.com> 于2026年11月23日周一 10:00写道：",
    "chinese apple": "在 2026年11月23日，10:00，h4ck <h4ck@example.com> 写道：",
    "taiwanese gmail": "h4ck <h4ck@example.com> 於 2026年11月23日 週一 上午10:00寫道：",
    "japanese gmail": "2026年11月23日(月) 10:00 h4ck <h4ck@example.com>:",
    "japanese apple": "2026/11/23 10:00、h4ck <h4ck@example.com>のメッセージ:",
    "japanese thunderbird": "h4ck さんは書きました:",
    "korean gmail": "2026년 11월 23일 (월) 오전 10:00, h4ck <h4ck@example.com>님이 작성:",
    "turkish gmail": "h4ck <h4ck@example.com>, 23 Kas 2026 Pzt, 10:00 tarihinde şunu yazdı:",
    "greek gmail": "Στις Δευ 23 Νοε 2026 στις 10:00, ο/η h4ck <h4ck@example.com> έγραψε:",
    "hungarian gmail": "h4ck <h4ck@example.com> ezt írta (időpont: 2026. nov. 23., H, 10:00):",
    "finnish gmail": "ma 23.11.2026 klo 10.00 h4ck (h4ck@example.com) kirjoitti:",
    "hebrew gmail": "בתאריך יום ב׳, 23 בנוב׳ 2026 ב-10:00 מאת h4ck <h4ck@example.com>:",
    "arabic gmail": "في الاثنين، 23 نوفمبر 2026 في 10:00 ص، كتب h4ck <h4ck@example.com>:",
    "vietnamese gmail": "Vào Th 2, 23 thg 11, 2026 vào lúc 10:00 h4ck <h4ck@example.com> đã viết:",
    "an old gmail's date and address": "2026/11/23 h4ck <h4ck@example.com>",
}

HEADER_BLOCKS = {
    "outlook": "________________________________\nFrom: h4ck <h4ck@example.com>\n"
               "Sent: Monday, November 23, 2026 10:00 AM\nTo: Alice <alice@players.test>\nSubject: Game 7, move 4",
    "outlook desktop": "From: h4ck <h4ck@example.com>\nSent: Monday, November 23, 2026 10:00 AM\n"
                       "To: Alice <alice@players.test>\nSubject: Game 7, move 4",
    "outlook 2003": "-----Original Message-----\nFrom: \nh4ck [mailto:h4ck@example.com] \n"
                    "Sent: Monday, November 23, 2026 10:00 AM\nTo: Alice\nSubject: Game 7, move 4",
    "outlook 2003 without its separator": "From: \nh4ck [mailto:h4ck@example.com] \n"
                                          "Sent: Monday, November 23, 2026 10:00 AM\nTo: Alice\nSubject: Game 7",
    "outlook in bold": "*From:* h4ck <h4ck@example.com>\n*Sent:* Monday, November 23, 2026 10:00 AM\n"
                       "*To:* Alice\n*Subject:* Game 7, move 4",
    "address on its own line": "From: h4ck [mailto:\nh4ck@example.com]\nSent: Monday, November 23, 2026 10:00 AM\n"
                               "To: Alice\nSubject: Game 7",
    "date first": "Date: Mon, 23 Nov 2026 10:00:00 +0000\nFrom: h4ck@example.com\nTo: alice@players.test\n"
                  "Subject: Game 7",
    "german": "Von: h4ck <h4ck@example.com>\nGesendet: Montag, 23. November 2026 10:00\nAn: Alice\nBetreff: Partie 7",
    "german, separated": "-----Ursprüngliche Nachricht-----\nVon: h4ck <h4ck@example.com>\n"
                         "Gesendet: Montag, 23. November 2026 10:00\nAn: Alice\nBetreff: Partie 7",
    "french": "De\u00a0: h4ck <h4ck@example.com>\nEnvoyé\u00a0: lundi 23 novembre 2026 10:00\nÀ\u00a0: Alice\n"
              "Objet\u00a0: Partie 7",
    "spanish": "De: h4ck <h4ck@example.com>\nEnviado: lunes, 23 de noviembre de 2026 10:00\nPara: Alice\n"
               "Asunto: Partida 7",
    "italian": "Da: h4ck <h4ck@example.com>\nInviato: lunedì 23 novembre 2026 10:00\nA: Alice\nOggetto: Partita 7",
    "dutch": "Van: h4ck <h4ck@example.com>\nVerzonden: maandag 23 november 2026 10:00\nAan: Alice\n"
             "Onderwerp: Partij 7",
    "brazilian": "De: h4ck <h4ck@example.com>\nEnviada em: segunda-feira, 23 de novembro de 2026 10:00\n"
                 "Para: Alice\nAssunto: Partida 7",
    "danish": "Fra: h4ck <h4ck@example.com>\nSendt: 23. november 2026 10:00\nTil: Alice\nEmne: Parti 7",
    "swedish": "Från: h4ck [mailto:h4ck@example.com]\nSkickat: den 23 november 2026 10:00\nTill: Alice\nÄmne: Parti 7",
    "polish": "Od: h4ck <h4ck@example.com>\nWysłano: poniedziałek, 23 listopada 2026 10:00\nDo: Alice\n"
              "Temat: Partia 7",
    "russian": "От: h4ck <h4ck@example.com>\nОтправлено: 23 ноября 2026 г. 10:00\nКому: Alice\nТема: Партия 7",
    "chinese": "发件人: h4ck <h4ck@example.com>\n发送时间: 2026年11月23日 10:00\n收件人: Alice\n主题: 第7局",
    "chinese foxmail": "------------------ 原始邮件 ------------------\n发件人: \"h4ck\"<h4ck@example.com>;\n"
                       "发送时间: 2026年11月23日(星期一) 上午10:00\n收件人: \"Alice\"<alice@players.test>;\n"
                       "主题: 第7局",
    "taiwanese": "寄件者: h4ck <h4ck@example.com>\n寄件日期: 2026年11月23日 上午 10:00\n收件者: Alice\n主旨: 第7局",
    "japanese": "差出人: h4ck <h4ck@example.com>\n送信日時: 2026年11月23日 10:00\n宛先: Alice\n件名: 第7局",
    "korean": "보낸 사람: h4ck <h4ck@example.com>\n보낸 날짜: 2026년 11월 23일 월요일 오전 10:00\n받는 사람: Alice\n"
              "제목: 7국",
    "turkish": "Kimden: h4ck <h4ck@example.com>\nGönderildi: 23 Kasım 2026 Pazartesi 10:00\nKime: Alice\nKonu: Oyun 7",
}


def quoted(text: str) -> str:
    """Quoted as most clients quote: '> ' before each line, '>' alone for an empty one."""
    return "\n".join(f"> {line}" if line else ">" for line in text.splitlines())
