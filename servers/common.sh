# Shared by servers/start.sh, stop.sh and restart.sh: where everything is, and how each
# server starts. Sourced, not run.
root="$(cd "$here/.." && pwd)"
servers="$root/target/servers"
pg_bin="$servers/pgserver/pgserver/pginstall/bin"
pg_dir="$servers/pg"
redis_dir="$servers/redis"
mariadb_dir="$servers/mariadb"
mariadbd=/usr/sbin/mariadbd
state="$servers/state"
env_file="$servers/env"
# How long a server may take to start, or to stop, in seconds. Generous: a restart after a crash
# replays the server's log, and on a busy machine's disk that has taken over a minute; a server
# that is ready sooner is not waited for.
wait_seconds=300

fail() {
  printf 'servers/%s: %s\n' "$(basename "$0")" "$*" >&2
  exit 1
}

# Runs a PostgreSQL program as the user the server runs as.
as_pg() {
  local user="$1"
  shift
  if [ "$(id -un)" = "$user" ]; then
    "$@"
  else
    runuser -u "$user" -- "$@"
  fi
}

load_state() {
  [ -f "$state" ] || fail "no servers are started (no $state): run bash servers/start.sh"
  # shellcheck disable=SC1090
  . "$state"
}

start_postgres() {
  load_state
  as_pg "$pg_user" "$pg_bin/pg_ctl" --pgdata="$pg_dir/data" --log="$pg_dir/postgres.log" \
    --wait --timeout="$wait_seconds" --silent start ||
    fail "PostgreSQL did not start: $(tail -5 "$pg_dir/postgres.log")"
}

start_redis() {
  load_state
  redis-server "$redis_dir/redis.conf" || fail "Redis did not start: $(tail -5 "$redis_dir/redis.log")"
  local tries=0
  # PONG, not the LOADING error Redis answers while it replays its append-only file.
  until [ "$(redis-cli -h 127.0.0.1 -p "$redis_port" ping 2>/dev/null)" = PONG ]; do
    tries=$((tries + 1))
    [ "$tries" -lt $((wait_seconds * 10)) ] ||
      fail "Redis did not answer within $wait_seconds s: $(tail -5 "$redis_dir/redis.log")"
    sleep 0.1
  done
}

# Starts mariadbd in the background (it has no daemon mode of its own), as the user
# mariadb_user when root, and waits until it answers on its socket.
start_mariadb() {
  load_state
  local user_option=()
  [ "$(id -u)" != 0 ] || user_option=(--user="$mariadb_user")
  setsid "$mariadbd" --defaults-file="$mariadb_dir/my.cnf" "${user_option[@]}" \
    </dev/null >>"$mariadb_dir/mariadbd.out" 2>&1 &
  local tries=0
  until mariadb-admin --defaults-file="$mariadb_dir/my.cnf" --user=root ping >/dev/null 2>&1; do
    tries=$((tries + 1))
    [ "$tries" -lt $((wait_seconds * 10)) ] ||
      fail "MariaDB did not answer within $wait_seconds s: $(tail -5 "$mariadb_dir/mariadb.log")"
    sleep 0.1
  done
}

stop_postgres() {
  local mode="$1"
  as_pg "$pg_user" "$pg_bin/pg_ctl" --pgdata="$pg_dir/data" --mode="$mode" --wait --timeout="$wait_seconds" --silent stop
}

# Stops Redis: `kill` crashes it (SIGKILL to the pid it wrote), `shutdown` shuts it down.
stop_redis() {
  local how="$1" pid
  pid="$(cat "$redis_dir/redis.pid" 2>/dev/null || true)"
  [ -n "$pid" ] || return 0
  if [ "$how" = kill ]; then
    kill -KILL "$pid" 2>/dev/null || true
  else
    redis-cli -h 127.0.0.1 -p "$redis_port" shutdown >/dev/null 2>&1 || kill -TERM "$pid" 2>/dev/null || true
  fi
  local tries=0
  while kill -0 "$pid" 2>/dev/null; do
    tries=$((tries + 1))
    [ "$tries" -lt $((wait_seconds * 10)) ] || fail "Redis (pid $pid) did not stop within $wait_seconds s"
    sleep 0.1
  done
  rm -f "$redis_dir/redis.pid"
}

# Stops MariaDB: `kill` crashes it (SIGKILL to the pid it wrote; InnoDB recovers from its redo
# log on start), `shutdown` shuts it down cleanly (mariadb-admin shutdown, else SIGTERM).
stop_mariadb() {
  local how="${1:-shutdown}" pid
  pid="$(cat "$mariadb_dir/mariadb.pid" 2>/dev/null || true)"
  [ -n "$pid" ] || return 0
  if [ "$how" = kill ]; then
    kill -KILL "$pid" 2>/dev/null || true
  else
    mariadb-admin --defaults-file="$mariadb_dir/my.cnf" --user=root shutdown >/dev/null 2>&1 ||
      kill -TERM "$pid" 2>/dev/null || true
  fi
  local tries=0
  while kill -0 "$pid" 2>/dev/null; do
    tries=$((tries + 1))
    [ "$tries" -lt $((wait_seconds * 10)) ] || fail "MariaDB (pid $pid) did not stop within $wait_seconds s"
    sleep 0.1
  done
  rm -f "$mariadb_dir/mariadb.pid"
}
