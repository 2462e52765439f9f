# Sourced: `prebuilt PACKAGE TARGET [ARGS...]` runs an executable that `cargo test --workspace`
# built (a test target, `lib` for a package's unit tests, `bin:NAME` for a binary), as cargo
# runs it: a test from its package's folder, a binary from the current one. `cargo test -p PACKAGE` or `cargo run -p PACKAGE`
# would build the package again, with the features of that package alone (minutes in CI).
prebuilt_artifacts=""

# Lists what `cargo test --workspace` built (building what is missing), once.
prebuilt_list() {
  if [ -z "$prebuilt_artifacts" ]; then
    prebuilt_artifacts="$(mktemp)"
    cargo test --workspace --locked --no-run --message-format=json >"$prebuilt_artifacts"
  fi
}

prebuilt() {
  local package="$1" target="$2" found dir executable
  shift 2
  prebuilt_list
  found="$(python3 .ci/test_binary.py "$prebuilt_artifacts" "$package" "$target")"
  read -r dir executable <<<"$found"
  echo "== $package, $target $*"
  case "$target" in
    bin:*) "$executable" "$@" ;;
    *) (cd "$dir" && "$executable" "$@") ;;
  esac
}

# Removes the list; the sourcing script calls it when it ends.
prebuilt_done() {
  if [ -n "$prebuilt_artifacts" ]; then
    rm -f "$prebuilt_artifacts"
  fi
}
