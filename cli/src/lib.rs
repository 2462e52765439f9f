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
