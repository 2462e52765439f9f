#!/usr/bin/env bash
# The load check: the self-tests that involve time (delayed visibility, timeouts, budgets,
# the bridge child's lifecycle, concurrency rules, the servers' slow-server and restart faults)
# and the whole gates of the reference and
# of sqlite-fts5 run once more with every core kept busy, and must pass. A backend inside its
# declared bounds never fails for being on a busy machine.
#
# The CPU hog is bounded: twice as many busy loops as cores, each ended by `timeout` after
# HOG_SECONDS (default 600) at the latest, and stopped by this script when the tests end,
# pass or fail. Run it after the tests were built (`cargo test --workspace` builds them).
set -euo pipefail
cd "$(dirname "$0")/.."

# The test binaries `cargo test --workspace` built, listed before the busy loops start.
. .ci/prebuilt.sh
trap prebuilt_done EXIT
prebuilt_list

hog_seconds="${HOG_SECONDS:-600}"
hogs=()
stop_hogs() {
  for pid in "${hogs[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
}
trap 'stop_hogs; prebuilt_done' EXIT

loops=$(( $(nproc) * 2 ))
for _ in $(seq "$loops"); do
  timeout "$hog_seconds" sh -c 'while :; do :; done' &
  hogs+=("$!")
done
echo "load check: $loops busy loops on $(nproc) cores (at most $hog_seconds s)"

for target in deviant_backends process_bridge conformance gate lib; do
  prebuilt memory-conformance "$target"
done
prebuilt memory-sqlite-fts5 conformance
prebuilt memory-sqlite-fts5 concurrency
prebuilt memory-conformance-cli misbehaving_bridges
prebuilt memory-conformance-cli gate budget
prebuilt memory-conformance-adk-rust faults_postgres
prebuilt memory-conformance-adk-rust faults_redis
prebuilt memory-conformance-bundled faults_mariadb
