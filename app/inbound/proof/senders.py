"""SPF (pyspf) for the host that handed a mail to the server's own listener, through the mail's look-ups.

pyspf asks DNS through one method of its ``query``; ``Query`` answers it from the mail's ``Lookups`` (its
deadline, the process's cache), counting void look-ups as RFC 7208 4.6.4 says. pyspf keeps its own limits
(10 look-ups that reach DNS, 10 MX or PTR names).
"""

from __future__ import annotations

import spf

from app.inbound.proof.resolver import DnsTrouble, Lookups, RecordTooLarge

RESULTS = ("pass", "fail", "softfail", "neutral", "none", "temperror", "permerror")


class Query(spf.query):
    """pyspf's query, looking names up through one mail's ``Lookups``."""

    def __init__(self, ip: str, sender: str, helo: str, lookups: Lookups) -> None:
        super().__init__(i=ip, s=sender, h=helo, timeout=3)
        self.mail_lookups = lookups

    def dns(self, name: str, qtype: str, cnames: object = None, ignore_void: bool = False) -> list[object]:
        """pyspf's DNS look-up: the records of ``name``, TXT ones as lists of byte strings."""
        rdtype = "TXT" if qtype == "SPF" else qtype
        try:
            found = list(self.mail_lookups.lookup(str(name).rstrip("."), rdtype))
        except DnsTrouble as error:
            raise spf.TempError(f"DNS {error}") from error
        except RecordTooLarge as error:
            raise spf.PermError(str(error)) from error
        if not found and not ignore_void:
            self.void_lookups += 1
            if self.void_lookups > spf.MAX_VOID_LOOKUPS:
                raise spf.PermError(f"Void lookup limit of {spf.MAX_VOID_LOOKUPS} exceeded")
        return [[record] if rdtype == "TXT" else record for record in found]


def check_spf(ip: str, sender: str, helo: str, lookups: Lookups) -> str:
    """The SPF result for ``sender`` (the envelope sender) sent from ``ip`` that said ``helo``."""
    try:
        result, _code, _explanation = Query(ip, sender, helo, lookups).check()
    except Exception:  # pyspf raises its own errors, and others on input it never expected
        return "permerror"
    return result if result in RESULTS else "permerror"
