"""Players' names compared as people read them: two names are one when they look alike (``name_key``).

A name's key is its confusable skeleton (Unicode TR39, as ICU computes it), taken once compatibility forms are
made plain (NFKD: fullwidth letters, ligatures, mathematical letters), every character drawn as nothing taken out
(format characters, those Unicode says to ignore, the braille blank), combining marks taken off and small capitals
made capitals; case is then folded (a small i as the small l a capital I is drawn like) and the skeleton taken
again, until nothing changes. So "CaroI" with a capital I, "Сarol" in Cyrillic, "Cɑrol", "Car\u200bol" and
"Cárol" are all "Carol". A player's key is unique in the database, so no two players hold names that look alike;
the names the club gives (``Player 12``) are ``generated`` ones, and a name with no letter or digit to see is no
name (``unseen_name``).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

import icu

KEY_LENGTH = 100  # characters of a key kept (a name is at most this long)
READ_LENGTH = 4 * KEY_LENGTH  # characters of a name read for its key: bounded work, whatever is sent
ROUNDS = 4  # skeleton and case folding taken in turn, at most this often (each changes less than the last)
GIVEN = "Player"  # the names the club gives: ``Player 12``
# Drawn as nothing, yet neither a format character nor one Unicode says to ignore: the braille pattern with no dots
BLANK = frozenset("\u2800")
MARKS = frozenset({"Mn", "Me"})  # combining marks set on a letter: an accent, a stroke, a dot
SMALL_CAPITAL = re.compile(r"LATIN LETTER SMALL CAPITAL ([A-Z])")
IGNORABLE = icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT
# A capital I is drawn as a small l (its skeleton) and folds to a small i: a key holds the three as one letter, so
# that the skeleton and case folding agree ("BILL", "Bill" and "BiII" are one name).
ONE_I = str.maketrans({"i": "l"})


@cache
def spoof_checker() -> icu.SpoofChecker:
    return icu.SpoofChecker()


def unseen(character: str) -> bool:
    """Whether the character is drawn as nothing (a space is seen: it parts words)."""
    return (character in BLANK or unicodedata.category(character) in ("Cf", "Cc", "Cs", "Co", "Cn")
            or icu.Char.hasBinaryProperty(character, IGNORABLE))


def capital(character: str) -> str:
    """A small capital (``ʟ``) as the capital it is drawn like; any other character as it is."""
    found = SMALL_CAPITAL.fullmatch(unicodedata.name(character, ""))
    return found.group(1) if found else character


def seen_letters(name: str) -> str:
    """The name's compatibility forms made plain, without the characters drawn as nothing and without its
    combining marks, every space one space."""
    text = unicodedata.normalize("NFKD", name[:READ_LENGTH])
    kept = "".join(capital(each) for each in text if not unseen(each) and unicodedata.category(each) not in MARKS)
    return " ".join(kept.split())


def name_key(name: str) -> str:
    """The name as names are compared: two names with one key look alike ("Сarol" with a Cyrillic С, "CAROL",
    "Car0l", "CaroI" and "Carol" have one)."""
    key, checker = seen_letters(name), spoof_checker()
    for _ in range(ROUNDS):
        folded = checker.getSkeleton(0, key).casefold().translate(ONE_I)
        if folded == key:
            break
        key = folded
    return " ".join(key.split())[:KEY_LENGTH]


def called_after_address(name: str, email: str) -> bool:
    """Whether a name is its player's address, or the part of it before the @, or holds an address: the club
    shows no part of an address, so such a name is never held in it."""
    plain = name.strip()
    return not plain or plain.lower() == email.split("@")[0].strip().lower() or "@" in plain


def unseen_name(name: str) -> bool:
    """Whether the name has no letter or digit that can be seen: no name at all to a reader."""
    return not any(unicodedata.category(each)[0] in "LN" for each in seen_letters(name))


@cache
def generated_keys() -> re.Pattern[str]:
    """The keys of the names the club gives (``Player 12``), however their digits are drawn."""
    digits = "".join(sorted({name_key(digit) for digit in "0123456789"}))
    return re.compile(rf"{re.escape(name_key(GIVEN))} [{re.escape(digits)}]+")


def generated(key: str) -> bool:
    """Whether a key is that of a name the club gives (``Player 12``)."""
    return generated_keys().fullmatch(key) is not None
