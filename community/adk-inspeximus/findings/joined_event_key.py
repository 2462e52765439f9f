"""adk-inspeximus 0.1.0: two keys that join to the same "app/user" string share their event ids.

Standalone, in the package's own API (docs/findings/adk-inspeximus-joined-event-key.md). Exit 0
with `still present` when the second key's event is never stored, 1 with `fixed`."""
import asyncio
import pathlib
import sys
import tempfile

from adk_inspeximus import InspeximusMemoryService
from google.adk.events import Event
from google.adk.sessions import Session
from google.genai import types


def session(app_name, user_id, text):
    said = types.Content(role="user", parts=[types.Part(text=text)])
    return Session(id="s-1", app_name=app_name, user_id=user_id,
                   events=[Event(id="e-1", author="user", timestamp=1767225600.0, content=said)])


async def main():
    with tempfile.TemporaryDirectory() as folder:
        memory = InspeximusMemoryService(path=str(pathlib.Path(folder) / "memory.json"))
        # ("a", "b/c") and ("a/b", "c") are two keys; joined with "/" they are one string.
        await memory.add_session_to_memory(session("a", "b/c", "a flat white, please"))
        await memory.add_session_to_memory(session("a/b", "c", "an oat latte, please"))
        second = await memory.search_memory(app_name="a/b", user_id="c", query="oat latte")
        if second.memories:
            print(f"fixed: the second key's memory is found ({len(second.memories)} entries)")
            return 1
        print("still present: the second key's event was skipped as already seen, and is never found")
        return 0


sys.exit(asyncio.run(main()))
