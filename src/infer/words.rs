//! The word rules of stored text and queries, decided as pairs, and any or all words.

use crate::profile::dimension::Dimension;
use crate::profile::{
    MultiWord, Order, Profile, QueryTerms, RemoveDiacritics, Separators, WordRule,
};

use super::decide::Run;

/// The decision of the event words and query terms as a pair, the order not promised.
pub(super) const PAIR: &str = "event_words and query_terms";

/// The decision of the pair again, with the query's separators (any or all words known).
pub(super) const WITH_SEPARATORS: &str = "event_words and query_terms, with the query's separators";

/// The decision of the pair and any or all words searched together.
pub(super) const TOGETHER: &str = "event_words, query_terms and multi_word together";

/// Decides the event words and query terms with no order promised (so an order the kit
/// cannot know yet does not fail them; the order is decided after, with them known), then,
/// in turn and twice, the pair with the query's separators and any or all words, each with
/// the other known: query separators show only in queries of several words, and any-or-all
/// words only with the right separators. Where the turns leave either one failing, the three
/// are searched together.
pub(super) fn decide(run: &mut Run<impl FnMut(&str)>) {
    run.profile.order = Order::Unordered;
    let (pair, with_separators, together) = (PAIR, WITH_SEPARATORS, TOGETHER);
    let pair_rules = WordRule::DECIDED_BY;
    let all_rules = all_rules();

    let words = pairs(run);
    run.decide(pair, pair_rules, words);
    for _ in 0..2 {
        let words = pairs(run);
        run.decide(with_separators, &all_rules, words);
        run.dimension::<MultiWord>();
    }
    if run.misfit(MultiWord::KEY) || run.misfit(with_separators) {
        let mut both = Vec::new();
        for multi_word in [MultiWord::AnyWord, MultiWord::AllWords] {
            for (name, event_words, query_terms) in candidates() {
                both.push((
                    format!("{name}; {multi_word:?}"),
                    run.with(|p| {
                        p.multi_word = multi_word;
                        p.event_words = event_words;
                        p.query_terms = query_terms;
                    }),
                ));
            }
        }
        run.decide(together, &all_rules, both);
        if !run.misfit(together) {
            run.forget(&[MultiWord::KEY, with_separators]);
        }
    }
}

/// The rules of the word rules and any or all words, decided together.
pub(super) fn all_rules() -> Vec<&'static str> {
    [WordRule::DECIDED_BY, MultiWord::DECIDED_BY].concat()
}

/// Notes that the word rules are not decided: they run for lexical retrieval only, so the
/// file keeps the reference's, which claim nothing about the backend.
pub(super) fn not_decided(run: &mut Run<impl FnMut(&str)>) {
    let rules = all_rules();
    run.declined(
        TOGETHER,
        "the reference's, not decided",
        &rules,
        format!(
            "the word rules run for lexical retrieval only ({} do not apply), so the file keeps \
             the reference's, which claim nothing about this backend",
            rules.join(", ")
        ),
        true,
    );
}

/// Every word-rule pairing over the profile decided so far, the other dimensions as they are.
fn pairs(run: &Run<impl FnMut(&str)>) -> Vec<(String, Profile)> {
    candidates()
        .into_iter()
        .map(|(name, event_words, query_terms)| {
            (
                name,
                run.with(|p| {
                    p.event_words = event_words;
                    p.query_terms = query_terms;
                }),
            )
        })
        .collect()
}

/// Every pairing of a stored-text word rule with a query-term rule that a backend of the
/// presets, or a plain variant of one, uses; most specific first.
pub(super) fn candidates() -> Vec<(String, WordRule, QueryTerms)> {
    let ascii = Separators::AsciiWhitespace;
    let mut candidates = vec![
        (
            "ASCII letters; query tokens on ASCII whitespace".to_owned(),
            WordRule::AsciiLetters,
            QueryTerms::Tokens { separators: ascii },
        ),
        (
            "ASCII letters; query tokens on JavaScript whitespace".to_owned(),
            WordRule::AsciiLetters,
            QueryTerms::Tokens {
                separators: Separators::JavaScriptWhitespace,
            },
        ),
        (
            "ASCII letters; query tokens on Unicode whitespace".to_owned(),
            WordRule::AsciiLetters,
            QueryTerms::Tokens {
                separators: Separators::UnicodeWhitespace,
            },
        ),
        (
            "ASCII letters; query cut like text".to_owned(),
            WordRule::AsciiLetters,
            QueryTerms::Words {
                non_ascii_substring: false,
            },
        ),
    ];
    for script_runs in [true, false] {
        for substring in [true, false] {
            candidates.push((
                format!(
                    "Unicode words{}; query cut like text{}",
                    if script_runs { " with script runs" } else { "" },
                    if substring {
                        ", non-ASCII as substrings"
                    } else {
                        ""
                    }
                ),
                WordRule::UnicodeWords { script_runs },
                QueryTerms::Words {
                    non_ascii_substring: substring,
                },
            ));
        }
    }
    for remove in [
        RemoveDiacritics::All,
        RemoveDiacritics::Single,
        RemoveDiacritics::Keep,
    ] {
        let rule = WordRule::FullText {
            remove_diacritics: remove,
            script_runs: false,
        };
        for (name, separators) in [("ASCII", ascii), ("Unicode", Separators::UnicodeWhitespace)] {
            candidates.push((
                format!("full text ({remove:?}); query phrases on {name} whitespace"),
                rule,
                QueryTerms::Phrases { separators },
            ));
        }
        candidates.push((
            format!("full text ({remove:?}); query cut like text"),
            rule,
            QueryTerms::Words {
                non_ascii_substring: false,
            },
        ));
        // After the plain full-text rules: generated cases rarely tell the two apart, so the
        // script runs are chosen only where the plain rules fail.
        candidates.push((
            format!("full text ({remove:?}) with script runs; query word runs"),
            WordRule::FullText {
                remove_diacritics: remove,
                script_runs: true,
            },
            QueryTerms::WordRuns,
        ));
    }
    candidates.push((
        "Unicode segmentation (UAX #29); query cut like text".to_owned(),
        WordRule::UnicodeSegmentation,
        QueryTerms::Words {
            non_ascii_substring: false,
        },
    ));
    for (name, separators) in [
        ("Unicode", Separators::UnicodeWhitespace),
        ("ASCII", ascii),
        ("space", Separators::Space),
    ] {
        for cjk in [true, false] {
            candidates.push((
                format!(
                    "whitespace ({name}){}; query tokens",
                    if cjk { " with CJK grams" } else { "" }
                ),
                WordRule::Whitespace {
                    separators,
                    cjk_ngrams: cjk,
                },
                QueryTerms::Tokens { separators },
            ));
        }
    }
    // Last: a term matched anywhere in the text claims least of the word rules.
    candidates.push((
        "ASCII letters; query tokens on ASCII whitespace, matched as substrings".to_owned(),
        WordRule::AsciiLetters,
        QueryTerms::Substrings { separators: ascii },
    ));
    candidates
}
