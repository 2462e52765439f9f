//! The harness tests itself: every deliberately deviant backend is caught by the rule that
//! covers its deviation, with a minimal scenario, and the reference passes every rule.

mod support;

use std::time::Duration;

use memory_conformance::{InMemoryMemoryService, Profile, Subject, rules};
use rstest::rstest;

use support::deviants::{Deviant, Deviation};

/// A fixed seed keeps these tests reproducible; `PROPTEST_RNG_SEED` does not change them.
const SEED: u64 = 0x5EED;

fn subject(deviation: Deviation) -> Subject {
    Subject::new(
        format!("{deviation:?}"),
        Profile::reference(),
        move || async move { Deviant::new(deviation) },
    )
    .seed(SEED)
    .cases(64)
    .op_timeout(Duration::from_millis(200))
}

/// The ids of the rules `subject` fails, with their reports.
async fn failures(subject: &Subject) -> Vec<(&'static str, String)> {
    let mut failed = Vec::new();
    for rule in rules::catalogue() {
        if rule.applies_to(subject.profile()).is_err() {
            continue;
        }
        if let Err(failure) = rule.check(subject).await {
            failed.push((rule.id(), failure.to_string()));
        }
    }
    failed
}

#[rstest]
#[case::slash_joined_key(
    Deviation::SlashJoinedKey,
    "key.no_separator_collision",
    "entries where none belong"
)]
#[case::case_insensitive_user(
    Deviation::CaseInsensitiveUser,
    "key.isolation",
    "entries where none belong"
)]
#[case::append_on_readd(Deviation::AppendOnReadd, "replace.readd_replaces", "")]
#[case::readd_without_text_ignored(
    Deviation::IgnoreReaddWithoutText,
    "replace.readd_with_nothing",
    "entries where none belong"
)]
#[case::tool_responses_indexed(
    Deviation::IndexToolResponses,
    "index.text_only",
    "<response lookup"
)]
#[case::state_indexed(Deviation::IndexState, "index.text_only", "state {")]
#[case::query_punctuation_stripped(Deviation::StripQueryPunctuation, "punctuation.query", "")]
#[case::digits_indexed(Deviation::IndexDigits, "query.digits", "")]
#[case::unicode_words(Deviation::UnicodeWords, "query.non_ascii", "")]
#[case::limit_of_ten(Deviation::LimitTen, "result.limit", "expected: 11 entries")]
#[case::all_words(Deviation::AllWords, "query.multi_word", "")]
#[case::author_dropped(Deviation::DropAuthor, "result.fidelity", "by None")]
#[case::timestamp_from_seconds(Deviation::TimestampFromSeconds, "result.fidelity", "Some(\"+")]
#[case::whitespace_event_words(Deviation::WhitespaceEventWords, "punctuation.event", "")]
#[case::torn_replace(
    Deviation::TornReplace,
    "concurrency.atomic_replace",
    "saw a mix of versions"
)]
#[case::lost_writes(Deviation::LostWrites, "concurrency.adds_land", "")]
#[case::error_on_non_text_part(
    Deviation::ErrorOnNonTextPart,
    "index.text_only",
    "cannot read a non-text part"
)]
#[case::hangs(Deviation::Hang, "key.isolation", "did not answer within 200ms")]
#[case::panics(
    Deviation::PanicOnSearch,
    "key.isolation",
    "panicked: index out of bounds"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_deviant_is_caught_by_its_rule(
    #[case] deviation: Deviation,
    #[case] expected_rule: &str,
    #[case] expected_text: &str,
) {
    let failed = failures(&subject(deviation)).await;
    let ids: Vec<&str> = failed.iter().map(|(id, _)| *id).collect();
    println!("{deviation:?} is caught by: {ids:?}");
    let Some((_, report)) = failed.iter().find(|(id, _)| *id == expected_rule) else {
        panic!("{deviation:?} was not caught by {expected_rule}; rules that failed: {ids:?}");
    };
    println!("{report}");
    assert!(
        report.contains(&format!(
            "rule {expected_rule} failed for backend \"{deviation:?}\""
        )),
        "{report}"
    );
    assert!(
        report.contains(expected_text),
        "the report should mention {expected_text:?}:\n{report}"
    );
    let steps = report
        .lines()
        .filter(|l| {
            l.trim_start()
                .split('.')
                .next()
                .is_some_and(|n| n.parse::<u32>().is_ok())
        })
        .count();
    assert!(
        steps <= 8,
        "the scenario should be shrunk to a few steps, not {steps}:\n{report}"
    );
    assert!(report.contains("reproduce: PROPTEST_RNG_SEED="), "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reference_passes_every_rule_that_applies() {
    let subject = Subject::new("reference", Profile::reference(), || async {
        InMemoryMemoryService::new()
    });
    let failed = failures(&subject).await;
    assert!(
        failed.is_empty(),
        "{}",
        failed
            .iter()
            .map(|(_, r)| r.as_str())
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}
