//! The report's headline recall section: LoCoMo's categories 1-4 per backend, beside the
//! figures of standard implementations measured outside the kit (the anchors), and why a
//! backend lands far from its counterpart.

use std::fmt::Write as _;

use memory_conformance::benchmark::{BenchmarkRun, Dataset, LOCOMO_SOURCE, Metrics};

/// A figure measured outside the kit on LoCoMo categories 1-4 (1,532 questions, one entry per
/// turn, the turn's text only, each question searched within its own conversation).
struct Anchor {
    /// The kit's backend it is the counterpart of.
    backend: &'static str,
    /// The method, as measured.
    method: &'static str,
    recall_at_5: f64,
    recall_at_10: f64,
    mrr_at_10: f64,
    /// Why the backend lands where it does against the anchor, from its code; said when it
    /// lands more than [`FAR`] from it.
    why_apart: &'static str,
}

const ANCHORS: [Anchor; 4] = [
    Anchor {
        backend: "sqlite-fts5",
        method: "SQLite FTS5 bm25, OR of the distinct words, top 10, one index per conversation",
        recall_at_5: 0.424,
        recall_at_10: 0.496,
        mrr_at_10: 0.347,
        why_apart: "memory-sqlite-fts5 keeps one FTS5 table for every (app name, user id) \
                    (`memory_fts` in its schema), so bm25's inverse document frequencies and \
                    average length are computed over all ten conversations, not the one \
                    searched; the same FTS5 query over one table per conversation gives 0.496",
    },
    Anchor {
        backend: "segmented-bm25",
        method: "BM25Okapi, full ranking",
        recall_at_5: 0.412,
        recall_at_10: 0.489,
        mrr_at_10: 0.348,
        why_apart: "",
    },
    Anchor {
        backend: "vector-minilm",
        method: "all-MiniLM-L6-v2, cosine",
        recall_at_5: 0.209,
        recall_at_10: 0.289,
        mrr_at_10: 0.172,
        why_apart: "",
    },
    Anchor {
        backend: "reference",
        method: "keyword match, every match in storage order",
        recall_at_5: 0.018,
        recall_at_10: 0.035,
        mrr_at_10: 0.022,
        why_apart: "",
    },
];

/// How far (recall@10) a backend may land from its anchor before the report says why.
const FAR: f64 = 0.02;

fn share(value: f64) -> String {
    format!("{value:.3}")
}

/// The section, for the runs that completed; `unavailable` says why LoCoMo could not be read
/// (absent: where to get it), `failed` names the backends whose run failed, `unpinned` those
/// whose approximate index gives another recall on every run (named, not tabled).
pub fn section(
    runs: &[&BenchmarkRun],
    unavailable: Option<&str>,
    failed: &[(&str, &str)],
    unpinned: &[&str],
) -> String {
    let mut out = String::from("\n## Recall on LoCoMo\n\n");
    if let Some(why) = unavailable {
        let _ = writeln!(
            out,
            "Not measured here: {why}. Every other section of this report ran without it.\n"
        );
        return out;
    }
    let _ = writeln!(
        out,
        "How often each backend brings back the dialogue turns that answer a question, on LoCoMo \
         (Maharana et al., ACL 2024; `locomo10.json` from {LOCOMO_SOURCE}, read at run time, \
         never copied here, SHA-256 pinned): each conversation is one user, each LoCoMo session \
         one session with its date, each turn one event (its `dia_id` the event id, its speaker \
         the event's author, its text the only part; a shared photo's machine caption is left \
         out). A backend that indexes `Event.author` sees the speaker's name; one that indexes \
         text parts only does not, as for its users. A question's answering events are its \
         evidence (split on `;`, ids that name no turn dropped); the headline is over categories \
         1-4 (1,532 questions), adversarial questions (category 5) apart. recall@k: the share of \
         a question's answering turns among the first k entries; MRR@10: the mean of 1 / the \
         rank of the first answering entry, 0 beyond 10. Each anchor is a standard implementation \
         measured outside the kit on the same questions, the turn's text only, each question \
         searched within its own conversation. \
         `memory-conformance-bundled compare A B --dataset locomo` lists the questions a swap \
         gains and loses.\n"
    );
    out.push_str(
        "| backend | recall@1 | recall@5 | recall@10 | MRR@10 | anchor recall@10 |\n|---|---:|---:|---:|---:|---:|\n",
    );
    for run in runs {
        let m = run.headline();
        let anchor = ANCHORS
            .iter()
            .find(|a| a.backend == run.backend)
            .map_or("-".to_owned(), |a| share(a.recall_at_10));
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {anchor} |",
            run.backend,
            share(m.recall_at_1),
            share(m.recall_at_5),
            share(m.recall_at_10),
            share(m.mrr_at_10)
        );
    }
    for anchor in &ANCHORS {
        let _ = writeln!(
            out,
            "| anchor: {} (counterpart of {}) | - | {} | {} | {} | |",
            anchor.method,
            anchor.backend,
            share(anchor.recall_at_5),
            share(anchor.recall_at_10),
            share(anchor.mrr_at_10)
        );
    }
    let notes: Vec<String> = runs
        .iter()
        .filter_map(|run| {
            let anchor = ANCHORS.iter().find(|a| a.backend == run.backend)?;
            let got = run.headline().recall_at_10;
            ((got - anchor.recall_at_10).abs() > FAR).then(|| {
                let why = if anchor.why_apart.is_empty() {
                    "not explained yet"
                } else {
                    anchor.why_apart
                };
                format!(
                    "- **{}** lands at recall@10 {} against its anchor's {}: {why}.",
                    run.backend,
                    share(got),
                    share(anchor.recall_at_10)
                )
            })
        })
        .collect();
    if notes.is_empty() {
        let _ = writeln!(
            out,
            "\nEvery backend with an anchor lands within {:.0} points of it.",
            FAR * 100.0
        );
    } else {
        let _ = writeln!(
            out,
            "\nWhere a backend lands more than {:.0} points from its anchor:\n\n{}",
            FAR * 100.0,
            notes.join("\n")
        );
    }
    for backend in unpinned {
        let _ = writeln!(
            out,
            "\n- **{backend}** is left out of these tables: its profile declares an approximate \
             vector index, and an approximate index (pgvector's HNSW draws its graph's levels at \
             random) gives another recall on LoCoMo on every run."
        );
    }
    for (backend, why) in failed {
        let _ = writeln!(
            out,
            "\n- **{backend}** could not run LoCoMo: {}",
            why.replace('\n', " ")
        );
    }
    let _ = writeln!(
        out,
        "\nBy category (recall@10 / MRR@10):\n\n{}",
        by_category(runs)
    );
    out
}

/// One row per backend, one column per LoCoMo category, adversarial last.
fn by_category(runs: &[&BenchmarkRun]) -> String {
    let kinds = Dataset::Locomo.kinds();
    let mut out = String::from("| backend |");
    for kind in kinds {
        let questions = runs.first().map_or(0, |r| r.of_kind(*kind).answerable);
        let _ = write!(out, " {} ({questions}) |", kind.name());
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|".repeat(kinds.len()));
    out.push('\n');
    for run in runs {
        let _ = write!(out, "| {} |", run.backend);
        for kind in kinds {
            let m: Metrics = run.of_kind(*kind);
            let _ = write!(out, " {} / {} |", share(m.recall_at_10), share(m.mrr_at_10));
        }
        out.push('\n');
    }
    out
}
