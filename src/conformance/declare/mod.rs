//! Declare: what a backend's gate checks, light enough for the backend's normal build (no
//! `harness` feature).
//!
//! - `subject.rs`: the [`Subject`](subject::Subject), a named backend, its profile and how to
//!   open fresh instances; `options.rs`, how its rules run; `budget.rs`, what a run spends
//!   within its time budget;
//! - `namespace.rs`: the storage namespace each generated case runs on;
//! - `known_violation.rs`: the required rules a backend breaks, declared or implied;
//! - `rule_set.rs`: the version of the kit's rule set, which a gate can pin;
//! - `gate.rs`: the [`Gate`](gate::Gate), every rule against one subject (its run is
//!   `runner/gate_run.rs`);
//! - `profile_file/`: the profile file that declares a profile and its gate, and its TOML
//!   shape (`raw.rs`).

pub(crate) mod budget;
pub(crate) mod gate;
pub(crate) mod known_violation;
pub(crate) mod namespace;
pub(crate) mod options;
pub(crate) mod profile_file;
pub(crate) mod rule_set;
pub(crate) mod subject;
