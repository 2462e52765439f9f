"""The PostgreSQL adk-memshield is gated on (`community/postgres.py`): a database of its own,
`adk_memshield`, with the package's own schema applied (`adk_memshield/sql/01_schema.sql`: the
`memories` table, its row-level security policies and the non-superuser role `memshield_app`
they bind); the bridge gives each store a tenant of its own (`servers_env.store_name`), whose
rows go when the store is dropped."""
import functools
import pathlib
import sys
from importlib import resources

import psycopg

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import postgres  # noqa: E402
import servers_env  # noqa: E402

DATABASE = "adk_memshield"


@functools.cache
def admin_dsn():
    """The server's superuser DSN on the package's database, its schema applied first (once a
    process). The schema's `CREATE EXTENSION pgcrypto` is left out: the schema needs only
    `gen_random_uuid()`, which PostgreSQL has had in its core since version 13, and the servers'
    build (pgserver) ships no pgcrypto."""
    schema = resources.files("adk_memshield").joinpath("sql/01_schema.sql").read_text()
    schema = schema.replace("CREATE EXTENSION IF NOT EXISTS pgcrypto;", "")
    return postgres.database(DATABASE, schema)


def app_dsn():
    """The DSN of the role the row-level security policies bind, on the package's database."""
    return postgres.url(admin_dsn(), database=DATABASE, user="memshield_app:memshield_pass")


def drop_tenant(tenant):
    """Deletes every row of `tenant`, as the superuser (whom row-level security does not bind)."""
    with psycopg.connect(admin_dsn(), autocommit=True) as conn:
        conn.execute("DELETE FROM memories WHERE tenant_id = %s", (tenant,))


def stores():
    """The tenants named as the community gates name a store's (`servers_env.store_name`) that
    still have rows, sorted."""
    with psycopg.connect(admin_dsn(), autocommit=True) as conn:
        return [row[0] for row in conn.execute(
            "SELECT DISTINCT tenant_id FROM memories WHERE tenant_id LIKE %s ORDER BY tenant_id",
            (servers_env.store_pattern(),))]
