"""The memoised policy.default: same answers as the standard policy, each header parsed once."""

from email import message_from_bytes
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import default

from app.outbound.policy import POLICY, WIRE

RAW = (
    b"From: =?utf-8?q?J=C3=BCrgen?= <jurgen@example.org>\r\n"
    b"To: referee+1w0.abc@mirrorpost.test\r\n"
    b"Subject: =?utf-8?q?Re:_Partie_=C3=A0_jouer?=\r\n"
    b"Content-Type: text/plain; charset=\"iso-8859-1\"\r\n"
    b"\r\n"
    b"R e2-e4\r\n"
)


def test_a_repeated_header_is_parsed_once_and_shared():
    first = message_from_bytes(RAW, policy=POLICY)
    second = message_from_bytes(RAW.replace(b"e2-e4", b"d2-d4"), policy=POLICY)
    assert first["Content-Type"] is second["Content-Type"]
    assert first["Content-Type"].params["charset"] == "iso-8859-1"


def test_headers_read_as_with_the_standard_policy():
    ours = message_from_bytes(RAW, policy=POLICY)
    standard = message_from_bytes(RAW, policy=default)
    for name in ("From", "To", "Subject", "Content-Type"):
        assert str(ours[name]) == str(standard[name])
    assert ours["From"].addresses[0].display_name == "Jürgen"
    assert ours.get_content() == standard.get_content()


def test_different_values_are_kept_apart():
    one = message_from_bytes(RAW, policy=POLICY)
    other = message_from_bytes(RAW.replace(b"iso-8859-1", b"utf-8"), policy=POLICY)
    assert one["Content-Type"].params["charset"] == "iso-8859-1"
    assert other["Content-Type"].params["charset"] == "utf-8"


def test_a_shared_header_folds_the_same_every_time():
    long_subject = "Game 12, move 40: your move (White) - Through the Looking-Glass " + "é" * 40
    made = []
    for _ in range(3):
        message = EmailMessage(policy=POLICY)
        message["Subject"] = long_subject
        message.set_content("text")
        made.append(message.as_bytes(policy=WIRE))
    assert made[0] == made[1] == made[2]
    assert b"=?utf-8?" in made[0]  # encoded and folded, as policy.default does


def test_address_objects_still_go_through_when_building():
    message = EmailMessage(policy=POLICY)
    message["To"] = Address("Bob", "bob", "example.org")
    message.set_content("hello")
    assert b"To: Bob <bob@example.org>" in message.as_bytes(policy=WIRE)
