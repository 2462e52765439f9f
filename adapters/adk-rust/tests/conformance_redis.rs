//! The gate of ADK-Rust's `RedisMemoryService`, as `redis_gate()` declares it, on the Redis
//! server `servers/start.sh` starts, and its recall pinned in `tests/snapshots/`.

memory_conformance::conformance_main!(memory_conformance_adk_rust::redis_gate());
