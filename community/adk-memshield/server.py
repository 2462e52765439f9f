"""The PostgreSQL adk-memshield is gated on (`community/postgres.py`): a database of its own,
`adk_memshield`, with the package's own schema applied (`adk_memshield/sql/01_schema.sql`: the
`memories` table, its row-level security policies and the non-superuser role `memshield_app`
they bind); the bridge gives each store a tenant of its own."""
import pathlib
import sys
from importlib import resources

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import postgres  # noqa: E402


def app_dsn():
    """The DSN of the role the row-level security policies bind, on the package's database,
    set up first. The schema's `CREATE EXTENSION pgcrypto` is left out: the schema needs only
    `gen_random_uuid()`, which PostgreSQL has had in its core since version 13, and the servers'
    build (pgserver) ships no pgcrypto."""
    schema = resources.files("adk_memshield").joinpath("sql/01_schema.sql").read_text()
    schema = schema.replace("CREATE EXTENSION IF NOT EXISTS pgcrypto;", "")
    admin = postgres.database("adk_memshield", schema)
    return postgres.url(admin, database="adk_memshield", user="memshield_app:memshield_pass")
