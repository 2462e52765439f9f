"""Lists what the community gates' stores left on the servers: each argument names a server by
its environment variable, as a package's `servers.txt` does, and each store's schema or
database still there is printed, `<server>: <name>`, one a line. With `--package DIR`, what the
package's own `server.py` lists with its `stores()` is printed too, `<package>: <name>` (such as
adk-memshield's tenants, which are rows of one table). The community tests run it with the
package's Python before and after its gate: a bridge drops what it made for a store when the
store is dropped, so a gate adds nothing here.

    python community/leftovers.py --package community/adk-memshield MEMORY_CONFORMANCE_POSTGRES_URL
"""
import argparse
import importlib
import importlib.util
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

SERVERS = {"MEMORY_CONFORMANCE_POSTGRES_URL": "postgres", "MEMORY_CONFORMANCE_MARIADB_URL": "mariadb"}

parser = argparse.ArgumentParser(description="What the community gates' stores left on the servers.")
parser.add_argument("--package", type=pathlib.Path,
                    help="a package's folder, whose server.py's stores() (if any) is listed too")
parser.add_argument("servers", nargs="*", metavar="VARIABLE", help=f"one of {', '.join(SERVERS)}")
arguments = parser.parse_args()

for variable in arguments.servers:
    if variable not in SERVERS:
        parser.error(f"no server is named {variable!r}; expected one of {', '.join(SERVERS)}")
for variable in arguments.servers:
    server = importlib.import_module(SERVERS[variable])
    for name in server.stores():
        print(f"{SERVERS[variable]}: {name}")

if arguments.package is not None:
    path = arguments.package / "server.py"
    if path.is_file():
        spec = importlib.util.spec_from_file_location(f"{arguments.package.name}_server", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for name in getattr(module, "stores", list)():
            print(f"{arguments.package.name}: {name}")
    elif not arguments.package.is_dir():
        parser.error(f"--package {arguments.package}: no such folder")
