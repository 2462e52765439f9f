"""adk-inspeximus 0.1.0: a second instance on the same file misses a peer's write on its first search.

Standalone, in the package's own API (docs/findings/adk-inspeximus-peer-write-missed.md). Exit 0
with `still present` when the second instance's first search misses the memory, 1 with `fixed`."""
import asyncio
import pathlib
import sys
import tempfile

from adk_inspeximus import InspeximusMemoryService
from google.adk.events import Event
from google.adk.sessions import Session
from google.genai import types


async def main():
    with tempfile.TemporaryDirectory() as folder:
        path = str(pathlib.Path(folder) / "memory.json")
        writer, reader = InspeximusMemoryService(path=path), InspeximusMemoryService(path=path)
        said = types.Content(role="user", parts=[types.Part(text="a flat white, please")])
        await writer.add_session_to_memory(Session(
            id="s-1", app_name="support", user_id="u-42",
            events=[Event(id="e-1", author="user", timestamp=1767225600.0, content=said)]))
        first = await reader.search_memory(app_name="support", user_id="u-42", query="flat white")
        second = await reader.search_memory(app_name="support", user_id="u-42", query="flat white")
        if first.memories:
            print(f"fixed: the second instance's first search found {len(first.memories)} memories")
            return 1
        print(f"still present: the second instance's first search found nothing, its second found {len(second.memories)}")
        return 0


sys.exit(asyncio.run(main()))
