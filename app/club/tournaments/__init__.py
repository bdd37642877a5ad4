"""Tournaments' pure core: the terms as players write them, round robin pairings by the Berger tables, Swiss
pairings by the FIDE (Dutch) system, and standings with FIDE's tie-breaks. Plain values in and out; no web,
database or mail (docs/tournaments.md tells players the rules these follow)."""
