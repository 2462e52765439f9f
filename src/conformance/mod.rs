//! The conformance harness: rules checked against a [`Subject`] on generated scenarios.

mod execute;
mod failure;
mod gate;
mod gate_main;
mod generate;
mod profile_model;
mod property;
pub mod rules;
mod scenario;
mod subject;

pub use failure::RuleFailure;
pub use gate::{Gate, GateReport, KnownViolation, PinSnapshot, REQUIRE_ALL_BACKENDS, RuleOutcome};
pub use subject::{BackendFuture, Namespace, Subject};

#[doc(hidden)]
pub use gate_main::GateMain;
