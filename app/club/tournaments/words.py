"""What players are told of tournaments, by mail: the lists, the standings as a table, each round's pairings,
and the mails of a tournament's course (an entry, the start, a Swiss round, the end, a cancellation), each to
one entrant at their own address, naming every player by club name alone.

A standings table holds one line an entrant, a few short cells each: a 128-player Swiss's mail stays far
under 100 KB (its pairings are listed only for the round just paired, one line a board).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markupsafe import Markup
from sqlalchemy import Connection, select

from app.club.models import PLAYERS
from app.club.tournaments.core import ROUND_ROBIN, TIE_BREAKS
from app.club.tournaments.rows import (
    FINISHED,
    OPEN,
    RUNNING,
    Board,
    Whole,
    organiser,
    points,
    terms_of,
    title,
    when,
)
from app.config import Settings
from app.games.lobby.challenges import terms
from app.games.mail.links import history_link
from app.outbound.outbox import Mail, enqueue
from app.outbound.render import Document, render

RESULT_WORDS = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "½-½"}


@dataclass(frozen=True)
class Table:
    """A table in both parts of a mail: its heading, column headings and rows of short cells."""

    heading: str
    headings: list[str]
    rows: list[list[str]]

    @property
    def html(self) -> Markup:
        """An HTML table with inline styles, as mail clients need them."""
        head = Markup("").join(Markup('<th align="left" style="border-bottom:1px solid #8a8272;">{}</th>').format(cell)
                               for cell in self.headings)
        rows = Markup("").join(Markup("<tr>{}</tr>").format(Markup("").join(Markup("<td>{}</td>").format(cell)
                                                                             for cell in row)) for row in self.rows)
        return Markup('<table cellpadding="3" cellspacing="0" style="border-collapse:collapse;font-size:13px;">'
                      "<tr>{}</tr>{}</table>").format(head, rows)

    def document(self) -> Document:
        """The table as a mail carries it whole: its heading, then the table."""
        return Document(f"{self.heading}:\n{self.text}\n", Markup("<p><strong>{}</strong></p>{}").format(
            self.heading, self.html))

    @property
    def text(self) -> str:
        """Fixed-width columns, within the text part's width for the usual names."""
        widths = [max(len(cell) for cell in column) for column in zip(self.headings, *self.rows, strict=True)]
        return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip()
                         for line in [self.headings, *self.rows])


def described(row: Any) -> str:
    """A tournament's terms in words: game, options and time, format and rounds, places, start, rated."""
    game = terms(row.variant, row.days, row.options)
    if row.format == ROUND_ROBIN:
        shape = "a round robin: everyone plays everyone once, all games at once"
    else:
        rounds = f"{row.total_rounds} rounds" if row.total_rounds else (
            f"{row.rounds} rounds" if row.rounds else "rounds as many as the entrants need")
        shape = f"a Swiss of {rounds}, paired one round at a time"
    start = (f"starts on {when(row.starts_at)} (00:00 UTC) at the latest" if row.starts_at else
             "starts when its last place is taken or its organiser starts it")
    if row.status != OPEN:
        start = f"started on {when(row.started_at)}"
    return (f"{game}; {shape}; {row.entrants} of {row.players} places taken; {start}; "
            f"{'rated' if row.rated else 'unrated'}")


def listing_line(row: Any) -> str:
    """One tournament of ``tournaments``, by number, with its organiser's club name."""
    state = {OPEN: "open for entry", RUNNING: f"round {row.round} of {row.total_rounds} under way"
             if row.format != ROUND_ROBIN else "under way", FINISHED: "finished"}.get(row.status, row.status)
    return f"{title(row)} ({state}): {described(row)}; organised by {organiser(row)}."


def standings_table(tournament: Whole) -> Table:
    """Place, name, points, the format's tie-breaks and games played, best first."""
    names = tournament.names()
    withdrawn = tournament.withdrawn()
    rows = [[f"{'=' if line.shared else ''}{line.place}", names[line.player] + (" (withdrew)" if line.player in
                                                                                  withdrawn else ""),
             points(line.points), *(f"{value:g}" for value in line.tie_breaks), str(line.games)]
            for line in tournament.standings()]
    heading = "Final standings" if tournament.row.status == FINISHED else "Standings"
    tie_breaks = [name[:1].upper() + name[1:] for name in TIE_BREAKS[tournament.row.format]]
    return Table(heading, ["Place", "Name", "Points", *tie_breaks, "Games"], rows)


def board_line(board: Board, names: dict[int, str]) -> str:
    """"Board 1: Ann - Bob, game 12, 1-0" (White named first; the result once the game has ended), or the bye."""
    if board.black is None:
        return f"Board {board.board}: {names[board.white]} has the bye (1 point)"
    result = f", {RESULT_WORDS.get(board.result or '', 'ended')}" if board.status == "over" else ""
    return f"Board {board.board}: {names[board.white]} - {names[board.black]}, game {board.game_id}{result}"


def pairing_lines(tournament: Whole, settings: Settings) -> list[str]:
    """What ``standings T`` says above its table: the tournament's terms and where it stands."""
    row = tournament.row
    lines = [f"{title(row)}: {described(row)}. Organised by {tournament.organiser}."]
    if row.status == OPEN:
        lines.append(f"Entrants so far: {', '.join(entrant.name for entrant in tournament.entrants) or 'none'}. "
                     f"To enter: enter {row.id}")
    elif row.format != ROUND_ROBIN and row.status == RUNNING:
        lines.append(f"Round {row.round} of {row.total_rounds} is under way.")
    lines.append(f"Every round and game on the web: {settings.base_url}/tournaments/{row.id}")
    return lines


class TournamentMail:
    """The mails of a tournament's course, each to one entrant, queued in the caller's transaction."""

    def __init__(self, connection: Connection, settings: Settings) -> None:
        self.connection = connection
        self.settings = settings

    def page(self, number: int) -> str:
        return f"{self.settings.base_url}/tournaments/{number}"

    def send(self, email: str, name: str, subject: str, paragraphs: list[str], sections: list[Any] = (),
             table: Table | None = None, number: int | None = None) -> None:
        subject = f"Mirrorpost: {subject}"
        context = {"subject": subject, "paragraphs": paragraphs, "sections": list(sections), "table": table,
                   "page_url": self.page(number) if number else ""}
        text, html = render("tournament", context)
        enqueue(self.connection, self.settings, Mail(email, name, "tournament", subject, text, html))

    def entrants(self, tournament: Whole) -> list[tuple[int, str, str]]:
        """(id, address, name) of every entrant: each is mailed at their own address alone."""
        ids = [entrant.player_id for entrant in tournament.entrants]
        found = {row.id: row for row in self.connection.execute(
            select(PLAYERS.c.id, PLAYERS.c.email).where(PLAYERS.c.id.in_(ids)))}
        names = tournament.names()
        return [(player_id, found[player_id].email, names[player_id]) for player_id in ids]

    def entered(self, row: Any, player: Any, announced: bool, full: bool) -> None:
        fewest = terms_of(row).fewest
        if announced:
            paragraphs = [f"Your tournament is announced: {title(row)}.", f"The terms: {described(row)}.",
                          f"You organise it and are its first entrant. Others enter with: enter {row.id}. "
                          f"You may start it once it has {fewest} entrants: start {row.id}. 'tournaments' lists it."]
        else:
            then = "It starts now: its games are on their way." if full else (
                f"It starts when its last place is taken{f', or on {when(row.starts_at)}' if row.starts_at else ''}"
                ", or when its organiser starts it.")
            paragraphs = [f"You have entered {title(row)}.", f"The terms: {described(row)}.", then,
                          f"To leave it: withdraw {row.id}. Its standings: standings {row.id}."]
        self.send(player.email, player.name, f"{title(row)}: {'announced' if announced else 'entered'}",
                  paragraphs, number=row.id)

    def started(self, tournament: Whole) -> None:
        row, names = tournament.row, tournament.names()
        for player_id, email, name in self.entrants(tournament):
            mine = [board for board in tournament.boards if player_id in (board.white, board.black)]
            lines = [self.game_line(board, player_id, names) for board in mine]
            paragraphs = [f"{title(row)} has started with {len(tournament.entrants)} players: {described(row)}.",
                          "Each game has its own mails, as any game does; its first mail is on its way. Every mail "
                          "of a game names the tournament and its round."]
            if row.format != ROUND_ROBIN:
                paragraphs.append(f"Round 1 of {row.total_rounds}. The next round is paired as soon as every "
                                  "game of this one has ended.")
            sections = [Section("Your games" if row.format == ROUND_ROBIN else "Your game in round 1", lines)]
            if row.format != ROUND_ROBIN:
                first = [board_line(board, names) for board in tournament.boards if board.round == 1]
                sections.append(Section("The pairings of round 1 (White named first)", first))
            self.send(email, name, f"{title(row)} has started", paragraphs, sections,
                      Table("Entrants, ranked", ["No.", "Name", "Rating"],
                            [[str(entrant.rank), entrant.name, entrant.rating.shown]
                             for entrant in sorted(tournament.entrants, key=lambda each: each.rank or 0)]), row.id)

    def paired(self, tournament: Whole, number: int) -> None:
        row, names = tournament.row, tournament.names()
        boards = [board for board in tournament.boards if board.round == number]
        for player_id, email, name in self.entrants(tournament):
            if player_id in tournament.withdrawn():
                continue
            mine = [self.game_line(board, player_id, names) for board in boards
                    if player_id in (board.white, board.black)]
            self.send(email, name, f"{title(row)}: round {number} of {row.total_rounds}", [
                f"Every game of round {number - 1} has ended, and round {number} of {row.total_rounds} is paired.",
            ], [Section(f"Your game in round {number}", mine or ["You are not paired in this round."]),
                Section(f"The pairings of round {number} (White named first)",
                        [board_line(board, names) for board in boards])],
                standings_table(tournament), row.id)

    def finished(self, tournament: Whole) -> None:
        row = tournament.row
        table = standings_table(tournament)
        winners = [line[1] for line in table.rows if line[0] in ("1", "=1")]
        for _player_id, email, name in self.entrants(tournament):
            self.send(email, name, f"{title(row)} has ended", [
                f"{title(row)} has ended: every game is over. {listed_names(winners)} "
                f"{'share' if len(winners) > 1 else 'takes'} first place.",
                "Thank you for playing. 'tournaments' lists the open ones."], (), table, row.id)

    def cancelled(self, tournament: Whole) -> None:
        row = tournament.row
        for _player_id, email, name in self.entrants(tournament):
            self.send(email, name, f"{title(row)} is cancelled", [
                f"{title(row)} reached its start day with {len(tournament.entrants)} entrant(s), fewer than the "
                f"{terms_of(row).fewest} it needs, so it is cancelled. No game was started.",
                "'tournaments' lists the open ones; 'tournament <game>' announces one of your own."], number=row.id)

    def game_line(self, board: Board, player_id: int, names: dict[int, str]) -> str:
        if board.black is None:
            return f"Round {board.round}: you have the bye (1 point, no game)."
        side, opponent = ("White", board.black) if board.white == player_id else ("Black", board.white)
        return (f"Round {board.round}: game {board.game_id} against {names[opponent]}, you play {side}: "
                f"{history_link(self.settings, board.game_id, player_id)}")


def listed_names(names: list[str]) -> str:
    """"Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)


@dataclass(frozen=True)
class Section:
    """A heading and its lines (a player's games, a round's pairings)."""

    heading: str
    lines: list[str]
