"""adk-milvus's MilvusMemoryService on Milvus Lite as a memory-conformance bridge: a store is one
Milvus Lite database file in the store's storage directory, embedded with the kit's deterministic
``hashed-256`` embedder (the package takes any embedding function)."""
from memory_conformance_bridge import HashedEmbedder, serve  # first: it keeps stdout for the protocol

from adk_milvus import MilvusMemoryService  # noqa: E402

EMBEDDER = HashedEmbedder(256)

serve(lambda storage: MilvusMemoryService(embedding_function=EMBEDDER.embed, dimension=EMBEDDER.dimensions,
                                          uri=str(storage / "milvus.db")),
      backend="adk-milvus", package="adk-milvus")
