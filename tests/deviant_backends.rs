//! The harness tests itself: every deliberately deviant backend is caught by the rule that
//! covers its deviation, with a minimal scenario, and the reference passes every rule.

mod support;

use std::time::Duration;

use memory_conformance::InMemoryMemoryService;
use memory_conformance::conformance::{Gate, Subject, Verdict};
use memory_conformance::profile::Profile;

use support::deviants::{Deviant, Deviation};

/// A fixed seed keeps these tests reproducible; `PROPTEST_RNG_SEED` does not change them.
const SEED: u64 = 0x5EED;

fn subject(deviation: Deviation) -> Subject {
    Subject::new(
        format!("{deviation:?}"),
        deviation.profile(),
        move || async move { Deviant::new(deviation) },
    )
    .seed(SEED)
    .cases(64)
    .op_timeout(Duration::from_millis(200))
}

/// The ids of the rules `subject` fails, with their reports, each rule run by the gate.
fn failures(subject: Subject) -> Vec<(&'static str, String)> {
    Gate::new(subject)
        .run()
        .runs()
        .iter()
        .filter_map(|run| match run.verdict() {
            Verdict::Failed(failure) => Some((run.rule().id(), failure.to_string())),
            _ => None,
        })
        .collect()
}

/// Each deviant, the rule that covers its deviation, and a fragment its failure report must
/// carry.
/// (A backend that blocks its thread is the gate's to catch, in `tests/gate.rs`: a plain rule
/// function runs on the caller's thread.)
const CATALOGUE: [(Deviation, &str, &str); 25] = [
    (
        Deviation::SlashJoinedKey,
        "key.no_separator_collision",
        "entries where none belong",
    ),
    (
        Deviation::CaseInsensitiveUser,
        "key.isolation",
        "entries where none belong",
    ),
    (
        Deviation::AppendOnReadd,
        "replace.readd_replaces",
        "entries where none belong",
    ),
    (
        Deviation::IgnoreReaddWithoutText,
        "replace.readd_with_nothing",
        "entries where none belong",
    ),
    (
        Deviation::IndexToolResponses,
        "index.text_only",
        "<response lookup",
    ),
    (Deviation::IndexState, "index.text_only", "state {"),
    (
        Deviation::StripQueryPunctuation,
        "punctuation.query",
        "expected: nothing (as profile \"reference\" computes)",
    ),
    (
        Deviation::IndexDigits,
        "query.digits",
        "expected: nothing (as profile \"reference\" computes)",
    ),
    (
        Deviation::UnicodeWords,
        "query.non_ascii",
        "actual:   0 entries []",
    ),
    (Deviation::LimitTen, "result.limit", "expected: 11 entries"),
    (
        Deviation::AllWords,
        "query.multi_word",
        "actual:   0 entries []",
    ),
    (Deviation::DropAuthor, "result.fidelity", "by None"),
    (
        Deviation::TimestampFromSeconds,
        "result.fidelity",
        "Some(\"+",
    ),
    (
        Deviation::WhitespaceEventWords,
        "punctuation.event",
        "actual:   0 entries []",
    ),
    (
        Deviation::TornReplace,
        "concurrency.atomic_replace",
        "saw a mix of versions",
    ),
    (
        Deviation::LostWrites,
        "concurrency.adds_land",
        "different entries",
    ),
    (
        Deviation::ErrorOnNonTextPart,
        "index.text_only",
        "cannot read a non-text part",
    ),
    (
        Deviation::Hang,
        "key.isolation",
        "did not answer within 200ms",
    ),
    (
        Deviation::PanicOnSearch,
        "key.isolation",
        "panicked: index out of bounds",
    ),
    (
        Deviation::ColonJoinedKey,
        "key.no_separator_collision",
        "entries where none belong",
    ),
    (
        Deviation::ConcatenatedKey,
        "key.no_separator_collision",
        "entries where none belong",
    ),
    (
        Deviation::CaseInsensitiveSessionId,
        "replace.other_sessions_untouched",
        "different entries",
    ),
    (
        Deviation::IndexAuthor,
        "index.text_only",
        "different entries",
    ),
    (Deviation::DropRole, "result.fidelity", "(role "),
    (
        Deviation::TruncateBeforeRank,
        "result.order",
        "not the first 10 matches in the profile's order",
    ),
];

/// Every deviant against every rule: each is caught by the rule that covers its deviation,
/// with a minimal scenario, the expected fragment and a reproduction command, and the exact
/// set of rules each one fails is pinned (`snapshots/deviant_rule_matrix.snap`), so a change
/// in what the harness catches shows in review.
#[test]
fn each_deviant_fails_exactly_its_pinned_rules_with_a_minimal_scenario() {
    let results: Vec<_> = std::thread::scope(|scope| {
        let running: Vec<_> = CATALOGUE
            .into_iter()
            .map(|(deviation, rule, fragment)| {
                scope.spawn(move || (deviation, rule, fragment, failures(subject(deviation))))
            })
            .collect();
        running
            .into_iter()
            .map(|run| run.join().expect("a deviant's run panicked"))
            .collect()
    });
    let mut problems = Vec::new();
    let mut matrix = String::from("| deviant | rules it fails |\n|---|---|\n");
    for (deviation, expected_rule, fragment, failed) in &results {
        assert!(
            !fragment.is_empty(),
            "{deviation:?} needs a message fragment"
        );
        let ids: Vec<&str> = failed.iter().map(|(id, _)| *id).collect();
        matrix.push_str(&format!("| {deviation:?} | {} |\n", ids.join(", ")));
        let Some((_, report)) = failed.iter().find(|(id, _)| id == expected_rule) else {
            problems.push(format!(
                "{deviation:?} was not caught by {expected_rule}; rules that failed: {ids:?}"
            ));
            continue;
        };
        let header = format!("rule {expected_rule} failed for backend \"{deviation:?}\"");
        let steps = report
            .lines()
            .filter(|l| {
                l.trim_start()
                    .split('.')
                    .next()
                    .is_some_and(|n| n.parse::<u32>().is_ok())
            })
            .count();
        if !report.contains(&header) || !report.contains(fragment) {
            problems.push(format!(
                "the report should say {header:?} and {fragment:?}:\n{report}"
            ));
        }
        if steps > 8 {
            problems.push(format!(
                "the scenario should be shrunk to a few steps, not {steps}:\n{report}"
            ));
        }
        if !report.contains("reproduce: PROPTEST_RNG_SEED=") {
            problems.push(format!(
                "the report should say how to reproduce it:\n{report}"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("deviant_rule_matrix", matrix);
    });
}

#[test]
fn the_reference_passes_every_rule_that_applies() {
    let failed = failures(Subject::new("reference", Profile::reference(), || async {
        InMemoryMemoryService::new()
    }));
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
