//! Runner: a whole gate run, as a library call or as the backend's test binary.
//!
//! - `gate_run.rs`: [`Gate::run`](super::Gate::run) and the gate's other runs (one rule, the
//!   recall observations); `report.rs`, the [`GateReport`](report::GateReport) it returns;
//! - `lexicon_draws.rs`: the lexicon queries a run drew from each generator, for its summary;
//! - `trial.rs`: the gate's test list, once for every runner;
//! - `test_binary.rs`: the test binary, one test per rule; `recall_pin.rs`, the recall
//!   snapshots it pins; `main_macro.rs`, `conformance_main!`, which expands to its `main`;
//! - the test binary's runner, libtest's command line and output without a dependency:
//!   `arguments.rs`, the command line (`cargo test`'s and `cargo nextest`'s words);
//!   `test_case.rs`, one test and its [`Outcome`](test_case::Outcome); `test_run.rs`, the
//!   selection and the run on `--test-threads` threads; `outcome_output.rs`, libtest's
//!   output; `conclusion.rs`, the counts and the exit code.

mod arguments;
mod conclusion;
pub(crate) mod gate_run;
pub(crate) mod lexicon_draws;
mod main_macro;
mod outcome_output;
pub(crate) mod recall_pin;
pub(crate) mod report;
pub(crate) mod test_binary;
mod test_case;
mod test_run;
pub(crate) mod trial;
