//! What the backend declares, and its gate.

use memory_conformance::conformance::{Gate, Subject};
use memory_conformance::profile::{Capabilities, Limit, Order, Profile, QueryTerms, WordRule};

use crate::SegmentedBm25;
use crate::service::LIMIT;

/// The profile `SegmentedBm25` declares: the reference, except that words are NFC then UAX #29
/// words (the query cut the same way), entries come in bm25 order, at most ten.
///
/// ```
/// use memory_conformance::profile::WordRule;
/// assert_eq!(memory_segmented_bm25::profile().event_words, WordRule::UnicodeSegmentation);
/// ```
pub fn profile() -> Profile {
    let mut profile = Profile::reference()
        .named("segmented-bm25")
        .with_provenance(concat!("memory-segmented-bm25 ", env!("CARGO_PKG_VERSION")));
    profile.event_words = WordRule::UnicodeSegmentation;
    profile.query_terms = QueryTerms::Words {
        non_ascii_substring: false,
    };
    profile.limit = Limit::AtMost(LIMIT);
    profile.order = Order::Relevance;
    profile.capabilities = Capabilities::default();
    profile
}

/// The gate of `SegmentedBm25`: every rule against [`profile`], a fresh store per case, no
/// known violation. `tests/conformance.rs` runs it.
///
/// ```
/// assert_eq!(memory_segmented_bm25::gate().subject().backend(), "segmented-bm25");
/// ```
pub fn gate() -> Gate {
    Gate::new(Subject::new("segmented-bm25", profile(), || async {
        SegmentedBm25::new()
    }))
    .describe(concat!(
        "memory-segmented-bm25 ",
        env!("CARGO_PKG_VERSION"),
        ", NFC and UAX #29 words, bm25"
    ))
}
