//! Run: a rule's scenarios against fresh instances of the backend.
//!
//! - `property.rs`: the property loop, cases from a seed, the first failure shrunk to a
//!   minimal scenario; `failure_record.rs`, failing cases kept and replayed first;
//! - `interpreter.rs`: one scenario, step by step, each answer handed to the judge;
//!   `field_watch.rs`, every field of every entry after the steps that can change it;
//!   `settling.rs`, delayed visibility waited out on the backend's time; `transcript.rs`, what
//!   the backend answered, kept for judging a failure again under other profiles;
//! - `call_guard.rs`: every backend call, bounded by the per-call timeout, its error and its
//!   panic turned into a problem;
//! - `rule_thread.rs`: one rule (or observation) on its own thread and runtime, so a backend
//!   that blocks cannot take the caller with it;
//! - `replica_spread.rs`: the debugging guide's replicas, observed.

pub(crate) mod call_guard;
pub(crate) mod failure_record;
pub(crate) mod field_watch;
pub(crate) mod interpreter;
pub(crate) mod property;
pub(crate) mod replica_spread;
pub(crate) mod rule_thread;
pub(crate) mod settling;
pub(crate) mod transcript;
