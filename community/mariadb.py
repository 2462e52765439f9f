"""The MariaDB the server-backed community gates run on: the server
`MEMORY_CONFORMANCE_MARIADB_URL` names (else its line of `target/servers/env`, which
`servers/start.sh` writes; a URL `mysql://user:password@host:port/database` whose user may create
databases), and databases of a bridge's own there. Bridges put this folder on `sys.path` and
import it; it needs PyMySQL."""
import urllib.parse

import pymysql

import servers_env

VARIABLE = "MEMORY_CONFORMANCE_MARIADB_URL"


def server_url():
    """The server's URL: the variable, else its line in target/servers/env; exits 2 without."""
    return servers_env.server_url(VARIABLE, "MariaDB")


def url(base, *, database, scheme="mysql"):
    """`base` with another database or scheme."""
    parts = urllib.parse.urlsplit(base)
    return urllib.parse.urlunsplit((scheme, parts.netloc, f"/{database}", "", ""))


def _run(statement, parameters=None):
    """Runs `statement` (with `parameters`, PyMySQL's `%s` placeholders) on the server as the
    URL's user; the rows it returns."""
    parts = urllib.parse.urlsplit(server_url())
    connection = pymysql.connect(host=parts.hostname, port=parts.port or 3306,
                                 user=urllib.parse.unquote(parts.username or ""),
                                 password=urllib.parse.unquote(parts.password or ""), autocommit=True)
    try:
        with connection.cursor() as cursor:
            cursor.execute(statement, parameters)
            return cursor.fetchall()
    finally:
        connection.close()


def database(name):
    """The server's URL for the database `name` (letters, digits and `_`), created when missing."""
    _run(f"CREATE DATABASE IF NOT EXISTS `{name}`")
    return url(server_url(), database=name)


def drop_database(name):
    """Drops the database `name` (letters, digits and `_`), if it exists."""
    _run(f"DROP DATABASE IF EXISTS `{name}`")


def clear_database(name):
    """Empties every table of the database `name` (letters, digits and `_`), its
    auto-increments restarted: a cleared store's database, as new, for the next store."""
    for (table,) in _run("SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
                         (name,)):
        _run(f"TRUNCATE TABLE `{name}`.`{table}`")


def stores():
    """The databases named as the community gates name a store's (`servers_env.store_name`),
    sorted."""
    return sorted(row[0] for row in _run("SHOW DATABASES LIKE %s", (servers_env.store_pattern(),)))
