"""Prints the folder and the executable that `cargo test --workspace` built for one target.

    python3 .ci/test_binary.py ARTIFACTS PACKAGE TARGET

ARTIFACTS is the output of `cargo test --workspace --no-run --message-format=json`; TARGET is
a test target's name, `lib` for the package's unit tests, or `bin:NAME` for its binary NAME.
Prints `FOLDER EXECUTABLE` (the package's folder, where cargo test runs it), or names what was
not found and exits 1.
"""

import json
import os
import sys


def package_name(package_id: str, manifest_path: str) -> str:
    """The package's name from a package id (`path+file:///dir#name@1.0`, or `...#1.0`)."""
    fragment = package_id.rpartition("#")[2]
    if "@" in fragment:
        return fragment.rpartition("@")[0]
    return os.path.basename(os.path.dirname(manifest_path))


def main() -> int:
    artifacts, package, target = sys.argv[1:4]
    seen = []
    with open(artifacts, encoding="utf-8") as lines:
        for line in lines:
            message = json.loads(line)
            if message.get("reason") != "compiler-artifact" or not message.get("executable"):
                continue
            name = package_name(message["package_id"], message["manifest_path"])
            kinds = message["target"]["kind"]
            if not message["profile"]["test"]:
                if "bin" not in kinds:
                    continue
                kind = "bin:" + message["target"]["name"]
            elif "lib" in kinds:
                kind = "lib"
            else:
                kind = message["target"]["name"]
            seen.append(f"{name} {kind}")
            if name == package and kind == target:
                print(os.path.dirname(message["manifest_path"]), message["executable"])
                return 0
    print(f"no executable {target!r} of package {package!r} was built; built: "
          + ", ".join(sorted(seen)), file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
