//! The corpus the latency benchmarks share: the kit's `reference_search` and `scale`,
//! sqlite-fts5's `fts5` and the adk-rust adapter's `side_by_side` (those two include this file
//! by path), so their figures are on the same data.
//!
//! Sessions of [`EVENTS_PER_SESSION`] events of 8 words drawn from a [`VOCABULARY`]-word ASCII
//! vocabulary; in a store of `total` events, the word `needle` is in exactly 10 events whatever
//! `total` is (an inverted index searches it at the same cost at every size), and `common` is
//! in 1% of them.

use memory_conformance::{Event, Session};

/// Events in each session of the corpus.
pub const EVENTS_PER_SESSION: usize = 10;

/// Distinct words the events are drawn from.
pub const VOCABULARY: usize = 5_000;

/// The app and the user every corpus session belongs to (the `scale` bench spreads its events
/// over many users of its own).
pub const APP: &str = "bench";
pub const USER: &str = "u-1";

/// A word made of ASCII letters only, distinct for every `n`.
fn word(mut n: usize) -> String {
    let mut letters = String::from("w");
    loop {
        letters.push(char::from(b'a' + (n % 26) as u8));
        n /= 26;
        if n == 0 {
            return letters;
        }
    }
}

/// Event `event` of a store of `total` events: 8 vocabulary words, `needle` in 10 of the
/// store's events and `common` in 1%.
pub fn text_of(event: usize, total: usize) -> String {
    let mut words: Vec<String> = (0..8)
        .map(|k| word((event * 7 + k * 131) % VOCABULARY))
        .collect();
    if event.is_multiple_of((total / 10).max(1)) {
        words.push("needle".into());
    }
    if event.is_multiple_of(100) {
        words.push("common".into());
    }
    words.join(" ")
}

/// The texts of session `s` of a store of `total` events.
pub fn session_texts(s: usize, total: usize) -> impl Iterator<Item = String> {
    (s * EVENTS_PER_SESSION..(s + 1) * EVENTS_PER_SESSION).map(move |e| text_of(e, total))
}

/// A session of [`APP`] and [`USER`] with `id`, of user events with `texts`.
pub fn session(id: impl Into<String>, texts: impl IntoIterator<Item = String>) -> Session {
    Session::new(APP, USER, id).with_events(texts.into_iter().map(|text| Event::text("user", text)))
}

/// The sessions `s-0`, `s-1`, … of a store of `total` events.
pub fn sessions(total: usize) -> impl Iterator<Item = Session> {
    (0..total / EVENTS_PER_SESSION).map(move |s| session(format!("s-{s}"), session_texts(s, total)))
}
