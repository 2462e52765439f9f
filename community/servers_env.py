"""The URL of a server `servers/start.sh` started, for the server-backed community gates: the
environment variable that names it, else its line of `target/servers/env`. Bridges put this
folder on `sys.path`; `postgres.py` and `mariadb.py` read their server's URL here."""
import os
import pathlib
import sys

ENV_FILE = pathlib.Path(__file__).resolve().parents[1] / "target" / "servers" / "env"


def server_url(variable, server):
    """The URL `variable` holds, else its line in target/servers/env; exits 2, naming `server`
    and how to start it, without either."""
    if os.environ.get(variable):
        return os.environ[variable]
    if ENV_FILE.is_file():
        for line in ENV_FILE.read_text().splitlines():
            name, _, value = line.partition("=")
            if name.strip() == variable and value.strip():
                return value.strip()
    print(f"no {server}: set {variable} or start the servers "
          f"(bash servers/install.sh && bash servers/start.sh)", file=sys.stderr)
    sys.exit(2)
