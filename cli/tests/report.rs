//! `memory-conformance report` runs every gate through the gate's own code path: it cleans up
//! every namespace, and a backend that blocks its thread cannot hang it.

use std::process::Command;
use std::time::Duration;

use memory_conformance::conformance::{Gate, Subject};
use memory_conformance::profile::Profile;
use memory_conformance::{MemoryError, MemoryService, SearchMemoryResponse, Session, async_trait};
use memory_conformance_cli::report::{Options, Report};

#[test]
fn the_report_leaves_no_scratch_file_of_any_backend_behind() {
    let scratch =
        std::env::temp_dir().join(format!("memory-conformance-scratch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let output = scratch.with_extension("md");
    let ran = Command::new(env!("CARGO_BIN_EXE_memory-conformance"))
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
            "the rule did not finish within 200ms: a backend call blocked its thread, where the per-call timeout cannot fire"
        ),
        "{text}"
    );
    assert!(
        text.contains("**blocks**: the probe corpus did not finish within 200ms"),
        "{text}"
    );
}
