//! The conformance harness: rules checked against a [`Subject`] on generated scenarios.
//!
//! The pipeline, one file a stage:
//!
//! - the declaration, light enough for a backend's normal build: [`Subject`] (`subject.rs`,
//!   with `options.rs`, and what a run [spends](Spent) within its budget in `budget.rs`), [`Namespace`] (`namespace.rs`), [`KnownViolation`]
//!   (`known_violation.rs`), [`Gate`] (`gate.rs`) and the [`ProfileFile`] that declares a
//!   profile and its gate (`profile_file.rs`);
//! - with the `harness` feature, the rules (`rules/`, a file per id group), the generators
//!   (`generate.rs`) and scenarios (`scenario.rs`, with the round-robin load balancer of
//!   `round_robin.rs`); the property loop (`property.rs`, seeds in
//!   `seeding.rs`, failing cases in `failure_record.rs`); the interpreter that calls the
//!   backend (`interpreter.rs`, every call through `call_guard.rs`, its timeout judged on the
//!   backend's time by `late_timer.rs`); the oracle that computes
//!   what a profile promises (`oracle.rs`) and the comparison of expected with actual
//!   (`comparison.rs`, `mismatch.rs`); the verdicts (`verdict.rs`, `failure.rs`, `report.rs`);
//!   running a rule on its own thread (`isolation.rs`); the gate's test list, once for every
//!   runner (`trial.rs`); the test binary (`runner.rs`,
//!   `recall_pin.rs`, `main_macro.rs`); the debugging guide's replicas observed behind a
//!   round-robin load balancer (`replica_spread.rs`); the display of the model's values in a
//!   failure report (`display.rs`); and the clause map (`clause_map.rs`), which says which
//!   rules and inputs check each clause of the specification and each profile dimension value
//!   (rendered in `docs/clause-map.md`, its dimension values read from the profile's
//!   dimension table).

mod budget;
mod gate;
mod known_violation;
mod namespace;
mod options;
mod profile_file;
mod subject;

#[cfg(feature = "harness")]
pub(crate) mod call_guard;
// Data for the tests and the docs they render: nothing runs it.
#[cfg(all(test, feature = "harness"))]
mod clause_map;
#[cfg(feature = "harness")]
mod comparison;
#[cfg(feature = "harness")]
mod display;
#[cfg(feature = "harness")]
mod failure;
#[cfg(feature = "harness")]
mod failure_record;
#[cfg(feature = "harness")]
mod generate;
#[cfg(feature = "harness")]
mod identity;
#[cfg(feature = "harness")]
mod interpreter;
#[cfg(feature = "harness")]
mod isolation;
#[cfg(feature = "harness")]
pub(crate) mod late_timer;
#[cfg(feature = "harness")]
mod main_macro;
#[cfg(feature = "harness")]
pub(crate) mod mismatch;
#[cfg(feature = "harness")]
mod operation_mix;
#[cfg(feature = "harness")]
mod oracle;
#[cfg(feature = "harness")]
mod property;
#[cfg(feature = "harness")]
pub(crate) mod recall_pin;
#[cfg(feature = "harness")]
mod replica_spread;
#[cfg(feature = "harness")]
mod report;
#[cfg(feature = "harness")]
mod round_robin;
#[cfg(feature = "harness")]
pub mod rules;
#[cfg(feature = "harness")]
pub(crate) mod runner;
#[cfg(feature = "harness")]
mod scenario;
#[cfg(feature = "harness")]
mod seeding;
#[cfg(feature = "harness")]
mod settling;
#[cfg(feature = "harness")]
mod timestamp_format;
#[cfg(feature = "harness")]
mod trial;
#[cfg(feature = "harness")]
mod verdict;

pub use budget::Spent;
pub use gate::{Gate, REQUIRE_ALL_BACKENDS};
pub use known_violation::{KnownViolation, departures, implied_violations};
pub use namespace::{Namespace, SCRATCH_DIR};
pub use options::DEFAULT_OP_TIMEOUT;
pub use profile_file::{PROFILE_FORMAT, ProfileFile, ProfileFileError};
pub use subject::Subject;

#[cfg(feature = "harness")]
pub use failure::RuleFailure;
#[cfg(feature = "harness")]
pub use operation_mix::OperationMix;
#[cfg(feature = "harness")]
pub use replica_spread::{REPLICAS, ReplicaSpread, replicas};
#[cfg(feature = "harness")]
pub use report::{GateReport, RuleRun};
#[cfg(feature = "harness")]
pub use trial::{RECALL_FLOOR, RECALL_SNAPSHOT, Trial, TrialOutcome};
#[cfg(feature = "harness")]
pub use verdict::Verdict;
