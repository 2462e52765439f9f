//! `memory-conformance diagnose`: sessions from JSON through the inspecting decorator into
//! the reference, then the four-check diagnosis of one search.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use memory_conformance::inspect::InspectingMemoryService;
use memory_conformance::{InMemoryMemoryService, MemoryService, Session};

/// Loads every file, writes the sessions, searches and prints the diagnosis.
pub fn run(files: &[PathBuf], app: &str, user: &str, query: &str) -> Result<ExitCode, String> {
    let mut sessions = Vec::new();
    for file in files {
        sessions.extend(load(file)?);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .map_err(|err| format!("cannot start a runtime: {err}"))?;
    runtime.block_on(async {
        let memory = InspectingMemoryService::new(InMemoryMemoryService::new());
        for session in &sessions {
            memory
                .add_session_to_memory(session)
                .await
                .map_err(|err| format!("cannot write session {:?}: {err}", session.id))?;
        }
        let found = memory
            .search_memory(app, user, query)
            .await
            .map_err(|err| format!("the search failed: {err}"))?;
        println!(
            "loaded {} from {}",
            count(sessions.len(), "session"),
            count(files.len(), "file")
        );
        println!(
            "search {:?}/{:?} {query:?}: {}\n",
            app,
            user,
            count(found.memories.len(), "hit")
        );
        println!("{}", memory.diagnose(app, user, query));
        Ok(ExitCode::SUCCESS)
    })
}

/// One session or an array of sessions, with errors that name the file and what is wrong.
fn load(file: &Path) -> Result<Vec<Session>, String> {
    let name = file.display();
    let text = std::fs::read_to_string(file).map_err(|err| format!("cannot read {name}: {err}"))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|err| format!("{name} is not valid JSON: {err}"))?;
    let parsed = if value.is_array() {
        serde_json::from_str::<Vec<Session>>(&text)
    } else {
        serde_json::from_str::<Session>(&text).map(|session| vec![session])
    };
    parsed.map_err(|err| {
        format!(
            "{name} does not hold a session or an array of sessions: {err} (a session is \
             {{\"id\", \"app_name\", \"user_id\", \"events\": [{{\"id\", \"author\", \"timestamp\", \"content\"}}]}})"
        )
    })
}

fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
