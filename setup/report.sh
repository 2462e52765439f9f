#!/usr/bin/env bash
# The main job, from a fresh clone: installs what is missing (setup/install.sh), starts the
# database servers for the run and stops them after, then writes the report of every bundled
# backend (every rule, the recall benchmarks) to target/report/BEHAVIOUR.md and its recall plot
# beside it. Arguments go to `memory-conformance-bundled report` (`--backend NAME`, `--cases N`,
# ...), the project's own tool (tools/bundled).
#
#   bash setup/report.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

bash setup/install.sh

servers_started=""
stop_servers() {
  if [ -n "$servers_started" ]; then
    bash servers/stop.sh >/dev/null 2>&1 || true
  fi
}
trap stop_servers EXIT
if [ -x target/servers/pgserver/pgserver/pginstall/bin/postgres ] && command -v redis-server >/dev/null && [ -x /usr/sbin/mariadbd ]; then
  bash servers/stop.sh >/dev/null 2>&1 || true   # a server a previous run left behind
  bash servers/start.sh
  servers_started=1
  set -a
  . target/servers/env
  set +a
fi

mkdir -p target/report
printf '\n== the report (%s)\n' "$(date -u +%H:%M:%S)"
cargo run --release --locked -p memory-conformance-bundled -- report --output target/report/BEHAVIOUR.md "$@"
printf '\n== the report is in target/report/BEHAVIOUR.md\n'
