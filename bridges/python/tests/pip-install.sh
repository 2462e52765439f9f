#!/usr/bin/env bash
# The Python path as a Python team takes it: `pip install bridges/python` into a clean venv
# (pip builds the command with maturin from PyPI: no npm, no google-adk), then pytest gates a
# Python backend through memory_conformance_pytest (test_reference_backend.py) and
# check_junit.py checks every item and outcome in pytest's own JUnit XML.
#
# The command is built with cargo's dev profile into $CARGO_TARGET_DIR (default: the
# repository's target/), so it reuses what `cargo test` built; maturin is pinned by
# build-requirements.txt, pytest by tests/requirements.txt.
set -euo pipefail
cd "$(dirname "$0")/../../.."
root="$PWD"
work="$root/target/pip-install"
rm -rf "$work"
mkdir -p "$work"
python3 -m venv "$work/venv"

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
export MATURIN_PEP517_ARGS="--profile dev --locked"
export PIP_CONSTRAINT="$root/bridges/python/build-requirements.txt"
"$work/venv/bin/pip" install --quiet --retries 2 --timeout 30 \
  ./bridges/python -r bridges/python/tests/requirements.txt
unset PIP_CONSTRAINT MATURIN_PEP517_ARGS
grep -h '^Tag:' "$work"/venv/lib/python3*/site-packages/memory_conformance-*.dist-info/WHEEL

# The command comes from the venv: no other one on PATH, none named by MEMORY_CONFORMANCE.
unset MEMORY_CONFORMANCE
command="$work/venv/bin/memory-conformance"
test -x "$command" || { echo "pip installed no $command"; exit 1; }

# One failure is declared on purpose (TestMisdeclared), so pytest exits 1; anything else is wrong.
# pytest's own output goes to a file (its closing line counts a failure that is expected here);
# check_junit.py below prints what was checked, item by item.
status=0
PATH="/usr/bin:/bin" "$work/venv/bin/pytest" -p no:cacheprovider -q -rs \
  --junitxml "$work/pytest.xml" bridges/python/tests/test_reference_backend.py \
  >"$work/pytest.log" 2>&1 || status=$?
if [ "$status" != 1 ]; then
  cat "$work/pytest.log"
  echo "pytest exited $status; expected 1 (one rule failing on purpose)"
  exit 1
fi
"$command" gate --profile reference --cases 1 --format json \
  -- python3 tests/bridge_children/reference_bridge.py >"$work/gate.json"
"$work/venv/bin/python" bridges/python/tests/check_junit.py "$work/pytest.xml" "$work/gate.json"
