//! Profiles as TOML files, format 1: every dimension and capability of a [`Profile`], a preset
//! to start from (`extends`), the known violations of the backend's gate and the gate's
//! options. `docs/profile-format.md` describes every key.
//!
//! The file lives with the gate because its gate half is the gate's ([`KnownViolation`]
//! values, the recall floor of the benchmark): the profile layer depends on neither. Its
//! TOML shape, where it differs from the values', is `raw.rs`.

use std::path::Path;

use crate::benchmark::floor::RecallFloor;
use crate::profile::Profile;

use super::known_violation::KnownViolation;
use super::rule_set::RuleSetVersion;

mod raw;

use raw::RawFile;

/// The format version this kit reads and writes.
pub const PROFILE_FORMAT: u32 = 1;

/// A profile file: the profile, and the gate's declaration that goes with it.
///
/// ```
/// use memory_conformance::conformance::ProfileFile;
/// use memory_conformance::profile::Limit;
/// let file = ProfileFile::parse(r#"
///     format = 1
///     extends = "adk-python"
///     name = "my-sqlite-memory"
///     limit = 25
///
///     [[known_violation]]
///     rule = "result.fidelity"
///     reason = "naive local timestamps"
/// "#).unwrap();
/// assert_eq!(file.profile.name, "my-sqlite-memory");
/// assert_eq!(file.profile.limit, Limit::AtMost(25));
/// assert_eq!(file.profile.key, memory_conformance::profile::Profile::adk_python().key);
/// assert_eq!(file.known_violations[0].rule_id(), "result.fidelity");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ProfileFile {
    /// The profile.
    pub profile: Profile,
    /// Known violations the gate declares, those that are not races first, then the races
    /// (`intermittent = true`, [intermittent](KnownViolation::is_intermittent)).
    pub known_violations: Vec<KnownViolation>,
    /// Generated cases per rule, if the file says.
    pub cases: Option<u32>,
    /// The seed, if the file says.
    pub seed: Option<u64>,
    /// The per-call timeout in seconds, if the file says.
    pub op_timeout_seconds: Option<u64>,
    /// The rule set the gate pins (`[gate] rules_as_of = "0.1"`, see
    /// [`Gate::rules_as_of`](super::gate::Gate::rules_as_of)), if the file says.
    pub rules_as_of: Option<RuleSetVersion>,
    /// The least recall on the recall benchmark the gate accepts (`[gate] recall_at_5` and
    /// `[gate.recall_at_5_by_kind]`); empty when the file declares none.
    pub recall_floor: RecallFloor,
}

/// Why a profile file cannot be read: where (line and column), which field, and what was
/// expected.
#[derive(Debug)]
pub struct ProfileFileError {
    message: String,
}

impl std::fmt::Display for ProfileFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ProfileFileError {}

impl ProfileFile {
    /// Reads a profile file's text.
    pub fn parse(text: &str) -> Result<Self, ProfileFileError> {
        let raw: RawFile = toml::from_str(text).map_err(|err| ProfileFileError {
            message: located(text, &err),
        })?;
        raw.into_file()
            .map_err(|message| ProfileFileError { message })
    }

    /// Reads the profile file at `path`; errors name the file.
    pub fn read(path: &Path) -> Result<Self, ProfileFileError> {
        let text = std::fs::read_to_string(path).map_err(|err| ProfileFileError {
            message: format!("{}: cannot read the profile file: {err}", path.display()),
        })?;
        Self::parse(&text).map_err(|err| ProfileFileError {
            message: format!("{}: {err}", path.display()),
        })
    }

    /// The file of `profile` alone, every dimension written out (no `extends`).
    pub fn of(profile: Profile) -> Self {
        Self {
            profile,
            known_violations: Vec::new(),
            cases: None,
            seed: None,
            op_timeout_seconds: None,
            rules_as_of: None,
            recall_floor: RecallFloor::default(),
        }
    }

    /// The file as TOML, every dimension written out; [`ProfileFile::parse`] reads it back to
    /// the same value.
    pub fn to_toml(&self) -> String {
        let raw = RawFile::from_file(self);
        toml::to_string(&raw).unwrap_or_else(|err| format!("# cannot write the profile: {err}\n"))
    }
}

/// The message of a TOML or field error, with the line and column it points at.
fn located(text: &str, err: &toml::de::Error) -> String {
    let message = err.message().trim_end();
    match err.span() {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before
                .rfind('\n')
                .map_or(before.len(), |i| before.len() - i - 1)
                + 1;
            let source = text.lines().nth(line - 1).unwrap_or_default().trim();
            format!("line {line}, column {column} (`{source}`): {message}")
        }
        None => message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::{
        BlankEvents, BlankQuery, CaseMapping, DroppedWords, Duplicates, EventIds, Strings,
        Timestamps, WordRule, presets,
    };
    use crate::profile::{KeyScheme, RemoveDiacritics};

    #[test]
    fn every_preset_round_trips_through_the_format() {
        for preset in presets() {
            let mut file = ProfileFile::of(preset.clone());
            file.known_violations = vec![
                KnownViolation::declared("result.fidelity", "naive \"local\" time"),
                KnownViolation::intermittent("scope.shared", "a pool race"),
            ];
            file.cases = Some(64);
            let text = file.to_toml();
            let back = ProfileFile::parse(&text)
                .unwrap_or_else(|err| panic!("{}: {err}\n{text}", preset.name));
            assert_eq!(back, file, "{text}");
        }
    }

    #[test]
    fn every_dimension_is_written_under_its_name() {
        let mut profile = Profile::reference();
        profile.timestamps = Timestamps::NaiveIsoformat;
        profile.strings = Strings::WithoutNul;
        profile.blank_query = BlankQuery::Nearest;
        profile.duplicates = Duplicates::Merged;
        profile.event_ids = EventIds::PerKey;
        profile.blank_events = BlankEvents::RankedLast;
        profile.case_mapping = CaseMapping::Simple;
        profile.dropped_words = DroppedWords::stop_words(["the"]).with_shorter_than(3);
        profile.stemming = crate::profile::Stemming::English;
        profile.capabilities.events_delta = Some(crate::profile::EventsDelta::AppendNewIds);
        profile.capabilities.explicit_memories = true;
        profile.capabilities.entry_ids = true;
        profile.capabilities.delete = true;
        profile.capabilities.search_limit = true;
        let written = ProfileFile::of(profile).to_toml();
        for row in crate::profile::dimension::table() {
            let key = match row.key {
                "visibility" => continue,
                key => key,
            };
            let (table, field) = key.split_once('.').unwrap_or(("", key));
            let found = if table.is_empty() {
                written.contains(&format!("\n{field} = "))
                    || written.contains(&format!("[{field}]"))
            } else {
                written
                    .split_once(&format!("[{table}]"))
                    .is_some_and(|(_, rest)| rest.contains(&format!("\n{field} = ")))
            };
            assert!(found, "the file writes no `{key}`:\n{written}");
        }
    }

    #[test]
    fn an_intermittent_violation_is_declared_apart_from_the_others() {
        let file = ProfileFile::parse(
            "format = 1\nextends = \"reference\"\n[[known_violation]]\nrule = \"result.fidelity\"\nreason = \"naive\"\n[[known_violation]]\nrule = \"scope.shared\"\nreason = \"a pool race\"\nintermittent = true\n[[known_violation]]\nrule = \"key.isolation\"\nreason = \"said plainly\"\nintermittent = false\n",
        )
        .unwrap();
        assert_eq!(
            file.known_violations,
            [
                KnownViolation::declared("result.fidelity", "naive"),
                KnownViolation::declared("key.isolation", "said plainly"),
                KnownViolation::intermittent("scope.shared", "a pool race"),
            ]
        );
        let written = file.to_toml();
        assert_eq!(
            written.matches("intermittent = true").count(),
            1,
            "{written}"
        );
        assert!(!written.contains("intermittent = false"), "{written}");

        let err = ProfileFile::parse(
            "format = 1\nextends = \"reference\"\n[[known_violation]]\nrule = \"scope.shared\"\nreason = \"r\"\nintermittent = \"yes\"\n",
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("line 6"), "{err}");
        assert!(err.contains("expected a boolean"), "{err}");
    }

    #[test]
    fn a_key_joined_with_another_character_reads_and_writes_back() {
        let file = ProfileFile::parse(
            "format = 1\nextends = \"reference\"\nkey = { joined_with = \":\" }\n",
        )
        .unwrap();
        assert_eq!(file.profile.key, KeyScheme::JoinedWith(':'));
        let again = ProfileFile::parse(&file.to_toml()).unwrap();
        assert_eq!(again.profile.key, KeyScheme::JoinedWith(':'));
    }

    #[test]
    fn dropped_words_read_and_write_back_and_are_left_out_where_none_is() {
        let file = ProfileFile::parse(
            "format = 1\nextends = \"reference\"\n[dropped_words]\nstop_words = [\"the\", \"a\", \"or\"]\nshorter_than = 3\n",
        )
        .unwrap();
        assert_eq!(
            file.profile.dropped_words,
            DroppedWords::stop_words(["a", "or", "the"]).with_shorter_than(3)
        );
        let written = file.to_toml();
        assert!(
            written.contains("[dropped_words]\nstop_words = [\n    \"a\",")
                || written.contains("[dropped_words]\nstop_words = [\"a\", \"or\", \"the\"]"),
            "{written}"
        );
        assert_eq!(ProfileFile::parse(&written).unwrap(), file);
        for dropped in [
            DroppedWords::stop_words(["what"]),
            DroppedWords::none().with_shorter_than(2),
        ] {
            let mut profile = Profile::reference();
            profile.dropped_words = dropped.clone();
            let again = ProfileFile::parse(&ProfileFile::of(profile).to_toml()).unwrap();
            assert_eq!(again.profile.dropped_words, dropped);
        }
        let none = ProfileFile::of(Profile::reference()).to_toml();
        assert!(!none.contains("dropped_words"), "{none}");
    }

    #[test]
    fn stemming_reads_and_writes_back_and_is_left_out_where_none_is() {
        use crate::profile::Stemming;
        let file =
            ProfileFile::parse("format = 1\nextends = \"reference\"\nstemming = \"english\"\n")
                .unwrap();
        assert_eq!(file.profile.stemming, Stemming::English);
        let written = file.to_toml();
        assert!(written.contains("\nstemming = \"english\"\n"), "{written}");
        assert_eq!(ProfileFile::parse(&written).unwrap(), file);
        let none = ProfileFile::of(Profile::reference()).to_toml();
        assert!(!none.contains("stemming"), "{none}");
    }

    #[test]
    fn extends_starts_from_a_preset_and_overrides_whole_dimensions() {
        let file = ProfileFile::parse(
            "format = 1\nextends = \"adk-js\"\nname = \"x\"\n[event_words]\nrule = \"full-text\"\nremove_diacritics = \"single\"\n[capabilities]\ndurable = true\n[gate]\nseed = 7\nop_timeout_seconds = 30\n",
        )
        .unwrap();
        let adk_js = Profile::adk_js();
        assert_eq!(file.profile.key, adk_js.key);
        assert_eq!(file.profile.query_terms, adk_js.query_terms);
        assert_eq!(
            file.profile.event_words,
            WordRule::FullText {
                remove_diacritics: RemoveDiacritics::Single,
                script_runs: false,
            }
        );
        assert!(file.profile.capabilities.durable && !file.profile.capabilities.shared);
        assert_eq!(
            (file.seed, file.op_timeout_seconds, file.cases),
            (Some(7), Some(30), None)
        );
        assert_eq!(file.profile.provenance, "extends adk-js");
    }

    #[test]
    fn a_bad_file_names_the_line_and_the_field() {
        let cases = [
            (
                "format = 1\nextends = \"reference\"\nreadd = \"upsert\"\n",
                "line 3, column 9 (`readd = \"upsert\"`): unknown variant `upsert`, expected one of `replace`, `append`, `replace-unless-no-text`, `upsert-by-event-id`",
            ),
            (
                "format = 1\nextends = \"reference\"\nlimt = 3\n",
                "line 3, column 1 (`limt = 3`): unknown field `limt`, expected one of",
            ),
            (
                "format = 1\nextends = \"reference\"\n[event_words]\nrule = \"full-text\"\n",
                "missing field `remove_diacritics`",
            ),
            (
                "format = 1\nextends = \"reference\"\nlimit = \"many\"\n",
                "line 3, column 9 (`limit = \"many\"`)",
            ),
            (
                "format = 1\nextends = \"nope\"\n",
                "field `extends`: no preset is called \"nope\"; the presets are reference, adk-java",
            ),
            (
                "format = 2\n",
                "field `format`: this kit reads profile format 1, not 2",
            ),
            ("extends = \"reference\"\n", "field `format` is missing"),
            (
                "format = 1\nname = \"x\"\n",
                "without `extends`, every dimension must be given; missing: retrieval, key",
            ),
            (
                "format = 1\nextends = \"reference\"\nlimit = 0\n",
                "field `limit`: a limit of 0 returns nothing",
            ),
            (
                "format = 1\nextends = \"reference\"\n[[known_violation]]\nrule = \"x\"\n",
                "missing field `reason`",
            ),
            ("format = 1\nextends = [\n", "line 2, column"),
            (
                "format = 1\nextends = \"reference\"\nkey = { joined_with = \"/\" }\n",
                "field `key`: a key joined with `/` is written `key = \"joined-with-slash\"`",
            ),
            (
                "format = 1\nextends = \"reference\"\nkey = { joined_with = \"::\" }\n",
                "expected a character",
            ),
            (
                "format = 1\nextends = \"reference\"\n[dropped_words]\n",
                "table `[dropped_words]` drops nothing: give `stop_words` or `shorter_than`, or leave the table out",
            ),
            (
                "format = 1\nextends = \"reference\"\n[dropped_words]\nstop_words = []\n",
                "table `[dropped_words]` drops nothing",
            ),
            (
                "format = 1\nextends = \"reference\"\n[dropped_words]\nstop_words = [\"the\", \"\"]\n",
                "field `dropped_words.stop_words` holds \"\": a stop word is one word, not empty and without whitespace",
            ),
            (
                "format = 1\nextends = \"reference\"\n[dropped_words]\nstop_words = [\"The\"]\n",
                "field `dropped_words.stop_words` holds \"The\": stop words are written lowercase, as the word rules give words (\"the\")",
            ),
            (
                "format = 1\nextends = \"reference\"\n[dropped_words]\nstop_words = [\"or\", \"or\"]\n",
                "field `dropped_words.stop_words` names \"or\" twice: name each stop word once",
            ),
            (
                "format = 1\nextends = \"reference\"\n[dropped_words]\nshorter_than = 0\n",
                "field `dropped_words.shorter_than`: 0 drops nothing; leave it out",
            ),
            (
                "format = 1\nextends = \"reference\"\nretrieval = \"semantic\"\n[dropped_words]\nshorter_than = 3\n",
                "table `[dropped_words]` is for `retrieval = \"lexical\"`",
            ),
            (
                "format = 1\nextends = \"reference\"\nretrieval = \"semantic\"\nstemming = \"english\"\n",
                "field `stemming` is for `retrieval = \"lexical\"`",
            ),
            (
                "format = 1\nextends = \"reference\"\nstemming = \"english\"\n[query_terms]\nrule = \"substrings\"\nseparators = \"ascii-whitespace\"\n",
                "field `stemming` compares words, and `query_terms = substrings` matches no word",
            ),
            (
                "format = 1\nextends = \"reference\"\nstemming = \"porter\"\n",
                "unknown variant `porter`, expected `none` or `english`",
            ),
        ];
        for (text, expected) in cases {
            let err = ProfileFile::parse(text).unwrap_err().to_string();
            assert!(
                err.contains(expected),
                "{text:?}\n  gave: {err}\n  want: {expected}"
            );
        }
        let missing = ProfileFile::read(Path::new("/nonexistent/profile.toml"))
            .unwrap_err()
            .to_string();
        assert!(
            missing.starts_with("/nonexistent/profile.toml: cannot read the profile file"),
            "{missing}"
        );
    }
}

/// The format page, `docs/profile-format.md`, against what this file reads.
#[cfg(test)]
mod format_page {
    use super::*;
    use crate::benchmark::question_kind::QuestionKind;
    use crate::profile::{
        Capabilities, Limit, Order, QueryTerms, Retrieval, VectorSearch, Visibility, WordRule,
        presets,
    };
    use crate::profile::{EventsDelta, RemoveDiacritics};

    const PAGE: &str = include_str!("../../../../docs/profile-format.md");

    /// The line that keeps the TOML block after it from being parsed: its keys are documented
    /// before this kit reads them.
    const NOT_PARSED: &str =
        "<!-- profile-format test: not parsed until the [gate] recall keys are read -->";

    /// Every TOML block of the page, and whether the marker line comes right before it.
    fn toml_blocks() -> Vec<(&'static str, bool)> {
        let mut blocks = Vec::new();
        let mut rest = PAGE;
        while let Some(at) = rest.find("```toml\n") {
            let marked = rest[..at].trim_end().ends_with(NOT_PARSED);
            let body = &rest[at + "```toml\n".len()..];
            let end = body
                .find("```")
                .expect("every TOML block of the page is closed");
            blocks.push((&body[..end], marked));
            rest = &body[end + "```".len()..];
        }
        blocks
    }

    #[test]
    fn every_example_of_the_format_page_reads_as_it_says() {
        let blocks = toml_blocks();
        let parsed: Vec<ProfileFile> = blocks
            .iter()
            .filter(|(_, marked)| !marked)
            .map(|(text, _)| ProfileFile::parse(text).unwrap_or_else(|err| panic!("{err}\n{text}")))
            .collect();
        // The complete example, then the vector one; any later block must read too.
        let [complete, vector, ..] = &parsed[..] else {
            panic!(
                "the page has the complete example and the vector one, but {} TOML blocks are parsed",
                parsed.len()
            );
        };

        let p = &complete.profile;
        assert_eq!(p.name, "my-sqlite-memory");
        assert_eq!(p.retrieval, Retrieval::Lexical);
        assert_eq!(p.limit, Limit::AtMost(25));
        assert_eq!(p.order, Order::MatchedTerms);
        assert_eq!(p.visibility, Visibility::Within { millis: 500 });
        assert_eq!(
            p.event_words,
            WordRule::FullText {
                remove_diacritics: RemoveDiacritics::All,
                script_runs: false
            }
        );
        assert_eq!(
            p.query_terms,
            QueryTerms::Words {
                non_ascii_substring: false
            }
        );
        assert_eq!(
            p.dropped_words,
            crate::profile::DroppedWords::stop_words(["the", "what"]).with_shorter_than(3)
        );
        assert_eq!(
            p.capabilities,
            Capabilities {
                durable: true,
                shared: true,
                events_delta: Some(EventsDelta::AppendNewIds),
                explicit_memories: true,
                delete: true,
                entry_ids: true,
                search_limit: true,
            }
        );
        let declared: Vec<(&str, bool)> = complete
            .known_violations
            .iter()
            .map(|v| (v.rule_id(), v.is_intermittent()))
            .collect();
        assert_eq!(
            declared,
            [("result.fidelity", false), ("scope.shared", true)]
        );
        assert_eq!(
            (complete.cases, complete.seed, complete.op_timeout_seconds),
            (Some(128), Some(2026), Some(20))
        );

        assert_eq!(
            vector.profile.retrieval,
            Retrieval::Vector(VectorSearch::approximate("hashed-256", 90))
        );
        assert_eq!(
            (vector.profile.limit, vector.profile.order),
            (Limit::AtMost(10), Order::Relevance)
        );

        let recall = parsed
            .iter()
            .find(|file| !file.recall_floor.is_empty())
            .expect("the page has a recall floor example");
        assert_eq!(recall.recall_floor.overall(), Some(0.8));
        assert_eq!(
            recall.recall_floor.kinds(),
            &[
                (QuestionKind::NumberId, 0.25),
                (QuestionKind::Paraphrase, 0.5)
            ]
        );
        assert!(
            blocks.iter().all(|(_, marked)| !marked),
            "every TOML block of the page reads: remove the line {NOT_PARSED:?}"
        );
    }

    #[test]
    fn the_page_names_every_key_and_value_the_format_reads() {
        // Each error lists what the field takes; every name it lists must be on the page.
        let probes = [
            "zzz = 1",
            "retrieval = \"zzz\"",
            "key = \"zzz\"",
            "readd = \"zzz\"",
            "multi_word = \"zzz\"",
            "case_mapping = \"zzz\"",
            "tool_data = \"zzz\"",
            "order = \"zzz\"",
            "timestamps = \"zzz\"",
            "strings = \"zzz\"",
            "[event_words]\nrule = \"zzz\"",
            "[event_words]\nrule = \"whitespace\"\nseparators = \"zzz\"",
            "[event_words]\nrule = \"full-text\"\nremove_diacritics = \"zzz\"",
            "[event_words]\nrule = \"unicode-words\"\nzzz = 1",
            "[event_words]\nrule = \"whitespace\"\nseparators = \"space\"\nzzz = 1",
            "[event_words]\nrule = \"full-text\"\nremove_diacritics = \"all\"\nzzz = 1",
            "[query_terms]\nrule = \"zzz\"",
            "[query_terms]\nrule = \"words\"\nzzz = 1",
            "[dropped_words]\nzzz = 1",
            "[capabilities]\nzzz = 1",
            "[capabilities]\nevents_delta = \"zzz\"",
            "[[known_violation]]\nrule = \"x\"\nreason = \"y\"\nzzz = 1",
            "[gate]\nzzz = 1",
            "retrieval = \"vector\"\n[vector]\nzzz = 1",
            "retrieval = \"vector\"\n[vector]\nembedder = \"hashed-256\"\nindex = \"zzz\"",
        ];
        let mut missing = Vec::new();
        for probe in probes {
            let text = format!("format = 1\nextends = \"reference\"\n{probe}\n");
            let err = ProfileFile::parse(&text).unwrap_err().to_string();
            let (_, listed) = err
                .split_once("expected")
                .unwrap_or_else(|| panic!("{probe:?} gave {err}"));
            let names: Vec<&str> = listed.split('`').skip(1).step_by(2).collect();
            assert!(!names.is_empty(), "{probe:?} gave {err}");
            for name in names {
                // A key is named as itself, as its table, or after its table's name; the
                // `custom` word rule is written, never read, and the page says so.
                let forms = if name == "custom" {
                    vec!["rule = \"custom\"".to_owned()]
                } else {
                    vec![
                        format!("`{name}`"),
                        format!("`[{name}]`"),
                        format!("`[[{name}]]`"),
                        format!(".{name}`"),
                        format!(".{name}]`"),
                    ]
                };
                if !forms.iter().any(|form| PAGE.contains(form.as_str())) {
                    missing.push(format!("{} ({probe:?})", forms[0]));
                }
            }
        }
        assert!(
            missing.is_empty(),
            "docs/profile-format.md does not name: {}",
            missing.join(", ")
        );
        for preset in presets() {
            assert!(
                PAGE.contains(&format!("`{}`", preset.name)),
                "docs/profile-format.md does not name the preset {}",
                preset.name
            );
        }
    }

    #[test]
    fn the_errors_the_page_quotes_are_the_ones_given() {
        let cases = [
            "format = 1\nextends = \"reference\"\nreadd = \"upsert\"\n",
            "format = 1\nextends = \"reference\"\n[event_words]\nrule = \"custom\"\nname = \"trimmed-whitespace-words\"\n",
            "format = 1\nextends = \"reference\"\n[capabilities]\ndelete = true\n",
        ];
        for text in cases {
            let err = ProfileFile::parse(text).unwrap_err().to_string();
            assert!(
                PAGE.contains(&err),
                "docs/profile-format.md does not quote the error {err:?}"
            );
        }
    }
}

#[cfg(test)]
mod docs {
    use super::*;
    use crate::benchmark::question_kind::QuestionKind;
    use crate::profile::Capabilities;

    #[test]
    fn a_file_without_extends_claims_no_call_it_does_not_name() {
        let mut text = ProfileFile::of(Profile::reference()).to_toml();
        let start = text
            .find("[capabilities]")
            .expect("the file lists the capabilities");
        let end = text[start..]
            .find("\n\n")
            .map_or(text.len(), |n| start + n + 1);
        text.replace_range(start..end, "");
        let file = ProfileFile::parse(&text).unwrap_or_else(|err| panic!("{err}\n{text}"));
        assert_eq!(file.profile.capabilities, Capabilities::default(), "{text}");
        assert_eq!(file.profile.event_words, Profile::reference().event_words);
    }

    #[test]
    fn a_recall_floor_reads_overall_and_per_kind_and_round_trips() {
        let file = ProfileFile::parse(
            "format = 1\nextends = \"reference\"\n[gate]\nrecall_at_5 = 0.8\n[gate.recall_at_5_by_kind]\nparaphrase = 0.5\nnumber-id = 0.25\n",
        )
        .unwrap();
        assert_eq!(file.recall_floor.overall(), Some(0.8));
        assert_eq!(
            file.recall_floor.kinds(),
            &[
                (QuestionKind::NumberId, 0.25),
                (QuestionKind::Paraphrase, 0.5)
            ]
        );
        assert_eq!(ProfileFile::parse(&file.to_toml()).unwrap(), file);
    }

    #[test]
    fn a_bad_recall_floor_names_the_key_and_the_reason() {
        let read = |gate: &str| {
            ProfileFile::parse(&format!("format = 1\nextends = \"reference\"\n{gate}"))
                .unwrap_err()
                .to_string()
        };
        let err = read("[gate]\nrecall_at_5 = 80\n");
        assert!(
            err.contains("`gate.recall_at_5`") && err.contains("from 0 to 1"),
            "{err}"
        );
        let err = read("[gate.recall_at_5_by_kind]\nsynonyms = 0.5\n");
        assert!(
            err.contains("`gate.recall_at_5_by_kind.synonyms`") && err.contains("paraphrase"),
            "{err}"
        );
        let err = read("[gate.recall_at_5_by_kind]\ntool-only = 0.5\n");
        assert!(
            err.contains("tool-only") && err.contains("no recall"),
            "{err}"
        );
    }
}
