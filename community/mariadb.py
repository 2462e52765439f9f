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


def database(name):
    """The server's URL for the database `name` (letters, digits and `_`), created when missing."""
    parts = urllib.parse.urlsplit(server_url())
    connection = pymysql.connect(host=parts.hostname, port=parts.port or 3306,
                                 user=urllib.parse.unquote(parts.username or ""),
                                 password=urllib.parse.unquote(parts.password or ""), autocommit=True)
    try:
        with connection.cursor() as cursor:
            cursor.execute(f"CREATE DATABASE IF NOT EXISTS `{name}`")
    finally:
        connection.close()
    return url(server_url(), database=name)
