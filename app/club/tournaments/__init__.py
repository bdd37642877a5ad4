"""Tournaments: the pure core (``core``: terms, Berger tables, Swiss pairing, standings) and, beside it, their
rows (``rows``), their course under the game service's jobs (``jobs``), their mail commands (``commands``)
and the words of their mails (``words``)."""
