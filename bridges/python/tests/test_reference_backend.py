import pathlib
import sys

from memory_conformance_pytest import ConformanceTests

BRIDGE = [sys.executable, pathlib.Path(__file__).parents[3] / "tests/bridge_children/reference_bridge.py"]


class TestReference(ConformanceTests):
    bridge, profile, cases = BRIDGE, "reference", 16


class TestMisdeclared(ConformanceTests):
    bridge, profile, cases, rules = BRIDGE, "adk-python", 16, ["result.limit"]


class TestPinned(ConformanceTests):
    bridge, profile, cases, rules, rules_as_of = BRIDGE, "reference", 8, ["key.*"], "0.1"
