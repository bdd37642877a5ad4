"""The email policy the server reads and writes mail with: ``policy.default``, made cheaper to use.

``policy.default`` turns a header into an object by running the full RFC 5322 parser every
time the header is asked for; the feed parser alone asks for Content-Type four times per
part. Header objects are immutable, so the same (name, value) can share one: parsing a
message asks the parser once per distinct header, and the classes behind the headers are
made once per process instead of once per header.

The memo keeps only short values (``MEMO_VALUE_LIMIT``), so what it holds is bounded whatever
mail comes in: a long header is parsed each time it is asked for, and kept by nobody.
"""

from __future__ import annotations

from email.headerregistry import BaseHeader, HeaderRegistry
from email.policy import default
from functools import lru_cache

MEMO_SIZE = 2048  # distinct (name, value) pairs kept; most repeat within one message or across all
MEMO_VALUE_LIMIT = 256  # characters: a longer value is parsed every time, never kept (at most ~1 MB kept)


class _MemoisedHeaders(HeaderRegistry):
    """policy.default's header registry, with each header class made once and each header parsed once."""

    def __init__(self) -> None:
        super().__init__()
        self._classes: dict[str, type] = {}
        self._made = lru_cache(maxsize=MEMO_SIZE)(super().__call__)

    def __getitem__(self, name: str) -> type:
        key = name.lower()
        if key not in self.registry:
            key = ""  # every other name gets the same class: the dict stays as small as the registry
        made = self._classes.get(key)
        if made is None:
            made = self._classes[key] = super().__getitem__(name)
        return made

    def __call__(self, name: str, value: object) -> BaseHeader:
        if type(value) is str and len(value) <= MEMO_VALUE_LIMIT and len(name) <= 76:
            return self._made(name, value)
        return super().__call__(name, value)  # address objects and lists, when a message is built


POLICY = default.clone(header_factory=_MemoisedHeaders())
WIRE = POLICY.clone(linesep="\r\n")  # as email.policy.SMTP
