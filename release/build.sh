#!/usr/bin/env bash
# Builds everything a team installs from its own registry into one folder (default
# target/release-artifacts/), with a SHA256SUMS file over it:
#
#   *.crate                 the published crates (`cargo package`; the kit and the command
#                           verified by building them from their packages)
#   memory_conformance-*.whl    the Python wheel with the `memory-conformance` command inside, for
#                           x86_64 Linux with glibc 2.17 or later (manylinux2014), needing no Rust
#   memory_conformance-*.tar.gz the Python sdist (builds the command from source: needs Rust)
#   memory-conformance-bridge-*.tgz   the npm package of bridges/js (the helper, and `./adk`)
#   adk-java-inspect-*.jar, .pom      the Maven artifact of bridges/adk-java-inspect
#
# release/install-check.sh installs each of them clean and tests it. Needs what
# bridges/install.sh needs (python3 with venv, npm, Java 17+ with Maven) and its Maven local
# repository (bridges/adk-java/.m2); installs maturin and zig, pinned by
# release/build-requirements.txt, into target/release-venv. Each part prints how long it took.
#
#   bash release/build.sh [OUT_DIR]   (from the repository's root; emptied first)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
out="$(mkdir -p "${1:-target/release-artifacts}" && cd "${1:-target/release-artifacts}" && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"

fail() {
  printf 'release/build.sh: %s\n' "$*" >&2
  exit 1
}

part() {
  local name="$1" started=$SECONDS
  shift
  printf '\n== release: %s (%s)\n' "$name" "$(date -u +%H:%M:%S)"
  "$@"
  printf '== release: %s: %d s\n' "$name" "$((SECONDS - started))"
}

# The workspace's members that are not published (`publish = false`, or a gate of the project's own).
UNPUBLISHED=(example-keyword-memory memory-conformance-adk-rs memory-conformance-bundled)

crates() {
  local excluded=() name
  for name in "${UNPUBLISHED[@]}"; do excluded+=(--exclude "$name"); done
  rm -f "$CARGO_TARGET_DIR"/package/*.crate
  # Cargo verifies a package against the others' through a local registry, whose crates it
  # extracts under $CARGO_HOME/registry/src/-<hash>/ once and never again: a package of the same
  # name and version built before (other code) would be compiled instead of this one. So this
  # workspace's packages (all named memory-*) go from those local registries first.
  rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/memory-*/
  # Every published crate packaged (in dependency order, each against the others' packages),
  # then the kit and the command built from their packages (the crates of this workspace the
  # wheel compiles; building the others from theirs would compile the backends' dependencies
  # too, minutes more on a 2-core machine).
  # The kit is the workspace's root package, and Cargo names a path package's build by its path
  # relative to its workspace's root: the packaged kit (target/package/memory-conformance-*/, a
  # workspace of its own) and this workspace's kit share one debug build, and each takes the
  # other's as current. So that build is cleared before the verification (which must compile the
  # packaged sources) and after it (the next `cargo test` here must compile src/, not the copy).
  cargo clean --quiet -p memory-conformance --profile dev
  cargo package --locked --quiet --workspace "${excluded[@]}" --no-verify
  cargo package --locked --quiet -p memory-conformance -p memory-conformance-cli
  cargo clean --quiet -p memory-conformance --profile dev
  cp "$CARGO_TARGET_DIR"/package/*.crate "$out"/
  ls "$out"/*.crate | sed 's|.*/|  |'
}

python_tools() {
  local venv="$CARGO_TARGET_DIR/release-venv" stamp want
  stamp="$venv/installed-pins"
  want="$(sha256sum release/build-requirements.txt | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$venv/bin/maturin" ]; then
    return
  fi
  rm -f "$stamp"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv" ||
    fail "python3 cannot create a virtual environment (on Debian: apt-get install python3-venv)"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
    --retries 2 --timeout 30 -r release/build-requirements.txt ||
    fail "pip could not install maturin and zig: is PyPI reachable? (see pip's message above)"
  printf '%s\n' "$want" >"$stamp"
}

# The tag a wheel carrying a program (bindings = "bin") has on manylinux2014 x86_64.
WHEEL_TAG=py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64

wheel_and_sdist() {
  python_tools
  local maturin="$CARGO_TARGET_DIR/release-venv/bin/maturin" wheel tags sdist module
  # zig links the command against glibc 2.17's symbols; maturin checks the result (auditwheel)
  # and refuses a wheel that needs anything newer than manylinux2014 allows.
  (cd bridges/python && PATH="$CARGO_TARGET_DIR/release-venv/bin:$PATH" "$maturin" build \
    --quiet --release --locked --zig --compatibility manylinux2014 --out "$out")
  # maturin sdist looks for a Cargo.toml beside pyproject.toml first and says so as an error
  # before reading manifest-path: its output is shown only when it fails.
  (cd bridges/python && "$maturin" sdist --out "$out" >"$out/sdist.log" 2>&1) || {
    cat "$out/sdist.log"
    fail "maturin could not build the sdist (above)"
  }
  rm "$out/sdist.log"
  wheel="$(ls "$out"/memory_conformance-*.whl)"
  case "$wheel" in
    *-"$WHEEL_TAG".whl) ;;
    *) fail "the wheel's name does not end in $WHEEL_TAG.whl: $wheel" ;;
  esac
  tags="$(unzip -p "$wheel" '*.dist-info/WHEEL' | sed -n 's/^Tag: //p' | sort | paste -sd ' ')"
  [ "$tags" = "py3-none-manylinux2014_x86_64 py3-none-manylinux_2_17_x86_64" ] ||
    fail "the wheel's WHEEL file has the tags $tags; expected manylinux2014 and manylinux_2_17 (x86_64)"
  unzip -l "$wheel" | grep >/dev/null ' memory_conformance-[^/]*\.data/scripts/memory-conformance$' ||
    fail "the wheel carries no memory-conformance command"
  echo "  $(basename "$wheel") (tags: $tags)"
  sdist="$(ls "$out"/memory_conformance-*.tar.gz)"
  for module in memory_conformance_bridge memory_conformance_adk memory_conformance_pytest; do
    tar tzf "$sdist" | grep >/dev/null "^memory_conformance-[^/]*/$module\.py$" ||
      fail "the sdist holds no $module.py (bridges/python/pyproject.toml's include)"
  done
  echo "  $(basename "$sdist") (with the three helper modules)"
}

npm_tarball() {
  (cd bridges/js && npm pack --quiet --pack-destination "$out" >/dev/null)
  echo "  $(basename "$(ls "$out"/memory-conformance-bridge-*.tgz)")"
}

maven_jar() {
  local version
  version="$(sed -n '0,/<version>/s|.*<version>\(.*\)</version>.*|\1|p' bridges/adk-java-inspect/pom.xml)"
  # Its test (a real Runner over the worked example) runs in bridges/install.sh and in the
  # tests of cli/; here the jar alone, with the same local repository.
  (cd bridges/adk-java-inspect && mvn --batch-mode --quiet -Dstyle.color=never \
    -Dmaven.repo.local=../adk-java/.m2 -Dmaven.wagon.http.retryHandler.count=2 \
    -Dmaven.test.skip=true package >"$out/maven.log" 2>&1) || {
    cat "$out/maven.log"
    fail "mvn could not package bridges/adk-java-inspect (above)"
  }
  rm "$out/maven.log"
  cp "bridges/adk-java-inspect/target/adk-java-inspect-$version.jar" "$out"/
  cp bridges/adk-java-inspect/pom.xml "$out/adk-java-inspect-$version.pom"
  echo "  adk-java-inspect-$version.jar, adk-java-inspect-$version.pom"
}

# The folder is emptied first: only one this script made (its marker file) or an empty one.
if [ -n "$(ls -A "$out")" ] && [ ! -f "$out/.release-artifacts" ]; then
  fail "$out is not empty and is no folder of release/build.sh's: give an empty or new one"
fi
find "$out" -mindepth 1 -delete
touch "$out/.release-artifacts"
part "the published crates (cargo package)" crates
part "the Python wheel (manylinux2014, the command inside) and sdist (maturin)" wheel_and_sdist
part "the npm package (npm pack)" npm_tarball
part "the Maven jar and POM (mvn package)" maven_jar
(cd "$out" && sha256sum -- * >SHA256SUMS)
printf '\n== release: %d artifacts in %s, with SHA256SUMS\n' "$(($(ls "$out" | wc -l) - 1))" "$out"
ls -l "$out" | sed 1d
