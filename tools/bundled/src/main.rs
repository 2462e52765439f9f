//! `memory-conformance-bundled`: the `memory-conformance` command, its `--backend NAME`
//! naming every bundled backend, and `report`, which writes BEHAVIOUR.md.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use memory_conformance_bundled::{BUNDLED, report};
use memory_conformance_cli::Command;

/// Every subcommand of `memory-conformance` over the bundled backends, and the behaviour
/// report across them.
#[derive(Parser)]
#[command(name = "memory-conformance-bundled", version)]
struct Tool {
    #[command(subcommand)]
    command: ToolCommand,
}

#[derive(Subcommand)]
enum ToolCommand {
    // Boxed: the command's flags are large beside the report's.
    #[command(flatten)]
    Command(Box<Command>),
    /// Run every rule and the probe corpus against every bundled backend, and print the
    /// conformance table, the recall table and each backend's differences from the reference.
    #[command(
        after_help = "Examples:\n  memory-conformance-bundled report --output BEHAVIOUR.md\n  memory-conformance-bundled report --format json --backend reference --cases 16"
    )]
    Report(report::Flags),
}

fn main() -> ExitCode {
    let result = match Tool::parse().command {
        ToolCommand::Command(command) => command.run(BUNDLED),
        ToolCommand::Report(flags) => report::run(flags.options()),
    };
    result.unwrap_or_else(|error| {
        eprintln!("memory-conformance-bundled: {error}");
        ExitCode::from(2)
    })
}
