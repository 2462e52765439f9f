//! What a test run counts, as libtest counts it, and the exit code it makes.

use std::process::ExitCode;

/// The counts of a test run: `test result: ok. N passed; N failed; N ignored; 0 measured;
/// N filtered out`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Conclusion {
    /// Tests that passed.
    pub passed: usize,
    /// Tests that failed.
    pub failed: usize,
    /// Tests left ignored, or that checked nothing.
    pub ignored: usize,
    /// Tests the filters, the skips or `--ignored` left out.
    pub filtered_out: usize,
}

impl Conclusion {
    /// libtest's exit code: 101 where a test failed, else success.
    pub fn exit_code(&self) -> ExitCode {
        if self.failed > 0 {
            ExitCode::from(101)
        } else {
            ExitCode::SUCCESS
        }
    }
}
