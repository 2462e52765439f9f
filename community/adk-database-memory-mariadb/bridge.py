"""adk-database-memory's DatabaseMemoryService on MariaDB (SQLAlchemy's async aiomysql driver), as
a memory-conformance bridge. The server is the one `MEMORY_CONFORMANCE_MARIADB_URL` names
(`community/mariadb.py`). The service's table has a fixed name, and MariaDB has no schemas apart
from databases: a store is a database of its own, named after the store's storage and this
bridge's run (`servers_env.store_name`), so every case has its own table and a reopened or second
instance on the store reaches the same one; a dropped store's database is emptied and reused
by a later store (`clear`), and every one is dropped when the bridge ends. The
databases take the server's character set and collation (utf8mb4, utf8mb4_general_ci: MariaDB's
default)."""
from memory_conformance_bridge import serve  # first: it keeps stdout for the protocol

import pathlib  # noqa: E402
import sys  # noqa: E402

from adk_database_memory import DatabaseMemoryService  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import mariadb  # noqa: E402
from servers_env import store_name  # noqa: E402


def service(storage):
    database = mariadb.database(store_name(storage))
    return DatabaseMemoryService(mariadb.url(database, database=store_name(storage), scheme="mysql+aiomysql"))


serve(service, backend="adk-database-memory-mariadb", package="adk-database-memory",
      drop=lambda storage: mariadb.drop_database(store_name(storage)),
      clear=lambda storage: mariadb.clear_database(store_name(storage)))
