//! Generate: the scenarios a rule runs, drawn from a seed.
//!
//! - `values.rs`: the building blocks (words, contents, events, sessions, keys), each
//!   shrinking towards the plainest;
//! - `lexicon.rs`: real English words and their forms, words inside words, stop words,
//!   numbers, joined words, non-ASCII case and normalisation forms, as named generators
//!   ([`Words`](lexicon::Words)) with declared shares, and which of them a rule's draws take
//!   ([`Draws`](lexicon::Draws), restricted only by the kit's per-generator measure);
//! - `scenario.rs`: a [`Scenario`](scenario::Scenario), the script of adds and searches and
//!   what each search must return;
//! - `round_robin.rs`: which replica each step of a scenario goes to behind a round-robin
//!   load balancer;
//! - `seeding.rs`: the run's seed and each case's seed derived from it;
//! - `operation_mix.rs`: which operations, and pairs of them, a rule's cases reached.

pub(crate) mod lexicon;
pub(crate) mod operation_mix;
pub(crate) mod round_robin;
pub(crate) mod scenario;
pub(crate) mod seeding;
pub(crate) mod values;
