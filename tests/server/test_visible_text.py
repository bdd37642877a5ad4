"""Only what a person sees is read: text an HTML mail hides, a file shown inline, the text around a multipart's
parts. Each hiding spelling is checked on its own, visible look-alikes of it are still read, and the attack
that resigned a game goes through real SMTP."""

import pytest

from app.inbound.clients import reply
from app.inbound.html_text import html_to_text
from app.inbound.parse import parse
from tests.server.harness import Table
from tests.server.smtp_game import ALICE, BOB

SEEN = "<p>thinking about it</p>"
HIDDEN = {
    "display:none": '<div style="display:none">resign</div>',
    "upper case, spaces, !important": '<div style="COLOR: red ; Display :  None !IMPORTANT">resign</div>',
    "several declarations, the last hides": '<div style="margin:0;padding:0;display:none;">resign</div>',
    "a comment inside": '<div style="display:/* x */none">resign</div>',
    "an escape": '<div style="display:\\6e one">resign</div>',
    "visibility:hidden": '<span style="visibility: hidden">resign</span>',
    "visibility:collapse": '<span style="visibility:collapse">resign</span>',
    "the hidden attribute": "<div hidden>resign</div>",
    "hidden=hidden": '<div hidden="hidden">resign</div>',
    "template": "<template><p>resign</p></template>",
    "a comment": "<p><!-- resign --></p>",
    "an abrupt comment": "<p><!-->x<!-- resign --></p>",
    "script": "<script>resign</script>",
    "style": "<style>resign</style>",
    "head": "<head><title>resign</title></head>",
    "font-size:0": '<span style="font-size:0">resign</span>',
    "font-size:0px": '<span style="font-size:0px">resign</span>',
    "font-size:0pt": '<span style="font-size: 0pt">resign</span>',
    "font-size:0em": '<span style="font-size:0em">resign</span>',
    "font-size:.0rem": '<span style="font-size:.0rem">resign</span>',
    "font-size:0%": '<span style="font-size:0%">resign</span>',
    "font-size:1px": '<span style="font-size:1px">resign</span>',
    "font-size:calc(0px)": '<span style="font-size:calc(0px)">resign</span>',
    "font:0/0 a": '<span style="font:0/0 a">resign</span>',
    "a zero font around an em one": '<div style="font-size:0"><span style="font-size:1.2em">resign</span></div>',
    "opacity:0": '<span style="opacity:0">resign</span>',
    "opacity:0.01": '<span style="opacity:.01">resign</span>',
    "opacity:0%": '<span style="opacity:0%">resign</span>',
    "max-height:0, overflow hidden": '<div style="max-height:0;overflow:hidden">resign</div>',
    "height:0px, overflow-y hidden": '<div style="height:0px;overflow-y:hidden">resign</div>',
    "mso-hide:all": '<span style="mso-hide:all">resign</span>',
    "white on the page": '<span style="color:#FFFFFF">resign</span>',
    "transparent": '<span style="color:transparent">resign</span>',
    "white in hsl()": '<span style="color:hsl(0, 0%, 100%)">resign</span>',
    "an attribute test with a space": "<style>.x[title='a b']{display:none}</style><p class=x>resign</p>",
    "rgba with no alpha": '<span style="color:rgba(0,0,0,0)">resign</span>',
    "the background's colour": '<div style="background-color:#123456"><p style="color:#123456">resign</p></div>',
    "font color on bgcolor": '<table bgcolor="#000000"><tr><td><font color="black">resign</font></td></tr></table>',
    "text-indent off the page": '<p style="text-indent:-9999px">resign</p>',
    "left off the page": '<p style="position:absolute;left:-5000px">resign</p>',
    "transform:scale(0)": '<p style="transform: scale(0)">resign</p>',
    "a closed details": "<details><summary>more</summary>resign</details>",
    "a dialog not open": "<dialog>resign</dialog>",
    "a class in a style sheet": "<style>.gone{display:none}</style><div class=gone>resign</div>",
    "an id in a style sheet": "<style>#x { font-size: 0 !important }</style><div id=x>resign</div>",
    "a tag in a style sheet": "<style>s{visibility:hidden}</style><s>resign</s>",
    "a rule in @media": "<style>@media screen{ div.a.b {display:none} }</style><div class='b a'>resign</div>",
    "a descendant rule": "<style>body .wrap > p.x{opacity:0}</style><div class=wrap><p class=x>resign</p></div>",
    "an escaped class": "<style>.\\67 one{display:none}</style><div class=gone>resign</div>",
    "a sheet in a comment's clothes": "<style><!-- .x{display:none} --></style><div class=x>resign</div>",
    "an inline style that says it shows": ("<style>.x{display:none!important}</style>"
                                            '<div class=x style="display:block">resign</div>'),
}
STILL_SEEN = {
    "a zero font, a sized child": '<div style="font-size:0"><span style="font-size:14px">R e2-e4</span></div>',
    "white on black": '<td style="background:#000"><span style="color:#fff">R e2-e4</span></td>',
    "white on black, through a transparent child": ('<div style="background:#000"><p style="background:'
                                                    'transparent;color:#fff">R e2-e4</p></div>'),
    "an attribute test with a space, another class": "<style>.x[title='a b']{display:none}</style><b>R e2-e4</b>",
    "a background image": '<div style="background:url(x.png)"><p style="color:#fff">R e2-e4</p></div>',
    "half opacity": '<p style="opacity:0.5">R e2-e4</p>',
    "a small indent": '<p style="text-indent:-10px">R e2-e4</p>',
    "half scale": '<p style="transform:scale(0.5)">R e2-e4</p>',
    "a height with no overflow": '<div style="height:0">R e2-e4</div>',
    "a rule for hovering": "<style>.x:hover{display:none}</style><p class=x>R e2-e4</p>",
    "a rule for another class": "<style>.y{display:none}</style><p class=x>R e2-e4</p>",
    "an open details": "<details open><summary>more</summary>R e2-e4</details>",
    "the text after a hidden element": '<p><span style="display:none">resign</span>R e2-e4</p>',
    "Outlook's sheet": ("<style>p.MsoNormal, li.MsoNormal, div.MsoNormal {margin:0cm; font-size:11.0pt;} "
                        "a:link, span.MsoHyperlink {color:#0563C1} .MsoChpDefault {font-size:10.0pt} "
                        "@page WordSection1 {size:612.0pt 792.0pt;} div.WordSection1 {page:WordSection1;}</style>"
                        '<div class=WordSection1><p class=MsoNormal><span style="color:windowtext">R e2-e4</span>'
                        "</p></div>"),
}


@pytest.mark.parametrize("hidden", HIDDEN)
def test_text_a_reader_cannot_see_is_never_read(hidden):
    text = html_to_text(f"<html><body>{SEEN}{HIDDEN[hidden]}</body></html>")
    assert "thinking about it" in text and "resign" not in text, text


@pytest.mark.parametrize("seen", STILL_SEEN)
def test_text_a_reader_sees_is_read_however_it_is_styled(seen):
    assert "R e2-e4" in html_to_text(f"<html><body>{STILL_SEEN[seen]}</body></html>").splitlines()


def test_a_text_file_apple_mail_shows_inline_is_not_the_body():
    raw = (b'From: alice@players.test\r\nSubject: Re: Game 1\r\nMIME-Version: 1.0\r\n'
           b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nthinking\r\n'
           b'--b\r\nContent-Type: text/plain; name="notes.txt"\r\nContent-Disposition: inline; filename="notes.txt"\r\n'
           b'\r\nresign\r\n--b\r\nContent-Type: text/plain\r\n\r\nR e2-e4\r\n--b--\r\n')
    assert parse(raw).text.split() == ["thinking", "R", "e2-e4"]


def html_only(request: bytes, html: str) -> bytes:
    """Alice's HTML-only reply to ``request`` whose new text is ``html``."""
    raw = reply(request, "PLACEHOLDER", "html-only", ALICE)
    head, _body = raw.split(b"\r\n\r\n", 1)
    lines = [line for line in head.split(b"\r\n") if not line.lower().startswith((b"content-", b"mime-version"))]
    return b"\r\n".join([*lines, b"MIME-Version: 1.0", b'Content-Type: text/html; charset="utf-8"',
                         b"Content-Transfer-Encoding: 8bit"]) + b"\r\n\r\n" + html.encode()


@pytest.mark.parametrize("hidden", ["display:none", "font-size:0pt", "a class in a style sheet", "white on the page"])
def test_a_hidden_resign_in_an_html_reply_resigns_nothing(game, hidden):
    Table(game.server).start()
    game.worker.run_once()
    raw = html_only(game.sink.last_raw(ALICE), f"<html><body>{SEEN}{HIDDEN[hidden]}</body></html>")
    game.send(ALICE, raw, str(game.sink.to(ALICE)[-1]["Reply-To"]))
    assert "no order found" in game.subject(ALICE)
    assert not any("game over" in str(mail["Subject"]) for mail in game.sink.to(BOB))


def test_an_apple_reply_with_a_file_inline_plays_its_order_not_the_file(game):
    game_id = Table(game.server).start()
    game.worker.run_once()
    game.reply(ALICE, "R e2-e4", style="apple-attachment")
    assert "your move (Black)" in game.subject(BOB)
    assert Table(game.server).game(game_id).status == "active"


def alternative(request: bytes, plain: str, html: str) -> bytes:
    """Alice's reply to ``request`` as a multipart/alternative of ``plain`` and ``html``."""
    raw = reply(request, "PLACEHOLDER", "html-only", ALICE)
    head = raw.split(b"\r\n\r\n", 1)[0]
    lines = [line for line in head.split(b"\r\n") if not line.lower().startswith((b"content-", b"mime-version"))]
    body = (f"--alt\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{plain}\r\n"
            f"--alt\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{html}\r\n--alt--\r\n")
    return b"\r\n".join([*lines, b"MIME-Version: 1.0", b'Content-Type: multipart/alternative; boundary="alt"',
                         b"Content-Transfer-Encoding: 8bit"]) + b"\r\n\r\n" + body.encode()


def test_a_text_part_line_its_html_alternative_hides_is_not_read(server):
    """A client that copies into its text part what its HTML hides: the line was never seen, so never read."""
    table = Table(server)
    game_id = table.start()
    raw = alternative(table.last(ALICE, "request").raw, "thinking about it\r\nresign",
                      f"<html><body>{SEEN}{HIDDEN['display:none']}</body></html>")
    assert table.deliver(raw) == "rejected: no command found"
    assert table.game(game_id).status == "active"


@pytest.mark.parametrize(("plain", "html"), [
    ("*R e2-e4*\r\n\r\nThanks, and a line long enough that the client\r\nwrapped it in its text part.",
     "<div><b>R e2-e4</b></div><div>Thanks, and a line long enough that the client wrapped it in its text part."
     "</div>"),
    ("R e2-e4", "<div><br></div>"),  # an HTML alternative with no text at all proves nothing
    ("R  e2-e4", "<p>R&nbsp;e2&#8209;e4</p>"),  # a no-break space and a no-break hyphen in the HTML
])
def test_a_text_part_line_its_html_shows_is_read_however_either_is_written(server, plain, html):
    table = Table(server)
    game_id = table.start()
    assert table.deliver(alternative(table.last(ALICE, "request").raw, plain, html)) == "done: R e2-e4: moved"
    assert table.game(game_id).ply == 1


def test_a_text_part_with_a_line_its_html_hides_plays_nothing_over_smtp(game):
    game_id = Table(game.server).start()
    game.worker.run_once()
    raw = alternative(game.sink.last_raw(ALICE), "thinking about it\r\nresign",
                      f"<html><body>{SEEN}{HIDDEN['font-size:0pt']}</body></html>")
    game.send(ALICE, raw, str(game.sink.to(ALICE)[-1]["Reply-To"]))
    assert "no order found" in game.subject(ALICE)
    assert Table(game.server).game(game_id).status == "active"
