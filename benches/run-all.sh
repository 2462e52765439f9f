#!/usr/bin/env bash
# Every performance figure of docs/performance.md, in one run: each benchmark
# the page names, one after the other, each headed by the machine's load average (`uptime`)
# when it starts, everything also written to target/bench-all/run.log.
#
#   bash benches/run-all.sh           # about 40 minutes on 2 cores, once the set-up is done
#
# What each needs beyond `bash setup/install.sh` (which installs the bridges and the model, and
# the servers): the side-by-side benchmark needs nothing more; the bridge round trip needs
# ADK Python's bridge venv (bridges/adk-python/.venv, from the set-up) for its helper child;
# the bridged gates need every bridge installed (`bash bridges/install.sh`); the LoCoMo cost
# needs LoCoMo ($MEMORY_CONFORMANCE_LOCOMO, else ../shared/data/locomo) and
# the servers started (`bash servers/start.sh`) for the PostgreSQL and Redis backends; the
# embedder comparison installs its pinned Python packages (about 6 GB, PyTorch's CUDA build
# from PyPI, run on the CPU) into target/minilm-compare on its first run.
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/target/bench-all"
mkdir -p "$out"
log="$out/run.log"
: >"$log"
failed=()

run() {
  local name="$1"
  shift
  {
    echo
    echo "== $name: $*"
    echo "== load average at the start: $(uptime)"
  } | tee -a "$log"
  local started=$SECONDS
  if (cd "$root" && "$@") 2>&1 | tee -a "$log"; then
    echo "== $name took $((SECONDS - started)) s" | tee -a "$log"
  else
    echo "== $name FAILED after $((SECONDS - started)) s" | tee -a "$log"
    failed+=("$name")
  fi
}

run "side by side with adk-memory 2.3.0" cargo bench --locked -p memory-conformance-adk-rust --bench side_by_side
run "the harness, release" cargo bench --locked --bench harness
run "the harness, debug" cargo bench --locked --bench harness --profile dev
run "the bridge's round trip" cargo bench --locked --bench bridge_round_trip
run "the reference at scale" cargo bench --locked --bench scale
run "the inspecting decorator" cargo bench --locked --bench reference_search -- decorator_overhead
run "the bundled bridged gates, debug test runs" bash benches/bridged-gates.sh
run "LoCoMo's cost per backend" bash benches/locomo-cost.sh
run "the embedder against sentence-transformers and onnxruntime" bash embedders/minilm/benches/compare.sh

echo
if [ "${#failed[@]}" -gt 0 ]; then
  echo "run-all.sh: these did not finish: ${failed[*]} (see $log)"
  exit 1
fi
echo "run-all.sh: every benchmark ran; the whole output is in $log"
