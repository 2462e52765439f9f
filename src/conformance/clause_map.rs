//! The clause map: every clause of the reference's specification (`docs/reference-behaviour.md`,
//! R1 to R9) and every value a profile dimension can take, with the rules that check it and the
//! generated inputs that reach it. `docs/clause-map.md` is rendered from this data, and a test
//! fails when a clause, a dimension value or a rule has nothing.

use std::borrow::Cow;
use std::fmt::Write as _;

use crate::profile::dimension::{self, value_id};

/// One clause of the specification, or of a profile dimension's value.
pub(crate) struct Clause {
    /// `R1.byte-for-byte`, or `readd = append`.
    pub(crate) id: Cow<'static, str>,
    /// What it says, in one line.
    pub(crate) says: Cow<'static, str>,
    /// The ids of the rules that check it.
    pub(crate) rules: &'static [&'static str],
    /// The names of the generated inputs ([`INPUTS`]) that reach it.
    pub(crate) inputs: &'static [&'static str],
}

/// The inputs the generators produce (`generate/values.rs`), by name, with what they hold.
pub(crate) const INPUTS: &[(&str, &str)] = &[
    (
        "near-miss keys",
        "a key and one that nearly equals it: case of app or user, `-`/`_` swapped, trailing space, a `u-` prefix, digits only, app and user swapped, empty user",
    ),
    (
        "joined keys",
        "two distinct keys that join to one string under `/`, `:`, no separator, `|`, `::`, `-`, `_`, `.`, a space or NUL",
    ),
    (
        "odd key strings",
        "app names and user ids with `/`, `.`, case, surrounding whitespace, the empty string, NUL and emoji",
    ),
    (
        "near-miss session ids",
        "a session id and one that nearly equals it: case, `_`, trailing space, digits only, a longer id, empty, a leading zero",
    ),
    (
        "re-adds",
        "the same session id added again with other text, with fewer or more events, under the same or new event ids, with no text, or with no events",
    ),
    (
        "re-adds by event id",
        "versions of one session whose events keep, change, lose or gain event ids, mixing text, blank text, punctuation-only text and events without text",
    ),
    (
        "textless events",
        "events with no content, no parts, an empty text, only a function call, only a function response, only inline data",
    ),
    (
        "tool parts",
        "words only in function-call arguments or function-response values, nested, beside text or alone",
    ),
    (
        "session state",
        "words only in session-state keys and values",
    ),
    (
        "authors",
        "authors in every case, and searches for an author's name that no text holds",
    ),
    (
        "multi-part contents",
        "contents with several parts in every order: text, empty text, function call, inline data, a role or none",
    ),
    (
        "timestamps",
        "event instants with nanoseconds, over four centuries from 2026",
    ),
    (
        "cased words",
        "words in lower, upper, capitalised and mixed case, with accents and `ß`",
    ),
    (
        "punctuation",
        "every ASCII punctuation character and Unicode ones, before, after, inside and around a word, on the query or in the text",
    ),
    (
        "separators",
        "words joined by every kind of ASCII whitespace, Unicode whitespace (no-break, em, ideographic, line separator, next line) and punctuation",
    ),
    (
        "blank queries",
        "empty and whitespace-only queries, ASCII and Unicode",
    ),
    ("digits", "numbers, identifiers, times, dates and versions"),
    (
        "non-ASCII words",
        "accents in NFC and NFD, German, CJK runs, mixed-script words",
    ),
    (
        "stop words",
        "English stop words (`the`, `or`, `what`, `i`) around the word asked for in questions and in stored text, and asked alone (the lexicon's questions and its `stop` generator)",
    ),
    (
        "short words",
        "query terms of one or two characters: the parts of joined words (`s`, `t`, `x`), numbers (`v2`, `01`), two-character CJK words (`咖啡`) and the short words of questions (`i`, `it`)",
    ),
    (
        "inflected words",
        "forms of one English word stored and asked apart: `-s`, `-es`, `-ed`, `-ing`, `-er` and irregular forms (`brew`, `brewing`, `brewed`; `run`, `ran`), the lexicon's `inflected` generator, and the possessive `'s` of its joined words (`user's`, `users`)",
    ),
    (
        "many matches",
        "more matching events than the profile's limit, or 30 when it has none (now and then 101 to 160, and in one case in 65 a key of 1,001 to 1,050), over up to three sessions",
    ),
    (
        "ranked beyond the limit",
        "more weaker matches than the limit, added before the stronger ones",
    ),
    (
        "concurrent adds",
        "several sessions of two keys added at once",
    ),
    (
        "racing replace",
        "a session re-added in turn with several versions while another task searches",
    ),
    (
        "random operations",
        "up to 24 adds, re-adds and searches over four keys that collide under `/` or nearly equal each other",
    ),
    (
        "reopen",
        "every instance closed, then a new one opened on the same storage",
    ),
    (
        "second instance",
        "another instance opened on the same storage",
    ),
    (
        "replicas",
        "three instances on one storage behind a round-robin load balancer, written through one at a time and concurrently, each write searched through every instance",
    ),
    (
        "later session",
        "the `load_memory` tool run from a later session of the same user",
    ),
    (
        "vector texts",
        "stores whose texts share whole words, only inflections (trigrams), punctuated forms or nothing with the query, beside textless events, searched with and without a limit",
    ),
    (
        "event deltas",
        "deltas of events for a session or none, whose event ids repeat, extend or replace what the session holds, some with a role or a function call beside their text, mixed with whole adds",
    ),
    (
        "explicit memories",
        "memories with and without an id, authors and timestamps, and without parts, beside a session sharing their words",
    ),
    (
        "deletions",
        "a memory found by a search and deleted by its id, an unknown id, then searches under every query, from another instance, after a reopen and after the session is added again",
    ),
    (
        "limited searches",
        "one query asked with two limits, each from 1 to the matches plus 3, over matches with events that do not match before, between and after them",
    ),
    (
        "delayed writes",
        "every write followed by searches that must see it, and by searches that must not, under a declared visibility bound",
    ),
];

/// The clauses of `docs/reference-behaviour.md`, R1 to R9, and of the debugging guide's tool.
pub(crate) const SPECIFICATION: &[Clause] = &[
    Clause {
        id: Cow::Borrowed("R1.two-level"),
        says: Cow::Borrowed("storage is the pair (app name, user id), then the session id"),
        rules: &["key.isolation", "replace.other_sessions_untouched"],
        inputs: &["near-miss keys", "near-miss session ids"],
    },
    Clause {
        id: Cow::Borrowed("R1.byte-for-byte"),
        says: Cow::Borrowed(
            "keys are compared byte for byte: no trimming, case folding or normalisation",
        ),
        rules: &["key.isolation", "query.unknown_key"],
        inputs: &["near-miss keys", "odd key strings"],
    },
    Clause {
        id: Cow::Borrowed("R1.no-join"),
        says: Cow::Borrowed("no two distinct pairs ever share storage, whatever would join them"),
        rules: &["key.no_separator_collision", "model.random_ops"],
        inputs: &["joined keys", "random operations"],
    },
    Clause {
        id: Cow::Borrowed("R2.kept-events"),
        says: Cow::Borrowed("only events whose content is present and has a part are stored"),
        rules: &["index.empty_events", "model.random_ops"],
        inputs: &["textless events", "random operations"],
    },
    Clause {
        id: Cow::Borrowed("R2.replace"),
        says: Cow::Borrowed("a re-add replaces what the session held, also with an empty list"),
        rules: &[
            "replace.readd_replaces",
            "replace.readd_with_nothing",
            "replace.readd_as_declared",
        ],
        inputs: &["re-adds", "textless events", "re-adds by event id"],
    },
    Clause {
        id: Cow::Borrowed("R2.others-untouched"),
        says: Cow::Borrowed("other sessions are never touched"),
        rules: &["replace.other_sessions_untouched"],
        inputs: &["near-miss session ids", "near-miss keys", "re-adds"],
    },
    Clause {
        id: Cow::Borrowed("R2.no-state"),
        says: Cow::Borrowed("session state is never stored for search"),
        rules: &["index.text_only"],
        inputs: &["session state"],
    },
    Clause {
        id: Cow::Borrowed("R3.lowercase"),
        says: Cow::Borrowed("the query is lowercased, full Unicode"),
        rules: &["query.case_insensitive"],
        inputs: &["cased words"],
    },
    Clause {
        id: Cow::Borrowed("R3.ascii-whitespace"),
        says: Cow::Borrowed(
            "the query is split on runs of ASCII whitespace; empty tokens are ignored",
        ),
        rules: &["query.multi_word", "query.blank", "model.random_ops"],
        inputs: &["separators", "blank queries"],
    },
    Clause {
        id: Cow::Borrowed("R3.punctuation-stays"),
        says: Cow::Borrowed("punctuation stays attached to its token"),
        rules: &["punctuation.query"],
        inputs: &["punctuation"],
    },
    Clause {
        id: Cow::Borrowed("R4.text-parts"),
        says: Cow::Borrowed(
            "only text parts are read; calls, responses, inline data (and authors) add nothing",
        ),
        rules: &["index.text_only", "result.fidelity"],
        inputs: &["tool parts", "authors", "multi-part contents"],
    },
    Clause {
        id: Cow::Borrowed("R4.ascii-letters"),
        says: Cow::Borrowed(
            "words are runs of [A-Za-z], ASCII-lowercased; digits, `_`, accents and non-Latin letters separate",
        ),
        rules: &[
            "punctuation.event",
            "query.digits",
            "query.non_ascii",
            "model.random_ops",
        ],
        inputs: &["punctuation", "digits", "non-ASCII words"],
    },
    Clause {
        id: Cow::Borrowed("R4.fix-2"),
        says: Cow::Borrowed("a stored non-text part never breaks a search"),
        rules: &["index.text_only", "index.empty_events", "result.fidelity"],
        inputs: &["tool parts", "textless events", "multi-part contents"],
    },
    Clause {
        id: Cow::Borrowed("R5.any-token"),
        says: Cow::Borrowed(
            "an event matches when at least one query token equals one of its words",
        ),
        rules: &["query.multi_word", "model.random_ops"],
        inputs: &["separators", "random operations"],
    },
    Clause {
        id: Cow::Borrowed("R5.dead-tokens"),
        says: Cow::Borrowed("a token not made only of ASCII letters never matches"),
        rules: &["punctuation.query", "query.digits", "query.non_ascii"],
        inputs: &["punctuation", "digits", "non-ASCII words"],
    },
    Clause {
        id: Cow::Borrowed("R6.every-match"),
        says: Cow::Borrowed("every matching event of every session of the key: no score, no limit"),
        rules: &["result.limit", "model.random_ops"],
        inputs: &["many matches", "random operations"],
    },
    Clause {
        id: Cow::Borrowed("R6.no-dedup"),
        says: Cow::Borrowed("the same event stored in two sessions comes back twice"),
        rules: &["model.random_ops", "result.limit"],
        inputs: &["random operations", "many matches"],
    },
    Clause {
        id: Cow::Borrowed("R6.order"),
        says: Cow::Borrowed(
            "sessions in the order their ids were first added, events in session order",
        ),
        rules: &["result.order"],
        inputs: &["re-adds"],
    },
    Clause {
        id: Cow::Borrowed("R6.entries"),
        says: Cow::Borrowed(
            "an entry is the event's content unchanged, its author and an RFC 3339 UTC timestamp with milliseconds (fix 3)",
        ),
        rules: &[
            "result.fidelity",
            "replace.readd_replaces",
            "delta.as_declared",
            "durability.reopen",
            "scope.shared",
        ],
        inputs: &[
            "multi-part contents",
            "timestamps",
            "authors",
            "re-adds",
            "event deltas",
            "reopen",
            "second instance",
        ],
    },
    Clause {
        id: Cow::Borrowed("R7.unknown-key"),
        says: Cow::Borrowed("an unknown key gives an empty response, not an error"),
        rules: &["query.unknown_key"],
        inputs: &["near-miss keys"],
    },
    Clause {
        id: Cow::Borrowed("R7.blank-query"),
        says: Cow::Borrowed("an empty or whitespace-only query gives an empty response"),
        rules: &["query.blank"],
        inputs: &["blank queries"],
    },
    Clause {
        id: Cow::Borrowed("R7.any-string"),
        says: Cow::Borrowed("any string is accepted as app name, user id, session id or query"),
        rules: &[
            "key.isolation",
            "key.no_separator_collision",
            "model.random_ops",
        ],
        inputs: &["odd key strings", "near-miss session ids", "punctuation"],
    },
    Clause {
        id: Cow::Borrowed("R8.adds-land"),
        says: Cow::Borrowed("concurrent adds of distinct sessions all land"),
        rules: &["concurrency.adds_land"],
        inputs: &["concurrent adds"],
    },
    Clause {
        id: Cow::Borrowed("R8.atomic-replace"),
        says: Cow::Borrowed("a concurrent search sees the old list or the new one, never a mix"),
        rules: &["concurrency.atomic_replace"],
        inputs: &["racing replace"],
    },
    Clause {
        id: Cow::Borrowed("R9.delta"),
        says: Cow::Borrowed(
            "a delta appends the events whose id the session does not hold; no session id is a session of its own",
        ),
        rules: &["delta.as_declared", "model.random_ops"],
        inputs: &["event deltas", "random operations"],
    },
    Clause {
        id: Cow::Borrowed("R9.memories"),
        says: Cow::Borrowed(
            "explicit memories are searchable like events, stored as given, under their key only",
        ),
        rules: &["memories.searchable", "model.random_ops"],
        inputs: &["explicit memories", "random operations"],
    },
    Clause {
        id: Cow::Borrowed("R9.delete"),
        says: Cow::Borrowed(
            "a deleted memory is never returned again, under any query, from any instance, after a reopen or a re-add",
        ),
        rules: &["forget.never_returned", "model.random_ops"],
        inputs: &[
            "deletions",
            "reopen",
            "second instance",
            "random operations",
        ],
    },
    Clause {
        id: Cow::Borrowed("R9.delete-scoped"),
        says: Cow::Borrowed(
            "deleting under one key never touches another; an unknown id changes nothing",
        ),
        rules: &["forget.other_keys_untouched", "forget.never_returned"],
        inputs: &["deletions", "near-miss keys", "joined keys"],
    },
    Clause {
        id: Cow::Borrowed("R9.entry-ids"),
        says: Cow::Borrowed("every entry carries its memory's id, the same in every search"),
        rules: &["result.entry_ids"],
        inputs: &["many matches"],
    },
    Clause {
        id: Cow::Borrowed("R9.search-limit"),
        says: Cow::Borrowed("a search with a limit returns the first n entries of the answer"),
        rules: &["result.limit_option"],
        inputs: &["limited searches", "many matches"],
    },
    Clause {
        id: Cow::Borrowed("guide.load-memory"),
        says: Cow::Borrowed(
            "a fact written in one session is found by `load_memory` in a later session",
        ),
        rules: &["recall.across_sessions"],
        inputs: &["later session"],
    },
];

/// Every value a profile dimension can take, with the rules that check a backend declaring it:
/// the dimension table's (`src/profile/dimension.rs` and its rows in `src/profile/dimension/`).
pub(crate) fn dimension_values() -> Vec<Clause> {
    dimension::table()
        .into_iter()
        .flat_map(|row| {
            row.values.into_iter().map(move |entry| Clause {
                id: Cow::Owned(value_id(row.key, entry)),
                says: match entry.departs {
                    Some(clause) => {
                        Cow::Owned(format!("{} (a stated departure from {clause})", entry.says))
                    }
                    None => Cow::Borrowed(entry.says),
                },
                rules: entry.rules,
                inputs: entry.inputs,
            })
        })
        .collect()
}

/// The map as Markdown: `docs/clause-map.md`.
pub(crate) fn markdown() -> String {
    let mut out = String::from(
        "# The clause map\n\n\
         Every clause of [the reference's behaviour](reference-behaviour.md) and every value a \
         profile dimension can take, with the rules that check it and the generated inputs that \
         reach it. Generated from `src/conformance/clause_map.rs` (the specification and the \
         inputs) and `src/profile/dimension/` (the dimension values); a test fails when a \
         clause, a value or a rule has nothing, or when this page differs from the data.\n",
    );
    let table = |out: &mut String, title: &str, clauses: &[Clause]| {
        let _ = write!(
            out,
            "\n## {title}\n\n| clause | says | rules | inputs |\n|---|---|---|---|\n"
        );
        for clause in clauses {
            let rules: Vec<String> = clause.rules.iter().map(|r| format!("`{r}`")).collect();
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                clause.id.replace('|', "\\|"),
                clause.says.replace('|', "\\|"),
                rules.join(", "),
                clause.inputs.join(", ")
            );
        }
    };
    table(&mut out, "The specification, R1 to R9", SPECIFICATION);
    table(&mut out, "Profile dimension values", &dimension_values());
    let _ = write!(
        out,
        "\n## The generated inputs\n\n| input | what it holds |\n|---|---|\n"
    );
    for (name, holds) in INPUTS {
        let _ = writeln!(out, "| {name} | {} |", holds.replace('|', "\\|"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::rules;

    #[test]
    fn every_clause_and_dimension_value_has_rules_and_inputs_that_exist() {
        for clause in SPECIFICATION.iter().chain(&dimension_values()) {
            assert!(!clause.rules.is_empty(), "{} has no rule", clause.id);
            assert!(!clause.inputs.is_empty(), "{} has no input", clause.id);
            for rule in clause.rules {
                assert!(rules::find(rule).is_some(), "{}: no rule {rule}", clause.id);
            }
            for input in clause.inputs {
                assert!(
                    INPUTS.iter().any(|(name, _)| name == input),
                    "{}: no input {input}",
                    clause.id
                );
            }
        }
    }

    #[test]
    fn every_rule_the_dimension_table_names_exists() {
        for row in dimension::table() {
            for rule in row.decided_by {
                assert!(
                    rules::find(rule).is_some(),
                    "dimension {} is decided by {rule}, which is no rule",
                    row.key
                );
            }
            for entry in &row.values {
                for (rule, _) in entry.implies {
                    let found = rules::find(rule)
                        .unwrap_or_else(|| panic!("{} implies no rule {rule}", row.key));
                    assert_eq!(
                        found.requirement(),
                        rules::Requirement::Required,
                        "{} implies {rule} cannot hold, but only a required rule needs a known violation",
                        value_id(row.key, entry)
                    );
                }
            }
        }
    }

    #[test]
    fn every_clause_of_the_specification_is_mapped() {
        let spec = include_str!("../../docs/reference-behaviour.md");
        for n in 1..=9 {
            let heading = format!("## R{n} ");
            assert!(
                spec.contains(&heading),
                "the specification has no {heading}"
            );
            let prefix = format!("R{n}.");
            assert!(
                SPECIFICATION.iter().any(|c| c.id.starts_with(&prefix)),
                "R{n} has no clause in the map"
            );
        }
    }

    #[test]
    fn every_dimension_value_has_a_name_of_its_own() {
        let values = dimension_values();
        for (i, value) in values.iter().enumerate() {
            assert!(
                !values[..i].iter().any(|other| other.id == value.id),
                "two dimension values are called {}",
                value.id
            );
        }
    }

    #[test]
    fn every_rule_and_every_input_is_in_the_map() {
        let values = dimension_values();
        let clauses: Vec<&Clause> = SPECIFICATION.iter().chain(&values).collect();
        for rule in rules::catalogue() {
            assert!(
                clauses.iter().any(|c| c.rules.contains(&rule.id())),
                "{} checks no clause of the map",
                rule.id()
            );
        }
        for (input, _) in INPUTS {
            assert!(
                clauses.iter().any(|c| c.inputs.contains(input)),
                "{input} reaches no clause of the map"
            );
        }
    }

    #[test]
    fn the_docs_render_the_map() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/clause-map.md");
        let rendered = markdown();
        if std::env::var_os("MEMORY_CONFORMANCE_WRITE_DOCS").is_some() {
            std::fs::write(path, &rendered).unwrap();
        }
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            committed == rendered,
            "docs/clause-map.md differs from src/conformance/clause_map.rs and \
             src/profile/dimension.rs: regenerate it with \
             `MEMORY_CONFORMANCE_WRITE_DOCS=1 cargo test -p memory-conformance --lib clause_map`"
        );
    }
}
