#!/usr/bin/env bash
# What the LoCoMo benchmark costs per bundled backend: wall time, CPU time and peak memory of
# `memory-conformance-bundled benchmark --backend NAME --dataset locomo`, each run under GNU time
# (`/usr/bin/time -v`), one backend after the other, printed as one table.
#
#   bash benches/locomo-cost.sh                        # every bundled backend
#   bash benches/locomo-cost.sh reference sqlite-fts5  # only these
#
# Builds the project's tool (tools/bundled) in release first. LoCoMo is read at run time from
# $MEMORY_CONFORMANCE_LOCOMO, else ../shared/data/locomo/locomo10.json beside the repository. A
# backend that cannot run here (its server is not started, its bridge not installed: see
# `bash bridges/install.sh` and servers/start.sh) gets a row saying why. vector-minilm and
# hybrid need the model (`bash embedders/minilm/fetch-model.sh`).
#
# Wall time and "peak RSS, GNU time" (the largest peak of a process it saw) are GNU time's. A bridged backend runs
# in child processes that the tool ends without waiting for, which GNU time then does not see:
# benches/tree-usage.py samples the whole process tree from /proc every 100 ms, and gives the
# CPU time of all its processes and the peak of their summed RSS.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
tool="$root/target/release/memory-conformance-bundled"
out="$root/target/locomo-cost"
[ -x /usr/bin/time ] || { echo "locomo-cost.sh: GNU time is needed at /usr/bin/time (Debian: apt-get install time)" >&2; exit 1; }

(cd "$root" && cargo build --release --locked -p memory-conformance-bundled)
export MEMORY_CONFORMANCE_LOCOMO="${MEMORY_CONFORMANCE_LOCOMO:-$root/../shared/data/locomo/locomo10.json}"
[ -f "$MEMORY_CONFORMANCE_LOCOMO" ] || { echo "locomo-cost.sh: no LoCoMo at $MEMORY_CONFORMANCE_LOCOMO (set MEMORY_CONFORMANCE_LOCOMO to locomo10.json, from github.com/snap-research/LoCoMo, data/locomo10.json)" >&2; exit 1; }

if [ "$#" -gt 0 ]; then
  backends=("$@")
else
  # The bundled backends, in report order, as the tool names them.
  mapfile -t backends < <("$tool" benchmark --backend '?' 2>&1 | sed -n 's/.*the bundled backends are: //p' | tr ',' '\n' | sed 's/^ *//')
  [ "${#backends[@]}" -gt 0 ] || { echo "locomo-cost.sh: could not list the bundled backends from $tool" >&2; exit 1; }
fi

mkdir -p "$out"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| backend | wall | CPU, all processes | peak RSS, all processes | peak RSS, GNU time | recall@10 |"
echo "|---|---:|---:|---:|---:|---:|"
for backend in "${backends[@]}"; do
  log="$out/$backend.time"
  stdout="$out/$backend.out"
  if /usr/bin/time -v -o "$log" python3 "$root/benches/tree-usage.py" "$out/$backend.tree.json" -- \
      "$tool" benchmark --backend "$backend" --dataset locomo > "$stdout" 2> "$out/$backend.err"; then
    wall="$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$log")"
    largest="$(awk -F': ' '/Maximum resident set size/ {printf "%.0f MiB", $2 / 1024}' "$log")"
    read -r cpu all < <(python3 -c 'import json, sys; t = json.load(open(sys.argv[1])); print("%.1f_s %.0f_MiB" % (t["cpu_seconds"], t["peak_rss_kib"] / 1024))' "$out/$backend.tree.json")
    # The first table's row: | backend | recall@1 | recall@5 | recall@10 | ...
    recall="$(sed -n 3p "$stdout" | awk -F'|' '{print $5}' | tr -d ' ')"
    echo "| $backend | $wall | ${cpu/_/ } | ${all/_/ } | $largest | ${recall:-see $stdout} |"
  else
    why="$(grep -m1 -v '^\s*$' "$out/$backend.err" | cut -c1-160)"
    echo "| $backend | not run: ${why:-see $out/$backend.err} | | | | |"
  fi
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
