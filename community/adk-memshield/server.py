"""The PostgreSQL adk-memshield is gated on: the server `MEMORY_CONFORMANCE_POSTGRES_URL` names
(else its line of `target/servers/env`, which `servers/start.sh` writes). The package gets a
database of its own there, `adk_memshield`, with the package's own schema applied once
(`adk_memshield/sql/01_schema.sql`: the `memories` table, its row-level security policies and the
non-superuser role `memshield_app` they bind); the bridge gives each store a tenant of its own."""
import os
import pathlib
import sys
import urllib.parse
from importlib import resources

import psycopg

VARIABLE = "MEMORY_CONFORMANCE_POSTGRES_URL"
ENV_FILE = pathlib.Path(__file__).resolve().parents[2] / "target" / "servers" / "env"
DATABASE = "adk_memshield"
LOCK = 7242024  # serialises the setup of concurrent bridges


def server_url():
    """The server's URL (a superuser's): the variable, else its line in target/servers/env."""
    if os.environ.get(VARIABLE):
        return os.environ[VARIABLE]
    if ENV_FILE.is_file():
        for line in ENV_FILE.read_text().splitlines():
            name, _, value = line.partition("=")
            if name.strip() == VARIABLE and value.strip():
                return value.strip()
    print(f"adk-memshield: no PostgreSQL: set {VARIABLE} or start the servers "
          f"(bash servers/install.sh && bash servers/start.sh)", file=sys.stderr)
    sys.exit(2)


def _url(url, *, user=None, database):
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname + (f":{parts.port}" if parts.port else "")
    who = user if user is not None else (parts.username or "")
    return urllib.parse.urlunsplit(("postgresql", f"{who}@{host}" if who else host, f"/{database}", "", ""))


def setup(url):
    """The database `adk_memshield` and the package's schema in it (idempotent), less the
    schema's `CREATE EXTENSION pgcrypto`: it needs only `gen_random_uuid()`, which PostgreSQL has
    had in its core since version 13, and the servers' build (pgserver) ships no pgcrypto."""
    schema = resources.files("adk_memshield").joinpath("sql/01_schema.sql").read_text()
    schema = schema.replace("CREATE EXTENSION IF NOT EXISTS pgcrypto;", "")
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute("SELECT pg_advisory_lock(%s)", (LOCK,))
        try:
            if admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)).fetchone() is None:
                admin.execute(f"CREATE DATABASE {DATABASE}")
            with psycopg.connect(_url(url, database=DATABASE), autocommit=True) as conn:
                conn.execute(schema)
        finally:
            admin.execute("SELECT pg_advisory_unlock(%s)", (LOCK,))


def app_dsn():
    """The DSN of the role the row-level security policies bind, on the package's database,
    set up first."""
    url = server_url()
    setup(url)
    return _url(url, user="memshield_app:memshield_pass", database=DATABASE)
