#!/usr/bin/env bash
# The soak: `cargo test --workspace` run RUNS times (default 10) with every core kept busy, to
# show that no test fails for the machine being slow. Not part of `.ci/run` (one run takes 20 to
# 40 minutes under the hog on 2 cores); run it after `.ci/run`'s set-up, with the servers started
# and their URLs in the environment:
#
#   bash servers/start.sh && set -a && . target/servers/env && set +a
#   MEMORY_CONFORMANCE_REQUIRE_ALL_BACKENDS=1 RUNS=10 bash .ci/soak.sh
#
# PACKAGES (default `--workspace`) narrows what runs, for example PACKAGES="-p memory-sqlite-fts5".
#
# Each run starts HOGS_PER_CORE (default 2) busy loops per core (each ended by `timeout` after
# HOG_SECONDS, default 3600, at the latest, and stopped when the run ends) and runs the tests with
# `--no-fail-fast -- --nocapture`, so that every failure is counted and the timing tests' own
# lines (the delay they measured, how late the harness's timers ran) are in the log. Per run it
# prints the commit, the exit status, the passed, failed and ignored counts summed over every
# test binary, the seconds taken, the load average at the end, and the timing tests' lines;
# everything goes to target/soak/run-N.log. Each run has a temporary folder of its own, which it
# must leave empty, as in `.ci/run`: a run that leaves anything in it fails, naming what. It
# exits 1 when any run failed.
set -uo pipefail
cd "$(dirname "$0")/.."

runs="${RUNS:-10}"
loops=$(( $(nproc) * ${HOGS_PER_CORE:-2} ))
hog_seconds="${HOG_SECONDS:-3600}"
out=target/soak
mkdir -p "$out"
failed_runs=0
hogs=()
# The busy loops end with the run, and with this script however it ends (Ctrl-C included).
stop_hogs() {
  for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null
  hogs=()
}
trap stop_hogs EXIT
trap 'exit 130' INT TERM

for run in $(seq "$runs"); do
  for _ in $(seq "$loops"); do
    timeout "$hog_seconds" sh -c 'while :; do :; done' &
    hogs+=("$!")
  done
  log="$out/run-$run.log"
  started=$SECONDS
  run_tmp="$(mktemp -d)"
  # shellcheck disable=SC2086 # PACKAGES is a list of cargo arguments
  TMPDIR="$run_tmp" cargo test --locked ${PACKAGES:---workspace} --no-fail-fast -- --nocapture >"$log" 2>&1
  status=$?
  stop_hogs
  left="$(ls -A "$run_tmp")"
  if [ -n "$left" ]; then
    echo "the run left these in its temporary folder: $(echo "$left" | tr '\n' ' ')" >>"$log"
    [ "$status" -ne 0 ] || status=3
  fi
  rm -rf "$run_tmp"
  counts="$(awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed;?$/) p += $i; if ($(i+1) ~ /^failed;?$/) f += $i; if ($(i+1) ~ /^ignored;?$/) g += $i } }
    END { printf "%d passed, %d failed, %d ignored", p, f, g }' "$log")"
  echo "run $run of $runs (cargo test ${PACKAGES:---workspace}), commit $(git rev-parse --short HEAD), $loops busy loops on $(nproc) cores: exit $status, $counts, $(echo "$left" | grep -c . || true) left in its temporary folder, $((SECONDS - started)) s, load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
  grep -E "^delayed writes:|timers ran up to|scheduling delay was allowed" "$log" | sort | uniq -c | sort -rn | head -5 | sed 's/^/    /'
  [ "$status" -eq 0 ] || failed_runs=$((failed_runs + 1))
done
echo "soak: $((runs - failed_runs)) of $runs runs passed (logs in $out)"
[ "$failed_runs" -eq 0 ]
