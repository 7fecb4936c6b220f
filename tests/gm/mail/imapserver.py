"""Test-only: a throwaway Dovecot IMAP server (Debian package dovecot-imapd).

Started with a temporary config (plaintext login on 127.0.0.1, one passwd-file user,
Maildir under a temp dir), in the foreground, and stopped by its pid. As root, Dovecot's
login and mail processes run as the package's `dovenull`/`dovecot` users.
"""

from __future__ import annotations

import grp
import os
import pwd
import shutil
import socket
import subprocess
import time
from pathlib import Path

DOVECOT = shutil.which("dovecot") or ("/usr/sbin/dovecot" if Path("/usr/sbin/dovecot").exists()
                                      else None)


def _conf(root: Path, port: int) -> str:
    if os.geteuid() == 0:
        login, internal, group, mail_user, mail_group = (
            "dovenull", "dovecot", "dovecot", "dovecot", "dovecot")
    else:
        me, gr = pwd.getpwuid(os.geteuid()).pw_name, grp.getgrgid(os.getegid()).gr_name
        login = internal = mail_user = me
        group = mail_group = gr
    return f"""
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = 1
default_login_user = {login}
default_internal_user = {internal}
default_internal_group = {group}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = static
  args = uid={mail_user} gid={mail_group} home={root}/home/%u
}}
mail_location = maildir:~/Maildir
service anvil {{
  chroot =
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
"""


class Dovecot:
    user = "gm"
    password = "gm-imap-test"

    def __init__(self, root: Path, port: int) -> None:
        self.root, self.port = root, port
        self.proc: subprocess.Popen | None = None

    def start(self) -> Dovecot:
        root = self.root
        for sub in ("run", "state", "home"):
            (root / sub).mkdir(parents=True, exist_ok=True)
        os.chmod(root, 0o755)
        (root / "passwd").write_text(f"{self.user}:{{PLAIN}}{self.password}::::::\n")
        (root / "dovecot.conf").write_text(_conf(root, self.port))
        if os.geteuid() == 0:
            shutil.chown(root / "home", "dovecot", "dovecot")
        self.proc = subprocess.Popen([DOVECOT, "-F", "-c", str(root / "dovecot.conf")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("dovecot exited: " + self.proc.stderr.read().decode())
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    if s.recv(100).startswith(b"* OK"):
                        return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("dovecot did not start; log: " + self.log())

    def log(self) -> str:
        path = self.root / "dovecot.log"
        return path.read_text() if path.exists() else ""

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
