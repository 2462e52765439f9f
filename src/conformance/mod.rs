//! The conformance harness: rules checked against a [`Subject`] on generated scenarios.
//!
//! The pipeline, a folder a stage:
//!
//! - `declare/`: what a backend's gate checks, light enough for the backend's normal build:
//!   the [`Subject`], its [`Namespace`]s, its [`KnownViolation`]s, the [`Gate`], the
//!   [`RuleSetVersion`] it may pin, and the [`ProfileFile`] that declares a profile and its gate;
//! - with the `harness` feature, the rest:
//!   - `generate/`: the scenarios a rule runs, drawn from a seed;
//!   - `run/`: a rule's scenarios against fresh instances of the backend, every call guarded,
//!     the rule on a thread of its own;
//!   - `judge/`: what the backend should have answered (the oracle), and where it did not
//!     (the comparison, the mismatch);
//!   - `verdict/`: what one rule's run concludes ([`Verdict`], [`RuleFailure`]);
//!   - `runner/`: a whole gate run, as [`Gate::run`] into a [`GateReport`], or as the
//!     backend's test binary (`conformance_main!`), from one test list ([`Trial`]);
//!   - `rules/`: the rules, a file per id group; each draws its scenarios, runs them and
//!     returns its verdict.
//!
//! Shared by the stages: `display.rs`, the model's values as a failure report writes them, and
//! `late_timer.rs`, timeouts judged on the backend's time. `clause_map.rs` says which rules
//! and inputs check each clause of the specification and each profile dimension value
//! (rendered in `docs/clause-map.md`).
//!
//! A file imports only from the stages before its own in this order: `generate`, `declare`,
//! `judge`, `run`, `verdict`, `rules`, `runner` (the judge is called by the run, a rule by the
//! runner).

mod declare;

#[cfg(feature = "harness")]
mod generate;
#[cfg(feature = "harness")]
mod judge;
#[cfg(feature = "harness")]
pub mod rules;
#[cfg(feature = "harness")]
mod run;
#[cfg(feature = "harness")]
pub(crate) mod runner;
#[cfg(feature = "harness")]
mod verdict;

// Data for the tests and the docs they render: nothing runs it.
#[cfg(all(test, feature = "harness"))]
mod clause_map;
#[cfg(feature = "harness")]
mod display;
#[cfg(feature = "harness")]
pub(crate) mod late_timer;

pub use declare::budget::Spent;
pub use declare::gate::{Gate, REQUIRE_ALL_BACKENDS};
pub use declare::known_violation::{KnownViolation, departures, implied_violations};
pub use declare::namespace::{Namespace, SCRATCH_DIR};
pub use declare::options::DEFAULT_OP_TIMEOUT;
pub use declare::profile_file::{PROFILE_FORMAT, ProfileFile, ProfileFileError};
pub use declare::rule_set::RuleSetVersion;
pub use declare::subject::Subject;

#[cfg(feature = "harness")]
pub use generate::operation_mix::OperationMix;
#[cfg(feature = "harness")]
pub use run::replica_spread::{REPLICAS, ReplicaSpread, replicas};
#[cfg(feature = "harness")]
pub use runner::lexicon_draws::{LexiconDraws, LexiconShare};
#[cfg(feature = "harness")]
pub use runner::report::{GateReport, RuleRun};
#[cfg(feature = "harness")]
pub use runner::trial::{RECALL_FLOOR, RECALL_SNAPSHOT, Trial, TrialOutcome};
#[cfg(feature = "harness")]
pub use verdict::failure::RuleFailure;
#[cfg(feature = "harness")]
pub use verdict::rule_verdict::Verdict;
