//! Judge: what a backend should have answered, and whether it did.
//!
//! - `oracle/`: the oracle, a lexical backend as its profile says it behaves: its model of
//!   the stores, its writes (`writes.rs`) and its searches (`search.rs`);
//! - `identity.rs`: which returned entry is which; `fields.rs`, whether it carries every field
//!   of the event it stands for;
//! - `comparison.rs`: every expectation of a search step, and the oracle's answer, compared
//!   with the entries the backend returned; `timestamp_format.rs`, whether an entry's
//!   timestamp is written as the profile says;
//! - `mismatch.rs`: where and how a scenario went wrong.

pub(crate) mod comparison;
pub(crate) mod fields;
pub(crate) mod identity;
pub(crate) mod mismatch;
pub(crate) mod oracle;
pub(crate) mod timestamp_format;
