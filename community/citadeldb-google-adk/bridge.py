"""citadeldb-google-adk's CitadelMemoryService as a memory-conformance bridge: a store is one
encrypted Citadel file in the store's storage directory, embedded with the kit's deterministic
``hashed-256`` embedder (the package ships no model; Citadel takes any embedder object)."""
from memory_conformance_bridge import HashedEmbedder, serve  # first: it keeps stdout for the protocol

from citadeldb_google_adk import CitadelMemoryService  # noqa: E402


class Embedder:
    """The kit's hashed-256 embedder in the shape Citadel asks for."""

    dim = 256
    metric = "cosine"
    model_id = "hashed-256"

    def __init__(self):
        self._hashed = HashedEmbedder(self.dim)

    def embed_with_cancel(self, texts, cancel_token=None):
        return self._hashed.embed(list(texts))


serve(lambda storage: CitadelMemoryService(str(storage / "memory.cdl"), key="memory-conformance",
                                           embedder=Embedder()),
      backend="citadeldb-google-adk", package="citadeldb-google-adk")
