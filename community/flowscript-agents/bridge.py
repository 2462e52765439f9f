"""flowscript-agents' FlowScriptMemoryService (Google ADK) as a memory-conformance bridge: a store
is one FlowScript memory file (JSON) in the store's storage directory, with no embedder and no
LLM, so the service stores each event's text as a thought node and searches by words."""
from memory_conformance_bridge import serve  # first: it keeps stdout for the protocol

from flowscript_agents.google_adk import FlowScriptMemoryService  # noqa: E402

serve(lambda storage: FlowScriptMemoryService(str(storage / "memory.json")),
      backend="flowscript-agents", package="flowscript-agents")
