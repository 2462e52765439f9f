//! `memory-conformance diagnose`: the four checks for one search, from session files (any ADK
//! format), ADK Python's session database or log lines, under the match rules of the backend
//! the sources came from (or of --profile).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use memory_conformance::MemoryKey;
use memory_conformance::inspect::{
    Conclusion, Evidence, LogEncoding, SearchRecord, SearchSource, decode_log, read_log,
};
use memory_conformance::profile::Profile;
use memory_conformance::sessions::{SessionFormat, read_session_database, read_sessions_from};
use serde::Serialize;

use crate::profiles;

/// What `diagnose` was asked.
pub struct Options {
    pub sessions: Vec<PathBuf>,
    pub databases: Vec<PathBuf>,
    pub logs: Vec<PathBuf>,
    pub app: Option<String>,
    pub user: Option<String>,
    pub query: Option<String>,
    /// The profile named by --profile; otherwise the one the sources were detected as.
    pub profile: Option<Profile>,
    pub json: bool,
    pub show_content: bool,
    /// No query text and no stored text in the output, only shapes.
    pub redact: bool,
}

/// One source read.
#[derive(Serialize)]
struct Source {
    file: String,
    format: String,
    sessions: Option<usize>,
    records: Option<usize>,
    skipped_parts: Option<usize>,
    skipped_lines: Option<usize>,
    encoding: Option<LogEncoding>,
}

/// The profile a source's backend is described by.
fn detected_profile(format: SessionFormat) -> &'static str {
    match format {
        SessionFormat::AdkPython | SessionFormat::AdkPythonAliases => "adk-python",
        SessionFormat::AdkJs => "adk-js",
        SessionFormat::AdkJava => "adk-java",
        SessionFormat::AdkRust => "adk-rust-in-memory",
        _ => "reference",
    }
}

/// Reads every source, diagnoses, prints; exit code 0 when nothing is wrong, 1 when a check
/// fails or no search was made, 2 on bad input or nothing to judge.
pub fn run(options: Options) -> Result<ExitCode, String> {
    if options.sessions.is_empty() && options.databases.is_empty() && options.logs.is_empty() {
        return Err(
            "nothing to diagnose: give --session FILE, --database FILE or --log FILE".to_owned(),
        );
    }
    let mut sources = Vec::new();
    let mut sessions = Vec::new();
    let mut detected: Option<(&'static str, String)> = None;
    for file in &options.sessions {
        // Streamed: a session file is never held whole.
        let loaded = if file == Path::new("-") {
            read_sessions_from(std::io::stdin().lock())
        } else {
            let reader = std::fs::File::open(file)
                .map_err(|err| format!("cannot read {}: {err}", file.display()))?;
            read_sessions_from(reader)
        }
        .map_err(|err| err.in_file(file).to_string())?;
        detected.get_or_insert((
            detected_profile(loaded.format),
            format!("{} ({})", file.display(), loaded.format),
        ));
        sources.push(Source {
            file: file.display().to_string(),
            format: loaded.format.to_string(),
            sessions: Some(loaded.sessions.len()),
            records: None,
            skipped_parts: Some(loaded.skipped_parts),
            skipped_lines: None,
            encoding: None,
        });
        sessions.extend(loaded.sessions);
    }
    for file in &options.databases {
        let (found, skipped) =
            read_session_database(file, None, None).map_err(|err| err.to_string())?;
        detected.get_or_insert((
            "adk-python",
            format!("{} (ADK Python session database)", file.display()),
        ));
        sources.push(Source {
            file: file.display().to_string(),
            format: "ADK Python session database (DatabaseSessionService)".to_owned(),
            sessions: Some(found.len()),
            records: None,
            skipped_parts: Some(skipped),
            skipped_lines: None,
            encoding: None,
        });
        sessions.extend(found);
    }
    let mut evidence = Evidence::from_session_store(sessions).show_content(options.show_content);
    let mut notes = Vec::new();
    for file in &options.logs {
        let bytes = read_bytes(file)?;
        let (text, encoding) = decode_log(&bytes);
        let read = read_log(&text);
        if read.records == 0 {
            return Err(format!(
                "{}: no memory.write, memory.search or memory.query line could be read{}",
                file.display(),
                read.first_skipped
                    .as_ref()
                    .map(|err| format!(" (first unreadable: {err})"))
                    .unwrap_or_default()
            ));
        }
        if encoding != LogEncoding::Utf8 {
            notes.push(format!("{}: read as {encoding}", file.display()));
        }
        if let Some(err) = &read.first_skipped {
            notes.push(format!(
                "{}: {} skipped (first: {err})",
                file.display(),
                count(read.skipped, "unreadable memory line")
            ));
        }
        if read.unmatched_queries > 0 {
            notes.push(format!(
                "{}: {} matched to no search (by key, or as the only one waiting)",
                file.display(),
                count(read.unmatched_queries, "memory.query line")
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
            skipped_lines: Some(read.skipped),
            encoding: Some(encoding),
        });
        evidence.extend(read.evidence);
    }

    let (stored, with_events) = evidence.stored_sessions();
    if options.logs.is_empty() && with_events == 0 {
        return Err(if stored == 0 {
            "nothing to judge: the sources hold no session".to_owned()
        } else {
            format!(
                "nothing to judge: {} but none holds an event (a list of sessions without their events?)",
                count(stored, "session")
            )
        });
    }

    let (profile, profile_from) = match (&options.profile, detected) {
        (Some(profile), _) => (profile.clone(), "--profile".to_owned()),
        (None, Some((name, from))) => (profiles::by_name(name)?, format!("detected from {from}")),
        (None, None) => (Profile::reference(), "the default".to_owned()),
    };

    let Some(search) = which_search(&evidence, &options) else {
        return no_search(&options, &sources, &profile, &profile_from);
    };
    let diagnosis = evidence.diagnose_search(&search, &profile);
    let diagnosis = if options.redact {
        diagnosis.redacted()
    } else {
        diagnosis
    };
    let conclusion = diagnosis.conclusion();
    if options.json {
        let out = serde_json::json!({
            "sources": sources,
            "notes": notes,
            "profile": profile.name,
            "profile_from": profile_from,
            "diagnosis": diagnosis,
            "verdict": conclusion,
            "verdict_text": conclusion.to_string(),
            "nothing_wrong": conclusion.nothing_wrong(),
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?
        );
    } else {
        print_sources(&sources, &notes);
        println!("profile: {} ({profile_from})", profile.name);
        // A log with no search at all says so in the diagnosis itself.
        if search.source == SearchSource::Given && !diagnosis.no_search_made {
            println!(
                "no search for this query under {} was seen: diagnosing it as if it were made",
                search.key
            );
        }
        println!("\n{diagnosis}");
    }
    Ok(if conclusion.nothing_wrong() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn print_sources(sources: &[Source], notes: &[String]) {
    for source in sources {
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
    for note in notes {
        println!("note: {note}");
    }
}

/// No search to diagnose: the application never searched memory (under the key asked about).
fn no_search(
    options: &Options,
    sources: &[Source],
    profile: &Profile,
    profile_from: &str,
) -> Result<ExitCode, String> {
    let conclusion = Conclusion::NoSearch;
    if options.json {
        let out = serde_json::json!({
            "sources": sources,
            "profile": profile.name,
            "profile_from": profile_from,
            "diagnosis": null,
            "verdict": conclusion,
            "verdict_text": conclusion.to_string(),
            "nothing_wrong": false,
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?
        );
    } else {
        print_sources(sources, &[]);
        println!("\nno load_memory call and no memory.search line was found");
        println!("verdict: {conclusion}");
        println!("(to check a search by hand, give --app, --user and --query)");
    }
    Ok(ExitCode::from(1))
}

/// The search to diagnose: the one named by --app, --user and --query (with its result when
/// it was seen), or else the last search seen (under --app and --user when given) that came
/// back empty, or the last one; `None` when no search was seen and none is named.
fn which_search(evidence: &Evidence, options: &Options) -> Option<SearchRecord> {
    let seen = evidence.searches().iter().rev().filter(|s| {
        options.app.as_ref().is_none_or(|a| *a == s.key.app_name)
            && options.user.as_ref().is_none_or(|u| *u == s.key.user_id)
            && options
                .query
                .as_ref()
                .is_none_or(|q| s.query.as_ref().is_none_or(|sq| sq == q))
    });
    let last = seen
        .clone()
        .find(|s| s.hits == Some(0))
        .or_else(|| seen.clone().next());
    if let (Some(app), Some(user), Some(query)) = (&options.app, &options.user, &options.query) {
        if let Some(found) = last.filter(|s| s.query.as_deref() == Some(query.as_str())) {
            return Some(found.clone());
        }
        let mut search = SearchRecord::new(MemoryKey::new(app.clone(), user.clone()));
        search.query = Some(query.clone());
        return Some(search);
    }
    last.map(|found| {
        let mut search = found.clone();
        if options.query.is_some() {
            search.query.clone_from(&options.query);
        }
        search
    })
}

/// A file's bytes; `-` is standard input.
fn read_bytes(file: &Path) -> Result<Vec<u8>, String> {
    if file == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
            .map_err(|err| format!("cannot read standard input: {err}"))?;
        return Ok(bytes);
    }
    std::fs::read(file).map_err(|err| format!("cannot read {}: {err}", file.display()))
}

fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
