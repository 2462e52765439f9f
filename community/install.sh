#!/usr/bin/env bash
# Installs the third-party memory services the community gates run, each pinned into a virtual
# environment of its own (their dependencies may conflict), in folders git ignores:
#   community/<package>/.venv    the package of requirements.txt, every dependency pinned by
#                                constraints.txt (PyPI)
# The packages install in parallel. Idempotent: a package whose pins have not changed since it was installed is skipped (the
# stamp .venv/installed-pins holds the digest of its two pin files).
# Usage: bash community/install.sh [PACKAGE...]   (default: every folder with a requirements.txt)
# Needs python3 with venv; fails loudly, naming the package, when PyPI cannot be reached.
set -euo pipefail
cd "$(dirname "$0")"

fail() {
  printf 'community/install.sh: %s\n' "$*" >&2
  exit 1
}

# The digest of the files that pin a package: the install stamp holds it.
pins() { cat "$@" | sha256sum | cut -d' ' -f1; }

install_package() {
  local package="$1"
  local venv="$package/.venv" stamp="$package/.venv/installed-pins"
  [ -f "$package/requirements.txt" ] || fail "no community/$package/requirements.txt"
  [ -f "$package/constraints.txt" ] || fail "no community/$package/constraints.txt"
  local want
  want="$(pins "$package/requirements.txt" "$package/constraints.txt")"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$venv/bin/python" ]; then
    echo "$package: already installed in community/$venv"
    return
  fi
  command -v python3 >/dev/null || fail "python3 is not on the PATH (the community packages need Python 3.10 or later)"
  echo "$package: installing $(grep -v '^#' "$package/requirements.txt" | tr '\n' ' ')into community/$venv (PyPI)"
  rm -f "$stamp"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv" ||
    fail "python3 cannot create a virtual environment (on Debian: apt-get install python3-venv)"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
    --retries 2 --timeout 30 -r "$package/requirements.txt" -c "$package/constraints.txt" ||
    fail "pip could not install $package: is PyPI reachable? (see pip's message above)"
  printf '%s\n' "$want" >"$stamp"
}

if [ "$#" -eq 0 ]; then
  set --
  for requirements in */requirements.txt; do
    set -- "$@" "${requirements%/requirements.txt}"
  done
fi
# The packages install side by side (each into its own environment); every one is waited for,
# and the script fails, naming each package that failed, if any did.
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
pids=()
for package in "$@"; do
  install_package "$package" >"$logs/$package.log" 2>&1 &
  pids+=("$!")
done
failed=()
for i in "${!pids[@]}"; do
  package="${@:$((i + 1)):1}"
  if ! wait "${pids[$i]}"; then
    failed+=("$package")
  fi
  cat "$logs/$package.log"
done
[ "${#failed[@]}" -eq 0 ] || fail "could not install: ${failed[*]} (see the messages above)"
