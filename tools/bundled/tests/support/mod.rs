//! Running the tool and reading its answers, shared by the tool's tests.
#![allow(dead_code)]

use std::process::{Command, Output};

/// Tests that need something installed outside Cargo: the command's tests' own.
#[path = "../../../../cli/tests/support/installed.rs"]
pub mod installed;

/// Runs the tool with `args`.
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_memory-conformance-bundled"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Standard output or error as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
