"""adk-milvus 0.1.0: a search for a user id (or app name) holding a non-ASCII character raises.

Standalone, in the package's own API (docs/findings/adk-milvus-non-ascii-key.md). Exit 0 with
`still present` when search_memory raises, 1 with `fixed` when it finds the memory."""
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
        said = types.Content(role="user", parts=[types.Part(text="a flat white, please")])
        await memory.add_session_to_memory(Session(
            id="s-1", app_name="support", user_id="josé",
            events=[Event(id="e-1", author="user", timestamp=1767225600.0, content=said)]))
        try:
            found = await memory.search_memory(app_name="support", user_id="josé", query="flat white")
        except Exception as err:  # the defect: Milvus refuses the filter the service writes
            print(f"still present: search_memory for user 'josé' raised {type(err).__name__}: {err}")
            return 0
        print(f"fixed: search_memory for user 'josé' returned {len(found.memories)} memories")
        return 1


sys.exit(asyncio.run(main()))
