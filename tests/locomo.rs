//! LoCoMo read from `locomo10.json` (CC BY-NC 4.0, never in this repository): the counts the
//! data's notice gives, and the reference's recall against its anchor. Ignored by default, as
//! the file is not part of a clone; `.ci/run` runs them with `--ignored`, reading the file from
//! `../shared/data/locomo/locomo10.json` or `$MEMORY_CONFORMANCE_LOCOMO`.

use memory_conformance::InMemoryMemoryService;
use memory_conformance::benchmark::{Benchmark, BenchmarkRun, Dataset, QuestionKind, locomo_path};

fn locomo() -> Benchmark {
    Benchmark::locomo(&locomo_path()).unwrap_or_else(|err| panic!("{err}"))
}

#[test]
#[ignore = "reads LoCoMo (CC BY-NC, not in the repository) from ../shared/data/locomo or $MEMORY_CONFORMANCE_LOCOMO; .ci/run runs it"]
fn locomo_reads_with_the_counts_of_its_notice() {
    let b = locomo();
    assert_eq!(b.dataset, Dataset::Locomo);
    let users: std::collections::BTreeSet<&str> =
        b.sessions.iter().map(|s| s.user_id.as_str()).collect();
    assert_eq!(users.len(), 10);
    assert_eq!(b.sessions.len(), 272);
    let events: usize = b.sessions.iter().map(|s| s.events.len()).sum();
    assert_eq!(events, 5_882);
    // 1,986 questions: 8 have no label that names a turn (4 have none at all).
    assert_eq!(b.questions.len() + b.unlabelled.len(), 1_986);
    assert_eq!(b.unlabelled.len(), 8);
    let headline = b
        .questions
        .iter()
        .filter(|q| Dataset::Locomo.headline_kinds().contains(&q.kind))
        .count();
    assert_eq!(headline, 1_532);
    let adversarial = b
        .questions
        .iter()
        .filter(|q| q.kind == QuestionKind::Adversarial);
    assert_eq!(adversarial.count(), 446);
    // 2,808 labels name a turn; one question names one turn twice, counted once.
    let kept: usize = b.questions.iter().map(|q| q.answers.len()).sum();
    assert_eq!((kept, b.dropped_labels.len()), (2_807, 8));
    assert!(
        b.dropped_labels
            .iter()
            .any(|(q, label)| q.starts_with("conv-49") && label == "D9:1 D4:4 D4:6"),
        "{:?}",
        b.dropped_labels
    );
}

#[tokio::test]
#[ignore = "reads LoCoMo (CC BY-NC, not in the repository) from ../shared/data/locomo or $MEMORY_CONFORMANCE_LOCOMO; .ci/run runs it"]
async fn the_reference_lands_within_three_points_of_its_anchor() {
    // Its counterpart outside the kit, keyword match with every match in storage order:
    // recall@10 0.035 on categories 1-4.
    let run = BenchmarkRun::of(&locomo(), "reference", &InMemoryMemoryService::new())
        .await
        .unwrap();
    let headline = run.headline();
    assert_eq!(headline.answerable, 1_532);
    assert!(
        (headline.recall_at_10 - 0.035).abs() <= 0.03,
        "reference recall@10 on LoCoMo categories 1-4 is {:.3}, the anchor 0.035",
        headline.recall_at_10
    );
}
