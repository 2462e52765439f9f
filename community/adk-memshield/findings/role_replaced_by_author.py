"""adk-memshield 0.1.1: a memory's role is replaced by its event's author.

Standalone, in the package's own API (docs/findings/adk-memshield-role-replaced-by-author.md),
on the PostgreSQL the community gate uses (its schema applied by ../server.py, which also deletes
the reproduction's tenant afterwards). Exit 0 with `still present` when the model's event comes
back with role "support-agent", 1 with `fixed` when it comes back with role "model"."""
import asyncio
import pathlib
import sys
import uuid

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from server import app_dsn, drop_tenant  # noqa: E402  (the server's URL, the package's schema applied)

from adk_memshield import MemShieldMemoryService  # noqa: E402
from google.adk.events import Event  # noqa: E402
from google.adk.sessions import Session  # noqa: E402
from google.genai import types  # noqa: E402


def embed(texts):
    return [[1.0] + [0.0] * 383 for _ in texts]


async def main(tenant):
    memory = MemShieldMemoryService(dsn=app_dsn(), tenant_id=tenant, embedding_dim=384, embed_fn=embed)
    said = types.Content(role="model", parts=[types.Part(text="your flat white is on its way")])
    await memory.add_session_to_memory(Session(
        id="s-1", app_name="support", user_id="u-42",
        events=[Event(id="e-1", author="support-agent", timestamp=1767225600.0, content=said)]))
    found = await memory.search_memory(app_name="support", user_id="u-42", query="flat white")
    roles = [entry.content.role for entry in found.memories]
    if roles == ["model"]:
        print("fixed: the model's event came back with role 'model'")
        return 1
    print(f"still present: the model's event (author 'support-agent') came back with roles {roles}")
    return 0


TENANT = f"finding-{uuid.uuid4().hex}"
try:
    status = asyncio.run(main(TENANT))
finally:
    drop_tenant(TENANT)
sys.exit(status)
