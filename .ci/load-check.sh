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

hog_seconds="${HOG_SECONDS:-600}"
hogs=()
stop_hogs() {
  for pid in "${hogs[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
}
trap stop_hogs EXIT

loops=$(( $(nproc) * 2 ))
for _ in $(seq "$loops"); do
  timeout "$hog_seconds" sh -c 'while :; do :; done' &
  hogs+=("$!")
done
echo "load check: $loops busy loops on $(nproc) cores (at most $hog_seconds s)"

cargo test --locked -p memory-conformance \
  --test deviant_backends --test process_bridge --test conformance --test gate --lib
cargo test --locked -p memory-sqlite-fts5 --test conformance --test concurrency
cargo test --locked -p memory-conformance-cli --test misbehaving_bridges
cargo test --locked -p memory-conformance-cli --test gate -- budget
cargo test --locked -p memory-conformance-adk-rust --test faults_postgres --test faults_redis
cargo test --locked -p memory-conformance-bundled --test faults_mariadb
