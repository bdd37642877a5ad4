"""Configuration from the environment variables of docs/configuration.md, with embedded defaults.

With nothing set, everything runs locally: SQLite in ``instance/``, the
built-in SMTP listener on 127.0.0.1:2525, and outbound mail written to the
Maildir ``instance/outbox/``.
"""

from __future__ import annotations

import ipaddress
import math
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

ROOT = Path(__file__).resolve().parent.parent


class ConfigurationError(ValueError):
    """A variable of the environment set to a value the server cannot use; the message names the variable, the
    value and what it may be, in one line."""


SHOWN_VALUE = 60  # characters of a wrong value quoted back in an error


def shown(value: str) -> str:
    """A value as an error quotes it: on one line (``repr`` escapes any line break), cut short if long."""
    return repr(value if len(value) <= SHOWN_VALUE else value[:SHOWN_VALUE] + "...")


def _int(environ: dict[str, str], name: str, default: int, least: int = 0, most: int | None = None) -> int:
    """A whole number from ``least`` to ``most``; anything else is refused, naming the variable."""
    value = environ.get(name, "").strip()
    if not value:
        return default
    allowed = f"a whole number from {least} to {most}" if most is not None else f"a whole number, {least} or more"
    try:
        number = int(value)
    except ValueError:
        raise ConfigurationError(f"{name} must be {allowed}, not {shown(value)}") from None
    if number < least or (most is not None and number > most):
        raise ConfigurationError(f"{name} must be {allowed}, not {shown(value)}")
    return number


def _port(environ: dict[str, str], name: str, default: int, off: bool = False) -> int:
    """A TCP port (1-65535; 0 too where it turns the door off)."""
    return _int(environ, name, default, least=0 if off else 1, most=65535)


def _days(environ: dict[str, str], name: str, default: int) -> int:
    """A number of days, 0 meaning for ever; a negative one is refused rather than read as "drop at once"."""
    value = environ.get(name, "").strip()
    if value.lstrip("-").isdigit() and int(value) < 0:
        raise ConfigurationError(f"{name} must be 0 (keep for ever) or a number of days, not {shown(value)}")
    return _int(environ, name, default)


def _seconds(environ: dict[str, str], name: str, default: float) -> float:
    """A number of seconds above 0 (``2.5``); not a number, infinite or NaN is refused."""
    value = environ.get(name, "").strip()
    if not value:
        return default
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not math.isfinite(number) or number <= 0:
        raise ConfigurationError(f"{name} must be a number of seconds above 0, not {shown(value)}")
    return number


def _choice(environ: dict[str, str], name: str, allowed: tuple[str, ...]) -> str:
    """One of ``allowed`` (the first is the default), in any case; a typo is refused rather than read as another."""
    value = environ.get(name, "").strip().lower()
    if not value:
        return allowed[0]
    if value not in allowed:
        raise ConfigurationError(f"{name} must be one of {', '.join(allowed)}, not {shown(value)}")
    return value


TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def _flag(environ: dict[str, str], name: str, default: bool) -> bool:
    """A yes or no: 1, true, yes, on or 0, false, no, off, in any case; anything else is refused."""
    value = environ.get(name, "").strip().lower()
    if not value:
        return default
    if value not in TRUE + FALSE:
        raise ConfigurationError(f"{name} must be one of {', '.join(TRUE + FALSE)}, not {shown(value)}")
    return value in TRUE


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
SMTP_SECURITIES = ("none", "starttls", "tls")
INBOUND_PROTOCOLS = ("smtp", "lmtp")


def log_level(environ: dict[str, str] | None = None) -> str:
    """``LOG_LEVEL`` (default INFO): read apart from the settings, since logging is set up before any command
    loads them."""
    value = (os.environ if environ is None else environ).get("LOG_LEVEL", "").strip().upper() or "INFO"
    if value not in LOG_LEVELS:
        raise ConfigurationError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {shown(value)}")
    return value


@dataclass(frozen=True)
class Settings:
    """Everything the server reads from its environment, resolved once."""

    instance_path: Path
    database_url: str
    secret_key: str
    server_email: str
    base_url: str
    web_host: str = "127.0.0.1"
    web_port: int = 5000
    inbound_smtp_host: str = "127.0.0.1"
    inbound_smtp_port: int = 2525
    inbound_protocol: str = "smtp"  # or "lmtp"
    imap_host: str | None = None
    imap_port: int = 993
    imap_user: str | None = None
    imap_password: str | None = None
    imap_folder: str = "INBOX"
    imap_ssl: bool = True
    inbound_webhook_secret: str | None = None
    smtp_host: str | None = None
    smtp_port: int = 25
    smtp_username: str | None = None
    smtp_password: str | None = None
    smtp_security: str = "none"
    outbox_maildir: Path = field(default_factory=lambda: ROOT / "instance" / "outbox")
    require_auth_results: bool = False
    authserv_id: str | None = None
    max_message_bytes: int = 1_000_000
    error_notices_per_hour: int = 5
    vacation_days_per_year: int = 21
    answers_per_hour: int = 5  # answers outside any game to one address (and refusals one sender causes) an hour
    answers_per_day: int = 20  # ... and a day: a conversation that keeps coming back is cut
    challenges_per_day: int = 5  # games one player may propose in 24 hours
    message_time_budget: float = 5.0  # seconds of reading one message (parse, screen, quotes, commands)
    history_link_days: int = 30  # a move request's history link works until this long after the game ends
    trusted_proxies: int = 0  # reverse proxies in front of the web app whose X-Forwarded-For/-Proto count
    trusted_proxy_addresses: tuple[str, ...] = ("127.0.0.1", "::1")  # ...when the connection comes from these
    inbound_retention_days: int = 30  # processed mail's raw bytes are dropped after this many days (0: kept)
    outbox_retention_days: int = 30  # sent mail's two parts are dropped after this many days (0: kept)
    retention_batch: int = 500  # rows of each kind retention handles in one round
    dns_nameservers: tuple[tuple[str, int], ...] = ()  # where the sender checks' look-ups go (none: the system's)
    dkim_selector: str | None = None  # with ``dkim_private_key_file``: every outbound mail is DKIM-signed
    dkim_private_key_file: Path | None = None

    @property
    def server_domain(self) -> str:
        return self.server_email.rsplit("@", 1)[1]

    @property
    def server_local(self) -> str:
        return self.server_email.rsplit("@", 1)[0]


def _secret_key(instance_path: Path) -> str:
    """A key generated once into ``instance/secret_key`` and reused afterwards."""
    path = instance_path / "secret_key"
    if path.exists():
        return path.read_text().strip()
    instance_path.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    path.write_text(key)
    path.chmod(0o600)
    return key


def _addresses(environ: dict[str, str], name: str, default: tuple[str, ...]) -> tuple[str, ...]:
    """Comma-separated addresses or networks (``10.0.0.0/8``), each checked now: a typo fails at start."""
    value = environ.get(name, "")
    found = tuple(part.strip() for part in value.split(",") if part.strip()) if value.strip() else default
    for address in found:
        try:
            ipaddress.ip_network(address, strict=False)
        except ValueError as error:
            raise ConfigurationError(f"{name}: {shown(address)} is not an IP address or network") from error
    return found


def _nameservers(environ: dict[str, str]) -> tuple[tuple[str, int], ...]:
    """``DNS_NAMESERVERS``: ``host[:port],...``, each host an IP address (IPv6 with a port as ``[::1]:53``)."""
    found = []
    for part in (part.strip() for part in environ.get("DNS_NAMESERVERS", "").split(",")):
        if not part:
            continue
        host, port = part, "53"
        if part.startswith("["):
            host, _, rest = part[1:].partition("]")
            port = rest.removeprefix(":") or "53"
        elif part.count(":") == 1:
            host, port = part.split(":")
        try:
            ipaddress.ip_address(host)
            number = int(port)
        except ValueError as error:
            raise ConfigurationError(f"DNS_NAMESERVERS: {shown(part)} is not an IP address with an optional port") \
                from error
        if not 0 < number < 65536:
            raise ConfigurationError(f"DNS_NAMESERVERS: {shown(part)} has no valid port (1 to 65535)")
        found.append((host, number))
    return tuple(found)


def _server_email(environ: dict[str, str]) -> str:
    """``SERVER_EMAIL``: an address with a local part and a domain (replies go to ``local+TOKEN@domain``)."""
    value = environ.get("SERVER_EMAIL", "").strip().lower() or "referee@localhost"
    local, at, domain = value.rpartition("@")
    if not at or not local or not domain or any(char.isspace() or char in "<>,;" for char in value):
        raise ConfigurationError(f"SERVER_EMAIL must be an address like referee@example.org, not {shown(value)}")
    return value


def _base_url(environ: dict[str, str]) -> str:
    """``BASE_URL``: where the web app is reached from outside, ``http://`` or ``https://`` and a host."""
    value = environ.get("BASE_URL", "").strip().rstrip("/") or "http://127.0.0.1:5000"
    scheme, separator, rest = value.partition("://")
    if scheme.lower() not in ("http", "https") or not separator or not rest or any(char.isspace() for char in value):
        raise ConfigurationError(f"BASE_URL must be an http:// or https:// address like https://chess.example.org, "
                                 f"not {shown(value)}")
    return value


def _database_url(environ: dict[str, str], instance: Path) -> str:
    """``DATABASE_URL``: a SQLAlchemy URL (never quoted back: it may hold a password)."""
    value = environ.get("DATABASE_URL", "").strip()
    if not value:
        return f"sqlite:///{instance / 'mirrorpost.sqlite3'}"
    try:
        make_url(value)
    except ArgumentError:
        raise ConfigurationError("DATABASE_URL must be a SQLAlchemy URL like "
                                 "postgresql+psycopg://user:password@host/database") from None
    return value


def _dkim_key(environ: dict[str, str]) -> tuple[str | None, Path | None]:
    """``DKIM_SELECTOR`` and ``DKIM_PRIVATE_KEY_FILE``: both or neither, a selector that is one DNS label or a few."""
    selector = environ.get("DKIM_SELECTOR", "").strip() or None
    key_file = environ.get("DKIM_PRIVATE_KEY_FILE", "").strip() or None
    if bool(selector) != bool(key_file):
        raise ConfigurationError("DKIM_SELECTOR and DKIM_PRIVATE_KEY_FILE go together: set both to sign outbound mail, "
                         "or neither")
    if selector and not all(label and len(label) < 64 and label.replace("-", "").isalnum() and label.isascii()
                            for label in selector.split(".")):
        raise ConfigurationError(f"DKIM_SELECTOR: {shown(selector)} is not a DNS name (letters, digits and '-', "
                                 "dot-separated)")
    return selector, Path(key_file) if key_file else None


def load_settings(environ: dict[str, str] | None = None) -> Settings:
    """Settings from ``environ`` (default: the process environment)."""
    env = dict(os.environ if environ is None else environ)
    require_auth_results = _flag(env, "REQUIRE_AUTH_RESULTS", False)
    if require_auth_results and not env.get("AUTHSERV_ID"):
        raise ConfigurationError("REQUIRE_AUTH_RESULTS needs AUTHSERV_ID: the authserv-id of your border mail server, "
                         "whose Authentication-Results header alone is trusted")
    selector, key_file = _dkim_key(env)
    instance = Path(env.get("MIRRORPOST_INSTANCE", "").strip() or ROOT / "instance")
    instance.mkdir(parents=True, exist_ok=True)
    return Settings(
        instance_path=instance,
        database_url=_database_url(env, instance),
        secret_key=env.get("SECRET_KEY") or _secret_key(instance),
        server_email=_server_email(env),
        base_url=_base_url(env),
        web_host=env.get("WEB_HOST", "").strip() or "127.0.0.1",
        web_port=_port(env, "WEB_PORT", 5000),
        inbound_smtp_host=env.get("INBOUND_SMTP_HOST", "").strip() or "127.0.0.1",
        inbound_smtp_port=_port(env, "INBOUND_SMTP_PORT", 2525, off=True),
        inbound_protocol=_choice(env, "INBOUND_PROTOCOL", INBOUND_PROTOCOLS),
        imap_host=env.get("IMAP_HOST") or None,
        imap_port=_port(env, "IMAP_PORT", 993),
        imap_user=env.get("IMAP_USER") or None,
        imap_password=env.get("IMAP_PASSWORD") or None,
        imap_folder=env.get("IMAP_FOLDER", "") or "INBOX",
        imap_ssl=_flag(env, "IMAP_SSL", True),
        inbound_webhook_secret=env.get("INBOUND_WEBHOOK_SECRET") or None,
        smtp_host=env.get("SMTP_HOST") or None,
        smtp_port=_port(env, "SMTP_PORT", 25),
        smtp_username=env.get("SMTP_USERNAME") or None,
        smtp_password=env.get("SMTP_PASSWORD") or None,
        smtp_security=_choice(env, "SMTP_SECURITY", SMTP_SECURITIES),
        outbox_maildir=Path(env.get("OUTBOX_MAILDIR", "").strip() or instance / "outbox"),
        require_auth_results=require_auth_results,
        authserv_id=env.get("AUTHSERV_ID") or None,
        max_message_bytes=_int(env, "MAX_MESSAGE_BYTES", 1_000_000, least=1),
        error_notices_per_hour=_int(env, "ERROR_NOTICES_PER_HOUR", 5),
        vacation_days_per_year=_int(env, "VACATION_DAYS_PER_YEAR", 21),
        answers_per_hour=_int(env, "ANSWERS_PER_HOUR", 5),
        answers_per_day=_int(env, "ANSWERS_PER_DAY", 20),
        challenges_per_day=_int(env, "CHALLENGES_PER_DAY", 5),
        message_time_budget=_seconds(env, "MESSAGE_TIME_BUDGET", 5.0),
        history_link_days=_int(env, "HISTORY_LINK_DAYS", 30),
        trusted_proxies=_int(env, "TRUSTED_PROXIES", 0),
        trusted_proxy_addresses=_addresses(env, "TRUSTED_PROXY_ADDRESSES", ("127.0.0.1", "::1")),
        inbound_retention_days=_days(env, "INBOUND_RETENTION_DAYS", 30),
        outbox_retention_days=_days(env, "OUTBOX_RETENTION_DAYS", 30),
        retention_batch=_int(env, "RETENTION_BATCH", 500, least=1),
        dns_nameservers=_nameservers(env),
        dkim_selector=selector,
        dkim_private_key_file=key_file,
    )
