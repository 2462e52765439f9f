//! A regression in the backend's normalisation is caught by a rule: built without NFC, the
//! store no longer finds `café` typed decomposed (or the other way round), and `query.non_ascii`
//! fails with that scenario, while the backend as declared passes it.

use memory_conformance::conformance::{Gate, Subject, Verdict, rules};
use memory_segmented_bm25::{Normalisation, SegmentedBm25, profile};

fn gate(normalisation: Normalisation) -> Gate {
    let subject = Subject::new("segmented-bm25", profile(), move || async move {
        SegmentedBm25::with_normalisation(normalisation)
    });
    Gate::new(subject).cases(128).seed(2026)
}

#[test]
fn without_nfc_the_store_fails_query_non_ascii_and_with_it_passes() {
    let rule = rules::find("query.non_ascii").expect("the rule exists");
    match gate(Normalisation::Nfc).check(rule) {
        Verdict::Passed { .. } => {}
        other => panic!("the declared backend must pass query.non_ascii: {other}"),
    }
    match gate(Normalisation::None).check(rule) {
        Verdict::Failed(failure) => {
            let report = failure.to_string();
            assert!(
                report.contains(r"cafe\u{301}"),
                "the minimal scenario shows the decomposed accent:\n{report}"
            );
        }
        other => panic!("a store without NFC must fail query.non_ascii: {other}"),
    }
}
