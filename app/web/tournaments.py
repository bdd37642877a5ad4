"""Tournaments on the web: listed and shown to anyone; announced, entered, withdrawn from and started by a
signed-in player.

Every change goes through the service (``Tournaments``), exactly as ``tournament``, ``enter T``, ``withdraw T``
and ``start T`` by mail do: a signed-in player has proved their address, so nothing waits for a confirmation.
The pages name players by club name alone, never by address.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, render_template, request, url_for
from werkzeug.wrappers import Response

from app.club.tournaments.core import ROUND_ROBIN, SWISS
from app.club.tournaments.core.swiss import MOST as SWISS_MOST
from app.club.tournaments.core.terms import DEFAULT_PLAYERS, PLAYERS
from app.club.tournaments.rows import (
    ENDED,
    FINISHED,
    FINISHED_LISTED,
    OPEN,
    RUNNING,
    UNDER_WAY,
    listed,
    organiser,
    points,
    title,
    tournament_row,
    when,
    whole,
)
from app.club.tournaments.words import RESULT_WORDS, described, standings_table
from app.rules.options import DEFAULT_DAYS, MOST_DAYS
from app.rules.registry import DEFAULT_VARIANT, VARIANTS
from app.service import Service
from app.web.acting import as_player
from app.web.auth import signed_in_player_id
from app.web.numbers import number_from

blueprint = Blueprint("tournaments", __name__)
SHOWN = 200  # open and running tournaments on the page


def server():
    return current_app.extensions["mirrorpost"]


def summary(row: Any) -> dict[str, Any]:
    return {"id": row.id, "title": title(row), "variant": row.variant, "terms": described(row),
            "organiser": organiser(row), "status": row.status, "round": row.round, "rounds": row.total_rounds,
            "format": row.format, "finished": when(row.finished_at)}


@blueprint.get("/tournaments")
def index() -> str:
    with server().db.sessions() as db_session:
        connection = db_session.connection()
        under_way = [summary(row) for row in listed(connection, UNDER_WAY, SHOWN)]
        ended = [summary(row) for row in listed(connection, ENDED, FINISHED_LISTED)]
    return render_template("web/tournaments.html", title="Tournaments", open=[t for t in under_way
                                                                              if t["status"] == OPEN],
                           running=[t for t in under_way if t["status"] == RUNNING], ended=ended,
                           me=signed_in_player_id(), variants=sorted(VARIANTS.items()), default=DEFAULT_VARIANT,
                           referee=server().settings.server_email, most_days=MOST_DAYS, days=DEFAULT_DAYS,
                           limits=PLAYERS, defaults=DEFAULT_PLAYERS, swiss_most=SWISS_MOST)


@blueprint.get("/tournaments/<id:number>")
def show(number: int) -> str:
    me = signed_in_player_id()
    with server().db.sessions() as db_session:
        connection = db_session.connection()
        row = tournament_row(connection, number)
        if row is None:
            abort(404)
        tournament = whole(connection, row)
        names = tournament.names()
        entrants = [{"rank": entrant.rank, "name": entrant.name, "id": entrant.player_id if entrant.public else None,
                     "rating": entrant.rating.shown, "withdrawn": entrant.withdrawn}
                    for entrant in sorted(tournament.entrants, key=lambda each: (each.rank or 0, each.entered))]
        table = standings_table(tournament) if row.status in (RUNNING, FINISHED) else None
        crosstable = cross(tournament) if row.format == ROUND_ROBIN and row.status != OPEN else None
        rounds = [{"number": number, "pairings": [pairing_view(board, names) for board in tournament.boards
                                                   if board.round == number]}
                  for number in range(1, row.round + 1)] if row.format == SWISS else []
    entered = me is not None and any(entrant.player_id == me and not entrant.withdrawn
                                     for entrant in tournament.entrants)
    return render_template("web/tournament.html", title=title(row), row=row, terms=described(row),
                           organiser=tournament.organiser, entrants=entrants, table=table, crosstable=crosstable,
                           rounds=rounds, me=me, entered=entered, is_organiser=me is not None and
                           me == row.organiser_id, referee=server().settings.server_email,
                           fewest=PLAYERS[row.format][0])


def pairing_view(board, names: dict[int, str]) -> dict[str, Any]:
    """One board of a Swiss round as the page shows it: its number, the players by name, its game and result."""
    return {"number": board.board, "white": names[board.white], "black": names.get(board.black or 0),
            "game_id": board.game_id,
            "result": (RESULT_WORDS.get(board.result or "", "ended") if board.status == "over" else "under way")
            if board.black is not None else "bye (1 point)"}


def cross(tournament) -> dict[str, Any]:
    """A round robin's crosstable: a row an entrant in ranked order, a cell an opponent (what the row's player
    scored, or the game under way), with each game's link."""
    order = tournament.ranked
    names = tournament.names()
    cells: dict[tuple[int, int], dict[str, Any]] = {}
    for board in tournament.boards:
        if board.black is None:
            continue
        for me, them in ((board.white, board.black), (board.black, board.white)):
            if board.status == "over":
                scored = board.core_game().points(me)
                text = points(scored) if scored else "0"
            else:
                text = "·"
            cells[(me, them)] = {"text": text, "game_id": board.game_id}
    totals = {line.player: points(line.points) for line in tournament.standings()}
    return {"players": [{"rank": index, "name": names[player],
                         "cells": [cells.get((player, other)) if other != player else None for other in order],
                         "points": totals.get(player, "0")}
                        for index, player in enumerate(order, start=1)],
            "numbers": list(range(1, len(order) + 1))}


def announcement(form) -> str:
    """The web form written as the mail command's terms, to be read by the same reader; its numbers read first
    (``number_from``: a 400 page for one that is not a number)."""
    back = url_for("tournaments.index")
    variant = (form.get("variant") or "").strip()[:40]
    format_ = SWISS if form.get("format") == SWISS else ROUND_ROBIN
    low, high = PLAYERS[format_]
    most = number_from(form.get("players") or str(DEFAULT_PLAYERS[format_]), "Players", low, high, back)
    days = number_from(form.get("days") or str(DEFAULT_DAYS), "Days a move", 1, MOST_DAYS, back)
    words = [variant, format_, f"players={most}", f"days={days}",
             "rated" if form.get("rated") else "unrated"]
    if format_ == SWISS and form.get("rounds"):
        words.append(f"rounds={number_from(form.get('rounds'), 'Rounds', 1, SWISS_MOST - 1, back)}")
    if form.get("starts"):
        words.append(f"starts={(form.get('starts') or '')[:10]}")
    return " ".join(words)


@blueprint.post("/tournaments")
def announce() -> Response:
    words = announcement(request.form)

    def act(service: Service, player) -> str:
        number = service.tournaments.announce(player, service.tournaments.check_announce(player, words))
        return f"Tournament {number} is announced, and you are its first entrant."
    return as_player(act, url_for("tournaments.index"))


def read_id(number: str) -> int:
    return number_from(number, "Tournament number", 1, 2**31 - 1, url_for("tournaments.index"))


@blueprint.post("/tournaments/<number>/enter")
def enter(number: str) -> Response:
    tournament = read_id(number)

    def act(service: Service, player) -> str:
        started = service.tournaments.enter(player, tournament)
        return f"You have entered tournament {tournament}." + (" It has started: your games are on their way."
                                                              if started else "")
    return as_player(act, url_for("tournaments.show", number=tournament))


@blueprint.post("/tournaments/<number>/withdraw")
def withdraw(number: str) -> Response:
    tournament = read_id(number)
    return as_player(lambda service, player: service.tournaments.withdraw(player, tournament),
                     url_for("tournaments.show", number=tournament))


@blueprint.post("/tournaments/<number>/start")
def start(number: str) -> Response:
    tournament = read_id(number)

    def act(service: Service, player) -> str:
        service.tournaments.start(player, tournament)
        return f"Tournament {tournament} has started: its games are on their way."
    return as_player(act, url_for("tournaments.show", number=tournament))
