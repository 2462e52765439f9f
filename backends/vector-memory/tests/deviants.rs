//! Broken variants of `VectorMemory`, each caught by the rule that covers what it breaks, with
//! the kit's embedder computing the expected nearest events.

use memory_conformance::conformance::rules::{self, Rule};
use memory_conformance::conformance::{Gate, Subject, Verdict};
use memory_conformance::embed::HashedEmbedder;
use memory_vector::{Deviation, VectorMemory, profile};

fn gate(deviation: Deviation) -> Gate {
    let subject = Subject::new(format!("{deviation:?}"), profile(), move || async move {
        VectorMemory::new(HashedEmbedder::default()).with_deviation(deviation)
    });
    Gate::new(subject).seed(0x5EED).cases(64)
}

fn rule(id: &str) -> &'static Rule {
    rules::find(id).expect("the rule exists")
}

/// The failure report of `verdict`, which must be a failure.
fn failed(verdict: Verdict) -> String {
    match verdict.failure() {
        Some(failure) => failure.to_string(),
        None => panic!("the deviant passed: {verdict}"),
    }
}

#[test]
fn a_search_across_keys_is_caught_by_key_isolation() {
    let report = failed(gate(Deviation::AcrossKeys).check(rule("key.isolation")));
    assert!(
        report.contains("none of") || report.contains("entries where none belong"),
        "{report}"
    );
}

#[test]
fn an_old_version_kept_after_a_readd_is_caught_by_readd_replaces() {
    let report = failed(gate(Deviation::KeepsOldVersions).check(rule("replace.readd_replaces")));
    assert!(
        report.contains("rule replace.readd_replaces failed"),
        "{report}"
    );
}

#[test]
fn a_cut_before_ranking_is_caught_by_nearest_first() {
    let report = failed(gate(Deviation::CutsBeforeRanking).check(rule("vector.nearest_first")));
    assert!(report.contains("nearest by hashed-256"), "{report}");
}

#[test]
fn the_store_itself_passes_the_rules_its_deviants_fail() {
    let store = Gate::new(Subject::new("vector-hashed", profile(), || async {
        VectorMemory::new(HashedEmbedder::default())
    }))
    .cases(64);
    for id in [
        "key.isolation",
        "replace.readd_replaces",
        "vector.nearest_first",
    ] {
        store.check(rule(id)).assert_green();
    }
}
