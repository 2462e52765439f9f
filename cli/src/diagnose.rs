//! `memory-conformance diagnose`: the four checks for one search, from session files (any ADK
//! format), ADK Python's session database or log lines, under a profile's match rules.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use memory_conformance::MemoryKey;
use memory_conformance::inspect::{Evidence, SearchRecord, read_log};
use memory_conformance::profile::Profile;
use memory_conformance::sessions::{read_session_database, read_sessions};
use serde::Serialize;

/// What `diagnose` was asked.
pub struct Options {
    pub sessions: Vec<PathBuf>,
    pub databases: Vec<PathBuf>,
    pub logs: Vec<PathBuf>,
    pub app: Option<String>,
    pub user: Option<String>,
    pub query: Option<String>,
    pub profile: Profile,
    pub json: bool,
    pub show_content: bool,
}

/// One source read.
#[derive(Serialize)]
struct Source {
    file: String,
    format: String,
    sessions: Option<usize>,
    records: Option<usize>,
    skipped_parts: Option<usize>,
}

/// Reads every source, diagnoses, prints; exit code 0 when nothing is wrong, 1 when a check
/// fails.
pub fn run(options: Options) -> Result<ExitCode, String> {
    if options.sessions.is_empty() && options.databases.is_empty() && options.logs.is_empty() {
        return Err(
            "nothing to diagnose: give --session FILE, --database FILE or --log FILE".to_owned(),
        );
    }
    let mut sources = Vec::new();
    let mut sessions = Vec::new();
    for file in &options.sessions {
        let text = read_text(file)?;
        let loaded = read_sessions(&text).map_err(|err| err.in_file(file).to_string())?;
        sources.push(Source {
            file: file.display().to_string(),
            format: loaded.format.to_string(),
            sessions: Some(loaded.sessions.len()),
            records: None,
            skipped_parts: Some(loaded.skipped_parts),
        });
        sessions.extend(loaded.sessions);
    }
    for file in &options.databases {
        let (found, skipped) =
            read_session_database(file, None, None).map_err(|err| err.to_string())?;
        sources.push(Source {
            file: file.display().to_string(),
            format: "ADK Python session database (DatabaseSessionService)".to_owned(),
            sessions: Some(found.len()),
            records: None,
            skipped_parts: Some(skipped),
        });
        sessions.extend(found);
    }
    let mut evidence = Evidence::from_sessions(sessions).show_content(options.show_content);
    for file in &options.logs {
        let text = read_text(file)?;
        let read = read_log(&text).map_err(|err| format!("{}: {err}", file.display()))?;
        if read.records == 0 {
            return Err(format!(
                "{}: no memory.write, memory.search or memory.query line",
                file.display()
            ));
        }
        sources.push(Source {
            file: file.display().to_string(),
            format: read
                .formats
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            sessions: None,
            records: Some(read.records),
            skipped_parts: None,
        });
        evidence.extend(read.evidence);
    }

    let search = which_search(&evidence, &options)?;
    let diagnosis = evidence.diagnose_search(&search, &options.profile);
    let verdict = diagnosis.verdict();
    if options.json {
        let out = serde_json::json!({
            "sources": sources,
            "profile": options.profile.name,
            "diagnosis": diagnosis,
            "verdict": verdict,
            "verdict_text": verdict.to_string(),
            "nothing_wrong": verdict.nothing_wrong(),
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?
        );
    } else {
        for source in &sources {
            let what = match (source.sessions, source.records) {
                (Some(n), _) => count(n, "session"),
                (_, Some(n)) => count(n, "memory record"),
                _ => String::new(),
            };
            println!("read {}: {}, {what}", source.file, source.format);
        }
        let loaded: usize = sources.iter().filter_map(|s| s.sessions).sum();
        if loaded > 0 {
            println!(
                "loaded {} from {}",
                count(loaded, "session"),
                count(
                    sources.iter().filter(|s| s.sessions.is_some()).count(),
                    "file"
                )
            );
        }
        println!("\n{diagnosis}");
    }
    Ok(if verdict.nothing_wrong() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The search to diagnose: the one named by --app, --user and --query, or else the last
/// logged search (under --app and --user when given) that came back empty, or the last one.
fn which_search(evidence: &Evidence, options: &Options) -> Result<SearchRecord, String> {
    let logged = evidence.searches().iter().rev().filter(|s| {
        options.app.as_ref().is_none_or(|a| *a == s.key.app_name)
            && options.user.as_ref().is_none_or(|u| *u == s.key.user_id)
            && options
                .query
                .as_ref()
                .is_none_or(|q| s.query.as_ref().is_none_or(|sq| sq == q))
    });
    let last = logged
        .clone()
        .find(|s| s.hits == Some(0))
        .or_else(|| logged.clone().next());
    if let (Some(app), Some(user), Some(query)) = (&options.app, &options.user, &options.query) {
        let mut search = SearchRecord::new(MemoryKey::new(app.clone(), user.clone()));
        search.query = Some(query.clone());
        if let Some(seen) = last.filter(|s| s.query.as_deref() == Some(query.as_str())) {
            search.hits = seen.hits;
        }
        return Ok(search);
    }
    match last {
        Some(seen) => {
            let mut search = seen.clone();
            if options.query.is_some() {
                search.query = options.query.clone();
            }
            Ok(search)
        }
        None if options.logs.is_empty() => {
            Err("say which search to diagnose: give --app, --user and --query".to_owned())
        }
        None => Err(
            "no memory.search line matches: give --app, --user and --query to name the search"
                .to_owned(),
        ),
    }
}

/// A file's text; `-` is standard input.
fn read_text(file: &Path) -> Result<String, String> {
    if file == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|err| format!("cannot read standard input: {err}"))?;
        return Ok(text);
    }
    std::fs::read_to_string(file).map_err(|err| format!("cannot read {}: {err}", file.display()))
}

fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
