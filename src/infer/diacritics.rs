//! The diacritics a full-text word rule removes (FTS5's `remove_diacritics`), probed directly
//! and then decided by the word rules: the three values differ only on accented letters, which
//! a decision's generated cases may draw too rarely to tell apart.

use crate::profile::{RemoveDiacritics, WordRule};

use super::decide::Run;
use super::probe::{self, CONTROL};
use super::words;

/// Pairs of a word stored without diacritics and the same word searched with them: one
/// letter with two diacritics (`ệ`, removed under `all` only), and one with one (`é`, removed
/// under `all` and `single`, kept under `keep`). NFC, as typed.
const ACCENTED: [(&str, &str); 2] = [("viet", "vi\u{1ec7}t"), ("cafe", "caf\u{e9}")];

/// Where the word rule decided is full text: each plain form of [`ACCENTED`] stored beside
/// [`CONTROL`], each accented form searched alone, and the value of `remove_diacritics` whose
/// words give those answers (the kit's word function computes what each value finds) decided
/// again against the value taken, by the word rules, under the same decision's name. Nothing
/// changes where the word rule is another, the words decision is a misfit, the probe tells
/// nothing, no value gives the answers seen, or the one that does is the one taken.
pub(super) fn decide(run: &mut Run<impl FnMut(&str)>) {
    let WordRule::FullText {
        remove_diacritics: taken,
        script_runs,
    } = run.profile.event_words
    else {
        return;
    };
    let decision = if run.decided(words::TOGETHER) {
        words::TOGETHER
    } else {
        words::WITH_SEPARATORS
    };
    if run.misfit(decision) {
        return;
    }
    run.report("remove_diacritics (probing: a word stored plain and searched with diacritics)");
    let texts: Vec<String> = ACCENTED
        .iter()
        .map(|(plain, _)| format!("{plain} {CONTROL}"))
        .collect();
    let queries: Vec<&str> = ACCENTED.iter().map(|(_, accented)| *accented).collect();
    let Some(found) = probe::found(&run.subject(), "diacritics", &texts, &queries) else {
        return;
    };
    let gives_found = |remove: RemoveDiacritics| {
        let rule = WordRule::FullText {
            remove_diacritics: remove,
            script_runs,
        };
        texts
            .iter()
            .zip(&queries)
            .zip(&found)
            .all(|((text, query), found)| {
                let stored = rule.words(text);
                rule.words(query).iter().all(|word| stored.contains(word)) == *found
            })
    };
    let Some(probed) = RemoveDiacritics::VALUES
        .into_iter()
        .find(|remove| gives_found(*remove))
    else {
        return;
    };
    if probed == taken {
        return;
    }
    let mut candidates = Vec::new();
    for remove in [probed, taken] {
        let event_words = WordRule::FullText {
            remove_diacritics: remove,
            script_runs,
        };
        let query_terms = run.profile.query_terms;
        let name = words::candidates()
            .into_iter()
            .find(|(_, e, q)| *e == event_words && *q == query_terms)
            .map_or_else(
                || format!("{event_words:?}; {query_terms:?}"),
                |(name, ..)| name,
            );
        candidates.push((name, run.with(|p| p.event_words = event_words)));
    }
    run.decide(decision, &words::all_rules(), candidates);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The probe tells the three values apart: under the kit's word function, `all` finds
    /// both accented forms, `single` the one-diacritic form only, `keep` neither; and each
    /// stored text is two words, the control one of them.
    #[test]
    fn the_accented_forms_tell_the_three_values_apart() {
        let finds = |remove| {
            let rule = WordRule::FullText {
                remove_diacritics: remove,
                script_runs: false,
            };
            ACCENTED.map(|(plain, accented)| rule.words(accented) == rule.words(plain))
        };
        assert_eq!(finds(RemoveDiacritics::All), [true, true]);
        assert_eq!(finds(RemoveDiacritics::Single), [false, true]);
        assert_eq!(finds(RemoveDiacritics::Keep), [false, false]);
        for (plain, _) in ACCENTED {
            let rule = WordRule::FullText {
                remove_diacritics: RemoveDiacritics::All,
                script_runs: true,
            };
            assert_eq!(rule.words(&format!("{plain} {CONTROL}")), [plain, CONTROL]);
        }
    }
}
