//! The whole gate of `SegmentedBm25`: every rule against its declared profile, and its recall
//! pinned in `tests/snapshots/`.

memory_conformance::conformance_main!(memory_segmented_bm25::gate());
