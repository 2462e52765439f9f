#!/usr/bin/env bash
# Installs the database servers the server-backed gates of adapters/adk-rust and community/ run
# against, from package registries only, into places the repository ignores:
#
#   Redis 7        Debian's redis-server package (apt-get)
#   MariaDB 10.11  Debian's mariadb-server package (apt-get), pinned to bookworm's
#                  1:10.11.19-0+deb12u1
#   PostgreSQL 16  with pgvector 0.6.2, from the PyPI wheel pgserver 0.1.4 (pinned and
#                  digest-checked), unpacked into target/servers/pgserver (the programs in
#                  pgserver/pginstall/bin, beside the libraries they load). Debian bookworm, the
#                  machine's distribution, packages PostgreSQL 15 but no pgvector for it; the
#                  wheel carries a relocatable PostgreSQL build with pgvector compiled against it.
#
# Idempotent: what is installed is skipped (a stamp holds the wheel's pins). Runs apt-get
# update once, before its first install. Needs root for apt-get, python3 with pip, and
# Debian's and PyPI's registries.
#
#   bash servers/install.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
dest="$root/target/servers/pgserver"
pg="$dest/pgserver/pginstall"

fail() {
  printf 'servers/install.sh: %s\n' "$*" >&2
  exit 1
}

package="pgserver"
version="0.1.4"
wheel="pgserver-${version}-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
wheel_sha256="d595789b47624a3d963aa9aa6359da9be31beb7e61f1a45541953242068b8813"
stamp="$dest/.installed"
expected_stamp="$package==$version $wheel_sha256"

# Installs Debian packages, running apt-get update before the first install only.
apt_updated=""
apt_install() {
  if [ -z "$apt_updated" ]; then
    apt-get update -qq || fail "apt-get update failed: is Debian's registry reachable?"
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

if ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null; then
  command -v apt-get >/dev/null || fail "redis-server is missing and apt-get is not here: install Redis 7 by hand"
  echo "redis: installing Debian's redis-server"
  apt_install redis-server || fail "apt-get install redis-server failed"
fi
redis-server --version

mariadb_version="1:10.11.19-0+deb12u1"
if [ "$(dpkg-query -W -f='${Version}' mariadb-server 2>/dev/null || true)" != "$mariadb_version" ]; then
  command -v apt-get >/dev/null || fail "mariadb-server is missing and apt-get is not here: install MariaDB 10.11 by hand"
  echo "mariadb: installing Debian's mariadb-server $mariadb_version"
  apt_install "mariadb-server=$mariadb_version" ||
    fail "apt-get install mariadb-server=$mariadb_version failed (is it still bookworm's candidate? apt-cache policy mariadb-server)"
fi
/usr/sbin/mariadbd --version

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$expected_stamp" ] && [ -x "$pg/bin/postgres" ]; then
  echo "postgresql: $("$pg/bin/postgres" --version) with pgvector is in $dest"
  exit 0
fi
command -v python3 >/dev/null || fail "python3 is not on the PATH (pip downloads the wheel)"
download="$(mktemp -d)"
trap 'rm -rf "$download"' EXIT
echo "postgresql: downloading $package $version from PyPI"
python3 -m pip download --quiet --no-deps --disable-pip-version-check --no-input \
  --retries 2 --timeout 60 --only-binary=:all: --python-version 3.11 \
  --platform manylinux2014_x86_64 --implementation cp --abi cp311 \
  -d "$download" "$package==$version" ||
  fail "pip could not download $package==$version: is PyPI reachable? (see pip's message above)"
[ -f "$download/$wheel" ] || fail "pip did not download $wheel (found: $(ls "$download"))"
actual="$(sha256sum "$download/$wheel" | cut -d' ' -f1)"
[ "$actual" = "$wheel_sha256" ] || fail "$wheel has SHA-256 $actual, expected $wheel_sha256"
rm -rf "$dest" "$download/unpacked"
python3 -m zipfile -e "$download/$wheel" "$download/unpacked"
mkdir -p "$(dirname "$dest")"
mv "$download/unpacked" "$dest"
chmod -R a+rX "$dest"
chmod a+x "$pg"/bin/*
"$pg/bin/postgres" --version
[ -f "$pg/share/postgresql/extension/vector.control" ] || fail "the wheel holds no pgvector"
printf '%s\n' "$expected_stamp" >"$stamp"
echo "postgresql: installed in $dest"
