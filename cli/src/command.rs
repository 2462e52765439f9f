//! The command's subcommands, as clap parses them, and what each runs.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Subcommand, ValueEnum};
use memory_conformance::conformance::DEFAULT_OP_TIMEOUT;

use crate::backends::Backends;
use crate::{diagnose, explain, gate, infer, profiles, recall, snapshot};

/// The subcommands of `memory-conformance`: gate, infer, profile, snapshot, benchmark, compare,
/// explain and diagnose. A tool flattens them into a command of its own
/// (`#[command(flatten)]`) and runs them over its own [`Backends`].
#[derive(Subcommand)]
pub enum Command {
    /// Gate a backend behind a bridge command (any language, docs/bridge-protocol.md): every
    /// rule of the kit against the profile it declares, and its recall pinned in a folder.
    /// Exit 0 green, 1 a test failed, 2 bad input or the backend could not start.
    #[command(
        after_help = "Examples:\n  memory-conformance gate --profile adk-python --snapshots memory-snapshots --junit gate.xml -- python3 bridge.py\n  memory-conformance gate --profile reference --rules 'key.*' --seed 7 -- node bridge.mjs"
    )]
    Gate(gate::Flags),
    /// Find the profile that fits a backend, dimension by dimension, by running the rules that
    /// check each dimension against every value it can take; print it as a profile file.
    #[command(
        after_help = "Examples:\n  memory-conformance infer -- python3 bridge.py > my-backend.toml\n  memory-conformance infer --backend reference --cases 32"
    )]
    Infer {
        /// A backend by name (the kit's `reference`, or one the command bundles), instead of a
        /// bridge command.
        #[arg(long, value_name = "NAME")]
        backend: Option<String>,
        /// The name the inferred profile carries (default: the named backend's, or the one the
        /// bridge's hello names).
        #[arg(long, value_name = "NAME")]
        name: Option<String>,
        /// Generated cases per rule and candidate value.
        #[arg(long, default_value_t = 32)]
        cases: u32,
        /// The seed cases are generated from.
        #[arg(long, default_value_t = 2026)]
        seed: u64,
        /// How long one call of the bridge may take, in seconds.
        #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_OP_TIMEOUT.as_secs())]
        op_timeout: u64,
        /// The bridge's program and arguments.
        #[arg(last = true, value_name = "COMMAND")]
        command: Vec<std::ffi::OsString>,
    },
    /// Show a profile, dimension by dimension, or write it as a profile file to start from.
    #[command(
        after_help = "Examples:\n  memory-conformance profile show adk-python\n  memory-conformance profile show my-backend.toml\n  memory-conformance profile show adk-python --format toml > my-backend.toml"
    )]
    Profile {
        /// `show` prints the profile.
        #[arg(value_enum)]
        action: ProfileAction,
        /// A preset name or a profile file.
        #[arg(value_name = "NAME|FILE")]
        profile: String,
        /// `table` (the dimensions as the reports show them) or `toml` (a profile file).
        #[arg(long, value_enum, default_value_t = ProfileFormat::Table)]
        format: ProfileFormat,
    },
    /// Review or accept the recall snapshots that `gate --snapshots DIR` wrote as `.new`.
    #[command(
        after_help = "Examples:\n  memory-conformance snapshot review memory-snapshots\n  memory-conformance snapshot accept memory-snapshots"
    )]
    Snapshot {
        /// `review` prints what changed; `accept` pins it.
        #[arg(value_enum)]
        action: SnapshotAction,
        /// The snapshot folder.
        dir: PathBuf,
    },
    /// Run the recall benchmark (docs/recall-benchmark.md) against a backend by name or one
    /// behind a bridge command: recall@1, @5, @10 and MRR, overall and per question kind, and
    /// each question's outcome; `--output` saves the run for `compare`.
    #[command(
        after_help = "Examples:\n  memory-conformance benchmark --backend reference --dataset locomo\n  memory-conformance benchmark --profile my-backend.toml --output before.json -- python3 bridge.py"
    )]
    Benchmark {
        /// A backend by name (the kit's `reference`, or one the command bundles), instead of a
        /// bridge command.
        #[arg(long, value_name = "NAME")]
        backend: Option<String>,
        /// With a bridge command: the profile the backend declares (a file or a preset name).
        #[arg(long, value_name = "FILE|NAME", default_value = "reference")]
        profile: String,
        /// Save the run as JSON here, to compare it later.
        #[arg(long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// How long one call of the bridge may take, in seconds.
        #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_OP_TIMEOUT.as_secs())]
        op_timeout: u64,
        /// The data: `v1` (the kit's per-kind behaviour diagnostic), `locomo` (LoCoMo's
        /// locomo10.json, read from $MEMORY_CONFORMANCE_LOCOMO, else
        /// ../shared/data/locomo/locomo10.json beside the repository) or a locomo10.json's path.
        #[arg(long, value_name = "locomo|v1|PATH", default_value = "v1")]
        dataset: String,
        /// The bridge's program and arguments.
        #[arg(last = true, value_name = "COMMAND")]
        command: Vec<std::ffi::OsString>,
    },
    /// Compare two runs of the recall benchmark question by question: the figures side by
    /// side, the questions gained and lost. Each side is a backend's name (as `--backend` takes
    /// it) or a run saved by `benchmark --output`.
    #[command(
        after_help = "Examples:\n  memory-conformance compare reference after.json --dataset locomo\n  memory-conformance compare before.json after.json --fail-on-lost"
    )]
    Compare {
        /// The run before: a backend's name or a saved run (.json).
        before: String,
        /// The run after.
        after: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
        format: OutputFormat,
        /// Exit 1 when a question answered before is not answered after.
        #[arg(long)]
        fail_on_lost: bool,
        /// The data a backend named on either side runs on (see `benchmark --help`).
        #[arg(long, value_name = "locomo|v1|PATH", default_value = "v1")]
        dataset: String,
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
        /// Explain under this profile's rules: reference, adk-python, adk-python-sqlite,
        /// adk-js, adk-java, adk-go, adk-rust-in-memory, adk-rust-sqlite, sqlite-fts5.
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
    /// debugging guide's decorator and plugin lines. Without --query, the last search the
    /// application made that found nothing is diagnosed: a memory.search log line, or a
    /// load_memory call and its response recorded in a stored conversation. Sessions do not
    /// record what was written to memory: from them alone checks 1 and 2 are not known. The
    /// match rules are those of the backend the sources were detected as, unless --profile is
    /// given. Stored content is never printed unless --show-content is given.
    ///
    /// Exit status: 0 when nothing wrong is found, 1 when a check fails or no search was made,
    /// 2 on bad input or nothing to judge.
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
        /// Explain the query under this profile's rules (see `explain --help`); by default the
        /// profile of the backend the sources were detected as (ADK Python's for its session
        /// files and databases, ADK JS's for its files, the reference's for logs).
        #[arg(long, value_name = "NAME")]
        profile: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
        format: OutputFormat,
        /// Show the stored values where the query's words were found. Off by default: stored
        /// content often holds personal data.
        #[arg(long)]
        show_content: bool,
        /// Print no query text and no stored text, only their shapes (token classes and
        /// lengths), for sharing a diagnosis in an issue tracker. Overrides --show-content.
        #[arg(long)]
        redact: bool,
    },
}

/// Output formats of `explain` and `diagnose`.
#[derive(Clone, Copy, ValueEnum)]
pub enum OutputFormat {
    /// For people.
    Text,
    /// JSON, for scripts.
    Json,
}

/// What `profile` does.
#[derive(Clone, Copy, ValueEnum)]
pub enum ProfileAction {
    /// Print the profile.
    Show,
}

/// How `profile show` prints.
#[derive(Clone, Copy, ValueEnum)]
pub enum ProfileFormat {
    /// Dimension by dimension.
    Table,
    /// As a profile file, every dimension written out.
    Toml,
}

/// What `snapshot` does.
#[derive(Clone, Copy, ValueEnum)]
pub enum SnapshotAction {
    /// Print each pending snapshot's difference from the pinned one.
    Review,
    /// Replace each pinned snapshot with its pending one.
    Accept,
}

impl Command {
    /// Runs the subcommand, `--backend NAME` naming one of `backends`. `Ok` is the exit code;
    /// `Err` is bad input or a backend that could not start (exit 2), said on one line.
    pub fn run(self, backends: Backends) -> Result<ExitCode, String> {
        match self {
            Command::Gate(flags) => flags.options().and_then(gate::run),
            Command::Infer {
                backend,
                name,
                cases,
                seed,
                op_timeout,
                command,
            } => infer::run(
                backends,
                backend.as_deref(),
                name,
                cases,
                seed,
                op_timeout,
                &command,
            ),
            Command::Profile {
                action: ProfileAction::Show,
                profile,
                format,
            } => profiles::load(&profile).map(|file| {
                match format {
                    ProfileFormat::Table => println!("{}", file.profile),
                    ProfileFormat::Toml => print!("{}", file.to_toml()),
                }
                ExitCode::SUCCESS
            }),
            Command::Snapshot { action, dir } => match action {
                SnapshotAction::Review => snapshot::review(&dir).map(|text| {
                    print!("{text}");
                    ExitCode::SUCCESS
                }),
                SnapshotAction::Accept => snapshot::accept(&dir).map(|accepted| {
                    for path in &accepted {
                        println!("accepted {}", path.display());
                    }
                    if accepted.is_empty() {
                        println!("no snapshot in {} waits for review", dir.display());
                    }
                    ExitCode::SUCCESS
                }),
            },
            Command::Benchmark {
                backend,
                profile,
                output,
                op_timeout,
                dataset,
                command,
            } => recall::benchmark(
                backends,
                backend.as_deref(),
                &profile,
                &command,
                op_timeout,
                &dataset,
                output.as_deref(),
            ),
            Command::Compare {
                before,
                after,
                format,
                fail_on_lost,
                dataset,
            } => recall::compare(
                backends,
                &before,
                &after,
                &dataset,
                matches!(format, OutputFormat::Json),
                fail_on_lost,
            ),
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
                redact,
            } => profile
                .as_deref()
                .map(profiles::by_name)
                .transpose()
                .and_then(|profile| {
                    diagnose::run(diagnose::Options {
                        sessions,
                        databases,
                        logs,
                        app,
                        user,
                        query,
                        profile,
                        json: matches!(format, OutputFormat::Json),
                        show_content: show_content && !redact,
                        redact,
                    })
                }),
        }
    }
}
