"""The ``manage.py`` commands (docs/commands.md)."""

from __future__ import annotations

import json
import logging
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any

import click

from app.config import ROOT, ConfigurationError, log_level
from app.rules.registry import DEFAULT_VARIANT, VARIANTS
from app.rules.scenario import run_perft, run_scenario

WORKER_GRACE = 60.0  # seconds ``serve`` gives its worker thread to finish the round under way when stopped
EX_DATAERR = 65  # sysexits.h: bad input; the mail system bounces the message with what the command said
EX_TEMPFAIL = 75  # sysexits.h: a temporary failure; Postfix's pipe, procmail and sendmail try again later
EX_CONFIG = 78  # sysexits.h: a configuration error


class ConfigurationProblem(click.ClickException):
    """A configuration error as the command line shows it: one line on standard error, exit status 78."""

    exit_code = EX_CONFIG


class Commands(click.Group):
    """The commands, each of which shows a configuration error (``app.config``) as one line, not a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ConfigurationError as error:
            raise ConfigurationProblem(str(error)) from None


@click.group(cls=Commands, help="Mirrorpost: a play-by-email referee for hidden-information chess variants.")
def cli() -> None:
    level = log_level()
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)


STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)  # how systemd, Docker and ``kill`` stop a process; Ctrl-C


def _on_termination(handler: Callable[[], None]) -> None:
    """The first SIGTERM or SIGINT calls ``handler`` (a clean stop); a second one ends the process at once."""
    def first(_number: int, _frame: object) -> None:
        for number in STOP_SIGNALS:
            signal.signal(number, signal.SIG_DFL)
        handler()

    for number in STOP_SIGNALS:
        signal.signal(number, first)


def _exit() -> None:
    raise SystemExit(0)  # raised in the main thread, where the signal arrives: the web server closes and returns


def _server():
    from app.server import Server

    return Server.from_env()


@cli.command("init-db", help="Create or upgrade the database schema (Alembic upgrade head).")
def init_db() -> None:
    server = _server()
    server.db.upgrade()
    click.echo(f"schema up to date: {server.settings.database_url}")


@cli.command(help="Process one raw RFC 5322 message from FILE (or standard input) as if it arrived by mail. "
             "Exits 0 once it is stored, 75 (EX_TEMPFAIL: the mail system tries again) if it could not be, "
             "65 (EX_DATAERR: the mail system bounces it) if it is larger than any door takes (25 MiB).")
@click.argument("file", type=click.File("rb"), default="-")
def ingest(file: click.utils.LazyFile) -> None:
    from app.inbound import receive as mail_in  # not the ``inbound`` command group

    raw = file.read(mail_in.LARGEST_MESSAGE + 1)
    if len(raw) > mail_in.LARGEST_MESSAGE:
        click.echo(f"message not accepted: larger than {mail_in.LARGEST_MESSAGE // (1024 * 1024)} MiB, "
                   "the most the referee takes", err=True)
        sys.exit(EX_DATAERR)
    server = _server()
    server.db.upgrade()
    if not raw.strip():
        raise click.ClickException("empty message")
    try:
        receipt = mail_in.receive(server.db, server.settings, server.signer, raw, "ingest")
    except Exception as error:  # not stored: EX_TEMPFAIL, so the MTA keeps the message and tries again
        click.echo(f"not stored, try again later: {error.__class__.__name__}: {error}", err=True)
        sys.exit(EX_TEMPFAIL)
    outcome = receipt.outcome
    if outcome is None:
        outcome = "already stored and processed" if receipt.duplicate else "processed elsewhere"
    click.echo(f"stored as inbound message {receipt.inbound_id}: {outcome}")


@cli.command("new-game", help="Create a game and send both invitations; prints the game id.")
@click.option("--variant", required=True)
@click.option("--white", required=True, help="White's email address")
@click.option("--black", required=True, help="Black's email address")
@click.option("--option", "options", multiple=True, help="K=V: days=3, or one of the variant's options (repeatable)")
def new_game(variant: str, white: str, black: str, options: tuple[str, ...]) -> None:
    from app.games.errors import ServiceError
    from app.games.lobby.challenges import read_options
    from app.service import Service

    server = _server()
    server.db.upgrade()
    try:
        parsed = read_options(list(options))  # as a challenge by mail reads them
    except ServiceError as error:
        raise click.BadParameter(str(error), param_hint="--option") from error
    try:
        with server.db.engine.begin() as connection:
            service = Service(connection, server.settings, server.signer)
            game = service.create_game(variant, service.player(white), service.player(black), parsed, None)
            game_id = game.id
    except ServiceError as error:
        raise click.ClickException(str(error)) from error
    click.echo(game_id)
    click.echo(f"Game {game_id} created. Its two invitations are queued in the outbox: they go out when "
               "`python3 manage.py serve` or `python3 manage.py worker` runs.", err=True)


@cli.group(help="Tournaments as the operator: announce one, start one.")
def tournament() -> None:
    pass


@tournament.command("create", help="Announce a tournament as the operator; prints its number.")
@click.argument("variant")
@click.option("--format", "format_", type=click.Choice(["round-robin", "swiss"], case_sensitive=False),
              default="round-robin", show_default=True, help="how it is paired")
@click.option("--players", help="the most who may enter (round robin 3-16, default 6; Swiss 4-128, default 8)")
@click.option("--rounds", help="a Swiss's rounds (default: as many as the entrants need)")
@click.option("--days", help="a move's time in days (default 3; or --option days=N)")
@click.option("--unrated", is_flag=True, help="its games change no rating")
@click.option("--option", "options", multiple=True,
              help="K=V: days=N, or one of the variant's options (repeatable)")
@click.option("--starts", help="YYYY-MM-DD: the day it starts at the latest, 00:00 UTC")
def tournament_create(variant: str, format_: str, players: str | None, rounds: str | None, days: str | None,
                      unrated: bool, options: tuple[str, ...], starts: str | None) -> None:
    from app.club.tournaments.core import TermsError, terms_from
    from app.games.errors import ServiceError
    from app.service import Service

    raw = _tournament_options(variant, options)
    if "days" in raw and days is not None:
        raise click.BadParameter("days is given twice, by --days and --option days=", param_hint="--option")
    days = raw.pop("days", days)
    server = _server()
    server.db.upgrade()
    try:
        with server.db.engine.begin() as connection:
            service = Service(connection, server.settings, server.signer)
            terms = terms_from(variant, today=service.now.date(), format=format_.lower(), players=players,
                               rounds=rounds, rated=not unrated, days=days, starts=starts, options=raw)
            number = service.tournaments.announce(None, terms)
            service.flush()
    except (ServiceError, TermsError) as error:
        raise click.ClickException(str(error)) from error
    click.echo(number)
    click.echo(f"Tournament {number} announced: players enter it with 'enter {number}' by mail, or on "
               f"{server.settings.base_url}/tournaments/{number}", err=True)


def _tournament_options(variant: str, options: tuple[str, ...]) -> dict[str, str]:
    """The ``--option`` values read as a challenge's are, and checked against the variant named (when it names
    one: ``terms_from`` answers a name that is none): the operator is told the bad option and the ones the game
    takes."""
    from app.games.errors import ServiceError
    from app.games.lobby.challenges import read_options
    from app.rules.options import days_a_move
    from app.rules.registry import VARIANTS
    from app.rules.values import OptionError
    from app.rules.variant_names import variant_named

    try:
        raw = read_options(list(options))
        if "days" in raw:
            days_a_move(raw["days"])
    except (ServiceError, OptionError) as error:
        raise click.BadParameter(str(error), param_hint="--option") from error
    found = variant_named(variant.split())
    if found is None or found[1] != len(variant.split()):
        return raw
    game = VARIANTS[found[0]]
    takes = ", ".join(["days=N", *(f"{option.name}={option.values}" for option in game.options)])
    unknown = sorted(set(raw) - {"days"} - {option.name for option in game.options})
    if unknown:
        raise click.BadParameter(f"{game.title} has no option {', '.join(unknown)}; its options: {takes}",
                                 param_hint="--option")
    try:
        game.parse_options({key: value for key, value in raw.items() if key != "days"})
    except OptionError as error:
        raise click.BadParameter(f"{error}; its options: {takes}", param_hint="--option") from error
    return raw


@tournament.command("start", help="Start tournament T now with whoever has entered (at least its minimum).")
@click.argument("number", type=int)
def tournament_start(number: int) -> None:
    from app.games.errors import ServiceError
    from app.service import Service

    server = _server()
    server.db.upgrade()
    try:
        with server.db.engine.begin() as connection:
            service = Service(connection, server.settings, server.signer)
            service.tournaments.start(None, number)
            service.flush()
    except ServiceError as error:
        raise click.ClickException(str(error)) from error
    click.echo(f"Tournament {number} started: its games' first mails are queued in the outbox.")


@cli.command(help="The background loop alone: inbound, IMAP, outbox dispatch, clocks.")
@click.option("--once", is_flag=True, help="One round, then exit.")
def worker(once: bool) -> None:
    from app.server import settle_garbage_collection
    from app.worker import Worker

    server = _server()
    server.db.upgrade()
    loop = Worker(server)
    if once:
        click.echo(json.dumps(loop.run_once()))
        return
    settle_garbage_collection()
    stop = threading.Event()
    _on_termination(stop.set)  # the round under way is finished first
    click.echo("worker running; SIGTERM or Ctrl-C stops it after the round under way")
    loop.run_forever(stop)
    click.echo("worker stopped")


@cli.command(help="The whole server: web app, background worker and the inbound SMTP listener.")
def serve() -> None:
    from app import create_app
    from app.inbound.listener import start_listener
    from app.server import settle_garbage_collection, web_server
    from app.worker import Worker

    server = _server()
    server.db.upgrade()
    settings = server.settings
    listener = None
    if settings.inbound_smtp_port:
        listener = start_listener(server)
        click.echo(f"SMTP listener on {settings.inbound_smtp_host}:{settings.inbound_smtp_port} "
                   f"for {settings.server_email}")
    stop = threading.Event()
    app = create_app(server)
    settle_garbage_collection()
    thread = threading.Thread(target=Worker(server).run_forever, args=(stop,), name="worker", daemon=True)
    thread.start()
    where = "SMTP relay " + settings.smtp_host if settings.smtp_host else f"the Maildir {settings.outbox_maildir}"
    click.echo(f"outbound mail goes to {where}; database {settings.database_url}")
    web = web_server(app, settings)
    click.echo(f"web on http://{settings.web_host}:{settings.web_port}")
    _on_termination(_exit)
    try:
        web.run()  # until SIGTERM or Ctrl-C; it then closes its sockets and threads and returns
    finally:
        if listener is not None:
            listener.stop()
        stop.set()
        thread.join(WORKER_GRACE)
    click.echo("stopped")


@cli.command(help="Send the daily digests that are due now (the worker sends them by itself at each player's hour); "
                  "--now: every digest player's digest at once, whatever the hour.")
@click.option("--now", "everyone", is_flag=True, help="every digest player's digest, whatever the hour")
def digest(everyone: bool) -> None:
    from app.worker import Worker

    server = _server()
    server.db.upgrade()
    sent = Worker(server).digests(every=everyone)
    click.echo(f"{sent} digest{'s' if sent != 1 else ''} queued; they go out when `python3 manage.py serve` or "
               "`python3 manage.py worker` runs.")


@cli.command(help="Play a short game through the real pipeline on a throw-away database.")
@click.option("--variant", default=DEFAULT_VARIANT, show_default=True, type=click.Choice(sorted(VARIANTS)))
@click.option("--seed", default=2026, show_default=True, help="the random orders' seed")
def demo(variant: str, seed: int) -> None:
    from app.demo import run_demo

    run_demo(click.echo, variant_name=variant, seed=seed)


@cli.command("dkim-records", help="Print the DNS records to publish for the DKIM key that signs outbound mail "
             "(DKIM_SELECTOR, DKIM_PRIVATE_KEY_FILE), with the SPF and DMARC records to add beside it.")
def dkim_records() -> None:
    from app.config import load_settings
    from app.outbound.signing import load_key, records

    settings = load_settings()
    key = load_key(settings)
    if key is None:
        raise click.ClickException("outbound mail is not signed: set DKIM_SELECTOR and DKIM_PRIVATE_KEY_FILE "
                                   "(a key made by 'openssl genrsa -out dkim.pem 2048'; see docs/deploying.md)")
    for line in records(settings, key):
        click.echo(line)


@cli.group(help="Stored inbound mail: list it, show one message, process a failed one again.")
def inbound() -> None:
    pass


@inbound.command("list", help="The newest stored messages, newest first: id, received, status, whether the sender "
                 "was proven (DKIM, SPF), sender, outcome.")
@click.option("--status", help="only these: new, done, rejected, ignored or failed")
@click.option("--limit", default=50, show_default=True)
def inbound_list(status: str | None, limit: int) -> None:
    from app.admin import inbound_messages

    for listed in inbound_messages(_server().db, status, limit):
        click.echo(listed.line())


@inbound.command("show", help="Write one stored message to standard output, byte for byte as received (the "
                 "Authentication-Results of the sender check to standard error).")
@click.argument("inbound_id", type=int)
def inbound_show(inbound_id: int) -> None:
    from app.admin import inbound_raw

    stored = inbound_raw(_server().db, inbound_id)
    if stored is None:
        raise click.ClickException(f"no inbound message {inbound_id}")
    if stored.authentication:
        click.echo(f"Authentication-Results: {stored.authentication}", err=True)
    if stored.compacted_at is not None:
        raise click.ClickException(f"the bytes of inbound message {inbound_id} were dropped on "
                                   f"{stored.compacted_at:%Y-%m-%d} (INBOUND_RETENTION_DAYS); "
                                   "`inbound list` still shows what became of it")
    if stored.full_size is not None:
        click.echo(f"only the header was kept: the message was {stored.full_size} bytes, larger than any door "
                   "takes (it is still in the IMAP mailbox, flagged)", err=True)
    sys.stdout.buffer.write(stored.raw)


@inbound.command("retry", help="Process failed messages again now (once their cause is mended), or check messages "
                               "waiting for DNS now; prints each outcome.")
@click.argument("inbound_ids", type=int, nargs=-1, required=True)
def inbound_retry(inbound_ids: tuple[int, ...]) -> None:
    from app.admin import retry_inbound

    server = _server()
    server.db.upgrade()
    refused = [n for n in inbound_ids if _report(n, retry_inbound(server.db, server.settings, server.signer, n))]
    if refused:
        raise click.ClickException(f"neither failed nor waiting, left as they are: {', '.join(map(str, refused))}")


@cli.group(help="The outbox: list outbound mail, send a failed or bounced one again.")
def outbox() -> None:
    pass


@outbox.command("list", help="The newest outbound mails, newest first: id, queued, status, recipient, subject.")
@click.option("--status", help="only these: pending, sending, sent, failed or bounced")
@click.option("--limit", default=50, show_default=True)
def outbox_list(status: str | None, limit: int) -> None:
    from app.admin import outbound_messages

    for listed in outbound_messages(_server().db, status, limit):
        click.echo(listed.line())


@outbox.command("retry", help="Send failed or bounced mails again, from a first attempt, with the next worker round.")
@click.argument("outbound_ids", type=int, nargs=-1, required=True)
def outbox_retry(outbound_ids: tuple[int, ...]) -> None:
    from app.admin import retry_outbound

    db = _server().db
    refused = [n for n in outbound_ids if _report(n, "queued again" if retry_outbound(db, n) else None)]
    if refused:
        raise click.ClickException(f"not failed or bounced (or their parts are no longer kept), left as they are: "
                                   f"{', '.join(map(str, refused))}")


def _report(message_id: int, outcome: str | None) -> bool:
    """Say what became of one message; True when nothing could be done with it."""
    if outcome is not None:
        click.echo(f"{message_id}: {outcome}")
    return outcome is None


@cli.group(help="Run the referee alone, without database or mail.")
def referee() -> None:
    pass


@referee.command("play", help="Play SCENARIO.json through the referee and print the result as JSON.")
@click.argument("scenario", type=click.File("r"))
def referee_play(scenario: click.utils.LazyFile) -> None:
    _print_scenario_output(scenario, run_scenario)


@referee.command("perft", help="After SCENARIO.json's orders, count the move sequences of DEPTH moves (1 or more) "
                 "and print {\"depth\", \"nodes\", \"divide\": {order: count}} as JSON.")
@click.argument("scenario", type=click.File("r"))
@click.argument("depth", type=click.IntRange(min=1))
def referee_perft(scenario: click.utils.LazyFile, depth: int) -> None:
    _print_scenario_output(scenario, lambda data: run_perft(data, depth))


def _print_scenario_output(scenario: click.utils.LazyFile, run: Callable[[Any], dict[str, Any]]) -> None:
    """Read a scenario file, run it, print the output as JSON; a bad scenario or an unknown variant is an error
    message (the KeyError's own text, not its quoted repr), never a traceback."""
    try:
        output = run(json.load(scenario))
    except json.JSONDecodeError as error:
        raise click.ClickException(f"{scenario.name} is not JSON: {error}") from error
    except KeyError as error:
        raise click.ClickException(str(error.args[0]) if error.args else "missing key") from error
    except ValueError as error:
        raise click.ClickException(str(error)) from error
    json.dump(output, sys.stdout, indent=2)
    sys.stdout.write("\n")


@cli.command("test", context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
             help="`ruff check` and the whole test suite; any further arguments go to pytest (the development "
                  "requirements are installed first).")
@click.argument("arguments", nargs=-1, type=click.UNPROCESSED)
def test(arguments: tuple[str, ...]) -> None:
    import subprocess

    root = ROOT
    lint = subprocess.run([sys.executable, "-m", "ruff", "check", str(root)], cwd=root)
    if lint.returncode:
        sys.exit(lint.returncode)
    sys.exit(subprocess.run([sys.executable, "-m", "pytest", *arguments], cwd=root).returncode)


@cli.command(help="Benchmarks: referee [VARIANT ...], pipeline [VARIANT ...], web [VARIANT ...], digest, scale, "
                  "tournament (all when none is named); ratios against a baseline measured in the same run.")
@click.argument("suites", nargs=-1)
@click.option("--games", type=click.IntRange(min=100), multiple=True,
              help="scale: a size to fill the database to (repeatable; one alone is measured beside 1,000 games)")
def bench(suites: tuple[str, ...], games: tuple[int, ...]) -> None:
    from benchmarks import run

    sizes = (*games, 1_000) if len(games) == 1 and games[0] > 1_000 else games
    run(list(suites), tuple(sorted(set(sizes))))
