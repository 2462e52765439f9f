"""flowscript-agents 0.4.1: every memory comes back with role "model" and the time it was first
written, not the event's role and timestamp.

Standalone, in the package's own API (docs/findings/flowscript-agents-role-and-timestamp-replaced.md).
Exit 0 with `still present` when the role or the timestamp is replaced, 1 with `fixed`."""
import asyncio
import datetime
import pathlib
import sys
import tempfile

from flowscript_agents.google_adk import FlowScriptMemoryService
from google.adk.events import Event
from google.adk.sessions import Session
from google.genai import types

WHEN = 1767225600.0  # 2026-01-01T00:00:00Z


async def main():
    with tempfile.TemporaryDirectory() as folder:
        memory = FlowScriptMemoryService(str(pathlib.Path(folder) / "memory.json"))
        said = types.Content(role="user", parts=[types.Part(text="a flat white, please")])
        await memory.add_session_to_memory(Session(
            id="s-1", app_name="support", user_id="u-42",
            events=[Event(id="e-1", author="user", timestamp=WHEN, content=said)]))
        found = await memory.search_memory(app_name="support", user_id="u-42", query="flat white")
        [entry] = found.memories
        role = entry.content.role
        stamp = datetime.datetime.fromisoformat(entry.timestamp).timestamp()
        if role == "user" and abs(stamp - WHEN) < 0.001:
            print("fixed: the memory keeps the event's role and timestamp")
            return 1
        print(f"still present: role {role!r} (the event's: 'user'), timestamp {entry.timestamp} "
              f"(the event's: {datetime.datetime.fromtimestamp(WHEN, datetime.timezone.utc).isoformat()})")
        return 0


sys.exit(asyncio.run(main()))
