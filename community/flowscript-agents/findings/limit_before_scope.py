"""flowscript-agents 0.4.1: a search keeps the ten best matches of every user, then drops other
users' matches, so other users' memories can hide all of this user's.

Standalone, in the package's own API (docs/findings/flowscript-agents-limit-before-scope.md).
Exit 0 with `still present` when alice's only memory is not found, 1 with `fixed`."""
import asyncio
import pathlib
import sys
import tempfile

from flowscript_agents.google_adk import FlowScriptMemoryService
from google.adk.events import Event
from google.adk.sessions import Session
from google.genai import types


def session(user_id, session_id, *texts):
    return Session(id=session_id, app_name="support", user_id=user_id, events=[
        Event(id=f"e-{i}", author="user", timestamp=1767225600.0 + i,
              content=types.Content(role="user", parts=[types.Part(text=text)]))
        for i, text in enumerate(texts)])


async def main():
    with tempfile.TemporaryDirectory() as folder:
        memory = FlowScriptMemoryService(str(pathlib.Path(folder) / "memory.json"))
        await memory.add_session_to_memory(
            session("bob", "s-1", *[f"coffee order number {i}" for i in range(10)]))
        await memory.add_session_to_memory(session("alice", "s-2", "coffee with oat milk"))
        found = await memory.search_memory(app_name="support", user_id="alice", query="coffee")
        if found.memories:
            print("fixed: alice finds her memory though bob holds ten that match")
            return 1
        print("still present: bob's ten matching memories fill the limit, and alice finds nothing")
        return 0


sys.exit(asyncio.run(main()))
