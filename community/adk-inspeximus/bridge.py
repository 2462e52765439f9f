"""adk-inspeximus's InspeximusMemoryService as a memory-conformance bridge: a store is one
inspeximus file in the store's storage directory."""
from memory_conformance_bridge import serve  # first: it keeps stdout for the protocol

from adk_inspeximus import InspeximusMemoryService  # noqa: E402

serve(lambda storage: InspeximusMemoryService(path=str(storage / "memory.json")),
      backend="adk-inspeximus", package="adk-inspeximus")
