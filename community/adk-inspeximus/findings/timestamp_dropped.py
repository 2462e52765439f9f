"""adk-inspeximus 0.1.0: every memory comes back without a timestamp.

Standalone, in the package's own API (docs/findings/adk-inspeximus-timestamp-dropped.md). Exit 0
with `still present` when the memory found has no timestamp, 1 with `fixed` when it has one."""
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
        memory = InspeximusMemoryService(path=str(pathlib.Path(folder) / "memory.json"))
        said = types.Content(role="user", parts=[types.Part(text="a flat white, please")])
        await memory.add_session_to_memory(Session(
            id="s-1", app_name="support", user_id="u-42",
            events=[Event(id="e-1", author="user", timestamp=1767225600.0, content=said)]))
        found = await memory.search_memory(app_name="support", user_id="u-42", query="flat white")
        if not found.memories:
            print("neither: the memory was not found at all")
            return 2
        stamps = [entry.timestamp for entry in found.memories]
        if all(stamp is None for stamp in stamps):
            print(f"still present: the event had timestamp 1767225600.0, the memory found has {stamps}")
            return 0
        print(f"fixed: the memory found has timestamp {stamps}")
        return 1


sys.exit(asyncio.run(main()))
