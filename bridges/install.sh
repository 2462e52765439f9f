#!/usr/bin/env bash
# Installs the bridged backends the gates of memory-conformance-bridges run, pinned, into
# folders git ignores:
#   bridges/adk-python/.venv         google-adk 2.13.0 and its locked dependencies (PyPI)
#   bridges/adk-js/node_modules      @google/adk 2.0.0 and its locked dependencies (npm)
#   bridges/python/.venv             maturin 1.16.0, which builds the Python wheel (PyPI)
#   bridges/adk-java-inspect/target  the guide's decorator and plugin for ADK Java, built and
#                                    tested with bridges/adk-java/.m2
#   bridges/adk-java/.m2, target/    com.google.adk:google-adk 1.8.0 and its dependencies (Maven
#                                    Central), the bridge compiled, its worked-example test run
#   bridges/adk-go/.go, target/      google.golang.org/adk/v2 v2.2.0 and its dependencies (the Go
#                                    module proxy), the bridge built as target/adk-go-bridge
# Idempotent: a backend whose pins (and, for the compiled bridges, sources) have not changed
# since it was installed is skipped. Needs python3 (with venv), node 20+ with npm, Java 17+ with
# Maven, and Go 1.26.5+; fails loudly when a registry cannot be reached. Nothing is downloaded
# after this: the gates run the installed bridges offline.
set -euo pipefail
cd "$(dirname "$0")"

fail() {
  printf 'bridges/install.sh: %s\n' "$*" >&2
  exit 1
}

# The digest of the files that pin a backend: the install stamp holds it.
pins() { cat "$@" | sha256sum | cut -d' ' -f1; }

install_python() {
  local venv=adk-python/.venv stamp=adk-python/.venv/installed-pins
  local want
  want="$(pins adk-python/requirements.txt adk-python/constraints.txt)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$venv/bin/python" ]; then
    echo "adk-python: google-adk already installed in bridges/$venv"
    return
  fi
  command -v python3 >/dev/null || fail "python3 is not on the PATH (ADK Python needs Python 3.10 or later)"
  echo "adk-python: installing google-adk into bridges/$venv (PyPI)"
  rm -f "$stamp"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv" ||
    fail "python3 cannot create a virtual environment (on Debian: apt-get install python3-venv)"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
    --retries 2 --timeout 30 -r adk-python/requirements.txt -c adk-python/constraints.txt ||
    fail "pip could not install google-adk: is PyPI reachable? (see pip's message above)"
  printf '%s\n' "$want" >"$stamp"
}

install_js() {
  local stamp=adk-js/node_modules/.installed-pins
  local want
  want="$(pins adk-js/package.json adk-js/package-lock.json)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    echo "adk-js: @google/adk already installed in bridges/adk-js/node_modules"
    return
  fi
  command -v node >/dev/null || fail "node is not on the PATH (ADK JS needs Node.js 20 or later)"
  command -v npm >/dev/null || fail "npm is not on the PATH"
  echo "adk-js: installing @google/adk into bridges/adk-js/node_modules (npm)"
  (cd adk-js && npm ci --no-audit --no-fund --loglevel=error --fetch-retries=2 \
    --fetch-retry-mintimeout=2000 --fetch-retry-maxtimeout=10000 --fetch-timeout=30000) ||
    fail "npm could not install @google/adk: is the npm registry reachable? (see npm's message above)"
  printf '%s\n' "$want" >"$stamp"
}

install_maturin() {
  local venv=python/.venv stamp=python/.venv/installed-pins
  local want
  want="$(pins python/build-requirements.txt)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$venv/bin/maturin" ]; then
    echo "python: maturin already installed in bridges/$venv"
    return
  fi
  echo "python: installing maturin into bridges/$venv (PyPI)"
  rm -f "$stamp"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv" ||
    fail "python3 cannot create a virtual environment (on Debian: apt-get install python3-venv)"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
    --retries 2 --timeout 30 -r python/build-requirements.txt ||
    fail "pip could not install maturin: is PyPI reachable? (see pip's message above)"
  printf '%s\n' "$want" >"$stamp"
}

install_java() {
  local stamp=adk-java/target/installed-pins
  local want
  want="$(pins adk-java/pom.xml $(find adk-java/src -type f | LC_ALL=C sort))"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -f adk-java/target/bridge.args ]; then
    echo "adk-java: google-adk already installed in bridges/adk-java/.m2"
    return
  fi
  command -v java >/dev/null || fail "java is not on the PATH (ADK Java needs Java 17 or later)"
  command -v mvn >/dev/null || fail "mvn is not on the PATH (on Debian: apt-get install maven)"
  echo "adk-java: installing google-adk into bridges/adk-java/.m2 and building the bridge (Maven Central)"
  rm -f "$stamp"
  # `package` also runs the worked example's test (src/test), so its plugins are installed for
  # the offline runs of bridges/tests/worked_example_adk_java.rs.
  (cd adk-java && mvn --batch-mode --quiet -Dstyle.color=never -Dmaven.repo.local=.m2 \
    -Dmaven.wagon.http.retryHandler.count=2 package) ||
    fail "mvn could not build the ADK Java bridge: is Maven Central reachable? (see Maven's message above)"
  # The launcher's argument file (`java @target/bridge.args`): the class path, resolved by Maven.
  printf -- '-cp "target/classes:%s"\n' "$(cat adk-java/target/classpath.txt)" >adk-java/target/bridge.args
  printf '%s\n' "$want" >"$stamp"
}

install_java_inspect() {
  local stamp=adk-java-inspect/target/installed-pins
  local want
  want="$(pins adk-java-inspect/pom.xml $(find adk-java-inspect/src -type f | LC_ALL=C sort))"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    echo "adk-java-inspect: the decorator's Maven module already built"
    return
  fi
  echo "adk-java-inspect: building the decorator's Maven module with bridges/adk-java/.m2 (Maven Central)"
  rm -f "$stamp"
  # `package` also runs its test (a real Runner over the worked example), so its plugins are
  # installed for the offline runs of cli/tests/adk_situations.rs.
  (cd adk-java-inspect && mvn --batch-mode --quiet -Dstyle.color=never -Dmaven.repo.local=../adk-java/.m2 \
    -Dmaven.wagon.http.retryHandler.count=2 -Dadk.logs=target/adk-logs package) ||
    fail "mvn could not build bridges/adk-java-inspect: is Maven Central reachable? (see Maven's message above)"
  printf '%s\n' "$want" >"$stamp"
}

install_go() {
  local stamp=adk-go/target/installed-pins
  local want
  want="$(pins adk-go/go.mod adk-go/go.sum adk-go/*.go)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x adk-go/target/adk-go-bridge ]; then
    echo "adk-go: google.golang.org/adk/v2 already built into bridges/adk-go/target"
    return
  fi
  command -v go >/dev/null || fail "go is not on the PATH (ADK Go v2.2.0 needs Go 1.26.5 or later)"
  echo "adk-go: building the ADK Go bridge into bridges/adk-go/target (the Go module proxy)"
  rm -f "$stamp"
  (cd adk-go && GOMODCACHE="$PWD/.go/mod" GOCACHE="$PWD/.go/cache" GOFLAGS="-modcacherw -buildvcs=false" \
    GOTOOLCHAIN=local go build -mod=readonly -trimpath -o target/adk-go-bridge .) ||
    fail "go could not build the ADK Go bridge: is the Go module proxy reachable? (see go's message above)"
  printf '%s\n' "$want" >"$stamp"
}

install_python
install_js
install_maturin
install_java
install_java_inspect
install_go
