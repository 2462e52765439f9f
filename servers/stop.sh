#!/usr/bin/env bash
# Stops the servers servers/start.sh started and removes target/servers/env. Their data
# directories stay until the next start. Safe to run when nothing is started.
#
#   bash servers/stop.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=servers/common.sh
. "$here/common.sh"

if [ ! -f "$state" ]; then
  echo "no servers are started"
  exit 0
fi
load_state
rm -f "$env_file"
status=0
pg_pid="$(head -1 "$pg_dir/data/postmaster.pid" 2>/dev/null || true)"
if [ -n "$pg_pid" ] && kill -0 "$pg_pid" 2>/dev/null; then
  stop_postgres fast || { echo "PostgreSQL did not stop" >&2; status=1; }
elif [ -n "$pg_pid" ]; then
  # A server that was killed (the machine restarted, or a run was cut off) leaves its pid file
  # behind: nothing is running to stop, and PostgreSQL's next start takes the stale file over.
  echo "PostgreSQL (pid $pg_pid) was no longer running"
fi
stop_redis shutdown || status=1
stop_mariadb || status=1
rm -f "$state"
echo "servers stopped"
exit "$status"
