//! `memory-conformance`: behaviour reports across agent-memory backends, and the reference's
//! `explain` and `diagnose` for a search that came back empty.

mod diagnose;
mod explain;

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
    /// Show each token of a query and whether it can ever match the reference index.
    Explain {
        /// The query, as the agent would send it.
        query: String,
    },
    /// Load sessions from JSON, write them through the inspecting decorator into the
    /// reference backend, search, and walk the four checks.
    Diagnose {
        /// A JSON file holding one session or an array of sessions (repeatable).
        #[arg(long = "session", value_name = "FILE", required = true)]
        sessions: Vec<PathBuf>,
        /// The app name the search is made under.
        #[arg(long, value_name = "APP")]
        app: String,
        /// The user id the search is made under.
        #[arg(long, value_name = "USER")]
        user: String,
        /// The query.
        #[arg(long, value_name = "QUERY")]
        query: String,
    },
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
        Command::Explain { query } => {
            print!("{}", explain::render(&query));
            Ok(ExitCode::SUCCESS)
        }
        Command::Diagnose {
            sessions,
            app,
            user,
            query,
        } => diagnose::run(&sessions, &app, &user, &query),
    };
    result.unwrap_or_else(|error| {
        eprintln!("memory-conformance: {error}");
        ExitCode::from(2)
    })
}
