//! Recall made visible: a fixed probe corpus and probe set, what a backend returns for each
//! probe, and where that differs from the reference.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! use memory_conformance::probe::{Difference, Observation};
//! use memory_conformance::InMemoryMemoryService;
//! use memory_conformance::profile::Profile;
//! let profile = Profile::reference();
//! let observed = Observation::of("reference", &profile, &InMemoryMemoryService::new()).await;
//! println!("{}", observed.to_markdown());
//! let same = Difference::between(&observed, &profile, &observed);
//! assert!(same.rows.is_empty());
//! # }
//! ```

mod corpus;
mod difference;
mod observation;

pub use corpus::{Dimension, Probe, VERSION, probes, sessions};
pub use difference::{Difference, DifferenceRow};
pub use observation::{Hits, Observation, ProbeResult};
