"""A real Dovecot IMAP server for tests, with its own configuration in a temporary folder."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.server.mailhost import free_port

DOVECOT = shutil.which("dovecot") or "/usr/sbin/dovecot"

CONFIG = """
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = {user}
default_internal_group = {group}
default_login_user = {login}
first_valid_uid = 1
mail_location = maildir:{root}/mail/%u
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = static
  args = uid={user} gid={group} home={root}/mail/%u
}}
service imap-login {{
  inet_listener imap {{
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
service imap-login {{
  chroot =
}}
"""


def available() -> str | None:
    """Why Dovecot cannot run here, or None when it can."""
    if not Path(DOVECOT).exists():
        return "Debian's dovecot-imapd is not installed (apt-get install dovecot-imapd)"
    if os.geteuid() != 0:
        return "Dovecot tests start the server as root"
    for name in ("dovecot", "dovenull"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            return f"the system user {name} is missing"
    return None


class Dovecot:
    def __init__(self, root: Path, user: str = "referee", password: str = "secret") -> None:
        self.root, self.user, self.password = root, user, password
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    def start(self) -> Dovecot:
        for part in ("run", "state", "mail"):
            (self.root / part).mkdir(parents=True, exist_ok=True)
        shutil.chown(self.root / "mail", "dovecot", "dovecot")
        os.chmod(self.root, 0o755)
        (self.root / "passwd").write_text(f"{self.user}:{{PLAIN}}{self.password}\n")
        config = self.root / "dovecot.conf"
        config.write_text(CONFIG.format(root=self.root, user="dovecot", group="dovecot", login="dovenull",
                                        port=self.port))
        self.process = subprocess.Popen([DOVECOT, "-F", "-c", str(config)], stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 15
        import socket

        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                    if sock.recv(100).startswith(b"* OK"):
                        return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        log = (self.root / "dovecot.log").read_text() if (self.root / "dovecot.log").exists() else ""
        raise RuntimeError(f"Dovecot did not start: {log[-2000:]}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
            self.process = None


@pytest.fixture
def dovecot():
    reason = available()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the IMAP tests: {reason}")
        pytest.skip(reason)
    # Dovecot's unprivileged processes must reach this folder; pytest's own are private to root.
    root = Path(tempfile.mkdtemp(prefix="mirrorpost-dovecot-"))
    root.chmod(0o755)
    server = Dovecot(root).start()
    yield server
    server.stop()
    shutil.rmtree(root, ignore_errors=True)
