//! The words a lexical backend drops, probed directly (each stop word of the kit's list, and
//! short query terms, stored and searched alone) and then decided by the rules that check them.

use crate::conformance::Subject;
use crate::profile::DroppedWords;
use crate::profile::dimension::Dimension;
use crate::profile::dropped::ENGLISH_STOP_WORDS;

use super::decide::Run;
use super::probe::{self, CONTROL};

/// Ordinary words of one to four letters, no stop word and none inside another or the
/// control: one word under every word rule, each searched alone.
pub(super) const SHORT_WORDS: [&str; 4] = ["q", "zx", "vkj", "wfyb"];

/// The longest `shorter_than` the gate supports: a longer one drops the kit's own three-letter
/// words (`tea`), which the rules ask and expect found.
const GATE_SHORTER_THAN: usize = 3;

/// What the backend drops, as a direct try shows: each word of the kit's stop list stored
/// beside [`CONTROL`] in an event of its own and searched alone (a search that finds nothing
/// drops it), and [`SHORT_WORDS`] stored and searched alone (the shortest found gives
/// `shorter_than`; none when one letter is found). A stop word too short to be asked is
/// counted as short, not as a stop word. An error from the backend counts as found (not
/// dropped): the rules then decide. Under the profile decided so far, on fresh namespaces.
pub(super) fn probed(subject: &Subject) -> DroppedWords {
    let stop_found = found(subject, "dropped-stop-words", &ENGLISH_STOP_WORDS, true);
    let short_found = found(subject, "dropped-short-terms", &SHORT_WORDS, false);
    let (Some(stop_found), Some(short_found)) = (stop_found, short_found) else {
        return DroppedWords::none();
    };
    let shortest = SHORT_WORDS
        .iter()
        .zip(&short_found)
        .find(|(_, found)| **found)
        .map_or(SHORT_WORDS.len() + 1, |(word, _)| word.chars().count());
    let mut dropped = DroppedWords::stop_words(
        ENGLISH_STOP_WORDS
            .iter()
            .zip(&stop_found)
            .filter(|(_, found)| !**found)
            .map(|(word, _)| *word),
    );
    if shortest > 1 {
        dropped = dropped.with_shorter_than(shortest);
    }
    let short: Vec<String> = dropped
        .stop_words
        .iter()
        .filter(|word| dropped.is_too_short(word))
        .cloned()
        .collect();
    for word in short {
        dropped.stop_words.remove(&word);
    }
    dropped
}

/// Decides the dropped words among the `probed` value (with `shorter_than` cut to what the
/// gate supports) and none, by the rules of the dimension, under the profile decided so far.
pub(super) fn decide(run: &mut Run<impl FnMut(&str)>, probed: &DroppedWords) {
    let mut candidates = Vec::new();
    if !probed.is_none() {
        let mut value = probed.clone();
        let mut name = named(&value);
        if let Some(n) = value.shorter_than.filter(|n| *n > GATE_SHORTER_THAN) {
            value.shorter_than = Some(GATE_SHORTER_THAN);
            name = format!(
                "{} (the backend drops query terms shorter than {n} characters; the gate \
                 supports up to {GATE_SHORTER_THAN})",
                named(&value)
            );
        }
        candidates.push((name, run.with(|p| p.dropped_words = value)));
    }
    candidates.push((
        named(&DroppedWords::none()),
        run.with(|p| p.dropped_words = DroppedWords::none()),
    ));
    run.decide(DroppedWords::KEY, DroppedWords::DECIDED_BY, candidates);
}

/// `dropped` as a decision names it: its stop words and its length.
fn named(dropped: &DroppedWords) -> String {
    let mut parts = Vec::new();
    if !dropped.stop_words.is_empty() {
        let words: Vec<&str> = dropped.stop_words.iter().map(String::as_str).collect();
        parts.push(format!("stop words {}", words.join(" ")));
    }
    if let Some(n) = dropped.shorter_than {
        parts.push(format!("query terms shorter than {n} characters"));
    }
    if parts.is_empty() {
        "none".to_owned()
    } else {
        parts.join(", ")
    }
}

/// For each of `words`, whether a search of it alone finds anything, each stored in an event
/// of its own under one key (`user`) of a fresh namespace: beside [`CONTROL`] where `beside`,
/// else alone, with an event of the control; `None` where the probe tells nothing
/// ([`probe::found`]).
fn found(subject: &Subject, user: &str, words: &[&str], beside: bool) -> Option<Vec<bool>> {
    let mut texts: Vec<String> = words
        .iter()
        .map(|word| {
            if beside {
                format!("{word} {CONTROL}")
            } else {
                (*word).to_owned()
            }
        })
        .collect();
    if !beside {
        texts.push(CONTROL.to_owned());
    }
    probe::found(subject, user, &texts, words)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each probed word is one word, as written, under every word rule infer tries, and
    /// one query term under every query rule: a search of it alone asks that word.
    #[test]
    fn every_probed_word_is_one_word_under_every_word_rule() {
        for (name, event_words, query_terms) in super::super::words::candidates() {
            let mut profile = crate::profile::Profile::reference();
            profile.event_words = event_words;
            profile.query_terms = query_terms;
            for word in ENGLISH_STOP_WORDS
                .iter()
                .chain(&SHORT_WORDS)
                .chain([&CONTROL])
            {
                assert_eq!(
                    event_words.words(word),
                    vec![(*word).to_owned()],
                    "{name}: {word}"
                );
                let terms = crate::profile::words::query_terms(&profile, word);
                assert_eq!(terms.len(), 1, "{name}: {word}");
            }
        }
        for (i, word) in SHORT_WORDS.iter().enumerate() {
            assert_eq!(word.chars().count(), i + 1);
            assert!(!ENGLISH_STOP_WORDS.contains(word));
            assert!(!CONTROL.contains(word));
            assert!(
                SHORT_WORDS
                    .iter()
                    .all(|other| other == word || !other.contains(word))
            );
        }
    }

    #[test]
    fn decisions_name_the_stop_words_and_the_length() {
        assert_eq!(named(&DroppedWords::none()), "none");
        assert_eq!(
            named(&DroppedWords::stop_words(["the", "a"]).with_shorter_than(3)),
            "stop words a the, query terms shorter than 3 characters"
        );
    }
}
