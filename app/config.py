"""Configuration from the environment variables of docs/configuration.md, with embedded defaults.

With nothing set, everything runs locally: SQLite in ``instance/``, the
built-in SMTP listener on 127.0.0.1:2525, and outbound mail written to the
Maildir ``instance/outbox/``.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _int(environ: dict[str, str], name: str, default: int) -> int:
    value = environ.get(name, "")
    return int(value) if value.strip() else default


def _days(environ: dict[str, str], name: str, default: int) -> int:
    """A number of days, 0 meaning for ever; a negative one is refused rather than read as "drop at once"."""
    days = _int(environ, name, default)
    if days < 0:
        raise ValueError(f"{name} must be 0 (keep for ever) or a number of days, not {days}")
    return days


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def log_level(environ: dict[str, str] | None = None) -> str:
    """``LOG_LEVEL`` (default INFO): read apart from the settings, since logging is set up before any command
    loads them."""
    value = (os.environ if environ is None else environ).get("LOG_LEVEL", "").strip().upper() or "INFO"
    if value not in LOG_LEVELS:
        raise ValueError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {value!r}")
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
            raise ValueError(f"{name}: {address!r} is not an IP address or network") from error
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
            raise ValueError(f"DNS_NAMESERVERS: {part!r} is not an IP address with an optional port") from error
        if not 0 < number < 65536:
            raise ValueError(f"DNS_NAMESERVERS: {part!r} has no valid port")
        found.append((host, number))
    return tuple(found)


def _dkim_key(environ: dict[str, str]) -> tuple[str | None, Path | None]:
    """``DKIM_SELECTOR`` and ``DKIM_PRIVATE_KEY_FILE``: both or neither, a selector that is one DNS label or a few."""
    selector = environ.get("DKIM_SELECTOR", "").strip() or None
    key_file = environ.get("DKIM_PRIVATE_KEY_FILE", "").strip() or None
    if bool(selector) != bool(key_file):
        raise ValueError("DKIM_SELECTOR and DKIM_PRIVATE_KEY_FILE go together: set both to sign outbound mail, "
                         "or neither")
    if selector and not all(label and len(label) < 64 and label.replace("-", "").isalnum() and label.isascii()
                            for label in selector.split(".")):
        raise ValueError(f"DKIM_SELECTOR: {selector!r} is not a DNS name (letters, digits and '-', dot-separated)")
    return selector, Path(key_file) if key_file else None


def _float(environ: dict[str, str], name: str, default: float) -> float:
    value = environ.get(name, "")
    return float(value) if value.strip() else default


def load_settings(environ: dict[str, str] | None = None) -> Settings:
    """Settings from ``environ`` (default: the process environment)."""
    env = dict(os.environ if environ is None else environ)
    if env.get("REQUIRE_AUTH_RESULTS", "0") in ("1", "true", "yes") and not env.get("AUTHSERV_ID"):
        raise ValueError("REQUIRE_AUTH_RESULTS needs AUTHSERV_ID: the authserv-id of your border mail server, "
                         "whose Authentication-Results header alone is trusted")
    selector, key_file = _dkim_key(env)
    instance = Path(env.get("MIRRORPOST_INSTANCE", ROOT / "instance"))
    instance.mkdir(parents=True, exist_ok=True)
    return Settings(
        instance_path=instance,
        database_url=env.get("DATABASE_URL") or f"sqlite:///{instance / 'mirrorpost.sqlite3'}",
        secret_key=env.get("SECRET_KEY") or _secret_key(instance),
        server_email=env.get("SERVER_EMAIL", "referee@localhost").lower(),
        base_url=env.get("BASE_URL", "http://127.0.0.1:5000").rstrip("/"),
        web_host=env.get("WEB_HOST", "127.0.0.1"),
        web_port=_int(env, "WEB_PORT", 5000),
        inbound_smtp_host=env.get("INBOUND_SMTP_HOST", "127.0.0.1"),
        inbound_smtp_port=_int(env, "INBOUND_SMTP_PORT", 2525),
        inbound_protocol=env.get("INBOUND_PROTOCOL", "smtp").lower(),
        imap_host=env.get("IMAP_HOST") or None,
        imap_port=_int(env, "IMAP_PORT", 993),
        imap_user=env.get("IMAP_USER") or None,
        imap_password=env.get("IMAP_PASSWORD") or None,
        imap_folder=env.get("IMAP_FOLDER", "INBOX"),
        imap_ssl=env.get("IMAP_SSL", "1") not in ("0", "false", "no"),
        inbound_webhook_secret=env.get("INBOUND_WEBHOOK_SECRET") or None,
        smtp_host=env.get("SMTP_HOST") or None,
        smtp_port=_int(env, "SMTP_PORT", 25),
        smtp_username=env.get("SMTP_USERNAME") or None,
        smtp_password=env.get("SMTP_PASSWORD") or None,
        smtp_security=env.get("SMTP_SECURITY", "none").lower(),
        outbox_maildir=Path(env.get("OUTBOX_MAILDIR", instance / "outbox")),
        require_auth_results=env.get("REQUIRE_AUTH_RESULTS", "0") in ("1", "true", "yes"),
        authserv_id=env.get("AUTHSERV_ID") or None,
        max_message_bytes=_int(env, "MAX_MESSAGE_BYTES", 1_000_000),
        error_notices_per_hour=_int(env, "ERROR_NOTICES_PER_HOUR", 5),
        vacation_days_per_year=_int(env, "VACATION_DAYS_PER_YEAR", 21),
        answers_per_hour=_int(env, "ANSWERS_PER_HOUR", 5),
        answers_per_day=_int(env, "ANSWERS_PER_DAY", 20),
        challenges_per_day=_int(env, "CHALLENGES_PER_DAY", 5),
        message_time_budget=_float(env, "MESSAGE_TIME_BUDGET", 5.0),
        history_link_days=_int(env, "HISTORY_LINK_DAYS", 30),
        trusted_proxies=_int(env, "TRUSTED_PROXIES", 0),
        trusted_proxy_addresses=_addresses(env, "TRUSTED_PROXY_ADDRESSES", ("127.0.0.1", "::1")),
        inbound_retention_days=_days(env, "INBOUND_RETENTION_DAYS", 30),
        outbox_retention_days=_days(env, "OUTBOX_RETENTION_DAYS", 30),
        retention_batch=max(_int(env, "RETENTION_BATCH", 500), 1),
        dns_nameservers=_nameservers(env),
        dkim_selector=selector,
        dkim_private_key_file=key_file,
    )
