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

STORE_TAG = "MEMORY_CONFORMANCE_STORE_TAG"
"""The environment variable that, set to letters and digits (beginning with a letter), follows
the prefix in every store name: the community tests set one per gate, so what a gate left is told
apart from the stores of other runs on the same server (another gate, the bundled backends'
`mc_<pid>_...` namespaces)."""

RUN = uuid.uuid4().hex[:12]
"""A random token of this process: store names are unique across bridges, and across runs on a
server that outlives them."""


def prefix():
    """What every store name begins with: the prefix, then the tag of `STORE_TAG` when set.
    Exits 2 naming the variable when the tag is no letter followed by letters and digits."""
    tag = os.environ.get(STORE_TAG, "")
    if not tag:
        return STORE_PREFIX
    if not (tag.isascii() and tag.isalnum() and tag[0].isalpha()):
        print(f"{STORE_TAG}={tag!r}: expected a letter followed by ASCII letters and digits",
              file=sys.stderr)
        sys.exit(2)
    return f"{STORE_PREFIX}{tag}_"


def store_name(storage):
    """The name of what the store on `storage` (the directory `serve` gives a store) makes on a
    server: letters, digits and `_`, unique per store and per process."""
    return f"{prefix()}{RUN}_{storage.name.replace('-', '_')}"


def store_pattern():
    """A SQL `LIKE` pattern matching every store name under the current tag (its `_` escaped
    with `\\`): with a tag, that tag's stores alone."""
    return prefix().replace("_", "\\_") + "%"


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
