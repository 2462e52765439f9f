#!/usr/bin/env bash
# Restarts one server servers/start.sh started, on the same port and data, for the fault
# tests: `crash` stops it without a clean shutdown (PostgreSQL's immediate mode, which
# recovers from its write-ahead log on start; SIGKILL for Redis, which replays its
# append-only file, and for MariaDB, whose InnoDB recovers from its redo log), `clean` shuts it
# down cleanly.
#
#   bash servers/restart.sh postgres|redis|mariadb crash|clean
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=servers/common.sh
. "$here/common.sh"

server="${1:-}"
how="${2:-crash}"
case "$how" in
  crash | clean) ;;
  *) fail "the second argument is crash or clean, not \"$how\"" ;;
esac
load_state
case "$server" in
  postgres)
    if [ "$how" = crash ]; then stop_postgres immediate; else stop_postgres fast; fi
    start_postgres
    ;;
  redis)
    if [ "$how" = crash ]; then stop_redis kill; else stop_redis shutdown; fi
    start_redis
    ;;
  mariadb)
    if [ "$how" = crash ]; then stop_mariadb kill; else stop_mariadb shutdown; fi
    start_mariadb
    ;;
  *) fail "the first argument is postgres, redis or mariadb, not \"$server\"" ;;
esac
echo "$server restarted ($how)"
