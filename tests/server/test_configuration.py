"""Configuration (docs/configuration.md): a value the server cannot use is refused at start, in one line that
names the variable, the value and what it may be; every command shows it so, without a traceback, and exits 78
(EX_CONFIG). The documentation lists every variable the server reads, with the defaults it uses."""

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from app.cli import EX_CONFIG, cli
from app.config import ConfigurationError, load_settings
from tests.server.test_cli import manage

ROOT = Path(__file__).parent.parent.parent
REFUSED = [  # (variable, value, what the error says beside the two)
    ("SMTP_SECURITY", "ssl", "one of none, starttls, tls"),
    ("SMTP_SECURITY", "start-tls", "one of none, starttls, tls"),
    ("INBOUND_PROTOCOL", "lmpt", "one of smtp, lmtp"),
    ("WEB_PORT", "abc", "a whole number from 1 to 65535"),
    ("WEB_PORT", "70000", "a whole number from 1 to 65535"),
    ("WEB_PORT", "0", "a whole number from 1 to 65535"),
    ("INBOUND_SMTP_PORT", "-1", "a whole number from 0 to 65535"),
    ("IMAP_PORT", "993x", "a whole number from 1 to 65535"),
    ("SMTP_PORT", "2.5", "a whole number from 1 to 65535"),
    ("MAX_MESSAGE_BYTES", "0", "a whole number, 1 or more"),
    ("MAX_MESSAGE_BYTES", "1MB", "a whole number, 1 or more"),
    ("ERROR_NOTICES_PER_HOUR", "five", "a whole number, 0 or more"),
    ("VACATION_DAYS_PER_YEAR", "-3", "a whole number, 0 or more"),
    ("ANSWERS_PER_HOUR", "many", "a whole number, 0 or more"),
    ("ANSWERS_PER_DAY", "1e3", "a whole number, 0 or more"),
    ("CHALLENGES_PER_DAY", "x", "a whole number, 0 or more"),
    ("HISTORY_LINK_DAYS", "thirty", "a whole number, 0 or more"),
    ("TRUSTED_PROXIES", "-1", "a whole number, 0 or more"),
    ("RETENTION_BATCH", "0", "a whole number, 1 or more"),
    ("INBOUND_RETENTION_DAYS", "a month", "a whole number, 0 or more"),
    ("OUTBOX_RETENTION_DAYS", "-7", "0 (keep for ever) or a number of days"),
    ("MESSAGE_TIME_BUDGET", "nan", "a number of seconds above 0"),
    ("MESSAGE_TIME_BUDGET", "0", "a number of seconds above 0"),
    ("MESSAGE_TIME_BUDGET", "5s", "a number of seconds above 0"),
    ("IMAP_SSL", "flase", "one of 1, true, yes, on, 0, false, no, off"),
    ("REQUIRE_AUTH_RESULTS", "ture", "one of 1, true, yes, on, 0, false, no, off"),
    ("SERVER_EMAIL", "referee", "an address like referee@example.org"),
    ("BASE_URL", "htp://chess.example.org", "an http:// or https:// address"),
]


def settings(tmp_path, **environ):
    return load_settings({"MIRRORPOST_INSTANCE": str(tmp_path / "instance"), **environ})


@pytest.mark.parametrize(("name", "value", "allowed"), REFUSED)
def test_a_value_the_server_cannot_use_is_refused_naming_the_variable_the_value_and_what_it_may_be(
        tmp_path, name, value, allowed):
    with pytest.raises(ConfigurationError) as refused:
        settings(tmp_path, **{name: value})
    message = str(refused.value)
    assert name in message and repr(value) in message.replace(value.lower(), value) and allowed in message, message


def test_a_database_url_is_checked_and_never_quoted_back(tmp_path):
    with pytest.raises(ConfigurationError, match="DATABASE_URL must be a SQLAlchemy URL") as refused:
        settings(tmp_path, DATABASE_URL="postgres ql://admin:s3cret@db/x")
    assert "s3cret" not in str(refused.value)


def test_a_wrong_value_is_quoted_on_one_line_and_cut_short():
    with pytest.raises(ConfigurationError) as refused:
        load_settings({"SMTP_SECURITY": "tls\nX-Injected: yes" + "x" * 500})
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 200


@pytest.mark.parametrize(("environ", "expected"), [
    ({"SMTP_SECURITY": " STARTTLS "}, {"smtp_security": "starttls"}),
    ({"SMTP_SECURITY": ""}, {"smtp_security": "none"}),
    ({"INBOUND_PROTOCOL": "LMTP"}, {"inbound_protocol": "lmtp"}),
    ({"INBOUND_SMTP_PORT": "0", "WEB_PORT": " 8080 "}, {"inbound_smtp_port": 0, "web_port": 8080}),
    ({"IMAP_SSL": "Off", "REQUIRE_AUTH_RESULTS": "TRUE", "AUTHSERV_ID": "mx.example.org"},
     {"imap_ssl": False, "require_auth_results": True}),
    ({"MESSAGE_TIME_BUDGET": "2.5", "RETENTION_BATCH": "1"}, {"message_time_budget": 2.5, "retention_batch": 1}),
])
def test_values_are_read_in_any_case_and_with_spaces_around(tmp_path, environ, expected):
    loaded = settings(tmp_path, **environ)
    assert {name: getattr(loaded, name) for name in expected} == expected


def test_a_variable_set_empty_counts_as_unset(tmp_path):
    names = {name for name in documented() if name not in ("MIRRORPOST_INSTANCE", "SECRET_KEY", "DKIM_SELECTOR",
                                                             "DKIM_PRIVATE_KEY_FILE")}
    empty = settings(tmp_path, **dict.fromkeys(names, ""))
    assert empty == settings(tmp_path)
    assert (empty.web_host, empty.inbound_smtp_host, empty.imap_folder) == ("127.0.0.1", "127.0.0.1", "INBOX")
    assert empty.outbox_maildir == tmp_path / "instance" / "outbox"


def documented() -> dict[str, str]:
    """docs/configuration.md's table: each variable with its default, as written."""
    found = {}
    for line in (ROOT / "docs" / "configuration.md").read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0].startswith("`"):
            continue
        names = re.findall(r"`([A-Z_]+)`", cells[0])
        defaults = [each.strip() for each in cells[1].split(",")] if len(names) > 1 else [cells[1]]
        for index, name in enumerate(names):
            found[name] = defaults[index] if index < len(defaults) else ""
    return found


def test_the_documentation_lists_every_variable_the_server_reads():
    source = (ROOT / "app" / "config.py").read_text()
    read = set(re.findall(r'(?:get\(|env, |environ, )"([A-Z][A-Z0-9_]+)"', source))
    assert read == set(documented())


def test_the_documented_defaults_are_the_ones_the_server_uses(tmp_path):
    loaded = settings(tmp_path)
    defaults = documented()
    for name, value in defaults.items():
        attribute = name.lower()
        if not hasattr(loaded, attribute) or value in ("unset", "-", "") or name == "SECRET_KEY":
            continue
        actual = getattr(loaded, attribute)
        expected = value.strip("`")
        if isinstance(actual, bool):
            assert expected == ("1" if actual else "0"), name
        elif isinstance(actual, (int, float)):
            assert float(expected) == actual, name
        elif isinstance(actual, tuple):
            assert expected == ",".join(actual) if actual else expected == "the system's resolver", name
        elif name not in ("DATABASE_URL", "OUTBOX_MAILDIR"):  # paths under the instance folder
            assert expected == str(actual), name


@pytest.mark.parametrize(("command", "environ"), [
    (["worker", "--once"], {"SMTP_SECURITY": "ssl"}),
    (["init-db"], {"INBOUND_PROTOCOL": "imap"}),
    (["digest"], {"MAX_MESSAGE_BYTES": "lots"}),
    (["inbound", "list"], {"TRUSTED_PROXY_ADDRESSES": "localhost"}),
    (["dkim-records"], {"DKIM_SELECTOR": "has space", "DKIM_PRIVATE_KEY_FILE": "key.pem"}),
    (["new-game", "--variant", "x", "--white", "a@b.c", "--black", "d@e.f"], {"WEB_PORT": "http"}),
    (["worker", "--once"], {"LOG_LEVEL": "chatty"}),
    (["worker", "--once"], {"DKIM_PRIVATE_KEY_FILE": "not-a-key.pem", "DKIM_SELECTOR": "s1"}),
    (["dkim-records"], {"DKIM_PRIVATE_KEY_FILE": "not-a-key.pem", "DKIM_SELECTOR": "s1"}),
])
def test_every_command_shows_a_configuration_error_in_one_line_and_exits_78(tmp_path, command, environ):
    name, value = next(iter(environ.items()))
    if value.endswith(".pem"):  # a key file that holds no key: refused when the outbox or the command loads it
        (tmp_path / value).write_text("not a key")
        environ = {**environ, name: str(tmp_path / value)}
    done = CliRunner().invoke(cli, command, env={"MIRRORPOST_INSTANCE": str(tmp_path / "instance"), **environ})
    assert done.exit_code == EX_CONFIG, (done.output, done.exception)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: {name}") and value in lines[0].lower(), done.stderr
    assert "Traceback" not in done.output


@pytest.mark.parametrize(("command", "name", "value", "said"), [
    (["serve"], "WEB_PORT", "80a", "Error: WEB_PORT must be a whole number from 1 to 65535, not '80a'"),
    (["worker"], "SMTP_SECURITY", "SSL", "Error: SMTP_SECURITY must be one of none, starttls, tls, not 'ssl'"),
])
def test_serve_and_worker_refuse_a_wrong_value_in_one_line_on_stderr(tmp_path, database_url, monkeypatch,
                                                                     command, name, value, said):
    monkeypatch.setenv(name, value)
    done = manage(tmp_path, database_url, *command)
    assert done.returncode == EX_CONFIG, done.stderr
    assert done.stderr.decode().strip().splitlines() == [said]
    assert done.stdout == b""
