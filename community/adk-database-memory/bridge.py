"""adk-database-memory's DatabaseMemoryService on a SQLite database file, as a memory-conformance
bridge: a store is one database file in the store's storage directory, so the kit can reopen it
and open a second instance on it."""
from memory_conformance_bridge import serve  # first: it keeps stdout for the protocol

from adk_database_memory import DatabaseMemoryService  # noqa: E402

serve(lambda storage: DatabaseMemoryService(f"sqlite+aiosqlite:///{storage / 'memory.db'}"),
      backend="adk-database-memory", package="adk-database-memory")
