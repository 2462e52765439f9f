"""Lists what the community gates' stores left on the servers: each argument names a server by
its environment variable, as a package's `servers.txt` does, and each store's schema or
database still there is printed, `<server>: <name>`, one a line. The community tests run it
with the package's Python before and after its gate: a bridge drops what it made for a store
when the store is dropped, so a gate adds nothing here.

    python community/leftovers.py MEMORY_CONFORMANCE_POSTGRES_URL
"""
import importlib
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

SERVERS = {"MEMORY_CONFORMANCE_POSTGRES_URL": "postgres", "MEMORY_CONFORMANCE_MARIADB_URL": "mariadb"}

for variable in sys.argv[1:]:
    if variable not in SERVERS:
        print(f"leftovers.py: no server is named {variable!r}; expected one of {', '.join(SERVERS)}",
              file=sys.stderr)
        sys.exit(2)
    server = importlib.import_module(SERVERS[variable])
    for name in server.stores():
        print(f"{SERVERS[variable]}: {name}")
