"""The mail templates' environment."""

from app.outbound.render import NOTICE_MARKER, environment, render_message
from app.present.diagram import Figure


def test_every_template_sees_the_globals_from_a_plain_dict():
    """A render copies its template's globals: from a dict, not key by key out of a ChainMap."""
    template = environment().get_template("mail/message.txt")
    assert type(template.globals) is dict
    assert template.globals["marker"] == NOTICE_MARKER and "figure_html" in template.globals
    text = template.render(subject="s", paragraphs=["Hello."], figure=Figure(), forms=[])
    assert NOTICE_MARKER in text and "Hello." in text


def test_a_notice_links_its_addresses_in_html_and_escapes_everything_else():
    """A link in a notice (the history, a sign-in link) can be clicked in the HTML part; a player's text
    (``say``) is never markup."""
    link = "http://games.test/games/1?key=a.b&step=2"
    text, html = render_message("s", [f"Your history: {link}", "Bob says: <b>hi</b> & <script>x</script>"])
    assert f'<a href="{link.replace("&", "&amp;")}"' in html
    assert "&lt;b&gt;hi&lt;/b&gt; &amp; &lt;script&gt;" in html and "<script>" not in html
    assert link in text and "<b>hi</b>" in text
