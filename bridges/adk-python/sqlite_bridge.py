"""ADK Python's SqliteMemoryService behind the memory-conformance bridge protocol.

Each store is a database file in the store's own storage directory (protocol v2): every service
the kit opens on a store reaches the same file, so a reopen and a second instance see what an
earlier one wrote. Entries go back with the package's fields as they come: the timestamp is
ADK's own string (naive local time), returned verbatim. Run by the kit with
bridges/adk-python/.venv/bin/python and bridges/python on PYTHONPATH (see bridges/install.sh and
bridges/src/adk_python_sqlite.rs).
"""
from memory_conformance_bridge import serve  # first: it keeps stdout for the protocol

from google.adk.memory._sqlite_memory_service import SqliteMemoryService  # noqa: E402

serve(
    lambda storage: SqliteMemoryService(storage / "memory.db"),
    backend="adk-python-sqlite",
    package="google-adk",
)
