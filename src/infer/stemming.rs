//! Whether a lexical backend stems, probed directly (a stored form of a word searched by
//! another form of it) and then decided by the rules that check it.

use crate::conformance::Subject;
use crate::profile::{QueryTerms, Stemming};

use super::decide::Run;
use super::probe::{self, CONTROL};

/// Pairs of forms of one word, the first stored and the second searched: equal stems under
/// Snowball English and under the original Porter algorithm (so a backend on either stemmer
/// is probed as stemming), neither inside the other (so a substring search does not find
/// one by the other), none a stop word.
const FORMS: [(&str, &str); 3] = [
    ("brewed", "brewing"),
    ("baked", "bakes"),
    ("walks", "walked"),
];

/// A word stored nowhere: a search of it that finds something means the backend finds
/// entries by no word of the query, so the probe tells nothing.
const ABSENT: &str = "quokka";

/// Whether the backend stems, as a direct try shows: each first form of [`FORMS`] stored
/// beside [`CONTROL`] in an event of its own, each second form searched alone. English where
/// every search finds something and a search of [`ABSENT`] finds nothing; else none (the
/// contract), which the rules then check. Under the profile decided so far, on a fresh
/// namespace.
pub(super) fn probed(subject: &Subject) -> Stemming {
    let texts: Vec<String> = FORMS
        .iter()
        .map(|(stored, _)| format!("{stored} {CONTROL}"))
        .collect();
    let mut queries: Vec<&str> = FORMS.iter().map(|(_, searched)| *searched).collect();
    queries.push(ABSENT);
    match probe::found(subject, "stemming", &texts, &queries) {
        Some(found)
            if found
                .split_last()
                .is_some_and(|(absent, forms)| !absent && forms.iter().all(|found| *found)) =>
        {
            Stemming::English
        }
        _ => Stemming::None,
    }
}

/// Decides the stemming among the `probed` value and none, by the rules of the dimension,
/// under the profile decided so far. English is no candidate where the query terms are
/// substrings (matched unstemmed: a profile file refuses the two together).
pub(super) fn decide(run: &mut Run<impl FnMut(&str)>, probed: Stemming) {
    let mut values = vec![Stemming::None];
    if probed != Stemming::None && !matches!(run.profile.query_terms, QueryTerms::Substrings { .. })
    {
        values.insert(0, probed);
    }
    run.among(values);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::dropped::ENGLISH_STOP_WORDS;

    /// Each form is one word under every word rule infer tries; the two forms of a pair stem
    /// alike, neither holds the other, and none is a stop word, the control or the absent
    /// word.
    #[test]
    fn the_probed_forms_are_one_word_each_and_stem_alike() {
        for (name, event_words, _) in super::super::words::candidates() {
            for word in FORMS.iter().flat_map(|(a, b)| [*a, *b]).chain([ABSENT]) {
                assert_eq!(
                    event_words.words(word),
                    vec![word.to_owned()],
                    "{name}: {word}"
                );
            }
        }
        for (stored, searched) in FORMS {
            assert_ne!(stored, searched);
            assert_eq!(
                Stemming::English.stem(stored),
                Stemming::English.stem(searched),
                "{stored} {searched}"
            );
            assert!(!stored.contains(searched) && !searched.contains(stored));
            for word in [stored, searched] {
                assert!(!ENGLISH_STOP_WORDS.contains(&word));
                assert!(!word.contains(CONTROL) && !CONTROL.contains(word));
                assert!(!word.contains(ABSENT) && !ABSENT.contains(word));
            }
        }
    }
}
