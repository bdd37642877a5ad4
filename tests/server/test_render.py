"""The mail templates' environment."""

from app.mail.render import MARKER, environment


def test_every_template_sees_the_globals_from_a_plain_dict():
    """A render copies its template's globals: from a dict, not key by key out of a ChainMap."""
    template = environment().get_template("mail/message.txt")
    assert type(template.globals) is dict
    assert template.globals["marker"] == MARKER and "board_rows" in template.globals
    text = template.render(subject="s", paragraphs=["Hello."], diagram_lines=[], tray="", forms=[])
    assert MARKER in text and "Hello." in text
