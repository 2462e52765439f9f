"""memory_conformance_adk behaves exactly like the service it wraps (results and errors are the
wrapped service's own) and says what went wrong. Run with google-adk installed:
    bridges/adk-python/.venv/bin/python -m unittest discover -s bridges/python/tests
"""
import asyncio
import logging
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from memory_conformance_adk import (  # noqa: E402
    InspectingMemoryService, MemoryTracePlugin, dead_tokens, shape)

from google.adk.memory.base_memory_service import BaseMemoryService  # noqa: E402


class Failing(BaseMemoryService):
    def __init__(self):
        self.error = RuntimeError("backend down: secret query text")
        self.extra = "the wrapped service's own attribute"
        self.deltas = []

    async def add_session_to_memory(self, session):
        raise self.error

    async def search_memory(self, *, app_name, user_id, query):
        raise self.error

    async def add_events_to_memory(self, *, app_name, user_id, events, session_id=None,
                                   custom_metadata=None):
        self.deltas.append((app_name, user_id, list(events), session_id, custom_metadata))
        return "delta result"


class Lines(logging.Handler):
    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        self.lines.append((record.levelname, record.getMessage()))


class DecoratorTest(unittest.TestCase):
    def setUp(self):
        self.log = logging.getLogger("memory-conformance-test")
        self.log.setLevel(logging.INFO)
        self.log.propagate = False
        self.handler = Lines()
        self.log.addHandler(self.handler)
        self.wrapped = Failing()
        self.memory = InspectingMemoryService(self.wrapped, logger=self.log)

    def tearDown(self):
        self.log.removeHandler(self.handler)

    def test_an_error_is_the_wrapped_services_own_and_logged_without_its_message(self):
        with self.assertRaises(RuntimeError) as raised:
            asyncio.run(self.memory.search_memory(app_name="a", user_id="u", query="q w"))
        self.assertIs(raised.exception, self.wrapped.error)
        [(level, line)] = self.handler.lines
        self.assertEqual(level, "WARNING")
        self.assertTrue(line.startswith("memory.search.failed key=a/u ms="), line)
        self.assertTrue(line.endswith(" error=RuntimeError"), line)
        self.assertNotIn("secret", line)

    def test_other_calls_and_attributes_reach_the_wrapped_service(self):
        result = asyncio.run(self.memory.add_events_to_memory(
            app_name="a", user_id="u", events=[], session_id="s", custom_metadata={"ttl": 1}))
        self.assertEqual(result, "delta result")
        self.assertEqual(self.wrapped.deltas, [("a", "u", [], "s", {"ttl": 1})])
        self.assertEqual(self.handler.lines, [("INFO", "memory.delta key=a/u session=s events=0")])
        self.assertEqual(self.memory.extra, "the wrapped service's own attribute")

    def test_an_unknown_profile_is_refused_naming_the_known_ones(self):
        for make in (lambda: InspectingMemoryService(self.wrapped, profile="adk-pyton"),
                     lambda: MemoryTracePlugin(profile="adk-pyton")):
            with self.assertRaises(ValueError) as raised:
                make()
            self.assertEqual(str(raised.exception), "unknown profile 'adk-pyton': expected one "
                             "of adk-js, adk-python, reference")

    def test_dead_tokens_and_shapes_follow_the_kits_rules(self):
        self.assertEqual(dead_tokens("Coffee coffee? 4417 café tea"), ["coffee?", "4417", "café"])
        self.assertEqual(dead_tokens("Coffee coffee? ? 4417", "adk-python"), ["?"])
        self.assertEqual(shape("Where's order 4417?"),
                         "<letters:5>'<letters:1> <letters:5> <digits:4>?")
        self.assertEqual(shape("café"), "<letters:4>")


if __name__ == "__main__":
    unittest.main()
