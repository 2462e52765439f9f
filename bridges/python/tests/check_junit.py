"""Checks pytest's JUnit XML from test_reference_backend.py: one item per test of the gate,
each with the gate's outcome; the misdeclared backend's one rule failed with the kit's message;
the class pinned to a rule set (`rules_as_of`) has its rules' items.

Usage: check_junit.py PYTEST_XML GATE_JSON, GATE_JSON being `memory-conformance gate --profile
reference --format json` over the same bridge.
"""
import json
import sys
import xml.etree.ElementTree as ElementTree

OUTCOMES = {"ok": "passed", "FAILED": "failed", "ignored": "skipped"}


def outcome(case):
    for kind in ("failure", "error", "skipped"):
        found = case.find(kind)
        if found is not None:
            return {"failure": "failed", "error": "error", "skipped": "skipped"}[kind], found.get("message", "") + (found.text or "")
    return "passed", ""


def main(xml_path, gate_path):
    items = {}
    for case in ElementTree.parse(xml_path).iter("testcase"):
        items[(case.get("classname").rsplit(".", 1)[-1], case.get("name"))] = outcome(case)
    gate = json.load(open(gate_path))
    prefix = gate["backend"] + "::"
    expected = {
        ("TestReference", f"test_conformance[{test['name'].removeprefix(prefix)}]"): OUTCOMES[test["outcome"]]
        for test in gate["tests"]
    }
    expected[("TestMisdeclared", "test_conformance[result.limit]")] = "failed"
    # The class pinned to the first rule set (`rules_as_of = "0.1"`) runs its rules as the gate does.
    for test in gate["tests"]:
        rule = test["name"].removeprefix(prefix)
        if rule.startswith("key."):
            expected[("TestPinned", f"test_conformance[{rule}]")] = OUTCOMES[test["outcome"]]
    problems = []
    if set(items) != set(expected):
        problems.append(f"items differ from the gate's tests: missing {sorted(set(expected) - set(items))}, "
                        f"unexpected {sorted(set(items) - set(expected))}")
    for key, want in sorted(expected.items()):
        got, message = items.get(key, ("absent", ""))
        if got != want:
            problems.append(f"{key}: {got}, expected {want}: {message[:300]}")
    checks = [
        (("TestReference", "test_conformance[key.isolation]"), "passed", ""),
        (("TestReference", "test_conformance[vector.nearest_first]"), "skipped",
         "the profile does not declare vector retrieval"),
        (("TestMisdeclared", "test_conformance[result.limit]"), "failed", "rule result.limit failed"),
        # The command that reproduces it is pytest's, from where pytest ran (the repository).
        (("TestMisdeclared", "test_conformance[result.limit]"), "failed",
         "reproduce: PROPTEST_RNG_SEED="),
        (("TestMisdeclared", "test_conformance[result.limit]"), "failed",
         " pytest 'bridges/python/tests/test_reference_backend.py::TestMisdeclared::test_conformance[result.limit]'"),
    ]
    for key, want, text in checks:
        got, message = items.get(key, ("absent", ""))
        if got != want or text not in message:
            problems.append(f"{key}: expected {want} with {text!r}, got {got}: {message[:300]!r}")
    counts = {kind: sum(1 for got, _ in items.values() if got == kind) for kind in ("passed", "failed", "skipped")}
    if counts["passed"] < 25:
        problems.append(f"only {counts['passed']} items passed; the reference backend passes every rule that applies")
    if problems:
        print("pytest's items are not the gate's tests:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 1
    print(f"pytest: {len(items)} items, one per test of the gate: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
