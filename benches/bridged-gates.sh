#!/usr/bin/env bash
# How long each bundled bridged gate takes as its test runs it: `cargo test -p
# memory-conformance-bridges --test conformance_NAME` (a debug build, its default cases, its
# rules on the test runner's threads), one after the other, with the CPU time of every process
# of the run (the bridge child included, which the runner does not wait for), sampled by
# benches/tree-usage.py. The goal is under 60 s each.
#
#   bash benches/bridged-gates.sh        # after `bash bridges/install.sh`
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
gates=(adk_python adk_python_sqlite adk_js adk_java adk_go)
args=()
for gate in "${gates[@]}"; do args+=(--test "conformance_$gate"); done
cargo test --locked -p memory-conformance-bridges "${args[@]}" --no-run
out="$root/target/bridged-gates"
mkdir -p "$out"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| gate | wall | CPU, all processes | tests |"
echo "|---|---:|---:|---|"
status=0
for gate in "${gates[@]}"; do
  started=$(date +%s.%N)
  if python3 benches/tree-usage.py "$out/$gate.json" -- \
    cargo test --locked -q -p memory-conformance-bridges --test "conformance_$gate" >"$out/$gate.log" 2>&1; then
    outcome="$(grep '^test result' "$out/$gate.log" | tail -1 | sed 's/^test result: //; s/; 0 measured.*//')"
  else
    outcome="FAILED (see $out/$gate.log)"
    status=1
  fi
  ended=$(date +%s.%N)
  cpu="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cpu_seconds"])' "$out/$gate.json")"
  printf '| %s | %.1f s | %s s | %s |\n' "$gate" "$(echo "$ended - $started" | bc)" "$cpu" "$outcome"
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
