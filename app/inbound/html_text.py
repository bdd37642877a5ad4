"""HTML to plain text in time linear in its length, leaving out what clients quote.

A blockquote is left out where it stands, and what follows it is read (a reply written below
or between quotes); an attribution a client marks by its class (Thunderbird's) is left out with
it; the quoted original a client marks by class or id (Gmail's, Outlook's, ...) is left out with
everything after it, since clients put it last and Outlook's holds the original unquoted.

libxml2's HTML parser (through lxml) builds the tree in one pass, in C, without holding
the interpreter lock while it parses; one walk over the tree collects the text. The
standard library's ``html.parser`` was not used: on malformed input (a run of ``<!--``
or ``</``) it scans the rest of the document again at every step, quadratic in the
length. Neither is any pattern that can backtrack over a run of spaces (``[ \\t]+\\n``
on 411 KB of spaces was 41 s of the interpreter held): whitespace is squeezed with
``str.split``.

Only text a reader sees is read (``looks``, ``css``): nothing in ``<head>``, ``<style>``, ``<script>``,
``<template>``, comments, an element with the ``hidden`` attribute, a closed ``<details>`` outside
its summary, a ``<dialog>`` not open, the fallback of ``<video>``, ``<audio>``, ``<canvas>``, ``<object>``,
a gauge's, a ruby's ``<rp>``, any SVG, or an element the mail's CSS hides (``display:none``,
``visibility:hidden``, a zero font size or line height, ``opacity:0``, a colour that is the background's or an
inset shadow's, a link on a background of the colour links have, ...). The CSS state of each element is
worked out from its parent's as the walk goes down, so the walk stays one pass.
"""

from __future__ import annotations

from lxml import etree

from app.inbound.looks import Look, Looks
from app.inbound.variables import Unresolved

BLOCKS = frozenset({"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "pre",
                    "hr", "section", "article", "header", "footer", "nav", "aside", "main", "dl", "dt", "dd",
                    "figure", "figcaption", "address", "center", "details", "summary", "fieldset", "legend",
                    "caption", "form"})
VOID = frozenset({"br", "hr"})  # one line break each, not one at the start and one at the end
SKIPPED = frozenset({"style", "script", "head", "title", "blockquote"})  # not text, or a quote
QUOTE_CLASSES = frozenset({"gmail_quote", "gmail_attr", "yahoo_quoted", "protonmail_quote", "gmail_extra",
                           "moz-forward-container"})
ATTRIBUTION_CLASSES = frozenset({"moz-cite-prefix"})  # "On ... wrote:" above a blockquote
QUOTE_IDS = frozenset({"divrplyfwdmsg", "appendonsend", "x_divrplyfwdmsg", "mail-editor-reference-message-container"})


def _parser() -> etree.HTMLParser:
    return etree.HTMLParser(encoding="utf-8", recover=True, no_network=True, remove_comments=True,
                            remove_pis=True, remove_blank_text=False, default_doctype=False)


def classes_of(element: etree._Element) -> set[str]:
    return set((element.get("class") or "").lower().split())


def starts_quote(element: etree._Element) -> bool:
    """Whether everything from this element on is the quoted original (Gmail's, Outlook's, ... markers)."""
    return bool(classes_of(element) & QUOTE_CLASSES) or (element.get("id") or "").lower() in QUOTE_IDS


def html_to_text(html: str, quote_mark: str = "", with_quotes: bool = False) -> str:
    """The text a reader sees in an HTML body, without blockquotes, attributions or the quoted original.

    ``quote_mark``: a line left where a blockquote was (``>`` tells ``quotes`` that an attribution
    above it introduced a quote, and that the text below it is the player's again). ``with_quotes``:
    all the text a reader sees, the quotes too.
    """
    if not html.strip():
        return ""
    root = etree.fromstring(html.encode("utf-8", "replace"), _parser())
    if root is None:
        return ""
    looks = Looks(root)
    parts: list[str] = []
    stack: list[Look | None] = [Look()]
    skipped = SKIPPED - {"blockquote"} if with_quotes else SKIPPED
    walk = etree.iterwalk(root, events=("start", "end"))
    for event, element in walk:
        tag = element.tag.lower() if isinstance(element.tag, str) else ""
        if event == "start":
            if not with_quotes and starts_quote(element):
                break
            look = looks.of(element, tag, stack[-1] or Look())
            stack.append(look)
            if tag in BLOCKS:
                parts.append("\n")
            if tag == "blockquote" and quote_mark:
                parts.append(f"\n{quote_mark}\n")
            if look is None or tag in skipped or (not with_quotes and classes_of(element) & ATTRIBUTION_CLASSES):
                walk.skip_subtree()
            elif element.text and look.shows_text:
                parts.append(certain(element.text, look))
            continue
        stack.pop()
        if tag in BLOCKS and tag not in VOID:
            parts.append("\n")
        around = stack[-1]
        if element.tail and element is not root and around is not None and around.shows_text:
            parts.append(certain(element.tail, around))
    return squeezed("".join(parts).replace("\xa0", " "))


def certain(text: str, look: Look) -> str:
    """``text``, unless it is more than spaces on a look in doubt: whether it shows cannot be worked out."""
    if look.doubt and not text.isspace():
        raise Unresolved(look.doubt)
    return text


def squeezed(text: str) -> str:
    """Spaces run together in each line, lines trimmed, at most one empty line in a row (linear)."""
    lines: list[str] = []
    for line in text.splitlines():
        line = " ".join(line.split())
        if line or (lines and lines[-1]):
            lines.append(line)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)
