//! The project's own tool: the `memory-conformance` command over every bundled backend
//! ([`BUNDLED`]), and the behaviour report across them ([`report`], BEHAVIOUR.md). The bundled
//! backends live here and only here, so the command a user installs builds none of them.

mod bundled;
mod locomo;
mod replicas;
pub mod report;

pub use bundled::BUNDLED;
