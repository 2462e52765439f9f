#!/usr/bin/env bash
# Installs each artifact release/build.sh wrote, clean, from that folder only (dependencies
# from their registries), and tests it as a team would:
#
# Each install is the README's own line for it (`pip install ...`, `npm install ...`, `mvn
# ...install-file ...`), read out of README.md and run exactly as written in a fresh folder
# where `target/release-artifacts` is the artifacts' folder; tests/readme_install.rs checks that
# the lines name this version's artifacts and that this script reads them.
#
#   python  a fresh venv: `pip install` of the wheel with its `pytest` extra (pytest pinned by
#           bridges/python/tests/requirements.txt); with no Rust on the PATH, pytest gates a
#           Python backend through memory_conformance_pytest
#           (bridges/python/tests/test_reference_backend.py), and check_junit.py checks every
#           item against the installed command's own gate
#   js      a fresh npm project: `npm install` of the tarball and @google/adk (the pin of
#           bridges/adk-js); install-check/adk.mjs runs the decorator and the trace plugin around
#           ADK JS's InMemoryMemoryService through ADK's own Runner
#   java    a fresh Maven project (install-check/java) depending on the jar, installed with its
#           POM into a temporary local repository, and on ADK Java: the debugging guide's
#           three-assertion test through the decorator
#
# The crates are checked by tests/readme_install.rs (a fresh cargo project built from the
# README's lines). Every temporary folder is removed, passing or failing. The Maven project
# starts from a copy of bridges/adk-java/.m2 (ADK Java and its plugins, which
# bridges/install.sh fetched from Maven Central; never this project's artifact).
#
#   bash release/install-check.sh [ARTIFACTS_DIR]   (default target/release-artifacts)
set -euo pipefail
cd "$(dirname "$0")/.."
artifacts="$(cd "${1:-target/release-artifacts}" && pwd)"

fail() {
  printf 'release/install-check.sh: %s\n' "$*" >&2
  exit 1
}

part() {
  local name="$1" started=$SECONDS
  shift
  printf '\n== install check: %s (%s)\n' "$name" "$(date -u +%H:%M:%S)"
  "$@"
  printf '== install check: %s: %d s\n' "$name" "$((SECONDS - started))"
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The README's install line that starts with PREFIX, exactly as written: one line of it must.
readme_line() {
  local lines
  lines="$(grep -- "^$1" README.md || true)"
  [ -n "$lines" ] && [ "$(printf '%s\n' "$lines" | wc -l)" = 1 ] ||
    fail "README.md must have exactly one install line starting with '$1', found: ${lines:-none}"
  printf '%s\n' "$lines"
}

# A fresh folder where the README's install lines find `target/release-artifacts`.
fresh_project() {
  mkdir -p "$1/target"
  ln -s "$artifacts" "$1/target/release-artifacts"
}

# The one artifact matching PATTERN in the folder.
artifact() {
  local found=("$artifacts"/$1)
  [ "${#found[@]}" = 1 ] && [ -f "${found[0]}" ] ||
    fail "expected one $1 in $artifacts, found: ${found[*]##*/}"
  printf '%s\n' "${found[0]}"
}

checksums() {
  (cd "$artifacts" && sha256sum --check --quiet SHA256SUMS) ||
    fail "the artifacts differ from $artifacts/SHA256SUMS"
  echo "  every artifact matches SHA256SUMS"
}

python_wheel() {
  local wheel venv="$work/venv" status=0 line constraints="$PWD/bridges/python/tests/requirements.txt"
  wheel="$(artifact 'memory_conformance-*.whl')"
  line="$(readme_line 'pip install ')"
  python3 -m venv "$venv"
  fresh_project "$work/python"
  # The README's line with the venv's pip, binaries only, pytest pinned by the constraints.
  (cd "$work/python" && PATH="$venv/bin:$PATH" PIP_QUIET=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_INPUT=1 PIP_RETRIES=2 PIP_TIMEOUT=30 PIP_ONLY_BINARY=:all: \
    PIP_CONSTRAINT="$constraints" bash -ec "$line")
  echo "  $line"
  echo "  installed ${wheel##*/}[pytest] ($("$venv/bin/pytest" --version))"
  # From here on no Rust: the PATH is the venv's and the system's, and no command is named by
  # MEMORY_CONFORMANCE.
  (
    unset MEMORY_CONFORMANCE
    export PATH="$venv/bin:/usr/bin:/bin"
    if command -v cargo >/dev/null || command -v rustc >/dev/null; then
      fail "Rust is on the PATH ($PATH): the check must run without it"
    fi
    [ "$(command -v memory-conformance)" = "$venv/bin/memory-conformance" ] ||
      fail "the wheel put no memory-conformance command in $venv/bin"
    echo "  no cargo or rustc on the PATH; memory-conformance is the wheel's: $(memory-conformance --version)"
    local module
    module="$(cd "$work" && python -c 'import memory_conformance_pytest as m; print(m.__file__)')"
    case "$module" in
      "$venv"/lib/python3*/site-packages/*) echo "  memory_conformance_pytest is the wheel's: ${module#"$venv"/}" ;;
      *) fail "memory_conformance_pytest is imported from $module, not from the wheel" ;;
    esac
    # One failure is declared on purpose (TestMisdeclared), so pytest exits 1.
    pytest -p no:cacheprovider -q -rs --junitxml "$work/pytest.xml" \
      bridges/python/tests/test_reference_backend.py >"$work/pytest.log" 2>&1 || status=$?
    if [ "$status" != 1 ]; then
      cat "$work/pytest.log"
      fail "pytest exited $status; expected 1 (one rule failing on purpose)"
    fi
    memory-conformance gate --profile reference --cases 1 --format json \
      -- python tests/bridge_children/reference_bridge.py >"$work/gate.json"
    python bridges/python/tests/check_junit.py "$work/pytest.xml" "$work/gate.json" | sed 's/^/  /'
  )
}

# @google/adk as bridges/adk-js pins it.
adk_js_version() {
  sed -n 's|.*"@google/adk": "\(.*\)".*|\1|p' bridges/adk-js/package.json
}

npm_package() {
  local tarball project="$work/npm" adk line
  tarball="$(artifact 'memory-conformance-bridge-*.tgz')"
  line="$(readme_line 'npm install ')"
  adk="$(adk_js_version)"
  fresh_project "$project"
  printf '{"name": "install-check", "private": true, "type": "module"}\n' >"$project/package.json"
  cp release/install-check/adk.mjs "$project/"
  (cd "$project" && NPM_CONFIG_AUDIT=false NPM_CONFIG_FUND=false NPM_CONFIG_LOGLEVEL=error \
    NPM_CONFIG_FETCH_RETRIES=2 NPM_CONFIG_FETCH_TIMEOUT=30000 bash -ec "$line" >/dev/null &&
    npm install --no-audit --no-fund --loglevel=error --fetch-retries=2 \
      --fetch-timeout=30000 "@google/adk@$adk" >/dev/null)
  echo "  $line"
  echo "  installed ${tarball##*/} and @google/adk@$adk"
  # ADK's own log lines (plugin registered, ...) are dropped; the check prints what it checked.
  (cd "$project" && node adk.mjs) | grep -v '\[ADK\]'
}

maven_artifact() {
  local jar pom repo="$work/m2" project="$work/maven" version line
  jar="$(artifact 'adk-java-inspect-*.jar')"
  pom="$(artifact 'adk-java-inspect-*.pom')"
  version="${jar##*/adk-java-inspect-}"
  version="${version%.jar}"
  [ -d bridges/adk-java/.m2 ] || fail "no bridges/adk-java/.m2: run bash bridges/install.sh first"
  cp -a bridges/adk-java/.m2 "$repo"
  rm -rf "$repo/memoryconformance"
  local mvn=(mvn --batch-mode -Dstyle.color=never -Dmaven.repo.local="$repo"
    -Dmaven.wagon.http.retryHandler.count=2)
  line="$(readme_line 'mvn ')"
  fresh_project "$work/maven-install"
  # The README's line, its local repository the temporary one (MAVEN_OPTS).
  (cd "$work/maven-install" && MAVEN_OPTS="-Dmaven.repo.local=$repo -Dstyle.color=never" \
    bash -ec "$line") >"$work/maven.log" 2>&1 || {
    cat "$work/maven.log"
    fail "the README's line could not install ${jar##*/} into a temporary local repository (above): $line"
  }
  echo "  $line"
  echo "  installed ${jar##*/} and ${pom##*/} into a temporary local repository"
  mkdir "$project"
  cp -r release/install-check/java/pom.xml release/install-check/java/src "$project/"
  (cd "$project" && "${mvn[@]}" -Dinspect.version="$version" test >"$work/maven.log" 2>&1) || {
    cat "$work/maven.log"
    fail "the Maven project depending on adk-java-inspect $version failed (above)"
  }
  grep -E '^\[INFO\] Tests run: [0-9]+, Failures: 0, Errors: 0, Skipped: 0$' "$work/maven.log" |
    sed 's/^\[INFO\]/  example.RecallsAcrossSessionsTest (the guide'"'"'s three assertions, through the decorator):/'
}

part "the artifacts' checksums" checksums
part "the Python wheel, installed with pip, gating a Python backend without Rust" python_wheel
part "the npm package, installed with npm, around ADK JS's InMemoryMemoryService" npm_package
part "the Maven jar and POM, a dependency of a fresh project with ADK Java" maven_artifact
printf '\n== install check: every artifact installed clean and passed (the crates: tests/readme_install.rs)\n'
