//! A profile as documentation: one row per dimension.

use std::fmt;

use super::{
    EventsDelta, KeyScheme, Limit, MultiWord, Order, Profile, QueryTerms, Readd, Retrieval,
    Separators, Strings, Timestamps, ToolData, VectorIndex, Visibility, WordRule,
};

impl Profile {
    /// The profile's dimensions as (dimension, description) rows, in a fixed order.
    pub fn rows(&self) -> Vec<(&'static str, String)> {
        vec![
            ("retrieval", retrieval(&self.retrieval)),
            ("key", key(self.key).into()),
            ("re-add", readd(self.readd).into()),
            ("event words", event_words(self.event_words)),
            ("query terms", query_terms(self.query_terms)),
            ("multi-word query", multi_word(self.multi_word).into()),
            ("tool data", tool_data(self.tool_data).into()),
            ("limit", limit(self.limit)),
            ("order", order(self.order).into()),
            ("timestamps", timestamps(self.timestamps).into()),
            ("strings", strings(self.strings).into()),
            ("visibility", visibility(self.visibility)),
            ("durable", yes_no(self.capabilities.durable).into()),
            ("shared store", yes_no(self.capabilities.shared).into()),
            (
                "event delta",
                events_delta(self.capabilities.events_delta).into(),
            ),
            (
                "explicit memories",
                yes_no(self.capabilities.explicit_memories).into(),
            ),
            ("entry ids", yes_no(self.capabilities.entry_ids).into()),
            ("delete by id", yes_no(self.capabilities.delete).into()),
            (
                "search limit",
                yes_no(self.capabilities.search_limit).into(),
            ),
        ]
    }

    /// Several profiles side by side as a Markdown table, one column per profile.
    pub fn markdown_table(profiles: &[&Profile]) -> String {
        let mut out = String::from("| dimension |");
        for profile in profiles {
            out.push_str(&format!(" {} |", profile.name));
        }
        out.push_str("\n|---|");
        out.push_str(&"---|".repeat(profiles.len()));
        out.push('\n');
        let columns: Vec<Vec<(&str, String)>> = profiles.iter().map(|p| p.rows()).collect();
        for (i, (dimension, _)) in columns
            .first()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            out.push_str(&format!("| {dimension} |"));
            for column in &columns {
                out.push_str(&format!(" {} |", column[i].1.replace('|', "\\|")));
            }
            out.push('\n');
        }
        out
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "profile {} ({})", self.name, self.provenance)?;
        for (dimension, description) in self.rows() {
            writeln!(f, "  {dimension:<17} {description}")?;
        }
        Ok(())
    }
}

fn retrieval(value: &Retrieval) -> String {
    match value {
        Retrieval::Lexical => "lexical".into(),
        Retrieval::Vector(vector) => match vector.index {
            VectorIndex::Exact => format!("vector, {} embeddings, exact nearest", vector.embedder),
            VectorIndex::Approximate { min_recall_percent } => format!(
                "vector, {} embeddings, approximate (at least {min_recall_percent}% of the nearest)",
                vector.embedder
            ),
        },
        Retrieval::Semantic => "semantic (contract rules only)".into(),
    }
}

fn key(value: KeyScheme) -> &'static str {
    match value {
        KeyScheme::Structured => "(app, user) kept apart, exact",
        KeyScheme::JoinedWithSlash => "string app/user: (a/b, c) collides with (a, b/c)",
    }
}

fn visibility(value: Visibility) -> String {
    match value {
        Visibility::Immediate => "at once".into(),
        Visibility::Within { millis } => format!("within {millis} ms"),
    }
}

fn events_delta(value: Option<EventsDelta>) -> &'static str {
    match value {
        None => "no",
        Some(EventsDelta::AppendNewIds) => "appends events with new ids",
        Some(EventsDelta::UpsertByEventId) => "upserts events with text by id",
    }
}

fn strings(value: Strings) -> &'static str {
    match value {
        Strings::Any => "any, U+0000 included",
        Strings::WithoutNul => {
            "without U+0000, a call carrying one may fail (departs from R7.any-string)"
        }
    }
}

fn timestamps(value: Timestamps) -> &'static str {
    match value {
        Timestamps::Rfc3339Utc => "RFC 3339 UTC, milliseconds, Z",
        Timestamps::NaiveIsoformat => {
            "naive local isoformat, microseconds when not zero (departs from R6.entries)"
        }
    }
}

fn readd(value: Readd) -> &'static str {
    match value {
        Readd::Replace => "replace",
        Readd::Append => "append (duplicates)",
        Readd::ReplaceUnlessNoText => "replace, but a re-add with no words is ignored",
        Readd::UpsertByEventId => "upsert by event id (events without text skipped)",
    }
}

fn separators(value: Separators) -> &'static str {
    match value {
        Separators::AsciiWhitespace => "ASCII whitespace",
        Separators::UnicodeWhitespace => "Unicode whitespace",
        Separators::JavaScriptWhitespace => "JavaScript whitespace (\\s)",
        Separators::Space => "the space character only",
    }
}

fn event_words(value: WordRule) -> String {
    match value {
        WordRule::AsciiLetters => "[A-Za-z]+, lowercased".into(),
        WordRule::UnicodeSegmentation => {
            "NFC, Unicode word segmentation (UAX #29) words, lowercased".into()
        }
        WordRule::UnicodeWords { script_runs: false } => "NFC, Unicode \\w+, lowercased".into(),
        WordRule::UnicodeWords { script_runs: true } => {
            "NFC, Unicode \\w+, lowercased; mixed-script words also split by script".into()
        }
        WordRule::Whitespace {
            separators: s,
            cjk_ngrams,
        } => format!(
            "split on {}, punctuation kept, lowercased{}",
            separators(s),
            if cjk_ngrams {
                "; CJK 1- and 2-grams"
            } else {
                ""
            }
        ),
        WordRule::FullText {
            remove_diacritics,
            script_runs,
        } => format!(
            "{}letters and digits, case and Latin diacritics folded (FTS5 remove_diacritics {}), \
             punctuation separates",
            if script_runs {
                "NFC, words cut into Latin and non-Latin runs, then "
            } else {
                ""
            },
            remove_diacritics.fts5_option()
        ),
        WordRule::Custom(custom) => format!("the backend's own word function `{}`", custom.name()),
    }
}

fn query_terms(value: QueryTerms) -> String {
    match value {
        QueryTerms::Tokens { separators: s } => {
            format!("lowercased, split on {}, punctuation kept", separators(s))
        }
        QueryTerms::Words {
            non_ascii_substring,
        } => format!(
            "cut like event words{}",
            if non_ascii_substring {
                "; non-ASCII words also match as substrings"
            } else {
                ""
            }
        ),
        QueryTerms::Phrases { separators: s } => {
            format!(
                "split on {}, each token a phrase cut like event words",
                separators(s)
            )
        }
        QueryTerms::WordRuns => {
            "NFC, each run of word characters and % a phrase cut like event words, no operators"
                .to_owned()
        }
    }
}

fn multi_word(value: MultiWord) -> &'static str {
    match value {
        MultiWord::AnyWord => "any word",
        MultiWord::AllWords => "all words",
    }
}

fn tool_data(value: ToolData) -> &'static str {
    match value {
        ToolData::NotIndexed => "not searchable (text parts only)",
        ToolData::Indexed => "searchable (tool names and string values)",
    }
}

fn limit(value: Limit) -> String {
    match value {
        Limit::Unlimited => "none".into(),
        Limit::AtMost(n) => format!("at most {n}"),
    }
}

fn order(value: Order) -> &'static str {
    match value {
        Order::Unordered => "none promised",
        Order::Insertion {
            integer_ids_first: false,
        } => "insertion (session first added, then event)",
        Order::Insertion {
            integer_ids_first: true,
        } => "insertion, integer-like session ids first",
        Order::MatchedTerms => "most query words matched first, then insertion",
        Order::Relevance => "relevance (e.g. bm25)",
    }
}

fn yes_no(value: bool) -> &'static str {
    if value { "yes" } else { "no" }
}
