"""The URL of a server `servers/start.sh` started, for the server-backed community gates: the
environment variable that names it, else its line of `target/servers/env`; and the name of what a
store makes on a server. Bridges put this folder on `sys.path`; `postgres.py` and `mariadb.py`
read their server's URL here."""
import os
import pathlib
import sys
import uuid

ENV_FILE = pathlib.Path(__file__).resolve().parents[1] / "target" / "servers" / "env"

STORE_PREFIX = "mc_"
"""Begins the name of everything a community gate's store makes on a server (a schema, a
database, a tenant), and nothing else there: `leftovers.py` lists what a gate left by it."""

RUN = uuid.uuid4().hex[:12]
"""A random token of this process: store names are unique across bridges, and across runs on a
server that outlives them."""


def store_name(storage):
    """The name of what the store on `storage` (the directory `serve` gives a store) makes on a
    server: letters, digits and `_`, unique per store and per process."""
    return f"{STORE_PREFIX}{RUN}_{storage.name.replace('-', '_')}"


def store_pattern():
    """A SQL `LIKE` pattern matching every store name (its `_` escaped with `\\`)."""
    return STORE_PREFIX.replace("_", "\\_") + "%"


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
