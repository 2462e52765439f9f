#!/usr/bin/env bash
# Starts the database servers of the server-backed gates (adapters/adk-rust, community/), each on
# loopback, on a free port, with its own data directory under target/servers/ (fresh on
# every start), and writes their connection URLs to target/servers/env:
#
#   MEMORY_CONFORMANCE_POSTGRES_URL  PostgreSQL 16 with pgvector (database memory_conformance,
#                                    the vector extension created, trust authentication on
#                                    127.0.0.1 only, fsync on; after a crash the data
#                                    directory is synced with one syncfs, not an fsync per
#                                    file, which took over a minute with a busy disk)
#   MEMORY_CONFORMANCE_REDIS_URL     Redis 7 (append-only file fsynced on every write, so an
#                                    acknowledged write survives a crash; DEBUG allowed from
#                                    loopback for the slow-server fault test)
#   MEMORY_CONFORMANCE_MARIADB_URL   MariaDB 10.11 (database memory_conformance; the user
#                                    memory_conformance, password memory_conformance, from
#                                    127.0.0.1 only, with every privilege, so a gate can create
#                                    databases; utf8mb4 with the server's default collation;
#                                    InnoDB's log flushed on every commit)
#
# The gates read the variables from the environment, else from that file. Stop the servers
# with servers/stop.sh; servers/restart.sh restarts one for the fault tests. Install them
# first with servers/install.sh. PostgreSQL refuses to run as root: as root, the server runs
# as the user postgres, created (as a system user) when missing; MariaDB, likewise, as the user
# mysql (which Debian's package creates).
#
#   bash servers/install.sh && bash servers/start.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=servers/common.sh
. "$here/common.sh"

[ -x "$pg_bin/postgres" ] || fail "PostgreSQL is not installed in $pg_bin: run bash servers/install.sh"
command -v redis-server >/dev/null || fail "redis-server is not on the PATH: run bash servers/install.sh"
[ -x "$mariadbd" ] || fail "MariaDB is not installed ($mariadbd is missing): run bash servers/install.sh"
if [ -f "$state" ]; then
  fail "servers are already started ($state exists): run bash servers/stop.sh first"
fi

free_port() {
  python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

mkdir -p "$servers"
rm -rf "$pg_dir" "$redis_dir" "$mariadb_dir"
mkdir -p "$pg_dir" "$redis_dir/data" "$mariadb_dir"

# PostgreSQL, as a user other than root.
if [ "$(id -u)" = 0 ]; then
  pg_user=postgres
  if ! id "$pg_user" >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$pg_user" ||
      fail "cannot create the user $pg_user to run PostgreSQL as"
  fi
  chown "$pg_user" "$pg_dir"
else
  pg_user="$(id -un)"
fi
pg_port="$(free_port)"
as_pg "$pg_user" "$pg_bin/initdb" --pgdata="$pg_dir/data" --username=postgres --auth=trust --no-sync \
  --encoding=UTF8 --locale=C.UTF-8 >"$pg_dir/initdb.log" 2>&1 ||
  fail "initdb failed: $(tail -5 "$pg_dir/initdb.log")"
cat >>"$pg_dir/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $pg_port
unix_socket_directories = '$pg_dir'
max_connections = 400
fsync = on
recovery_init_sync_method = syncfs
CONF
printf 'host all all 127.0.0.1/32 trust\n' >"$pg_dir/data/pg_hba.conf"
printf 'local all all trust\n' >>"$pg_dir/data/pg_hba.conf"

# Redis.
redis_port="$(free_port)"
cat >"$redis_dir/redis.conf" <<CONF
bind 127.0.0.1
port $redis_port
protected-mode no
dir $redis_dir/data
pidfile $redis_dir/redis.pid
logfile $redis_dir/redis.log
daemonize yes
appendonly yes
appendfsync always
save ""
databases 4096
enable-debug-command local
CONF

# MariaDB, as the user mysql when root. Its root account has no password and answers on the
# socket only; the gates connect over TCP as memory_conformance. Its temporary files go in a
# folder of its own: the fault tests restart it from tests whose TMPDIR it cannot write.
mkdir -p "$mariadb_dir/tmp"
if [ "$(id -u)" = 0 ]; then
  mariadb_user=mysql
  id "$mariadb_user" >/dev/null 2>&1 || fail "the user $mariadb_user (Debian's mariadb-server creates it) is missing"
  chown "$mariadb_user" "$mariadb_dir" "$mariadb_dir/tmp"
else
  mariadb_user="$(id -un)"
fi
mariadb_port="$(free_port)"
cat >"$mariadb_dir/my.cnf" <<CONF
[client]
socket = $mariadb_dir/mariadb.sock

[mariadbd]
datadir = $mariadb_dir/data
bind-address = 127.0.0.1
port = $mariadb_port
socket = $mariadb_dir/mariadb.sock
pid-file = $mariadb_dir/mariadb.pid
tmpdir = $mariadb_dir/tmp
log-error = $mariadb_dir/mariadb.log
skip-name-resolve
character-set-server = utf8mb4
max-connections = 400
innodb-buffer-pool-size = 64M
innodb-flush-log-at-trx-commit = 1
CONF
mariadb-install-db --defaults-file="$mariadb_dir/my.cnf" --user="$mariadb_user" \
  --auth-root-authentication-method=normal --skip-test-db >"$mariadb_dir/install-db.log" 2>&1 ||
  fail "mariadb-install-db failed: $(tail -5 "$mariadb_dir/install-db.log")"

cat >"$state" <<STATE
pg_user=$pg_user
pg_port=$pg_port
redis_port=$redis_port
mariadb_user=$mariadb_user
mariadb_port=$mariadb_port
STATE

start_postgres
as_pg "$pg_user" "$pg_bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -d postgres -qAt \
  -c "CREATE DATABASE memory_conformance" >/dev/null
as_pg "$pg_user" "$pg_bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -d memory_conformance -qAt \
  -c "CREATE EXTENSION vector" >/dev/null
start_redis
start_mariadb
mariadb --defaults-file="$mariadb_dir/my.cnf" --user=root -e "
  CREATE DATABASE memory_conformance;
  CREATE USER 'memory_conformance'@'127.0.0.1' IDENTIFIED BY 'memory_conformance';
  GRANT ALL PRIVILEGES ON *.* TO 'memory_conformance'@'127.0.0.1';" ||
  fail "cannot create MariaDB's database and user: $(tail -5 "$mariadb_dir/mariadb.log")"

cat >"$env_file" <<ENV
MEMORY_CONFORMANCE_POSTGRES_URL=postgres://postgres@127.0.0.1:$pg_port/memory_conformance
MEMORY_CONFORMANCE_REDIS_URL=redis://127.0.0.1:$redis_port
MEMORY_CONFORMANCE_MARIADB_URL=mysql://memory_conformance:memory_conformance@127.0.0.1:$mariadb_port/memory_conformance
ENV
echo "postgresql: $("$pg_bin/postgres" --version), pgvector, on 127.0.0.1:$pg_port (data in $pg_dir/data)"
echo "redis: $(redis-server --version | cut -d' ' -f1-3), on 127.0.0.1:$redis_port (data in $redis_dir/data)"
echo "mariadb: MariaDB $("$mariadbd" --version | awk '{print $3}'), on 127.0.0.1:$mariadb_port (data in $mariadb_dir/data)"
echo "the URLs are in $env_file"
