"""adk-database-memory's DatabaseMemoryService on PostgreSQL (SQLAlchemy's async psycopg driver),
as a memory-conformance bridge. The server is the one `MEMORY_CONFORMANCE_POSTGRES_URL` names
(`community/postgres.py`: a database of the package's own, `adk_database_memory`). A store is a
schema of its own there, named after the store's storage and this bridge's run
(`servers_env.store_name`), and the service's connections search it first, so every case has its
own table and a reopened or second instance on the store reaches the same one; a dropped store's
schema is emptied and reused by a later store (`clear`), and every one is dropped when the bridge
ends."""
from memory_conformance_bridge import serve  # first: it keeps stdout for the protocol

import pathlib  # noqa: E402
import sys  # noqa: E402

import psycopg  # noqa: E402
from adk_database_memory import DatabaseMemoryService  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import postgres  # noqa: E402
from servers_env import store_name  # noqa: E402

DATABASE = postgres.database("adk_database_memory")


SCHEMAS = set()
"""The schemas this bridge made and has not dropped: a store's later instances, and a cleared
store's next one, find theirs made."""


def service(storage):
    schema = store_name(storage)
    if schema not in SCHEMAS:
        with psycopg.connect(DATABASE, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
        SCHEMAS.add(schema)
    return DatabaseMemoryService(postgres.url(DATABASE, database="adk_database_memory", scheme="postgresql+psycopg"),
                                 connect_args={"options": f"-c search_path={store_name(storage)}"})


def drop(storage):
    SCHEMAS.discard(store_name(storage))
    with psycopg.connect(DATABASE, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {store_name(storage)} CASCADE")


def clear(storage):
    """Empties every table of the store's schema (its sequences restarted), for the next store."""
    schema = store_name(storage)
    with psycopg.connect(DATABASE, autocommit=True) as conn:
        tables = [row[0] for row in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = %s", (schema,))]
        if tables:
            conn.execute("TRUNCATE " + ", ".join(f'{schema}."{table}"' for table in tables)
                         + " RESTART IDENTITY")


serve(service, backend="adk-database-memory-postgres", package="adk-database-memory", drop=drop,
      clear=clear)
