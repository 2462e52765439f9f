"""adk-memshield's MemShieldMemoryService on PostgreSQL with pgvector, as a memory-conformance
bridge. The server is the one `MEMORY_CONFORMANCE_POSTGRES_URL` names (server.py: the package's
own database and schema, its row-level security policies binding the role the service connects
as). A store is a tenant of its own (`tenant_id`), named after the store's storage and this
bridge's run (`servers_env.store_name`), so every case sees only its own rows and a reopened or
second instance on the store sees the same ones; the tenant's rows are deleted with the store.
Embedded with the kit's hashed-384 (the schema's width), so no model is downloaded."""
from memory_conformance_bridge import HashedEmbedder, serve  # first: it keeps stdout for the protocol

import pathlib  # noqa: E402
import sys  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from server import app_dsn, drop_tenant  # noqa: E402
from servers_env import store_name  # noqa: E402  (server.py put community/ on the path)

from adk_memshield import MemShieldMemoryService  # noqa: E402

DSN = app_dsn()
EMBEDDER = HashedEmbedder(384)

serve(lambda storage: MemShieldMemoryService(dsn=DSN, tenant_id=store_name(storage), top_k=10,
                                             embedding_dim=EMBEDDER.dimensions, embed_fn=EMBEDDER.embed),
      backend="adk-memshield", package="adk-memshield",
      drop=lambda storage: drop_tenant(store_name(storage)))
