"""The PostgreSQL the server-backed community gates run on: the server
`MEMORY_CONFORMANCE_POSTGRES_URL` names (else its line of `target/servers/env`, which
`servers/start.sh` writes; a superuser's URL), and a database of its own for each package there.
Bridges put this folder on `sys.path` and import it; it needs psycopg."""
import urllib.parse

import psycopg

import servers_env

VARIABLE = "MEMORY_CONFORMANCE_POSTGRES_URL"
LOCK = 7242024  # serialises the setup of bridges that start at once


def server_url():
    """The server's URL: the variable, else its line in target/servers/env; exits 2 without."""
    return servers_env.server_url(VARIABLE, "PostgreSQL")


def url(base, *, database, user=None, scheme="postgresql"):
    """`base` with another database, user (``name:password``) or scheme."""
    parts = urllib.parse.urlsplit(base)
    host = parts.hostname + (f":{parts.port}" if parts.port else "")
    who = user if user is not None else (parts.username or "")
    return urllib.parse.urlunsplit((scheme, f"{who}@{host}" if who else host, f"/{database}", "", ""))


def database(name, setup=""):
    """The server's URL for the database `name`, created when missing, with `setup` (SQL,
    idempotent) run in it once per call, serialised across bridges."""
    base = server_url()
    with psycopg.connect(base, autocommit=True) as admin:
        admin.execute("SELECT pg_advisory_lock(%s)", (LOCK,))
        try:
            if admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
                admin.execute(f"CREATE DATABASE {name}")
            if setup:
                with psycopg.connect(url(base, database=name), autocommit=True) as conn:
                    conn.execute(setup)
        finally:
            admin.execute("SELECT pg_advisory_unlock(%s)", (LOCK,))
    return url(base, database=name)


def stores():
    """The schemas named as the community gates name a store's (`servers_env.store_name`), in
    every database of the server, as `database.schema`, sorted."""
    base = server_url()
    with psycopg.connect(base, autocommit=True) as admin:
        databases = [row[0] for row in admin.execute(
            "SELECT datname FROM pg_database WHERE datallowconn AND NOT datistemplate ORDER BY datname")]
    found = []
    for name in databases:
        with psycopg.connect(url(base, database=name), autocommit=True) as conn:
            found += [f"{name}.{row[0]}" for row in conn.execute(
                "SELECT nspname FROM pg_namespace WHERE nspname LIKE %s ORDER BY nspname",
                (servers_env.store_pattern(),))]
    return found
