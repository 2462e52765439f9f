//! The recall benchmark: realistic multi-session user histories and natural-language questions,
//! each labelled with the events that answer it (`docs/recall-benchmark.md`), and how often a
//! backend brings those events back.
//!
//! Without the `harness` feature, only what a gate's declaration names: the [`RecallFloor`]
//! and the [`QuestionKind`]s it floors. The data (`v1.json`, LoCoMo's digest), the runs and
//! their rendering come with `harness`.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), String> {
//! use memory_conformance::InMemoryMemoryService;
//! use memory_conformance::benchmark::{Benchmark, BenchmarkRun, QuestionKind};
//! let benchmark = Benchmark::v1();
//! let run = BenchmarkRun::of(&benchmark, "reference", &InMemoryMemoryService::new()).await?;
//! let overall = run.overall();
//! assert!(overall.recall_at_5 > 0.0 && overall.recall_at_5 < 1.0);
//! // Nothing in text answers a tool-only question.
//! assert_eq!(run.of_kind(QuestionKind::ToolOnly).answerable, 0);
//! # Ok(())
//! # }
//! ```

#[cfg(feature = "harness")]
mod compare;
#[cfg(feature = "harness")]
mod dataset;
pub(crate) mod floor;
#[cfg(feature = "harness")]
mod floor_check;
#[cfg(feature = "locomo")]
mod locomo;
#[cfg(feature = "harness")]
mod metrics;
pub(crate) mod question_kind;
#[cfg(feature = "harness")]
mod render;
#[cfg(feature = "harness")]
mod run;

pub use floor::RecallFloor;
pub use question_kind::QuestionKind;

#[cfg(feature = "harness")]
pub use compare::{Comparison, FOUND_WITHIN};
#[cfg(feature = "harness")]
pub use dataset::{Benchmark, Dataset, Question};
#[cfg(feature = "locomo")]
pub use locomo::{LOCOMO_ENV, LOCOMO_SHA256, LOCOMO_SOURCE, locomo_missing, locomo_path};
#[cfg(feature = "harness")]
pub use metrics::Metrics;
#[cfg(feature = "harness")]
pub use render::{by_kind_table, overall_table, svg};
#[cfg(feature = "harness")]
pub use run::{BenchmarkRun, QuestionResult};
