//! The `memory-conformance` command's library: the bundled backends and the behaviour report,
//! so tests can run the report over gates of their own.

pub mod backends;
pub mod report;
