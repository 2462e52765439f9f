"""The shipped ADK Python decorator's added time per call: google-adk's InMemoryMemoryService
searched and written directly and through InspectingMemoryService (logging to a handler that
formats each line and drops it), on the worked example's session.

Usage: bridges/adk-python/.venv/bin/python benches/adk/decorator_overhead.py [CALLS]
Prints, per call kind, the median over 7 rounds of the mean time per call, bare and decorated.
"""
import asyncio
import logging
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../bridges/python"))
from memory_conformance_adk import InspectingMemoryService  # noqa: E402

from google.adk.events import Event  # noqa: E402
from google.adk.memory import InMemoryMemoryService  # noqa: E402
from google.adk.sessions import Session  # noqa: E402
from google.genai import types  # noqa: E402


class Formatting(logging.Handler):
    def emit(self, record):
        self.format(record)


def session(n):
    return Session(id=f"s-{n}", app_name="support", user_id="u-42", events=[
        Event(author="user", content=types.Content(role="user", parts=[
            types.Part(text="My favourite coffee is a flat white.")])),
        Event(author="model", content=types.Content(role="model", parts=[
            types.Part(text="Noted.")]))])


async def per_call(service, calls, kind):
    written = session(0)  # written again each time: the service replaces it, same cost
    started = time.perf_counter()
    for _ in range(calls):
        if kind == "search":
            await service.search_memory(app_name="support", user_id="u-42",
                                        query="coffee preference?")
        else:
            await service.add_session_to_memory(written)
    return (time.perf_counter() - started) / calls * 1e6


async def main(calls):
    log = logging.getLogger("memory")
    log.setLevel(logging.INFO)
    log.propagate = False
    log.addHandler(Formatting())
    for kind in ["write", "search"]:
        bare, decorated = [], []
        for _ in range(7):
            memory = InMemoryMemoryService()
            await memory.add_session_to_memory(session(-1))
            bare.append(await per_call(memory, calls, kind))
            memory = InMemoryMemoryService()
            await memory.add_session_to_memory(session(-1))
            decorated.append(await per_call(InspectingMemoryService(memory), calls, kind))
        b, d = statistics.median(bare), statistics.median(decorated)
        print(f"{kind}: bare {b:.2f} us/call, decorated {d:.2f} us/call, added {d - b:.2f} us/call")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000))
