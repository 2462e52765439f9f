//! Runner: a whole gate run, as a library call or as the backend's test binary.
//!
//! - `gate_run.rs`: [`Gate::run`](super::Gate::run) and the gate's other runs (one rule, the
//!   recall observations); `report.rs`, the [`GateReport`](report::GateReport) it returns;
//! - `trial.rs`: the gate's test list, once for every runner;
//! - `test_binary.rs`: the test binary, one libtest trial per rule; `recall_pin.rs`, the
//!   recall snapshots it pins; `main_macro.rs`, `conformance_main!`, which expands to its
//!   `main`.

pub(crate) mod gate_run;
mod main_macro;
pub(crate) mod recall_pin;
pub(crate) mod report;
pub(crate) mod test_binary;
pub(crate) mod trial;
