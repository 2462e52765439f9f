#!/usr/bin/env bash
# What the kit costs a backend crate that gates itself with it: the CPU time (user + system,
# the whole process tree) of a cold `cargo test --no-run` of a fresh backend crate with the
# kit as its dev-dependency, against the same crate with only the tools a hand-written suite
# would use (proptest, tokio and insta), and the crates each compiles. CPU time, not wall
# time: it barely moves with the machine's load.
#
#   bash benches/dev-dependency-cost.sh        # about 4 minutes of CPU on 2 cores
#
# Both crates are the README's backend crate: the kit with default features off as a normal
# dependency (the contract), and each one's test dependencies. Each builds in a target folder
# of its own, removed at the end, with the registry already fetched (`cargo fetch`). The kit's
# crate takes the README's build settings (the `[profile.*]` tables of its dependency block),
# as a backend crate set up from the README does; with KIT_SETTINGS=none, Cargo's defaults.
# The kit is a path dependency here, which Cargo would compile incrementally, as it does the
# crates of a workspace; the README's git dependency (and a registry one) it never does, so
# the builds run with CARGO_INCREMENTAL=0, which changes nothing else on either side.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Versions as the workspace's lock file resolves them, so neither side downloads anything.
version_of() {
  cargo tree --locked --manifest-path "$root/Cargo.toml" -p memory-conformance -e normal,dev \
    --prefix none --depth 1 | awk -v name="$1" '$1 == name { sub(/^v/, "", $2); print $2; exit }'
}
proptest="$(version_of proptest)"
tokio="$(version_of tokio)"
insta="$(version_of insta)"

# A backend crate with `src/lib.rs` and one test; `$2` holds its dev-dependencies, `$3` its
# profile settings.
backend_crate() {
  local dir="$work/$1"
  mkdir -p "$dir/src" "$dir/tests"
  cat >"$dir/Cargo.toml" <<EOF
[package]
name = "backend-$1"
version = "0.1.0"
edition = "2024"

[workspace]

[dependencies]
memory-conformance = { path = "$root", default-features = false }

[dev-dependencies]
$2

${3:-}
EOF
  echo 'pub use memory_conformance::InMemoryMemoryService as Backend;' >"$dir/src/lib.rs"
  echo '#[test] fn builds() {}' >"$dir/tests/gate.rs"
  cp "$root/Cargo.lock" "$dir/Cargo.lock"
}

# The README's build settings: the `[profile.*]` tables of its toml block with the kit's lines.
readme_settings() {
  awk '/^```toml/ { block = 1; text = ""; settings = ""; on = 0; next }
       /^```/ && block { block = 0; if (text ~ /memory-conformance =/) print settings; next }
       block { text = text $0 "\n"; if ($0 ~ /^\[/) on = ($0 ~ /^\[profile\./); if (on) settings = settings $0 "\n" }' \
    "$root/README.md"
}
settings=""
if [ "${KIT_SETTINGS:-readme}" != none ]; then settings="$(readme_settings)"; fi

backend_crate kit "memory-conformance = { path = \"$root\" }" "$settings"
backend_crate baseline "proptest = \"=$proptest\"
tokio = { version = \"=$tokio\", features = [\"rt\", \"macros\"] }
insta = \"=$insta\""

# CPU seconds (user + system, children included) of a cold test build of crate `$1`.
cpu_of() {
  local dir="$work/$1"
  (cd "$dir" && cargo fetch --quiet)
  CARGO_INCREMENTAL=0 /usr/bin/time -f '%U %S' -o "$work/$1.time" \
    cargo test --quiet --no-run --offline --manifest-path "$dir/Cargo.toml" \
    --target-dir "$work/$1-target" >/dev/null 2>"$work/$1.log" || {
    cat "$work/$1.log"
    exit 1
  }
  awk '{ printf "%.1f", $1 + $2 }' "$work/$1.time"
}

crates_of() {
  cargo tree --offline --manifest-path "$work/$1/Cargo.toml" -e normal,build,dev --prefix none \
    | sed 's/ (\*)//' | sort -u | wc -l
}

echo "load average at the start: $(uptime)"
kit_cpu="$(cpu_of kit)"
baseline_cpu="$(cpu_of baseline)"
printf 'kit as dev-dependency:          %6s s CPU, %3s crates\n' "$kit_cpu" "$(crates_of kit)"
printf 'proptest, tokio and insta only: %6s s CPU, %3s crates\n' "$baseline_cpu" "$(crates_of baseline)"
awk -v k="$kit_cpu" -v b="$baseline_cpu" 'BEGIN { printf "ratio: %.2f\n", k / b }'
echo "load average at the end: $(uptime)"
