"""ADK Python's SqliteMemoryService as a memory-conformance bridge: the whole bridge.

The factory takes each store's storage directory, so the kit can reopen a store and open a
second instance on it (durability and the shared store, bridge protocol v2)."""
from memory_conformance_bridge import serve  # first: it keeps stdout for the protocol

from google.adk.memory._sqlite_memory_service import SqliteMemoryService  # noqa: E402

serve(lambda storage: SqliteMemoryService(storage / "memory.db"), backend="adk-python-sqlite", package="google-adk")
