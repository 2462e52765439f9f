//! Broken variants of `VectorMemory`, each caught by the rule that covers what it breaks, with
//! the kit's embedder computing the expected nearest events.

use memory_conformance::conformance::{Subject, Verdict, rules};
use memory_conformance::embed::HashedEmbedder;
use memory_vector::{Deviation, VectorMemory, profile};

fn subject(deviation: Deviation) -> Subject {
    Subject::new(format!("{deviation:?}"), profile(), move || async move {
        VectorMemory::new(HashedEmbedder::default()).with_deviation(deviation)
    })
    .seed(0x5EED)
    .cases(64)
}

/// The failure report of `verdict`, which must be a failure.
fn failed(verdict: Verdict) -> String {
    match verdict.failure() {
        Some(failure) => failure.to_string(),
        None => panic!("the deviant passed: {verdict}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_across_keys_is_caught_by_key_isolation() {
    let report = failed(rules::key_isolation(&subject(Deviation::AcrossKeys)).await);
    assert!(
        report.contains("none of") || report.contains("entries where none belong"),
        "{report}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_old_version_kept_after_a_readd_is_caught_by_readd_replaces() {
    let report = failed(rules::replace_readd_replaces(&subject(Deviation::KeepsOldVersions)).await);
    assert!(
        report.contains("rule replace.readd_replaces failed"),
        "{report}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cut_before_ranking_is_caught_by_nearest_first() {
    let report = failed(rules::vector_nearest_first(&subject(Deviation::CutsBeforeRanking)).await);
    assert!(report.contains("nearest by hashed-256"), "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_store_itself_passes_the_rules_its_deviants_fail() {
    let store = Subject::new("vector-hashed", profile(), || async {
        VectorMemory::new(HashedEmbedder::default())
    })
    .cases(64);
    for verdict in [
        rules::key_isolation(&store).await,
        rules::replace_readd_replaces(&store).await,
        rules::vector_nearest_first(&store).await,
    ] {
        verdict.assert_green();
    }
}
