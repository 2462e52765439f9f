//! Recall quality from the command line: `compare` shows what a swap of bundled backends gains
//! and loses on the recall benchmark, question by question; a saved `benchmark` run compares
//! like a bundled backend.
//!
//! The swap to the real-model backend needs all-MiniLM-L6-v2's weights: where
//! `bash embedders/minilm/fetch-model.sh` has not been run, that test reports itself ignored
//! with the command as the reason; with `MEMORY_CONFORMANCE_REQUIRE_ALL_BACKENDS` set (CI), it
//! fails.

mod support;

use std::path::PathBuf;
use std::process::ExitCode;

use libtest_mimic::{Arguments, Failed, Trial};
use memory_conformance::benchmark::{locomo_missing, locomo_path};
use memory_conformance_bundled::BUNDLED;

use support::installed::when_installed;
use support::{run, text};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mc-recall-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The question ids listed under the heading that starts with `heading`, and the count the
/// heading gives.
fn listed(output: &str, heading: &str) -> Result<(usize, Vec<String>), Failed> {
    let mut lines = output.lines().skip_while(|l| !l.starts_with(heading));
    let title = lines
        .next()
        .ok_or_else(|| format!("no section {heading:?} in:\n{output}"))?;
    let count: usize = title
        .rsplit_once('(')
        .and_then(|(_, n)| n.trim_end_matches("):").parse().ok())
        .ok_or_else(|| format!("no count in {title:?}"))?;
    let ids = lines
        .take_while(|l| l.starts_with("  ") && l.trim() != "none")
        .map(|l| l.trim().split(' ').next().unwrap_or_default().to_owned())
        .collect::<Vec<_>>();
    Ok((count, ids))
}

/// A swap's comparison: the gained and lost questions named, each with its ranks before and
/// after, and counts that match the lists.
fn check_swap(
    before: &str,
    after: &str,
    gained_must: &[&str],
    lost_must: &[&str],
) -> Result<String, Failed> {
    check_swap_on("v1", before, after, gained_must, lost_must)
}

/// [`check_swap`] on the data `dataset` names.
fn check_swap_on(
    dataset: &str,
    before: &str,
    after: &str,
    gained_must: &[&str],
    lost_must: &[&str],
) -> Result<String, Failed> {
    let out = run(&["compare", before, after, "--dataset", dataset]);
    let stdout = text(&out.stdout);
    if out.status.code() != Some(0) {
        return Err(format!(
            "compare {before} {after} failed:\n{stdout}{}",
            text(&out.stderr)
        )
        .into());
    }
    let (gained_count, gained) = listed(&stdout, "gained")?;
    let (lost_count, lost) = listed(&stdout, "lost")?;
    if gained.len() != gained_count || lost.len() != lost_count {
        return Err(format!("the counts do not match the lists:\n{stdout}").into());
    }
    for id in gained_must {
        if !gained.iter().any(|g| g == id) {
            return Err(format!("{id} is not among the questions gained:\n{stdout}").into());
        }
    }
    for id in lost_must {
        if !lost.iter().any(|l| l == id) {
            return Err(format!("{id} is not among the questions lost:\n{stdout}").into());
        }
    }
    if gained.is_empty() || lost.is_empty() {
        return Err(
            format!("a swap of these backends both gains and loses questions:\n{stdout}").into(),
        );
    }
    Ok(stdout)
}

/// Reference to sqlite-fts5: FTS5 indexes digits and ranks by BM25, so a bare postcode and an
/// order code are gained; its Porter-free tokens lose an inflected question the reference's
/// unranked list happened to hold near the top.
fn reference_to_sqlite_fts5() -> Result<(), Failed> {
    let stdout = check_swap("reference", "sqlite-fts5", &["q-014", "q-051"], &["q-042"])?;
    if !stdout.contains("q-014 (number-id) \"BS2 9QX\": missed -> rank 1") {
        return Err(format!("the gained line shows the question and both ranks:\n{stdout}").into());
    }
    Ok(())
}

/// sqlite-fts5 to the real-model backend: paraphrases that share no word are gained.
fn sqlite_fts5_to_minilm() -> Result<(), Failed> {
    let stdout = check_swap("sqlite-fts5", "vector-minilm", &[], &[])?;
    let (_, gained) = listed(&stdout, "gained")?;
    let paraphrases = stdout
        .lines()
        .filter(|l| l.contains("(paraphrase)"))
        .filter(|l| {
            gained
                .iter()
                .any(|g| l.trim_start().starts_with(g.as_str()))
        })
        .count();
    if paraphrases < 5 {
        return Err(format!(
            "a real embedding model gains paraphrases over BM25, found {paraphrases}:\n{stdout}"
        )
        .into());
    }
    Ok(())
}

/// The swap from the reference to sqlite-fts5 on LoCoMo: the questions gained and lost listed
/// with their category and ranks, the headline over categories 1-4.
fn reference_to_sqlite_fts5_on_locomo() -> Result<(), Failed> {
    let stdout = check_swap_on("locomo", "reference", "sqlite-fts5", &[], &[])?;
    if !stdout.starts_with(
        "reference -> sqlite-fts5 on LoCoMo (locomo10.json), categories 1-4 (adversarial questions apart)",
    ) || !stdout.contains(" (single-hop) \"")
    {
        return Err(format!("the comparison names LoCoMo and the questions' categories:\n{stdout}").into());
    }
    let (gained, _) = listed(&stdout, "gained")?;
    let (lost, _) = listed(&stdout, "lost")?;
    if gained < 10 * lost {
        return Err(
            format!("bm25 over storage order gains far more than it loses:\n{stdout}").into(),
        );
    }
    Ok(())
}

/// A run saved by `benchmark --output` compares like the backend itself: against its own
/// backend nothing is gained or lost.
fn a_saved_run_compares_like_the_backend() -> Result<(), Failed> {
    let dir = scratch("saved");
    let saved = dir.join("before.json");
    let out = run(&[
        "benchmark",
        "--backend",
        "sqlite-fts5",
        "--output",
        saved.to_str().unwrap(),
    ]);
    let stdout = text(&out.stdout);
    if out.status.code() != Some(0) || !stdout.contains("| sqlite-fts5 |") {
        return Err(format!("benchmark failed:\n{stdout}{}", text(&out.stderr)).into());
    }
    let out = run(&[
        "compare",
        saved.to_str().unwrap(),
        "sqlite-fts5",
        "--fail-on-lost",
    ]);
    let stdout = text(&out.stdout);
    if out.status.code() != Some(0)
        || !stdout.contains("gained: answered within the first 5 after, not before (0):")
        || !stdout.contains("lost: answered within the first 5 before, not after (0):")
    {
        return Err(format!(
            "a run against itself gains and loses nothing:\n{stdout}{}",
            text(&out.stderr)
        )
        .into());
    }
    let out = run(&[
        "compare",
        saved.to_str().unwrap(),
        "reference",
        "--fail-on-lost",
    ]);
    if out.status.code() != Some(1) {
        return Err(format!(
            "--fail-on-lost exits 1 when questions are lost:\n{}",
            text(&out.stdout)
        )
        .into());
    }
    let out = run(&[
        "compare",
        dir.join("missing.json").to_str().unwrap(),
        "reference",
    ]);
    let stderr = text(&out.stderr);
    if out.status.code() != Some(2) || !stderr.contains("missing.json") {
        return Err(format!("a missing run file is named, exit 2:\n{stderr}").into());
    }
    std::fs::remove_dir_all(&dir)
        .map_err(|err| format!("cannot remove {}: {err}", dir.display()))?;
    Ok(())
}

fn main() -> ExitCode {
    let trials = vec![
        Trial::test(
            "compare::reference_to_sqlite_fts5",
            reference_to_sqlite_fts5,
        ),
        when_installed(
            "compare::sqlite_fts5_to_minilm",
            BUNDLED.gate("vector-minilm").map(drop),
            sqlite_fts5_to_minilm,
        ),
        // Where LoCoMo is absent, the reason says where to get it.
        when_installed(
            "compare::reference_to_sqlite_fts5_on_locomo",
            locomo_missing(&locomo_path()).map_or(Ok(()), Err),
            reference_to_sqlite_fts5_on_locomo,
        ),
        Trial::test(
            "compare::a_saved_run_compares_like_the_backend",
            a_saved_run_compares_like_the_backend,
        ),
    ];
    libtest_mimic::run(&Arguments::from_args(), trials).exit_code()
}
