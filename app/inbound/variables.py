"""CSS custom properties (``--name: value``) and their uses (``var(--name, fallback)``), within bounds.

A mail may name a colour, a size or ``none`` through a variable, so what hides text is only known once every
``var()`` is replaced. Custom properties are inherited; each element's own are worked out where they are
declared, against its parent's and each other (as browsers do), and stored without any ``var()`` left.
Hostile CSS is bounded: a chain of variables at most ``DEPTH`` deep, a value at most ``LENGTH`` characters
once replaced, at most ``COUNT`` variables on an element. A variable that refers to itself, to one not
defined, or past a bound is invalid; a use of an invalid one falls back to its fallback, and with none the
element's styles cannot be worked out (``Unresolved``): nothing of that HTML part is read as an order.
"""

from __future__ import annotations

from collections.abc import Callable

DEPTH = 8  # variables through variables (and fallbacks within fallbacks)
LENGTH = 512  # characters of a value once its variables are replaced
COUNT = 256  # variables on one element, inherited ones included
INVALID = "\x00"  # a variable's value that is none (a cycle, an unknown name, past a bound)

Variables = tuple[tuple[str, str], ...]  # an element's variables, every value without var()


class Unresolved(ValueError):
    """An element's styles that cannot be worked out within the bounds; the message says which, in words of the
    referee's own (never the mail's)."""


def closing(text: str, start: int) -> int:
    """The index of the ``)`` that closes the ``(`` at ``start`` (-1: none)."""
    depth = 0
    for index in range(start, len(text)):
        if text[index] == "(":
            depth += 1
        elif text[index] == ")":
            depth -= 1
            if depth == 0:
                return index
    return -1


def replaced(text: str, lookup: Callable[[str, int], str | None], depth: int = 0) -> str:
    """``text`` with each ``var()`` replaced by its variable's value (``lookup``), or by its fallback."""
    if "var(" not in text:
        return text
    if depth >= DEPTH:
        raise Unresolved("CSS variables nested too deep")
    parts, size, at = [], 0, 0
    while (start := text.find("var(", at)) >= 0:
        end = closing(text, start + 3)
        if end < 0:
            raise Unresolved("a CSS variable not closed")
        name, comma, fallback = text[start + 4:end].partition(",")
        value = lookup(name.strip(), depth + 1)
        if value is None or value == INVALID:
            if not comma:
                raise Unresolved("a CSS variable that is not defined")
            value = replaced(fallback.strip(), lookup, depth + 1)
        parts += [text[at:start], value]
        size += start - at + len(value)
        if size > LENGTH:
            raise Unresolved("a CSS variable too long")
        at = end + 1
    parts.append(text[at:])
    return "".join(parts)


def declared(inherited: Variables, own: list[tuple[str, str]]) -> Variables:
    """The element's variables: its parent's, and its own declarations (the last of a name wins) worked out
    against those and each other."""
    if not own:
        return inherited
    written = dict(own)
    known = dict(inherited)
    done: dict[str, str] = {}

    def lookup(name: str, depth: int) -> str | None:
        if name in done:
            return done[name]
        if name in written:
            done[name] = replaced(written[name], lookup, depth)  # each name worked out once
            return done[name]
        return known.get(name)

    for name, value in written.items():
        if name in done:
            continue
        try:
            done[name] = replaced(value, lookup)
        except Unresolved:
            done[name] = INVALID
        if len(done[name]) > LENGTH:
            done[name] = INVALID
    known.update(done)
    if len(known) > COUNT:
        raise Unresolved("too many CSS variables")
    return tuple(known.items())


def used(value: str, variables: Variables) -> str:
    """A declaration's value with its ``var()`` replaced by the element's variables."""
    if "var(" not in value:
        return value
    known = dict(variables)
    return replaced(value, lambda name, _depth: known.get(name))
