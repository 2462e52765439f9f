//! The recall benchmark: realistic multi-session user histories and natural-language questions,
//! each labelled with the events that answer it (`docs/recall-benchmark.md`), and how often a
//! backend brings those events back.
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

mod compare;
mod dataset;
mod floor;
mod locomo;
mod metrics;
mod render;
mod run;

pub use compare::{Comparison, FOUND_WITHIN};
pub use dataset::{Benchmark, Dataset, Question, QuestionKind};
pub use floor::RecallFloor;
pub use locomo::{LOCOMO_ENV, LOCOMO_SHA256, LOCOMO_SOURCE, locomo_missing, locomo_path};
pub use metrics::Metrics;
pub use render::{by_kind_table, overall_table, svg};
pub use run::{BenchmarkRun, QuestionResult};
