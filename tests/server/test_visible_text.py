"""Only what a person sees is read: text an HTML mail hides, a file shown inline, the text around a multipart's
parts. Each hiding spelling is checked on its own, visible look-alikes of it are still read, and the attack
that resigned a game goes through real SMTP."""

import pytest

from app.inbound.clients import reply
from app.inbound.html_text import html_to_text
from app.inbound.parse import parse
from app.inbound.variables import Unresolved
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
    # hidden by what the styles around it add up to
    "font-size:0.1em": '<span style="font-size:0.1em">resign</span>',
    "font-size:1%": '<span style="font-size:1%">resign</span>',
    "an em size in a small one": '<div style="font-size:4px"><span style="font-size:.4em">resign</span></div>',
    "smaller and smaller": '<div style="font-size:2.2px"><span style="font-size:smaller">resign</span></div>',
    "transform:scale(0.01)": '<p style="transform:scale(.01)">resign</p>',
    "transform:scale(0%, 1)": '<p style="transform:scale(0%, 1)">resign</p>',
    "two half-tenth scales": ('<div style="transform:scale(.3)"><p style="transform:scale(.2)">resign</p>'
                              "</div>"),
    "transform:translateX(-9999px)": '<p style="transform:translateX(-9999px)">resign</p>',
    "transform:translate(0, 5000px)": '<p style="transform: rotate(2deg) translate(0, 5000px)">resign</p>',
    "transform:rotateX(90deg)": '<p style="transform:rotateX(90deg)">resign</p>',
    "transform:matrix() flat": '<p style="transform:matrix(1, 0, 0, 0, 0, 0)">resign</p>',
    "scale:0": '<p style="scale: 0">resign</p>',
    "scale:1 0": '<p style="scale: 1 0">resign</p>',
    "translate:-9999px": '<p style="translate: -9999px">resign</p>',
    "zoom:1%": '<p style="zoom:1%">resign</p>',
    "filter:opacity(0)": '<p style="filter: opacity(0)">resign</p>',
    "filter:opacity(5%) in a sheet": "<style>.f{filter:opacity(5%)}</style><p class=f>resign</p>",
    "a 1x1 box, overflow hidden": ('<div style="position:absolute;width:1px;height:1px;overflow:hidden;'
                                   'white-space:nowrap">resign</div>'),
    "visually hidden, in a sheet": (".sr{position:absolute!important;height:1px;width:1px;overflow:hidden;"
                                    "clip:rect(1px,1px,1px,1px)}").join(["<style>", "</style><p class=sr>resign</p>"]),
    "a tiny box in em": '<div style="height:.05em;overflow:hidden">resign</div>',
    "a colour through a variable": '<div style="--ink:#fff"><p style="color:var(--ink)">resign</p></div>',
    "a variable of the root in a sheet": ("<style>:root{--paper:#123456}</style>"
                                          '<div style="background:var(--paper)"><p style="color:#123456">resign</p>'
                                          "</div>"),
    "a variable through a variable": ('<div style="--a:none;--b:var(--a)"><p style="display:var(--b)">resign</p>'
                                      "</div>"),
    "a variable's fallback": '<p style="color:var(--nowhere, transparent)">resign</p>',
    "a variable's case": '<div style="--A:#000;--a:#fff"><p style="color:var(--a)">resign</p></div>',
    "a size through a variable": '<p style="--s:0.5px;font-size:var(--s)">resign</p>',
    "clip:rect(0 0 0 0)": '<p style="position:absolute;clip:rect(0 0 0 0)">resign</p>',
    "clip-path:inset(50%)": '<p style="clip-path:inset(50%)">resign</p>',
    "clip-path:inset(0 0 100% 0)": '<p style="clip-path:inset(0 0 100% 0)">resign</p>',
    "clip-path:circle(0)": '<p style="clip-path:circle(0)">resign</p>',
}
# Styles that cannot be worked out, within the bounds or at all: nothing of such an HTML part is read as an order.
UNRESOLVED = {
    "a polygon": '<p style="clip-path:polygon(0 0, 0 0, 0 0)">resign</p>',
    "a 3-D transform": '<p style="transform:perspective(10px) translateZ(-99999px)">resign</p>',
    "a filter that changes colours": '<p style="filter:brightness(100)">resign</p>',
    "a calc() font size": '<p style="font-size:calc(2px - 1.9px)">resign</p>',
    "a variable not defined": '<p style="color:var(--nowhere)">resign</p>',
    "variables in a circle": '<p style="--a:var(--b);--b:var(--a);color:var(--a)">resign</p>',
    "a chain of variables too long": ('<p style="' + "".join(f"--v{n}:var(--v{n + 1});" for n in range(50)) +
                                      '--v50:#fff;color:var(--v0)">resign</p>'),
    "fallbacks too deep": '<p style="color:' + "var(--x, " * 50 + "#fff" + ")" * 50 + '">resign</p>',
    "a variable too long": ('<p style="--a:' + "x" * 300 + ";--b:var(--a) var(--a);display:var(--b)" +
                            '">resign</p>'),
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
    "a larger size in a small one": '<div style="font-size:1px"><span style="font-size:16px">R e2-e4</span></div>',
    "an em size": '<div style="font-size:12px"><span style="font-size:1.1em">R e2-e4</span></div>',
    "keywords": '<div style="font-size:small"><span style="font-size:smaller">R e2-e4</span></div>',
    "a bare number as old mail writes it": '<p style="font-size:13">R e2-e4</p>',
    "a shorthand with a size": '<p style="font:italic 700 13px/1.4 \'Font 2\', Arial">R e2-e4</p>',
    "a turn in the page": '<p style="transform:rotate(90deg) translateX(10px)">R e2-e4</p>',
    "a scale of one half": '<p style="scale:.5;zoom:150%">R e2-e4</p>',
    "a box with room, overflow hidden": '<div style="height:20px;width:100%;overflow:hidden">R e2-e4</div>',
    "a colour through a variable": '<div style="--ink:#333"><p style="color:var(--ink)">R e2-e4</p></div>',
    "a variable a child sets again": ('<div style="--a:var(--b);--b:#000"><p style="--b:#fff;color:var(--a)">'
                                      "R e2-e4</p></div>"),
    "a clip that leaves it whole": '<p style="clip:auto;clip-path:inset(0);filter:opacity(1)">R e2-e4</p>',
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


@pytest.mark.parametrize("unresolved", UNRESOLVED)
def test_styles_that_cannot_be_worked_out_leave_the_html_unread(unresolved):
    with pytest.raises(Unresolved):
        html_to_text(f"<html><body>{SEEN}{UNRESOLVED[unresolved]}</body></html>")


def test_hostile_css_is_worked_out_within_its_bounds():
    """Variables by the thousand, each through the last, on elements nested hundreds deep: bounded work, and
    a verdict (the chain is too deep: unread)."""
    chain = "".join(f"--v{n}:var(--v{n + 1}) var(--v{n + 1});" for n in range(2000))
    nested = "<div>" * 200 + '<p style="color:var(--v0)">resign</p>' + "</div>" * 200
    with pytest.raises(Unresolved):
        html_to_text(f'<html><body style="{chain}--v2000:;">{SEEN}{nested}</body></html>')
    many = "".join(f"--v{n}:#fff;" for n in range(5000))
    with pytest.raises(Unresolved, match="too many"):
        html_to_text(f'<html><body><div style="{many}">{SEEN}<p>resign</p></div></body></html>')


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


@pytest.mark.parametrize("hidden", ["display:none", "font-size:0pt", "a class in a style sheet", "white on the page",
                                    "font-size:0.1em", "transform:translateX(-9999px)", "visually hidden, in a sheet",
                                    "a colour through a variable"])
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


TRICKS = ["font-size:0.1em", "font-size:1%", "transform:scale(0.01)", "transform:translateX(-9999px)", "scale:0",
          "filter:opacity(0)", "a 1x1 box, overflow hidden", "a colour through a variable",
          "a variable of the root in a sheet", "clip:rect(0 0 0 0)", "clip-path:inset(50%)"]


@pytest.mark.parametrize("hidden", TRICKS)
def test_a_hidden_resign_in_either_part_of_an_alternative_resigns_nothing(server, hidden):
    """Each trick as a client sends it: an HTML-only reply, and a multipart/alternative whose text part copied
    the hidden line; neither resigns the game."""
    table = Table(server)
    game_id = table.start()
    html = f"<html><body>{SEEN}{HIDDEN[hidden]}</body></html>"
    request = table.last(ALICE, "request").raw
    assert table.deliver(html_only(request, html)) == "rejected: no command found"
    assert table.deliver(alternative(request, "thinking about it\r\nresign", html)) == "rejected: no command found"
    assert table.game(game_id).status == "active"


@pytest.mark.parametrize("unresolved", ["a polygon", "a variable not defined", "fallbacks too deep"])
def test_an_html_only_reply_whose_styles_cannot_be_worked_out_is_refused_saying_why(server, unresolved):
    table = Table(server)
    game_id = table.start()
    raw = html_only(table.last(ALICE, "request").raw, f"<html><body>{SEEN}{UNRESOLVED[unresolved]}</body></html>")
    outcome = table.deliver(raw)
    assert outcome.startswith("rejected: HTML not read: "), outcome
    assert table.game(game_id).status == "active"
    told = table.text(ALICE, "refused")
    assert "it is HTML only, and its styles hold" in told and "send it again as plain text" in told


@pytest.mark.parametrize("unresolved", ["a polygon", "variables in a circle"])
def test_the_text_part_wins_over_an_html_alternative_whose_styles_cannot_be_worked_out(server, unresolved):
    table = Table(server)
    game_id = table.start()
    html = f"<html><body><p>R e2-e4</p>{UNRESOLVED[unresolved]}</body></html>"
    raw = alternative(table.last(ALICE, "request").raw, "R e2-e4", html)
    assert table.deliver(raw) == "done: R e2-e4: moved"
    assert table.game(game_id).ply == 1


def test_an_html_only_reply_whose_styles_cannot_be_worked_out_is_refused_over_smtp(game):
    game_id = Table(game.server).start()
    game.worker.run_once()
    raw = html_only(game.sink.last_raw(ALICE), f"<html><body>{SEEN}{UNRESOLVED['a 3-D transform']}</body></html>")
    game.send(ALICE, raw, str(game.sink.to(ALICE)[-1]["Reply-To"]))
    assert "could not be read" in game.subject(ALICE) and "a transform value" in game.text(ALICE)
    assert Table(game.server).game(game_id).status == "active"
