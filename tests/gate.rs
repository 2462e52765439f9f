//! The gate: known violations pass while present and fail once gone, declarations are
//! validated, and a gate that verifies nothing is never green.

mod support;

use memory_conformance::conformance::{GateReport, RuleOutcome};
use memory_conformance::rules::Requirement;
use memory_conformance::{Gate, InMemoryMemoryService, Profile, Subject};

use support::deviants::{Deviant, Deviation};

fn appending() -> Subject {
    Subject::new("appending", Profile::reference(), || async {
        Deviant::new(Deviation::AppendOnReadd)
    })
    .cases(32)
    .seed(7)
}

fn reference() -> Subject {
    Subject::new("reference", Profile::reference(), || async {
        InMemoryMemoryService::new()
    })
    .cases(32)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declared_violation_that_still_shows_passes() {
    let gate =
        Gate::new(appending()).known_violation("replace.readd_replaces", "appends on re-add");
    let rule = memory_conformance::rules::find("replace.readd_replaces").unwrap();
    let outcome = gate.check(rule).await;
    assert!(
        matches!(outcome, RuleOutcome::KnownViolation { .. }),
        "{outcome}"
    );
    assert!(outcome.is_green());
    assert!(
        outcome
            .to_string()
            .starts_with("known violation still present (appends on re-add)"),
        "{outcome}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_undeclared_violation_fails() {
    let rule = memory_conformance::rules::find("replace.readd_replaces").unwrap();
    let outcome = Gate::new(appending()).check(rule).await;
    assert!(matches!(outcome, RuleOutcome::Failed(_)), "{outcome}");
    assert!(!outcome.is_green());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declared_violation_that_disappears_fails_so_the_fix_is_noticed() {
    let gate = Gate::new(reference())
        .known_violation("replace.readd_replaces", "appends; upstream issue 1");
    let rule = memory_conformance::rules::find("replace.readd_replaces").unwrap();
    let outcome = gate.check(rule).await;
    assert!(
        matches!(outcome, RuleOutcome::ViolationGone { .. }),
        "{outcome}"
    );
    assert!(!outcome.is_green());
    assert!(
        outcome
            .to_string()
            .contains("remove the declaration so the rule is enforced"),
        "{outcome}"
    );
}

#[tokio::test]
async fn a_violation_of_a_rule_that_does_not_apply_is_a_broken_declaration() {
    let gate = Gate::new(reference()).known_violation("durability.reopen", "not durable");
    let rule = memory_conformance::rules::find("durability.reopen").unwrap();
    let outcome = gate.check(rule).await;
    assert!(matches!(outcome, RuleOutcome::Broken { .. }), "{outcome}");
    assert!(outcome.to_string().contains("does not apply"), "{outcome}");
}

#[test]
fn declarations_are_validated() {
    let gate = Gate::new(reference())
        .known_violation("replace.readd_replace", "typo")
        .known_violation("key.isolation", " ")
        .known_violation("key.isolation", "twice");
    let problems = gate.validate().unwrap_err();
    assert!(
        problems.contains(
            "\"replace.readd_replace\", which is not a rule id; the rule ids are: key.isolation"
        ),
        "{problems}"
    );
    assert!(
        problems.contains("\"key.isolation\" has no reason"),
        "{problems}"
    );
    assert!(
        problems.contains("\"key.isolation\" is declared twice"),
        "{problems}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_full_report_of_the_reference_is_green_with_two_capabilities_ignored() {
    let report = Gate::new(reference()).run().await;
    assert!(report.is_green(), "{report}");
    let ignored: Vec<&str> = report
        .outcomes
        .iter()
        .filter(|(_, _, o)| matches!(o, RuleOutcome::Ignored { .. }))
        .map(|(id, _, _)| *id)
        .collect();
    assert_eq!(ignored, ["durability.reopen", "scope.shared"]);
}

#[test]
fn a_gate_that_verified_nothing_is_never_green() {
    let report = GateReport {
        backend: "nothing".into(),
        profile: "nothing".into(),
        outcomes: vec![(
            "durability.reopen",
            Requirement::Capability,
            RuleOutcome::Ignored {
                reason: "not declared".into(),
            },
        )],
    };
    assert!(!report.is_green());
    let empty = GateReport {
        outcomes: vec![],
        ..report
    };
    assert!(!empty.is_green());
}

#[test]
fn a_backend_that_blocks_its_thread_fails_the_rule_instead_of_hanging() {
    let subject = Subject::new("blocking", Profile::reference(), || async {
        Deviant::new(Deviation::BlockThread)
    })
    .cases(1)
    .rule_timeout(std::time::Duration::from_millis(500));
    let rule = memory_conformance::rules::find("query.unknown_key").unwrap();
    let outcome = Gate::new(subject).check_on_own_thread(rule);
    assert!(matches!(outcome, RuleOutcome::Broken { .. }), "{outcome}");
    assert!(
        outcome
            .to_string()
            .contains("did not finish within 500ms: a backend call blocked its thread"),
        "{outcome}"
    );
}

#[test]
fn rule_ids_are_stable_unique_and_named_by_group() {
    let ids: Vec<&str> = memory_conformance::rules::catalogue()
        .iter()
        .map(|r| r.id())
        .collect();
    assert_eq!(
        ids,
        [
            "key.isolation",
            "key.no_separator_collision",
            "replace.readd_replaces",
            "replace.readd_with_nothing",
            "replace.other_sessions_untouched",
            "index.text_only",
            "index.empty_events",
            "query.blank",
            "query.unknown_key",
            "query.case_insensitive",
            "punctuation.query",
            "punctuation.event",
            "query.digits",
            "query.non_ascii",
            "query.multi_word",
            "result.fidelity",
            "result.limit",
            "result.order",
            "recall.across_sessions",
            "concurrency.adds_land",
            "concurrency.atomic_replace",
            "model.random_ops",
            "durability.reopen",
            "scope.shared",
        ],
        "rule ids are public API: backend crates name them in known violations"
    );
    let mut unique = ids.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "duplicate rule ids: {ids:?}");
    for id in &ids {
        let (group, name) = id
            .split_once('.')
            .unwrap_or_else(|| panic!("{id} is not group.name"));
        assert!(
            !group.is_empty()
                && !name.is_empty()
                && id
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '.' || c == '_'),
            "{id}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failing_cases_are_recorded_under_the_caller_and_replayed_first() {
    let dir =
        std::env::temp_dir().join(format!("memory-conformance-records-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let rule = memory_conformance::rules::find("replace.readd_replaces").unwrap();

    let first = rule
        .check(&appending().failure_records(&dir))
        .await
        .unwrap_err();
    let record = dir.join("appending").join("replace.readd_replaces.txt");
    let text = std::fs::read_to_string(&record).expect("the failing case is recorded");
    assert!(text.lines().any(|l| l.starts_with("cc ")), "{text}");
    assert!(
        first
            .to_string()
            .contains(&format!("recorded in {}", record.display())),
        "{first}"
    );

    // Another seed would generate other cases; the recorded one runs first and fails again.
    let again = rule
        .check(&appending().seed(99).failure_records(&dir))
        .await
        .unwrap_err();
    assert!(
        again
            .to_string()
            .contains("minimal scenario (a recorded case"),
        "{again}"
    );
    assert_eq!(
        std::fs::read_to_string(&record).unwrap(),
        text,
        "a case is recorded once"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
