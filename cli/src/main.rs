//! `memory-conformance`: behaviour reports across agent-memory backends, and the reference's
//! `explain` and `diagnose` for a search that came back empty.

mod diagnose;
mod explain;
mod profiles;

use memory_conformance_cli::report;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// Prove how agent-memory backends behave, and see why a memory search came back empty.
#[derive(Parser)]
#[command(name = "memory-conformance", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run every rule and the probe corpus against every bundled backend, and print the
    /// conformance table, the recall table and each backend's differences from the reference.
    #[command(
        after_help = "Examples:\n  memory-conformance report --output BEHAVIOUR.md\n  memory-conformance report --format json --backend reference --cases 16"
    )]
    Report {
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Markdown)]
        format: Format,
        /// Write the report to this file instead of standard output.
        #[arg(long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Only these backends (repeatable); all bundled backends by default.
        #[arg(long = "backend", value_name = "NAME")]
        backends: Vec<String>,
        /// Generated cases per rule.
        #[arg(long, default_value_t = 64)]
        cases: u32,
        /// The seed cases are generated from; fixed by default, so the report is reproducible.
        #[arg(long, default_value_t = 2026)]
        seed: u64,
        /// Fail (exit 1) when a backend cannot run here, instead of reporting it as not run.
        #[arg(long)]
        require_all: bool,
    },
    /// Show each token of a query and whether it can ever match, under a backend's rules.
    ///
    /// Exit status: 0 when at least one token can match, 1 when none can, 2 on bad input.
    #[command(
        after_help = "Example:\n  memory-conformance explain \"Where's order 4417?\"\n  memory-conformance explain --profile adk-python --format json \"coffee?\""
    )]
    Explain {
        /// The query, as the agent would send it.
        query: String,
        /// Explain under this profile's rules: reference, adk-python, adk-js, adk-java,
        /// adk-go, adk-rust-in-memory, adk-rust-sqlite, sqlite-fts5.
        #[arg(long, value_name = "NAME", default_value = "reference")]
        profile: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
        format: OutputFormat,
    },
    /// Walk the four checks for a search, from session files, ADK Python's session database
    /// or log lines.
    ///
    /// Session files may be in any ADK format (the kit's JSON, ADK Python's pydantic dumps
    /// with or without aliases, ADK JS, ADK Java, ADK-Rust), detected automatically; `-` reads
    /// standard input. Log lines may be the kit's tracing output (plain or JSON) or the
    /// debugging guide's decorator lines. Stored content is never printed unless
    /// --show-content is given.
    ///
    /// Exit status: 0 when nothing wrong is found, 1 when a check fails, 2 on bad input.
    #[command(
        after_help = "Examples:\n  memory-conformance diagnose --session monday.json --app support --user u-42 --query \"coffee preference?\"\n  memory-conformance diagnose --database sessions.db --app support --user u-42 --query \"Where's order 4417?\"\n  memory-conformance diagnose --log app.log --format json"
    )]
    Diagnose {
        /// A JSON file holding one session, an array of sessions or {"sessions": [...]}
        /// (repeatable).
        #[arg(long = "session", value_name = "FILE")]
        sessions: Vec<PathBuf>,
        /// ADK Python's session database, the SQLite file of its DatabaseSessionService
        /// (repeatable).
        #[arg(long = "database", value_name = "FILE")]
        databases: Vec<PathBuf>,
        /// A log file with memory.write, memory.search and memory.query lines (repeatable).
        #[arg(long = "log", value_name = "FILE")]
        logs: Vec<PathBuf>,
        /// The app name the search is made under (from the log's last empty search if not
        /// given).
        #[arg(long, value_name = "APP")]
        app: Option<String>,
        /// The user id the search is made under.
        #[arg(long, value_name = "USER")]
        user: Option<String>,
        /// The query.
        #[arg(long, value_name = "QUERY")]
        query: Option<String>,
        /// Explain the query under this profile's rules (see `explain --help`).
        #[arg(long, value_name = "NAME", default_value = "reference")]
        profile: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
        format: OutputFormat,
        /// Show the stored values where the query's words were found. Off by default: stored
        /// content often holds personal data.
        #[arg(long)]
        show_content: bool,
    },
}

/// Output formats of `explain` and `diagnose`.
#[derive(Clone, Copy, ValueEnum)]
enum OutputFormat {
    /// For people.
    Text,
    /// JSON, for scripts.
    Json,
}

/// Report formats.
#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// Markdown tables, for people and for BEHAVIOUR.md.
    Markdown,
    /// JSON, for CI.
    Json,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Report {
            format,
            output,
            backends,
            cases,
            seed,
            require_all,
        } => report::run(report::Options {
            json: matches!(format, Format::Json),
            output,
            backends,
            cases,
            seed,
            require_all,
        }),
        Command::Explain {
            query,
            profile,
            format,
        } => profiles::by_name(&profile).and_then(|profile| {
            explain::run(&query, &profile, matches!(format, OutputFormat::Json))
        }),
        Command::Diagnose {
            sessions,
            databases,
            logs,
            app,
            user,
            query,
            profile,
            format,
            show_content,
        } => profiles::by_name(&profile).and_then(|profile| {
            diagnose::run(diagnose::Options {
                sessions,
                databases,
                logs,
                app,
                user,
                query,
                profile,
                json: matches!(format, OutputFormat::Json),
                show_content,
            })
        }),
    };
    result.unwrap_or_else(|error| {
        eprintln!("memory-conformance: {error}");
        ExitCode::from(2)
    })
}
