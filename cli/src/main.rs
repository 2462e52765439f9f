//! `memory-conformance`: gate a backend behind a bridge command, infer its profile, measure its
//! recall, and see why a memory search came back empty.

use std::process::ExitCode;
use std::sync::LazyLock;

use clap::Parser;
use memory_conformance_cli::{Backends, Command};

/// `--version`: the kit's version and the rule set it checks.
static VERSION: LazyLock<String> = LazyLock::new(memory_conformance_cli::version);

/// Prove how agent-memory backends behave, and see why a memory search came back empty.
#[derive(Parser)]
#[command(name = "memory-conformance", version = VERSION.as_str())]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

fn main() -> ExitCode {
    Cli::parse()
        .command
        .run(Backends::KIT)
        .unwrap_or_else(|error| {
            eprintln!("memory-conformance: {error}");
            ExitCode::from(2)
        })
}
