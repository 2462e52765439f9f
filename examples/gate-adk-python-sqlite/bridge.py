"""ADK Python's SqliteMemoryService as a memory-conformance bridge: the whole bridge."""
from memory_conformance_bridge import serve  # first: it keeps stdout for the protocol

from google.adk.memory._sqlite_memory_service import SqliteMemoryService  # noqa: E402

serve(lambda: SqliteMemoryService(":memory:"), backend="adk-python-sqlite", package="google-adk")
