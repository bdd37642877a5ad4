"""Domain names as DNS and SMTP carry them: an internationalised one as its A-labels (``xn--``), by UTS-46.

Python's own ``idna`` codec is IDNA 2003, which maps ``ß`` to ``ss``: ``faß.de`` would become ``fass.de``,
another domain, whose mail would then be checked, aligned and sent as if it were the first one's. The ``idna``
package does IDNA 2008 with UTS-46's mapping, non-transitional (as browsers and mail providers do):
``faß.de`` is ``xn--fa-hia.de``. The one conversion for both ways: the sender checks of inbound mail, the
addresses the server accepts, and the recipients of outbound mail.
"""

from __future__ import annotations

import re

import idna

DOMAIN_LIMIT = 253  # characters of a DNS name
PLAIN_LABEL = re.compile(r"[A-Za-z0-9_-]+")  # no xn-- among them: that one IDNA checks


def ascii_name(domain: str) -> str | None:
    """``domain`` in ASCII, lower case, without a final dot; None when it is no valid name (an invalid label,
    an empty one, one over 63 characters, or over 253 in all). A name already in plain ASCII letters, digits,
    hyphens (and the underscores some hosts carry) is only lowered: IDNA has nothing to say about it."""
    name = domain.strip().rstrip(".")
    if all(PLAIN_LABEL.fullmatch(label) and label[:4].lower() != "xn--" for label in name.split(".")):
        name = name.lower()
    else:
        try:
            name = idna.encode(name, uts46=True, transitional=False).decode("ascii")
        except (idna.IDNAError, UnicodeError):
            return None
    labels = name.split(".")
    if len(name) > DOMAIN_LIMIT or not all(0 < len(label) < 64 for label in labels):
        return None
    return name
