//! The dimension table's rows for how a search matches: retrieval, the word rules of stored
//! text and queries, multi-word queries and tool data.

use super::{Dimension, ValueEntry};
use crate::profile::Stemming;
use crate::profile::{
    CaseMapping, CustomWords, DroppedWords, MultiWord, Profile, QueryTerms, RemoveDiacritics,
    Retrieval, Separators, ToolData, VectorIndex, VectorSearch, WordRule,
};

dimension! {
    Retrieval {
        key: "retrieval",
        label: "retrieval",
        // `infer` does not decide it: a backend is inferred as lexical.
        decided_by: &[],
        field: retrieval,
        values: [
            Retrieval::Lexical,
            Retrieval::Vector(VectorSearch::exact("hashed-256")),
            Retrieval::Vector(VectorSearch::approximate("hashed-256", 90)),
            Retrieval::Semantic,
        ],
    }
    Retrieval::Lexical => {
        value: "lexical",
        says: "every search has an expected answer: the oracle's",
        rules: ["model.random_ops", "index.text_only", "query.multi_word"],
        inputs: ["random operations"],
    }
    Retrieval::Vector(VectorSearch { embedder, index: VectorIndex::Exact, .. }) => {
        value: "vector, exact index",
        says: "the stored events nearest to the query by cosine similarity under the declared embedder, nearest first, exactly the limit's worth",
        rules: ["vector.nearest_first", "model.random_ops", "key.isolation", "replace.readd_replaces"],
        inputs: ["vector texts", "random operations", "near-miss keys", "re-adds"],
        text: format!("vector, {embedder} embeddings, exact nearest"),
    }
    Retrieval::Vector(VectorSearch {
        embedder,
        index: VectorIndex::Approximate { min_recall_percent },
        ..
    }) => {
        value: "vector, approximate index",
        says: "nearest first and only stored candidates, at least the declared share of the nearest",
        rules: ["vector.nearest_first", "model.random_ops"],
        inputs: ["vector texts", "random operations"],
        text: format!(
            "vector, {embedder} embeddings, approximate (at least {min_recall_percent}% of the nearest)"
        ),
    }
    Retrieval::Semantic => {
        value: "semantic",
        says: "held to the contract: nothing from another key or an old version, nothing twice",
        rules: ["key.isolation", "replace.readd_replaces", "result.fidelity"],
        inputs: ["near-miss keys", "re-adds"],
        text: "semantic (contract rules only)",
    }
}

dimension! {
    WordRule {
        key: "event_words",
        label: "event words",
        // Decided together with the query terms.
        decided_by: &[
            "punctuation.query",
            "punctuation.event",
            "query.digits",
            "query.non_ascii",
            "query.case_insensitive",
        ],
        field: event_words,
        values: [
            WordRule::AsciiLetters,
            WordRule::UnicodeWords { script_runs: false },
            WordRule::Whitespace {
                separators: Separators::AsciiWhitespace,
                cjk_ngrams: false,
            },
            WordRule::FullText {
                remove_diacritics: RemoveDiacritics::All,
                script_runs: false,
            },
            WordRule::UnicodeSegmentation,
            WordRule::FullText {
                remove_diacritics: RemoveDiacritics::All,
                script_runs: true,
            },
            WordRule::Custom(CustomWords::new("words", |_| Vec::new())),
        ],
    }
    WordRule::AsciiLetters => {
        value: "ASCII letters",
        says: "runs of [A-Za-z]",
        rules: ["punctuation.event", "query.non_ascii", "model.random_ops"],
        inputs: ["punctuation", "non-ASCII words"],
        text: "[A-Za-z]+, lowercased",
    }
    WordRule::UnicodeSegmentation => {
        value: "Unicode segmentation",
        says: "NFC, then UAX #29 words, lowercased",
        rules: ["query.non_ascii", "punctuation.event", "query.digits", "model.random_ops"],
        inputs: ["non-ASCII words", "punctuation", "digits"],
        text: "NFC, Unicode word segmentation (UAX #29) words, lowercased",
    }
    WordRule::UnicodeWords { script_runs } => {
        value: "Unicode words",
        says: "NFC runs of letters, digits and `_`, with or without script runs",
        rules: ["query.non_ascii", "query.digits", "model.random_ops"],
        inputs: ["non-ASCII words", "digits", "punctuation"],
        text: if *script_runs {
            "NFC, Unicode \\w+, lowercased; mixed-script words also split by script"
        } else {
            "NFC, Unicode \\w+, lowercased"
        },
    }
    WordRule::Whitespace { separators: s, cjk_ngrams } => {
        value: "whitespace",
        says: "split on separators, punctuation kept, with or without CJK grams",
        rules: ["punctuation.event", "query.non_ascii", "model.random_ops"],
        inputs: ["punctuation", "separators", "non-ASCII words"],
        text: format!(
            "split on {}, punctuation kept, lowercased{}",
            separators(*s),
            if *cjk_ngrams { "; CJK 1- and 2-grams" } else { "" }
        ),
    }
    WordRule::FullText { remove_diacritics, script_runs: true } => {
        value: "full text, script runs first",
        says: "NFC, each non-ASCII word cut into Latin and non-Latin runs, then FTS5 unicode61 words",
        rules: ["query.non_ascii", "query.case_insensitive", "punctuation.event", "model.random_ops"],
        inputs: ["non-ASCII words", "cased words", "punctuation"],
        text: full_text("NFC, words cut into Latin and non-Latin runs, then ", *remove_diacritics),
    }
    WordRule::FullText { remove_diacritics, .. } => {
        value: "full text",
        says: "FTS5 unicode61 words, diacritics removed as declared",
        rules: ["query.non_ascii", "query.case_insensitive", "model.random_ops"],
        inputs: ["non-ASCII words", "cased words", "digits"],
        text: full_text("", *remove_diacritics),
    }
    WordRule::Custom(custom) => {
        value: "the backend's own function",
        says: "a Rust backend's own word function, its author's claim: every text and query is checked against it",
        rules: [
            "query.non_ascii",
            "query.case_insensitive",
            "punctuation.event",
            "punctuation.query",
            "model.random_ops",
        ],
        inputs: ["non-ASCII words", "cased words", "punctuation", "random operations"],
        text: format!("the backend's own word function `{}`", custom.name()),
    }
}

/// The profile table's text for FTS5 `unicode61` words, after `first` (what comes before).
fn full_text(first: &str, remove_diacritics: RemoveDiacritics) -> String {
    format!(
        "{first}letters and digits, case and Latin diacritics folded (FTS5 remove_diacritics {}), \
         punctuation separates",
        remove_diacritics.fts5_option()
    )
}

dimension! {
    QueryTerms {
        key: "query_terms",
        label: "query terms",
        // Decided together with the event words, by their rules.
        decided_by: WordRule::DECIDED_BY,
        field: query_terms,
        values: [
            QueryTerms::Tokens { separators: Separators::AsciiWhitespace },
            QueryTerms::Words { non_ascii_substring: false },
            QueryTerms::Phrases { separators: Separators::AsciiWhitespace },
            QueryTerms::WordRuns,
            QueryTerms::Substrings { separators: Separators::AsciiWhitespace },
        ],
    }
    QueryTerms::Tokens { separators: s } => {
        value: "tokens",
        says: "split on the declared separators, punctuation kept",
        rules: ["punctuation.query", "query.multi_word", "query.blank"],
        inputs: ["punctuation", "separators", "blank queries"],
        text: format!("lowercased, split on {}, punctuation kept", separators(*s)),
    }
    QueryTerms::Words { non_ascii_substring } => {
        value: "words",
        says: "cut like stored text, non-ASCII terms as substrings where declared",
        rules: ["punctuation.query", "query.non_ascii", "model.random_ops"],
        inputs: ["punctuation", "non-ASCII words"],
        text: format!(
            "cut like event words{}",
            if *non_ascii_substring { "; non-ASCII words also match as substrings" } else { "" }
        ),
    }
    QueryTerms::Phrases { separators: s } => {
        value: "phrases",
        says: "each token a phrase of words (FTS5 quoting)",
        rules: ["punctuation.query", "query.multi_word", "model.random_ops"],
        inputs: ["punctuation", "separators"],
        text: format!("split on {}, each token a phrase cut like event words", separators(*s)),
    }
    QueryTerms::WordRuns => {
        value: "word runs",
        says: "each run of word characters and `%` a phrase of words, no operators (ADK Python's `[\\w%]+`)",
        rules: ["punctuation.query", "query.non_ascii", "query.multi_word", "model.random_ops"],
        inputs: ["punctuation", "separators", "non-ASCII words"],
        text: "NFC, each run of word characters and % a phrase cut like event words, no operators",
    }
    QueryTerms::Substrings { separators: s } => {
        value: "substrings",
        says: "split on the declared separators, lowercased; a term matches where the lowercased stored text contains it, inside a word too",
        rules: ["query.case_insensitive", "query.digits", "query.non_ascii", "model.random_ops"],
        inputs: ["cased words", "digits", "non-ASCII words", "random operations"],
        text: format!("lowercased, split on {}, each token matched as a substring of the lowercased text", separators(*s)),
    }
}

dimension! {
    CaseMapping {
        key: "case_mapping",
        label: "case mapping",
        decided_by: &["query.case_insensitive"],
        field: case_mapping,
        values: [CaseMapping::Full, CaseMapping::Simple],
    }
    CaseMapping::Full => {
        value: "full",
        says: "text and queries lowercased with Unicode's full mapping: a capital sigma is `ς` at a word's end and `σ` elsewhere, `İ` is `i` and U+0307",
        rules: ["query.case_insensitive", "query.multi_word", "model.random_ops"],
        inputs: ["cased words"],
        text: "full (Σ to ς at a word's end, İ to i and U+0307)",
    }
    CaseMapping::Simple => {
        value: "simple",
        says: "text and queries lowercased code point by code point with Unicode's simple mapping: a capital sigma is `σ` everywhere, `İ` a plain `i`",
        rules: ["query.case_insensitive", "query.multi_word", "model.random_ops"],
        inputs: ["cased words"],
        text: "simple, code point by code point (Σ to σ everywhere, İ to i)",
    }
}

dimension! {
    Stemming {
        key: "stemming",
        label: "stemming",
        // `infer` probes it (a stored form of a word searched by another) for a lexical
        // backend, then decides the probed value or none by the rules that check it.
        decided_by: &["punctuation.query", "punctuation.event", "query.multi_word"],
        field: stemming,
        values: [Stemming::None, Stemming::English],
    }
    Stemming::None => {
        value: "none",
        says: "the contract: a query word matches only an equal stored word, not another form of it",
        rules: ["punctuation.query", "punctuation.event", "query.multi_word"],
        inputs: ["inflected words"],
    }
    Stemming::English => {
        value: "english",
        says: "every word of stored text and of a query is reduced to its Snowball English (Porter2) stem after the word rules, the case mapping and the dropped words, and words are compared by their stems: `brewing` finds `brewed`",
        rules: ["punctuation.query", "punctuation.event", "query.multi_word"],
        inputs: ["inflected words"],
        text: "Snowball English (Porter2): words compared by their stems",
    }
}

/// Separators as the profile table writes them.
fn separators(value: Separators) -> &'static str {
    match value {
        Separators::AsciiWhitespace => "ASCII whitespace",
        Separators::UnicodeWhitespace => "Unicode whitespace",
        Separators::JavaScriptWhitespace => "JavaScript whitespace (\\s)",
        Separators::Space => "the space character only",
    }
}

dimension! {
    DroppedWords {
        key: "dropped_words",
        label: "dropped words",
        // `infer` probes it (each stop word and short terms searched alone) for a lexical
        // backend, then decides the probed value or none by the rules that check it.
        decided_by: &["query.case_insensitive", "punctuation.query", "punctuation.event", "query.digits", "query.non_ascii", "query.multi_word"],
        field: dropped_words,
        // One value of each kind a failure may fit alone (a stop list, a length), then none;
        // a backend that drops both declares both.
        values: [
            DroppedWords::stop_words(crate::profile::dropped::ENGLISH_STOP_WORDS),
            DroppedWords::none().with_shorter_than(3),
            DroppedWords::none(),
        ],
    }
    DroppedWords { stop_words, shorter_than: None } if stop_words.is_empty() => {
        value: "none",
        says: "the contract: every word of stored text is indexed and every query term is asked",
        rules: ["query.case_insensitive", "punctuation.query", "punctuation.event", "query.digits", "query.non_ascii", "query.multi_word"],
        inputs: ["stop words", "short words"],
        text: "none",
    }
    DroppedWords { stop_words, shorter_than: None } => {
        value: "stop words",
        says: "the listed stop words are dropped from the words of stored text and from query terms: a stop word is never indexed nor asked, an event of stop words only carries no word, and a query of stop words only finds nothing",
        rules: ["query.case_insensitive", "punctuation.query", "punctuation.event", "query.digits", "query.non_ascii", "query.multi_word"],
        inputs: ["stop words"],
        text: format!("stop words ({})", stop_words.len()),
    }
    DroppedWords { stop_words, shorter_than: Some(n) } if stop_words.is_empty() => {
        value: "short query terms",
        says: "query terms of fewer characters than `shorter_than` (code points, as the query writes them) are not asked; stored text is untouched, and a query of short terms only finds nothing",
        rules: ["query.case_insensitive", "punctuation.query", "punctuation.event", "query.digits", "query.non_ascii", "query.multi_word"],
        inputs: ["short words"],
        text: format!("query terms shorter than {n} characters"),
    }
    DroppedWords { stop_words, shorter_than: Some(n) } => {
        value: "stop words and short query terms",
        says: "both: the stop words are dropped from stored text and queries, and query terms shorter than `shorter_than` characters are not asked",
        rules: ["query.case_insensitive", "punctuation.query", "punctuation.event", "query.digits", "query.non_ascii", "query.multi_word"],
        inputs: ["stop words", "short words"],
        text: format!("stop words ({}), query terms shorter than {n} characters", stop_words.len()),
    }
}

dimension! {
    MultiWord {
        key: "multi_word",
        label: "multi-word query",
        decided_by: &["query.multi_word"],
        field: multi_word,
        values: [MultiWord::AnyWord, MultiWord::AllWords],
    }
    MultiWord::AnyWord => {
        value: "any word",
        says: "one matching term is enough",
        rules: ["query.multi_word"],
        inputs: ["separators"],
    }
    MultiWord::AllWords => {
        value: "all words",
        says: "every term must match",
        rules: ["query.multi_word"],
        inputs: ["separators"],
    }
}

dimension! {
    ToolData {
        key: "tool_data",
        label: "tool data",
        decided_by: &["index.text_only"],
        field: tool_data,
        values: [ToolData::NotIndexed, ToolData::Indexed],
    }
    ToolData::NotIndexed => {
        value: "not indexed",
        says: "words only in calls and responses are never found",
        rules: ["index.text_only"],
        inputs: ["tool parts"],
        text: "not searchable (text parts only)",
    }
    ToolData::Indexed => {
        value: "indexed",
        says: "string values of calls and responses are searched like text",
        rules: ["index.text_only"],
        inputs: ["tool parts"],
        text: "searchable (tool names and string values)",
    }
}
