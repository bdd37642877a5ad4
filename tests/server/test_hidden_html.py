"""More ways HTML hides text, each read as nothing: a zero line height or box inside a clip, elements whose
content is never drawn, SVG (whose text is never read: most mail clients do not show it, and its attributes
hide text in more ways than its styles), an inset shadow over the background, colours in every CSS spelling. What cannot
be worked out for certain (a system colour other than the page's own, ``color-mix()``, ``calc()``, ``env()``,
``attr()``, a dark colour scheme) leaves the HTML part unread.

Each hiding is tried as a reply: its HTML shows a harmless order and hides another move, and its HTML hides
the only order there is."""

import pytest

from app.inbound.html_text import html_to_text
from app.inbound.variables import Unresolved
from tests.server.harness import Table
from tests.server.smtp_game import ALICE
from tests.server.test_visible_text import alternative, html_only

SHOWN = "<p>R e2-e4</p>"
HIDDEN = {  # each with {x} where the hidden text stands
    "line-height:0, overflow hidden": '<div style="line-height:0;overflow:hidden">{x}</div>',
    "line-height:0px, overflow clip, in a sheet": ("<style>.l{{line-height:0px;overflow:clip}}</style>"
                                                  "<div class=l>{x}</div>"),
    "a line height of .01": '<div style="line-height:.01;overflow:hidden">{x}</div>',
    "a zero line height in the font shorthand": '<div style="font:16px/0 Arial;overflow:hidden">{x}</div>',
    "line-height:0 inside a clip": '<div style="overflow:hidden"><p style="line-height:0">{x}</p></div>',
    "line-height:0 around a clip": '<div style="line-height:0"><p style="overflow:hidden"><b>{x}</b></p></div>',
    "height:0 inside a clip": '<div style="overflow:hidden"><div style="height:0">{x}</div></div>',
    "max-height:0 inside a clip": ('<table style="overflow-y:hidden"><tr><td><div style="max-height:0px">{x}'
                                   "</div></td></tr></table>"),
    "rp": "<ruby>king<rp>{x}</rp><rt>K</rt></ruby>",
    "video": "<video src=a.mp4><p>{x}</p></video>",
    "audio": "<audio>{x}</audio>",
    "canvas": "<canvas><p>{x}</p></canvas>",
    "meter": "<meter value=1>{x}</meter>",
    "progress": "<progress>{x}</progress>",
    "object": '<object data="a.png"><p>{x}</p></object>',
    "template inside a div": "<div><template><p>{x}</p></template></div>",
    "datalist": "<datalist><option>{x}</option></datalist>",
    "a dialog not open": "<dialog><p>{x}</p></dialog>",
    "a closed details, outside its summary": "<details><summary>more</summary><div>{x}</div></details>",
    "svg fill=none": '<svg><text x="0" y="10" fill="none">{x}</text></svg>',
    "svg fill=transparent": '<svg><text fill="transparent">{x}</text></svg>',
    "svg opacity=0": '<svg><g opacity="0"><text>{x}</text></g></svg>',
    "svg fill-opacity=0": '<svg><text fill-opacity="0">{x}</text></svg>',
    "svg font-size=0": '<svg><text font-size="0">{x}</text></svg>',
    "svg visibility=hidden": '<svg><text visibility="hidden">{x}</text></svg>',
    "svg display=none": '<svg><text display="none">{x}</text></svg>',
    "svg mask": "<svg><mask><text>{x}</text></mask></svg>",
    "svg clipPath": "<svg><clipPath><text>{x}</text></clipPath></svg>",
    "svg defs": "<svg><defs><text>{x}</text></defs></svg>",
    "svg symbol": "<svg><symbol><text>{x}</text></symbol></svg>",
    "an inset shadow the text's colour": ('<div style="background:#000;color:#fff;'
                                          'box-shadow:inset 0 0 0 2000px #fff">{x}</div>'),
    "an inset shadow in a sheet, the colour on a child": ("<style>.s{{box-shadow:0 0 3px red, INSET 0 0 0 50em "
                                                         "rgb(0 0 0)}}</style><div class=s style='background:#fff'>"
                                                         "<span>{x}</span></div>"),
    "a background of the current colour": '<p style="color:#036;background-color:currentcolor">{x}</p>',
    "hsl() with spaces": '<span style="color:hsl(0deg 0% 100% / 1)">{x}</span>',
    "hwb()": '<span style="color:hwb(120 100% 0%)">{x}</span>',
    "lab()": '<span style="color:lab(100 0 0)">{x}</span>',
    "lch()": '<span style="color:lch(100% 0 0)">{x}</span>',
    "oklab()": '<span style="color:oklab(1 0 0)">{x}</span>',
    "oklch()": '<span style="color:oklch(100% 0 0deg)">{x}</span>',
    "color(srgb)": '<span style="color:color(srgb 1 1 1)">{x}</span>',
    "color(xyz)": '<span style="color:color(xyz-d65 0.9505 1 1.089)">{x}</span>',
    "a modern colour on a named background": ('<div style="background:rebeccapurple">'
                                              '<p style="color:rgb(102 51 153)">{x}</p></div>'),
    "a named colour on white": '<span style="color:MintCream">{x}</span>',
    "an almost transparent colour": '<span style="color:rgb(0 0 0 / 5%)">{x}</span>',
    "the page's colour as text": '<span style="color:Canvas">{x}</span>',
    "an old name of the page's colour": '<span style="color:window">{x}</span>',
    "the text colour on a background of the same": '<div style="background:windowtext">{x}</div>',
    "an old colour attribute without #": '<font color="ffffff">{x}</font>',
    "two opacities that leave less than a tenth": '<div style="opacity:.3"><p style="opacity:30%">{x}</p></div>',
    "an opacity and an opacity filter": '<div style="filter:opacity(.2)"><p style="opacity:.4">{x}</p></div>',
    "a gradient of one colour": ('<div style="background:linear-gradient(to right, #fff 0%, white 100%)">'
                                 '<p style="color:#fff">{x}</p></div>'),
    "a background of a link's own colour": ('<a href="https://example.org"><b style="background:currentcolor">{x}'
                                            "</b></a>"),
}
UNRESOLVED = {
    "a button's system colour": '<span style="color:ButtonFace">{x}</span>',
    "a highlight behind the text": '<div style="background-color:Highlight">{x}</div>',
    "a dark colour scheme": ('<div style="color-scheme:dark;background:#fff">'
                             '<span style="color:CanvasText">{x}</span></div>'),
    "a page that may be drawn dark": '<meta name="color-scheme" content="light dark"><p>{x}</p>',
    "color-mix()": '<span style="color:color-mix(in srgb, white 90%, black)">{x}</span>',
    "rgb(calc())": '<span style="color:rgb(calc(255) 255 255)">{x}</span>',
    "a colour in display-p3": '<span style="color:color(display-p3 1 1 1)">{x}</span>',
    "relative colour syntax": '<span style="color:rgb(from white r g b)">{x}</span>',
    "a colour word no one knows": '<span style="color:whitish">{x}</span>',
    "calc() in an opacity": '<span style="opacity:calc(0.05)">{x}</span>',
    "env() in an indent": '<p style="text-indent:env(safe-area-inset-left)">{x}</p>',
    "attr() as a colour": '<span data-c="#fff" style="color:attr(data-c type(&lt;color&gt;))">{x}</span>',
    "calc() in a line height inside a clip": '<div style="line-height:calc(1px - 1px);overflow:hidden">{x}</div>',
    "a link on a background of a link's colour": '<div style="background:#0000ee"><a href="https://x.org">{x}</a></div>',
    "a link on a background of Gmail's link colour": '<p style="background:#15c"><a href=x><i>{x}</i></a></p>',
    "a gradient the text's colour runs into": ('<div style="background-image:linear-gradient(45deg, #000, #fff)">'
                                               '<p style="color:#fff">{x}</p></div>'),
    "a blend mode": '<p style="mix-blend-mode:difference">{x}</p>',
    "a partial inset shadow of the text's colour": ('<div style="color:#fff;background:#000;'
                                                    'box-shadow:inset 0 0 4px 6px #fff">{x}</div>'),
}
STILL_SEEN = {
    "line-height:0 with nothing clipped": '<div style="line-height:0">{x}</div>',
    "a line height set again inside a clip": ('<div style="line-height:0;overflow:hidden">'
                                              '<p style="line-height:1.4">{x}</p></div>'),
    "a clip inside a zero height": '<div style="height:0"><div style="overflow:hidden">{x}</div></div>',
    "a closed details' summary": "<details><summary>{x}</summary>more</details>",
    "ruby text": "<ruby>{x}<rp>(</rp><rt></rt><rp>)</rp></ruby>",
    "an inset shadow of another colour": '<div style="color:#fff;box-shadow:inset 0 0 0 2000px #000">{x}</div>',
    "an outer shadow the text's colour": '<div style="box-shadow:0 0 0 2000px #000">{x}</div>',
    "the page's colours": '<div style="background:Canvas;color:CanvasText">{x}</div>',
    "Outlook's window text": '<span style="color:windowtext">{x}</span>',
    "a modern colour": '<span style="color:oklch(40% 0.1 30)">{x}</span>',
    "a named colour": '<span style="color:DarkSlateBlue">{x}</span>',
    "a light colour scheme": '<div style="color-scheme:light"><span style="color:CanvasText">{x}</span></div>',
    "a zero calc() offset": '<p style="margin-left:calc(0px)">{x}</p>',
    "a link": '<a href="https://example.org">{x}</a>',
    "two halves of opacity": '<div style="opacity:.5"><p style="opacity:.5">{x}</p></div>',
    "a gradient of colours far from the text's": ('<div style="background:radial-gradient(circle at center, #fff, #eee)'
                                                  ' #ddd"><p>{x}</p></div>'),
    "a gradient the text's colour is not on": ('<div style="background:linear-gradient(#000, #fff)">  '
                                               '<p style="background:#fff">{x}</p></div>'),
    "a link on white text on black": ('<div style="background:#000;color:#fff"><a href="https://example.org">{x}</a>'
                                      "</div>"),
    "a link of the text's colour": ('<div style="background:#0000ee;color:#fff"><a href=x style="color:inherit">{x}'
                                    "</a></div>"),
}


def page(body: str) -> str:
    return f"<html><body>{body}</body></html>"


@pytest.mark.parametrize("hidden", HIDDEN)
def test_text_hidden_in_these_ways_is_not_read_and_what_is_shown_is(hidden):
    text = html_to_text(page(SHOWN + HIDDEN[hidden].format(x="resign")))
    assert "R e2-e4" in text.splitlines() and "resign" not in text, text


@pytest.mark.parametrize("unresolved", UNRESOLVED)
def test_styles_that_cannot_be_worked_out_for_certain_leave_the_part_unread(unresolved):
    with pytest.raises(Unresolved):
        html_to_text(page(SHOWN + UNRESOLVED[unresolved].format(x="resign")))


@pytest.mark.parametrize("seen", STILL_SEEN)
def test_text_styled_in_these_ways_is_still_read(seen):
    assert "R e2-e4" in html_to_text(page("<p>thinking</p>" + STILL_SEEN[seen].format(x="R e2-e4"))).splitlines()


@pytest.mark.parametrize("hidden", HIDDEN)
def test_a_reply_hiding_a_move_plays_the_shown_one_and_one_hiding_its_only_order_plays_nothing(server, hidden):
    table = Table(server)
    game_id = table.start()
    request = table.last(ALICE, "request").raw
    only_hidden = page("<p>thinking about it</p>" + HIDDEN[hidden].format(x="resign"))
    assert table.deliver(html_only(request, only_hidden)) == "rejected: no command found"
    assert table.game(game_id).status == "active"
    shown_and_hidden = page(SHOWN + HIDDEN[hidden].format(x="N g1-f3"))
    assert table.deliver(html_only(request, shown_and_hidden)) == "done: R e2-e4: moved"
    assert table.game(game_id).ply == 1


@pytest.mark.parametrize("unresolved", ["a button's system colour", "color-mix()", "env() in an indent",
                                        "a partial inset shadow of the text's colour"])
def test_a_reply_whose_styles_cannot_be_worked_out_for_certain_is_refused_or_read_from_its_text(server, unresolved):
    table = Table(server)
    game_id = table.start()
    request = table.last(ALICE, "request").raw
    html = page(SHOWN + UNRESOLVED[unresolved].format(x="resign"))
    outcome = table.deliver(html_only(request, html))
    assert outcome.startswith("rejected: HTML not read: "), outcome
    assert table.game(game_id).status == "active"
    assert table.deliver(alternative(request, "R e2-e4", html)) == "done: R e2-e4: moved"
    assert table.game(game_id).ply == 1


def test_svg_and_colours_stay_within_the_bounds():
    """A deep SVG and a sheet of modern colours by the thousand: bounded work, and the hidden text unread."""
    deep = "<svg>" + "<g>" * 300 + "<text>resign</text>" + "</g>" * 300 + "</svg>"
    rules = "".join(f".c{n}{{color:oklch(99.{n % 10}% 0 {n})}}" for n in range(5000))
    classes = " ".join(f"c{n}" for n in range(200))
    text = html_to_text(page(f"<style>{rules}</style>{SHOWN}{deep}<p class='{classes}'>resign</p>"))
    assert "R e2-e4" in text and "resign" not in text
    shadows = "box-shadow:" + ",".join(["inset 0 0 0 1px #fefefe"] * 5000)
    gradient = "background:linear-gradient(" + ",".join(["#fff"] * 5000) + ")"
    nested = '<div style="opacity:.9">' * 100 + "resign" + "</div>" * 100
    text = html_to_text(page(f'<div style="{shadows};{gradient}">{SHOWN}<p style="color:#fff">resign</p>{nested}'
                             "</div>"))
    assert "R e2-e4" in text and "resign" not in text


@pytest.mark.parametrize(("body", "read"), [
    ('<body text="#ffffff"><p>resign</p>', ""),  # white text on the white page
    ('<body text="#ffffff" bgcolor="#000000"><p>R e2-e4</p>', "R e2-e4"),
    ('<body link="#ffffff" vlink="#fff"><a href="https://example.org">resign</a>', ""),  # links white on white
    ('<body link="#000000" vlink="#000" bgcolor="#ffffff"><a href="https://example.org">R e2-e4</a>', "R e2-e4"),
])
def test_the_colours_the_body_gives_its_text_and_links_count(body, read):
    assert html_to_text(f"<html>{body}</body></html>") == read


def test_a_link_whose_colour_the_client_chooses_is_unread_where_one_of_them_would_hide_it():
    with pytest.raises(Unresolved, match="a link on a background"):
        html_to_text('<html><body link="#ffffff"><p>R e2-e4</p><a href="https://example.org">resign</a></body></html>')
