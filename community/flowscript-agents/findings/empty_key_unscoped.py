"""flowscript-agents 0.4.1: a memory written under an empty user id is returned to every user.

Standalone, in the package's own API (docs/findings/flowscript-agents-empty-key-unscoped.md).
Exit 0 with `still present` when another user's search finds the memory, 1 with `fixed`."""
import asyncio
import pathlib
import sys
import tempfile

from flowscript_agents.google_adk import FlowScriptMemoryService
from google.adk.events import Event
from google.adk.sessions import Session
from google.genai import types


def session(user_id, text):
    said = types.Content(role="user", parts=[types.Part(text=text)])
    return Session(id="s-1", app_name="support", user_id=user_id,
                   events=[Event(id="e-1", author="user", timestamp=1767225600.0, content=said)])


async def main():
    with tempfile.TemporaryDirectory() as folder:
        memory = FlowScriptMemoryService(str(pathlib.Path(folder) / "memory.json"))
        await memory.add_session_to_memory(session("", "an espresso, please"))
        other = await memory.search_memory(app_name="support", user_id="u-42", query="espresso")
        if not other.memories:
            print("fixed: the empty user's memory is not returned to user u-42")
            return 1
        print("still present: user u-42 finds the memory written under the empty user id")
        return 0


sys.exit(asyncio.run(main()))
