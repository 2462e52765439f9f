//! `memory-conformance-bundled report` runs every gate through the gate's own code path: it cleans up
//! every namespace, and a backend that blocks its thread cannot hang it.

use std::process::Command;
use std::time::Duration;

use memory_conformance::conformance::{Gate, Subject};
use memory_conformance::profile::Profile;
use memory_conformance::{MemoryError, MemoryService, SearchMemoryResponse, Session, async_trait};
use memory_conformance_bundled::report::{Options, Report};

#[test]
fn the_report_leaves_no_scratch_file_of_any_backend_behind() {
    let scratch =
        std::env::temp_dir().join(format!("memory-conformance-scratch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let output = scratch.with_extension("md");
    let ran = Command::new(env!("CARGO_BIN_EXE_memory-conformance-bundled"))
        .env(memory_conformance::conformance::SCRATCH_DIR, &scratch)
        .args([
            "report",
            "--backend",
            "sqlite-fts5",
            "--backend",
            "adk-rust-sqlite",
        ])
        .args(["--cases", "4", "--output"])
        .arg(&output)
        .output()
        .expect("the binary runs");
    assert!(
        ran.status.success(),
        "{}",
        String::from_utf8_lossy(&ran.stderr)
    );
    let report = std::fs::read_to_string(&output).unwrap();
    assert!(report.contains("| sqlite-fts5 |") && report.contains("| adk-rust-sqlite |"));
    // LoCoMo leads the recall: both backends' figures beside the anchors, or, without the data,
    // where to get it.
    let locomo = report
        .split("\n## Recall on LoCoMo\n")
        .nth(1)
        .expect("the report has a LoCoMo section");
    let present = memory_conformance::benchmark::locomo_missing(
        &memory_conformance::benchmark::locomo_path(),
    )
    .is_none();
    if present {
        assert!(
            locomo.contains(
                "| backend | recall@1 | recall@5 | recall@10 | MRR@10 | anchor recall@10 |"
            ) && locomo.contains("| sqlite-fts5 | 0.")
                && locomo.contains("| adk-rust-sqlite | 0.")
                && locomo.contains("| anchor: SQLite FTS5 bm25"),
            "{locomo}"
        );
    } else {
        assert!(
            locomo.starts_with("\nNot measured here: LoCoMo is not at")
                && locomo.contains("snap-research/locomo"),
            "{locomo}"
        );
    }
    // The per-kind diagnostic: both backends' figures, and the plot beside the report, linked
    // from it.
    let plot = output.with_file_name(format!(
        "{}.recall.svg",
        output.file_stem().unwrap().to_string_lossy()
    ));
    let recall = report
        .split("\n## Per-kind behaviour diagnostic (recall benchmark v1)\n")
        .nth(1)
        .expect("the report has the per-kind diagnostic");
    assert!(
        recall.contains("| backend | recall@1 | recall@5 | recall@10 | MRR |")
            && recall.contains("| kind | questions | sqlite-fts5 | adk-rust-sqlite |")
            && recall.contains("| paraphrase | 36 |"),
        "{recall}"
    );
    let link = format!(
        "![Recall@5 by question kind and backend]({})",
        plot.file_name().unwrap().to_string_lossy()
    );
    assert!(recall.contains(&link), "{recall}");
    let svg = std::fs::read_to_string(&plot).expect("the plot is written beside the report");
    assert!(
        svg.starts_with("<svg")
            && svg.contains(">sqlite-fts5</text>")
            && svg.contains(">adk-rust-sqlite</text>")
    );
    // Both backends keep a database file per case in the scratch folder, so it exists; the
    // report removed every one of them.
    let left: Vec<_> = std::fs::read_dir(&scratch)
        .expect("the backends wrote their databases to the scratch folder")
        .flatten()
        .map(|entry| entry.file_name())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
    std::fs::remove_dir_all(&scratch).unwrap();
    std::fs::remove_file(&output).unwrap();
    std::fs::remove_file(&plot).unwrap();
}

#[test]
fn the_json_report_carries_each_backends_recall_figures() {
    let options = Options {
        json: true,
        output: None,
        backends: Vec::new(),
        cases: 2,
        seed: 1,
        require_all: false,
    };
    let report = Report::of(vec![Gate::reference()], &options);
    let json: serde_json::Value = serde_json::from_str(&report.to_json().unwrap()).unwrap();
    let figures = &json["backends"][0]["recall_benchmark"];
    assert_eq!(figures["version"], 1);
    assert_eq!(figures["overall"]["questions"], 274);
    let at_5 = figures["overall"]["recall_at_5"].as_f64().unwrap();
    assert!(at_5 > 0.2 && at_5 < 0.5, "{figures}");
    assert_eq!(figures["by_kind"]["tool-only"]["answerable"], 0);
    assert_eq!(figures["by_kind"]["paraphrase"]["questions"], 36);
}

/// Adds land; every search blocks its thread for an hour, where no per-call timeout can fire.
struct BlocksItsThread;

#[async_trait]
impl MemoryService for BlocksItsThread {
    async fn add_session_to_memory(&self, _session: &Session) -> Result<(), MemoryError> {
        Ok(())
    }

    async fn search_memory(
        &self,
        _app_name: &str,
        _user_id: &str,
        _query: &str,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        std::thread::sleep(Duration::from_secs(3600));
        Ok(SearchMemoryResponse::default())
    }
}

#[test]
fn a_backend_that_blocks_its_thread_cannot_hang_the_report() {
    let gate = Gate::new(Subject::new("blocks", Profile::reference(), || async {
        BlocksItsThread
    }))
    .rule_timeout(Duration::from_millis(200));
    let options = Options {
        json: false,
        output: None,
        backends: Vec::new(),
        cases: 1,
        seed: 1,
        require_all: false,
    };
    let report = Report::of(vec![Gate::reference(), gate], &options);
    assert!(report.is_red());
    let text = report.to_markdown();
    assert!(
        text.contains("| key.isolation | required | pass | FAIL |"),
        "{text}"
    );
    assert!(
        text.contains(
            "the rule did not finish a case within 200ms: a backend call blocked its thread, where the per-call timeout cannot fire, or one case took that long"
        ),
        "{text}"
    );
    assert!(
        text.contains("**blocks**: the probe corpus did not finish within 200ms"),
        "{text}"
    );
    assert!(
        text.contains("**blocks**: the recall benchmark: did not finish within 200ms"),
        "{text}"
    );
}
