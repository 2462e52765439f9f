"""A memory service that does nothing, served by the Python helper (``bridges/python``): what
the kit measures through it is the helper's own cost per call (its event loop, converting the
kit's session to ADK Python's types and back) on top of the protocol's. Needs ``google-adk``
(``bridges/install.sh`` installs it in ``bridges/adk-python/.venv``). Used by
``benches/bridge_round_trip.rs``.
"""
from memory_conformance_bridge import serve  # first: it keeps stdout for the protocol

from google.adk.memory.base_memory_service import SearchMemoryResponse  # noqa: E402


class NoopMemoryService:
    async def add_session_to_memory(self, session):
        pass

    async def search_memory(self, *, app_name, user_id, query):
        return SearchMemoryResponse(memories=[])


serve(NoopMemoryService, backend="noop-helper", version="noop 1")
