"""ADK Python's InMemoryMemoryService behind the memory-conformance bridge protocol.

Entries go back with the package's fields as they come: the timestamp is ADK's own string
(naive local time), returned verbatim. Run by the kit with bridges/adk-python/.venv/bin/python
and bridges/python on PYTHONPATH (see bridges/install.sh and bridges/src/adk_python.rs).
"""
from memory_conformance_bridge import serve  # first: it keeps stdout for the protocol

from google.adk.memory import InMemoryMemoryService  # noqa: E402

serve(InMemoryMemoryService, backend="adk-python", package="google-adk")
