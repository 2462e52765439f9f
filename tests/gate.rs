//! The gate: known violations (declared or implied by the profile) pass while present and fail
//! once gone (intermittent ones pass either way, and say which), declarations are validated, rules that do not apply say why, and a backend that
//! blocks its thread cannot hang the gate; a gate pinned to an earlier rule set (`rules_as_of`)
//! reports a later rule as new without failing on it.

mod support;

use memory_conformance::InMemoryMemoryService;
use memory_conformance::conformance::rules::{self, Requirement};
use memory_conformance::conformance::{Gate, Subject, Verdict};
use memory_conformance::profile::{Order, Profile, Retrieval};
use rstest::rstest;

use support::deviants::{Deviant, Deviation, key, liveness, replace, result};

fn appending() -> Gate {
    let subject = Subject::new("appending", Profile::reference(), || async {
        Deviant::new(&replace::AppendOnReadd)
    });
    Gate::new(subject).cases(32).seed(7)
}

fn reference() -> Subject {
    Subject::new("reference", Profile::reference(), || async {
        InMemoryMemoryService::new()
    })
}

#[test]
fn a_declared_violation_that_still_shows_passes() {
    let gate = appending().known_violation("replace.readd_replaces", "appends on re-add");
    let rule = rules::find("replace.readd_replaces").unwrap();
    let verdict = gate.check(rule);
    assert!(
        matches!(verdict, Verdict::KnownViolationShown { .. }),
        "{verdict}"
    );
    assert!(verdict.is_green());
    assert!(
        verdict
            .to_string()
            .starts_with("known violation still present (appends on re-add)"),
        "{verdict}"
    );
    assert_eq!(
        verdict.known_violation_note().as_deref(),
        Some("known violation: appends on re-add")
    );
}

#[test]
fn an_undeclared_violation_fails() {
    let rule = rules::find("replace.readd_replaces").unwrap();
    let verdict = appending().check(rule);
    assert!(matches!(verdict, Verdict::Failed(_)), "{verdict}");
    assert!(!verdict.is_green());
}

#[test]
fn a_declared_violation_that_disappears_fails_so_the_fix_is_noticed() {
    let gate = Gate::new(reference())
        .cases(32)
        .known_violation("replace.readd_replaces", "appends; upstream issue 1");
    let rule = rules::find("replace.readd_replaces").unwrap();
    let verdict = gate.check(rule);
    assert!(
        matches!(verdict, Verdict::KnownViolationGone { .. }),
        "{verdict}"
    );
    assert!(!verdict.is_green());
    assert!(
        verdict
            .to_string()
            .contains("remove the declaration so the rule is enforced"),
        "{verdict}"
    );
}

#[test]
fn an_intermittent_violation_passes_when_shown_and_says_so() {
    let gate =
        appending().known_intermittent_violation("replace.readd_replaces", "a race in the pool");
    let verdict = gate.check(rules::find("replace.readd_replaces").unwrap());
    assert!(
        matches!(verdict, Verdict::KnownViolationShown { .. }),
        "{verdict}"
    );
    assert!(verdict.is_green());
    assert_eq!(verdict.label(), "intermittent violation");
    assert!(
        verdict
            .to_string()
            .starts_with("intermittent violation shown in this run (a race in the pool)"),
        "{verdict}"
    );
    assert_eq!(
        verdict.known_violation_note().as_deref(),
        Some("intermittent violation, shown in this run: a race in the pool")
    );
}

#[test]
fn an_intermittent_violation_not_hit_in_a_run_passes_with_the_same_label() {
    let gate = Gate::new(reference())
        .cases(32)
        .known_intermittent_violation("replace.readd_replaces", "a race in the pool");
    let verdict = gate.check(rules::find("replace.readd_replaces").unwrap());
    assert!(
        matches!(verdict, Verdict::KnownViolationNotShown { cases: 32, .. }),
        "{verdict}"
    );
    assert!(verdict.is_green());
    assert_eq!(verdict.label(), "intermittent violation");
    assert_eq!(
        verdict.to_string(),
        "held in this run (32 cases); the known violation is intermittent, a race this run did not hit (a race in the pool)"
    );
    assert!(gate.known_violations()[0].is_intermittent());
    assert_eq!(
        verdict.known_violation_note().as_deref(),
        Some("intermittent violation, not shown in this run: a race in the pool")
    );
}

#[test]
fn an_intermittent_violation_of_a_rule_that_does_not_apply_is_a_broken_declaration() {
    let gate = Gate::new(reference())
        .cases(32)
        .known_intermittent_violation("durability.reopen", "racy");
    let verdict = gate.check(rules::find("durability.reopen").unwrap());
    assert!(matches!(verdict, Verdict::Failed(_)), "{verdict}");
    assert!(
        verdict
            .to_string()
            .contains("it is declared a known violation, but the rule does not apply"),
        "{verdict}"
    );
}

#[test]
fn a_violation_of_a_rule_that_does_not_apply_is_a_broken_declaration() {
    let gate = Gate::new(reference())
        .cases(32)
        .known_violation("durability.reopen", "not durable");
    let rule = rules::find("durability.reopen").unwrap();
    let verdict = gate.check(rule);
    assert!(matches!(verdict, Verdict::Failed(_)), "{verdict}");
    assert!(
        verdict.to_string().contains(
            "it is declared a known violation, but the rule does not apply to the profile: the profile does not declare durable storage"
        ),
        "{verdict}"
    );
}

/// The rules ask the kit's own words (`tea`, `coffee`) with expectations of their own: a
/// profile that drops one of them is a broken declaration, one that drops other words is not.
#[test]
fn dropped_words_that_the_rules_ask_by_themselves_are_refused() {
    use memory_conformance::profile::DroppedWords;

    let claiming = |dropped: DroppedWords| {
        let mut profile = Profile::reference();
        profile.dropped_words = dropped;
        Gate::new(reference().with_profile(profile)).cases(8)
    };
    let problem = claiming(DroppedWords::stop_words(["the", "tea"]).with_shorter_than(5))
        .validate()
        .unwrap_err();
    assert!(
        problem.contains("the profile's dropped_words drop tea, milk, chai,"),
        "{problem}"
    );
    let fine = DroppedWords::stop_words(["the", "what"]).with_shorter_than(3);
    assert_eq!(claiming(fine).validate(), Ok(()));
}

#[test]
fn declarations_are_validated() {
    let gate = Gate::new(reference())
        .cases(32)
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
    let report = gate.run();
    assert!(!report.is_green());
    assert_eq!(report.problems(), [problems]);
}

#[test]
fn a_violation_the_profile_implies_is_derived_and_never_declared_twice() {
    let joined = Subject::new("joined", Profile::adk_js(), || async {
        Deviant::new(&key::SlashJoinedKey)
    });
    let gate = Gate::new(joined).cases(32).seed(7);
    let known = gate.known_violations();
    assert_eq!(known.len(), 1);
    assert_eq!(known[0].rule_id(), "key.no_separator_collision");
    assert_eq!(known[0].implied_by(), Some("key = joined with \"/\""));
    let verdict = gate.check(rules::find("key.no_separator_collision").unwrap());
    assert!(
        matches!(verdict, Verdict::KnownViolationShown { .. }),
        "{verdict}"
    );

    let twice = gate.known_violation("key.no_separator_collision", "joins with a slash");
    let problem = twice.validate().unwrap_err();
    assert!(
        problem.contains(
            "\"key.no_separator_collision\" is already implied by the profile (key = joined with \"/\"): remove the declaration"
        ),
        "{problem}"
    );
}

#[test]
fn a_profile_that_implies_a_violation_the_backend_does_not_have_fails() {
    let subject = Subject::new(
        "structured-but-declared-joined",
        Profile::adk_js(),
        || async { InMemoryMemoryService::new() },
    );
    let verdict = Gate::new(subject)
        .cases(16)
        .check(rules::find("key.no_separator_collision").unwrap());
    assert!(
        matches!(verdict, Verdict::KnownViolationGone { .. }),
        "{verdict}"
    );
    assert!(
        verdict
            .to_string()
            .contains("the profile's key = joined with \"/\" no longer describes the backend"),
        "{verdict}"
    );
}

#[test]
fn the_full_report_of_the_reference_is_green_with_its_storage_and_vector_rules_not_applicable() {
    let report = Gate::new(reference()).cases(32).run();
    assert!(report.is_green(), "{report}");
    let not_applicable: Vec<&str> = report
        .runs()
        .iter()
        .filter(|run| matches!(run.verdict(), Verdict::NotApplicable { .. }))
        .map(|run| run.rule().id())
        .collect();
    assert_eq!(
        not_applicable,
        [
            "vector.nearest_first",
            "durability.reopen",
            "scope.shared",
            "scope.replicas"
        ]
    );
    assert!(report.problems().is_empty());
}

#[test]
fn a_backend_that_blocks_its_thread_fails_the_rule_instead_of_hanging() {
    let subject = Subject::new("blocking", Profile::reference(), || async {
        Deviant::new(&liveness::BlockThread)
    });
    let rule = rules::find("query.unknown_key").unwrap();
    let verdict = Gate::new(subject)
        .cases(1)
        .rule_timeout(std::time::Duration::from_millis(500))
        .check(rule);
    assert!(matches!(verdict, Verdict::Failed(_)), "{verdict}");
    assert!(
        verdict
            .to_string()
            .contains("rule query.unknown_key failed for backend \"blocking\" (profile \"reference\"): the rule did not finish a case within 500ms: a backend call blocked its thread, where the per-call timeout cannot fire, or one case took that long"),
        "{verdict}"
    );
}

/// The rule timeout bounds the time without a case passing, not the rule: 30 cases that open
/// a store in 100 ms each take 3 s or more, three times the timeout, and pass.
#[test]
fn a_rule_whose_slow_cases_keep_passing_outlives_its_rule_timeout() {
    let subject = Subject::new("slow-opening", Profile::reference(), || async {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        InMemoryMemoryService::new()
    });
    let rule = rules::find("query.unknown_key").unwrap();
    let gate = Gate::new(subject)
        .cases(30)
        .rule_timeout(std::time::Duration::from_secs(1));
    let verdict = gate.check(rule);
    assert!(
        matches!(verdict, Verdict::Passed { cases: 30, .. }),
        "{verdict}"
    );
    let spent = gate.spent();
    assert!(spent.opens >= 30, "{spent:?}");
    assert!(
        spent.opening >= std::time::Duration::from_secs(3),
        "{spent:?}"
    );
}

#[tokio::test]
async fn a_plain_rule_function_says_when_it_does_not_apply() {
    let verdict = rules::scope_shared(&reference()).await;
    match verdict {
        Verdict::NotApplicable { reason } => {
            assert_eq!(reason, "the profile does not declare a shared store")
        }
        other => panic!("expected not applicable, got {other}"),
    }
}

/// Every rule that checks a profile dimension or a capability, on a profile where it does not
/// apply: not applicable, with the reason, through the plain function and through the gate.
#[rstest]
#[case::index_text_only(
    "index.text_only",
    semantic(),
    "the profile declares semantic retrieval"
)]
#[case::query_case_insensitive(
    "query.case_insensitive",
    semantic(),
    "the profile declares semantic retrieval"
)]
#[case::punctuation_query(
    "punctuation.query",
    semantic(),
    "the profile declares semantic retrieval"
)]
#[case::punctuation_event(
    "punctuation.event",
    semantic(),
    "the profile declares semantic retrieval"
)]
#[case::query_digits("query.digits", semantic(), "the profile declares semantic retrieval")]
#[case::query_non_ascii(
    "query.non_ascii",
    semantic(),
    "the profile declares semantic retrieval"
)]
#[case::query_multi_word(
    "query.multi_word",
    semantic(),
    "the profile declares semantic retrieval"
)]
#[case::replace_readd_as_declared(
    "replace.readd_as_declared",
    semantic(),
    "the profile declares semantic retrieval"
)]
#[case::result_order("result.order", unordered(), "the profile promises no order")]
#[case::durability_reopen(
    "durability.reopen",
    Profile::reference(),
    "the profile does not declare durable storage"
)]
#[case::scope_shared(
    "scope.shared",
    Profile::reference(),
    "the profile does not declare a shared store"
)]
#[case::scope_replicas(
    "scope.replicas",
    Profile::reference(),
    "the profile does not declare a shared store"
)]
#[case::concurrency_atomic_replace(
    "concurrency.atomic_replace",
    appending_profile(),
    "the profile declares append on re-add"
)]
#[case::result_entry_ids(
    "result.entry_ids",
    two_calls(),
    "the profile does not declare the entry_ids capability"
)]
#[case::result_limit_option(
    "result.limit_option",
    two_calls(),
    "the profile does not declare the search_limit capability"
)]
#[case::delta_as_declared(
    "delta.as_declared",
    two_calls(),
    "the profile does not declare the events_delta capability"
)]
#[case::memories_searchable(
    "memories.searchable",
    two_calls(),
    "the profile does not declare the explicit_memories capability"
)]
#[case::forget_never_returned(
    "forget.never_returned",
    two_calls(),
    "the profile does not declare the delete capability"
)]
#[case::forget_other_keys_untouched(
    "forget.other_keys_untouched",
    two_calls(),
    "the profile does not declare the delete capability"
)]
#[case::forget_semantic(
    "forget.never_returned",
    semantic(),
    "the profile declares semantic retrieval"
)]
#[case::vector_nearest_first(
    "vector.nearest_first",
    Profile::reference(),
    "the profile does not declare vector retrieval"
)]
fn each_profile_and_capability_rule_is_not_applicable_with_its_reason_where_it_does_not_apply(
    #[case] id: &str,
    #[case] profile: Profile,
    #[case] reason: &str,
) {
    let rule = rules::find(id).unwrap();
    let why = rule.applies_to(&profile).unwrap_err();
    assert!(why.starts_with(reason) && !why.is_empty(), "{id}: {why}");
    let subject = Subject::new("n/a", profile, || async { InMemoryMemoryService::new() });
    match Gate::new(subject).cases(4).check(rule) {
        Verdict::NotApplicable { reason } => assert_eq!(reason, why),
        other => panic!("{id}: expected not applicable, got {other}"),
    }
}

#[test]
fn every_profile_and_capability_rule_has_a_not_applicable_case_or_applies_everywhere() {
    let tested = [
        "index.text_only",
        "query.case_insensitive",
        "punctuation.query",
        "punctuation.event",
        "query.digits",
        "query.non_ascii",
        "query.multi_word",
        "replace.readd_as_declared",
        "result.order",
        "durability.reopen",
        "scope.shared",
        "scope.replicas",
        "result.entry_ids",
        "result.limit_option",
        "delta.as_declared",
        "memories.searchable",
        "forget.never_returned",
        "forget.other_keys_untouched",
        "vector.nearest_first",
    ];
    // A limit is always declared (unlimited is a limit), so `result.limit` applies to every
    // profile, and `model.random_ops` checks what it can under any retrieval (only what is
    // stored, where the oracle computes no answer): the presets and the semantic variant show
    // it.
    let applies_everywhere = ["result.limit", "model.random_ops"];
    for rule in rules::catalogue() {
        if rule.requirement() == Requirement::Required {
            continue;
        }
        assert!(
            tested.contains(&rule.id()) || applies_everywhere.contains(&rule.id()),
            "{} has no not-applicable test",
            rule.id()
        );
    }
    for profile in [
        Profile::reference(),
        Profile::adk_python(),
        Profile::adk_js(),
        semantic(),
    ] {
        for id in applies_everywhere {
            rules::find(id).unwrap().applies_to(&profile).unwrap();
        }
    }
}

fn semantic() -> Profile {
    let mut profile = Profile::reference().named("semantic");
    profile.retrieval = Retrieval::Semantic;
    profile
}

/// The reference's profile claiming the two calls only.
fn two_calls() -> Profile {
    let mut profile = Profile::reference().named("two-calls");
    profile.capabilities = memory_conformance::profile::Capabilities::default();
    profile
}

fn unordered() -> Profile {
    let mut profile = Profile::reference().named("unordered");
    profile.order = Order::Unordered;
    profile
}

fn appending_profile() -> Profile {
    Profile::adk_rust_sqlite()
}

#[test]
fn rule_ids_are_stable_unique_and_named_by_group() {
    let ids: Vec<&str> = rules::catalogue().iter().map(|r| r.id()).collect();
    assert_eq!(
        ids,
        [
            "key.isolation",
            "key.no_separator_collision",
            "replace.readd_replaces",
            "replace.readd_with_nothing",
            "replace.other_sessions_untouched",
            "replace.readd_as_declared",
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
            "vector.nearest_first",
            "result.fidelity",
            "result.limit",
            "result.order",
            "result.entry_ids",
            "result.limit_option",
            "recall.across_sessions",
            "concurrency.adds_land",
            "concurrency.atomic_replace",
            "model.random_ops",
            "delta.as_declared",
            "memories.searchable",
            "forget.never_returned",
            "forget.other_keys_untouched",
            "durability.reopen",
            "scope.shared",
            "scope.replicas",
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

#[test]
fn failing_cases_are_recorded_under_the_caller_and_replayed_first() {
    let dir =
        std::env::temp_dir().join(format!("memory-conformance-records-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let rule = memory_conformance::conformance::rules::find("replace.readd_replaces").unwrap();

    let first = appending().failure_records(&dir).check(rule);
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
    let again = appending().seed(99).failure_records(&dir).check(rule);
    assert!(matches!(again, Verdict::Failed(_)), "{again}");
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

#[test]
fn a_case_that_hit_an_intermittent_violation_is_not_recorded() {
    let dir = std::env::temp_dir().join(format!(
        "memory-conformance-intermittent-records-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let rule = rules::find("replace.readd_replaces").unwrap();
    let record = dir.join("appending").join("replace.readd_replaces.txt");

    let racy = appending()
        .failure_records(&dir)
        .known_intermittent_violation("replace.readd_replaces", "a race in the pool");
    let verdict = racy.check(rule);
    assert!(
        matches!(verdict, Verdict::KnownViolationShown { .. }),
        "{verdict}"
    );
    assert!(
        !record.exists(),
        "a race belongs to no case: nothing to replay"
    );

    // The same violation declared plainly records its case, as any failure does.
    let plain = appending()
        .failure_records(&dir)
        .known_violation("replace.readd_replaces", "appends on re-add");
    plain.check(rule);
    assert!(
        record.exists(),
        "a plain known violation's case is recorded"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A gate of a deviant that fails `result.fidelity` alone (it drops each entry's author, as
/// `tests/deviant_backends.rs` pins), on that test's seed.
fn authorless() -> Gate {
    let subject = Subject::new("authorless", result::DropAuthor.profile(), || async {
        Deviant::new(&result::DropAuthor)
    });
    Gate::new(subject).cases(64).seed(0x5EED)
}

/// `result.fidelity`, as if the rule set after the kit's had brought it: the same `since`
/// every rule declares, one version later.
fn later_fidelity() -> &'static rules::Rule {
    let rule = rules::find("result.fidelity").expect("a rule of the kit");
    Box::leak(Box::new(rule.brought_by_next_rule_set()))
}

#[test]
fn a_gate_pinned_before_a_rule_its_backend_fails_stays_green_and_shows_the_rule_as_new() {
    let later = later_fidelity();
    let pinned = authorless().rules_as_of("0.1");
    assert_eq!(pinned.validate(), Ok(()));
    // The gate's whole catalogue, with the failing rule as a later rule set brings it.
    let verdicts: Vec<(&str, Verdict)> = rules::catalogue()
        .iter()
        .map(|rule| if rule.id() == later.id() { later } else { rule })
        .map(|rule| (rule.id(), pinned.check(rule)))
        .collect();
    let red: Vec<_> = verdicts.iter().filter(|(_, v)| !v.is_green()).collect();
    assert!(red.is_empty(), "the pinned gate must stay green: {red:#?}");
    let (_, new) = verdicts
        .iter()
        .find(|(id, _)| *id == "result.fidelity")
        .unwrap();
    let Verdict::New {
        since,
        pinned: pin,
        verdict,
    } = new
    else {
        panic!("a rule later than the pin is new, not {new}");
    };
    assert_eq!(
        (since.to_string(), pin.to_string()),
        ("0.2".into(), "0.1".into())
    );
    assert!(
        matches!(verdict.as_ref(), Verdict::Failed(_)),
        "the new rule still runs and its failure is reported: {verdict}"
    );
    assert_eq!(new.label(), "new, FAIL");
    let report = new.to_string();
    assert!(
        report.starts_with(
            "new in rules 0.2, after the pinned 0.1: FAIL, not counted until the pin moves"
        ) && report.contains("rule result.fidelity failed"),
        "{report}"
    );

    // Unpinned, every rule counts: the same rule fails the gate.
    let unpinned = authorless().check(later);
    assert!(
        matches!(unpinned, Verdict::Failed(_)),
        "unpinned, the rule fails the gate: {unpinned}"
    );
}

#[test]
fn a_rule_of_the_pinned_rule_set_counts_as_before() {
    // result.fidelity as the kit declares it, in rule set 0.1: a gate pinned to 0.1 fails on it.
    let rule = rules::find("result.fidelity").unwrap();
    assert_eq!(rule.since().to_string(), "0.1");
    let verdict = authorless().rules_as_of("0.1").check(rule);
    assert!(matches!(verdict, Verdict::Failed(_)), "{verdict}");
}

#[test]
fn a_pin_that_is_not_a_rule_set_of_the_kit_is_a_wrong_declaration() {
    for (pin, says) in [
        ("0.1.0", "MAJOR.MINOR"),
        ("latest", "MAJOR.MINOR"),
        ("0.0", "the first rule set is 0.1"),
        ("9.9", "later than this kit's rules"),
    ] {
        let gate = Gate::new(reference()).rules_as_of(pin);
        let problem = gate.validate().unwrap_err();
        assert!(
            problem.starts_with("rules_as_of: expected a rule-set version MAJOR.MINOR")
                && problem.contains(says),
            "{pin}: {problem}"
        );
        let report = gate.cases(4).run();
        assert!(!report.is_green(), "{report}");
    }
}

#[test]
fn a_profile_file_pins_the_rule_set_and_refuses_one_the_kit_does_not_have() {
    use memory_conformance::conformance::{ProfileFile, RuleSetVersion};
    let file =
        ProfileFile::parse("format = 1\nextends = \"reference\"\n[gate]\nrules_as_of = \"0.1\"\n")
            .unwrap();
    assert_eq!(file.rules_as_of, Some(RuleSetVersion::FIRST));
    assert_eq!(ProfileFile::parse(&file.to_toml()).unwrap(), file);
    let gate = Gate::new(reference()).declared_by(&file);
    assert_eq!(gate.pinned_rule_set(), Some(RuleSetVersion::FIRST));
    assert_eq!(Gate::new(reference()).pinned_rule_set(), None);
    assert_eq!(Gate::new(reference()).rule_set(), RuleSetVersion::CURRENT);

    let err =
        ProfileFile::parse("format = 1\nextends = \"reference\"\n[gate]\nrules_as_of = \"v1\"\n")
            .unwrap_err()
            .to_string();
    assert!(
        err.starts_with("field `gate.rules_as_of`: expected a rule-set version MAJOR.MINOR")
            && err.contains("got \"v1\""),
        "{err}"
    );
    let err =
        ProfileFile::parse("format = 1\nextends = \"reference\"\n[gate]\nrules_as_of = 0.1\n")
            .unwrap_err()
            .to_string();
    assert!(err.contains("rules_as_of"), "{err}");
}
