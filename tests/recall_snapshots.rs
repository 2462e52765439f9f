//! The reference's recall on the probe corpus is pinned with insta in the top-level
//! `snapshots/` folder by the kit's own gate (`tests/conformance.rs`, trial
//! `reference::snapshot.recall`): `cargo test` fails when it changes, and `cargo insta review`
//! is how a deliberate change is accepted. These tests prove that, and pin the profiles.

mod support;

use memory_conformance::InMemoryMemoryService;
use memory_conformance::probe::{Difference, Observation};
use memory_conformance::profile::Profile;

use support::deviants::{Deviant, query};

const SNAPSHOT: &str = "reference_recall";

async fn reference() -> Observation {
    Observation::of(
        "reference",
        &Profile::reference(),
        &InMemoryMemoryService::new(),
    )
    .await
}

fn pinned_in_snapshots(name: &str, text: &str) {
    insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!(name, text);
    });
}

#[tokio::test]
async fn the_profiles_are_pinned() {
    let profiles = [
        Profile::reference(),
        Profile::adk_python(),
        Profile::adk_js(),
        Profile::adk_java(),
        Profile::adk_go(),
        Profile::adk_rust_in_memory(),
        Profile::adk_rust_sqlite(),
    ];
    let refs: Vec<&Profile> = profiles.iter().collect();
    pinned_in_snapshots("profiles", &Profile::markdown_table(&refs));
}

/// The body of a pinned snapshot file, as insta compares it.
fn pinned_body(name: &str) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots/");
    let text =
        std::fs::read_to_string(format!("{path}{name}.snap")).expect("the snapshot is committed");
    let body = text.splitn(3, "---\n").nth(2).expect("an insta header");
    body.trim_end().to_owned()
}

/// A backend whose recall differs from the reference no longer matches the pinned snapshot,
/// so swapping it in fails `cargo test` loudly, and the difference table says why.
#[tokio::test]
async fn an_altered_backend_no_longer_matches_the_pinned_recall() {
    let pinned = pinned_body(SNAPSHOT);
    assert_eq!(
        reference().await.to_markdown().trim_end(),
        pinned,
        "the reference matches its own snapshot"
    );

    let profile = Profile::reference();
    let deviant = Deviant::new(&query::StripQueryPunctuation);
    let altered = Observation::of("reference", &profile, &deviant).await;
    assert_ne!(
        altered.to_markdown().trim_end(),
        pinned,
        "the snapshot assertion would fail"
    );

    let difference = Difference::between(&altered, &profile, &reference().await);
    let probes: Vec<&str> = difference.rows.iter().map(|r| r.probe).collect();
    assert_eq!(
        probes,
        ["coffee-question-mark", "white-dot"],
        "{}",
        difference.to_markdown()
    );
    assert!(
        difference
            .to_markdown()
            .contains("no declared dimension: an undeclared difference"),
        "the profile claims reference behaviour, so nothing it declares explains the change:\n{}",
        difference.to_markdown()
    );
}
