#!/usr/bin/env bash
# all-MiniLM-L6-v2 in the kit against sentence-transformers (PyTorch, CPU) and onnxruntime:
# same weights, same texts, batches of 1 and 32, one and two threads; sentences per second,
# peak memory and the vectors' agreement, in one table.
#
#   bash embedders/minilm/benches/compare.sh
#
# Installs the pinned Python packages (compare-requirements.txt, every one pinned, from PyPI)
# into target/minilm-compare/venv once (a stamp makes later runs skip it), fetches the model
# (fetch-model.sh), exports it to ONNX from the same weights, builds the kit's side
# (benches/compare.rs) in release, then runs each engine, batch size and thread count in a
# process of its own, interleaved (for each batch and thread count: the kit, then the others)
# so that a change in the machine's load falls on all of them. The texts: LoCoMo's first 256 (TEXTS)
# dialogue turns, read at run time from $MEMORY_CONFORMANCE_LOCOMO, else
# ../shared/data/locomo/locomo10.json beside the repository.
#
# PASSES (default 3) sets the passes per run; the figure is the median pass.
# Not part of CI: torch alone (the PyPI wheel, which brings its CUDA libraries even to run on
# the CPU) is about 2.7 GB installed.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
work="$root/target/minilm-compare"
venv="$work/venv"
requirements="$here/compare-requirements.txt"
passes="${PASSES:-3}"
texts_count="${TEXTS:-256}"

fail() {
  echo "compare.sh: $*" >&2
  exit 1
}

command -v python3 >/dev/null || fail "python3 is needed"
mkdir -p "$work"

# The virtual environment, made again when the pins change.
stamp="$venv/.installed"
want="$(python3 -c 'import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],"rb").read()).hexdigest())' "$requirements")"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "installing the pinned Python packages into $venv (about 3 GB, torch with its CUDA libraries)"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --no-deps --only-binary=:all: -r "$requirements" \
    || fail "pip could not install $requirements (its output is above); is PyPI reachable?"
  printf '%s' "$want" > "$stamp"
fi
python="$venv/bin/python"

bash "$root/embedders/minilm/fetch-model.sh"

export MEMORY_CONFORMANCE_LOCOMO="${MEMORY_CONFORMANCE_LOCOMO:-$root/../shared/data/locomo/locomo10.json}"
"$python" "$here/compare.py" texts --out "$work/texts.json" --count "$texts_count" \
  --locomo "$MEMORY_CONFORMANCE_LOCOMO"

onnx_stamp="$work/onnx/.exported"
if [ ! -f "$onnx_stamp" ] || [ "$(cat "$onnx_stamp")" != "$want" ]; then
  rm -rf "$work/onnx"
  "$python" "$here/compare.py" export --out-dir "$work/onnx"
  printf '%s' "$want" > "$onnx_stamp"
fi

# The kit's runner, built once; its path from cargo's JSON messages.
kit="$(cd "$root" && cargo bench -p memory-embedder-minilm --bench compare --no-run \
  --message-format=json 2>/dev/null | "$python" -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "compare" and m.get("executable"):
        print(m["executable"])')"
[ -x "$kit" ] || fail "cargo did not build the compare bench of memory-embedder-minilm (run: cargo bench -p memory-embedder-minilm --bench compare --no-run)"

results="$work/results.jsonl"
: > "$results"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for batch in 1 32; do
  for threads in 1 2; do
    for engine in kit sentence-transformers onnxruntime onnxruntime-fused; do
      vectors="$work/vectors-$engine-b$batch-t$threads.f32"
      if [ "$engine" = kit ]; then
        "$kit" --texts "$work/texts.json" --batch "$batch" --threads "$threads" \
          --passes "$passes" --vectors "$vectors" | tee -a "$results"
      else
        "$python" "$here/compare.py" run --engine "$engine" --batch "$batch" --threads "$threads" \
          --texts "$work/texts.json" --passes "$passes" --vectors "$vectors" \
          --onnx-dir "$work/onnx" | tee -a "$results"
      fi
    done
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
"$python" "$here/compare.py" table --results "$results"
