"""flowscript-agents 0.4.1: the same text written under another user moves the first user's memory
to the second user.

Standalone, in the package's own API (docs/findings/flowscript-agents-same-text-moves-key.md).
Exit 0 with `still present` when the first user no longer finds the memory, 1 with `fixed`."""
import asyncio
import pathlib
import sys
import tempfile

from flowscript_agents.google_adk import FlowScriptMemoryService
from google.adk.events import Event
from google.adk.sessions import Session
from google.genai import types


def session(user_id, session_id, text):
    said = types.Content(role="user", parts=[types.Part(text=text)])
    return Session(id=session_id, app_name="support", user_id=user_id,
                   events=[Event(id="e-1", author="user", timestamp=1767225600.0, content=said)])


async def main():
    with tempfile.TemporaryDirectory() as folder:
        memory = FlowScriptMemoryService(str(pathlib.Path(folder) / "memory.json"))
        await memory.add_session_to_memory(session("alice", "s-1", "a flat white, please"))
        before = await memory.search_memory(app_name="support", user_id="alice", query="flat white")
        await memory.add_session_to_memory(session("bob", "s-9", "a flat white, please"))
        after = await memory.search_memory(app_name="support", user_id="alice", query="flat white")
        if not before.memories:
            print("the first search found nothing: the reproduction no longer applies")
            return 2
        if after.memories:
            print("fixed: alice still finds her memory after bob wrote the same text")
            return 1
        print("still present: alice found her memory, then lost it when bob wrote the same text")
        return 0


sys.exit(asyncio.run(main()))
