//! The `memory-conformance` command as a library: its subcommands ([`Command`]: gate, infer,
//! profile, snapshot, benchmark, compare, explain, diagnose) and the backends `--backend NAME`
//! names ([`Backends`]), so a tool with backends of its own runs the same commands over them.

mod backends;
mod command;
mod diagnose;
mod explain;
mod gate;
mod infer;
mod junit;
mod profiles;
mod recall;
mod reproduce;
mod snapshot;
mod subject;

pub use backends::Backends;
pub use command::Command;

/// What `--version` says after the command's name: the kit's version, and the rule set it
/// checks with its count of rules (`0.1.0 (rules 0.1, 33 rules)`).
pub fn version() -> String {
    use memory_conformance::conformance::{RuleSetVersion, rules};
    format!(
        "{} (rules {}, {} rules)",
        env!("CARGO_PKG_VERSION"),
        RuleSetVersion::CURRENT,
        rules::catalogue().len()
    )
}
