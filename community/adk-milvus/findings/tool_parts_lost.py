"""adk-milvus 0.1.0: a memory comes back with its text only; the event's function call is lost.

Standalone, in the package's own API (docs/findings/adk-milvus-tool-parts-lost.md). Exit 0 with
`still present` when the found memory lacks the function call part, 1 with `fixed` when it has it."""
import asyncio
import pathlib
import sys
import tempfile

from adk_milvus import MilvusMemoryService
from google.adk.events import Event
from google.adk.sessions import Session
from google.genai import types


def embed(texts):
    return [[1.0, 0.0, 0.0, 0.0] for _ in texts]


async def main():
    with tempfile.TemporaryDirectory() as folder:
        memory = MilvusMemoryService(embedding_function=embed, dimension=4,
                                     uri=str(pathlib.Path(folder) / "milvus.db"))
        said = types.Content(role="model", parts=[
            types.Part(text="looking up your order"),
            types.Part(function_call=types.FunctionCall(name="lookup", args={"order": 42}))])
        await memory.add_session_to_memory(Session(
            id="s-1", app_name="support", user_id="u-42",
            events=[Event(id="e-1", author="agent", timestamp=1767225600.0, content=said)]))
        found = await memory.search_memory(app_name="support", user_id="u-42", query="order")
        parts = [part for memory in found.memories for part in memory.content.parts or []]
        calls = [part.function_call.name for part in parts if part.function_call]
        if calls:
            print(f"fixed: the memory came back with its function call {calls}")
            return 1
        print(f"still present: the memory came back with {len(parts)} part(s) and no function call: {parts!r}")
        return 0


sys.exit(asyncio.run(main()))
