//! How a subject's rules run: cases, seed, timeouts, failure records, reproduction command.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicU32;
use std::time::{Duration, Instant};

use super::budget::Spending;

/// The default number of cases per rule when neither the subject nor `PROPTEST_CASES` says.
#[cfg(feature = "harness")]
pub(crate) const DEFAULT_CASES: u32 = 256;

/// How long one backend call may take, unless a gate says otherwise: the one default of every
/// gate, in-process or bridged (a bridge child's own timeout for one request, and the CLI's
/// `--op-timeout`, read it). A backend in another language answers its first requests slowly
/// (imports, a JIT warming up), and a loaded CI machine slower still; a hung call is found 20 s
/// later, which costs nothing when no call hangs.
pub const DEFAULT_OP_TIMEOUT: Duration = Duration::from_secs(20);

#[derive(Clone, Debug)]
// Without the harness, no rule runs: the fields only rules read are unread.
#[cfg_attr(not(feature = "harness"), allow(dead_code))]
pub(crate) struct RunOptions {
    pub(crate) op_timeout: Duration,
    pub(crate) rule_timeout: Option<Duration>,
    pub(crate) cases: Option<u32>,
    pub(crate) seed: Option<u64>,
    pub(crate) failure_records: Option<PathBuf>,
    pub(crate) reproduce: Option<String>,
    /// What the run spends, shared by every clone.
    pub(crate) spending: Arc<Spending>,
    /// Under a budget, the time by which the rule being checked starts no more cases.
    pub(crate) case_deadline: Option<Instant>,
    /// Counts the cases of the rule being checked as they pass, so its watchdog can tell a
    /// slow rule from a stalled one.
    pub(crate) cases_passed: Option<Arc<AtomicU32>>,
    /// For each kind of field departure seen after a later step, whether a first add into a
    /// fresh store shows it too (`run/field_watch.rs`), shared by every clone, so a backend
    /// that departs on every add is asked once a kind, not once a case.
    pub(crate) first_adds: Arc<std::sync::Mutex<std::collections::HashMap<String, bool>>>,
}

impl Default for RunOptions {
    fn default() -> Self {
        Self {
            op_timeout: DEFAULT_OP_TIMEOUT,
            rule_timeout: None,
            cases: None,
            seed: None,
            failure_records: None,
            reproduce: None,
            spending: Arc::default(),
            case_deadline: None,
            cases_passed: None,
            first_adds: Arc::default(),
        }
    }
}

impl RunOptions {
    #[cfg(feature = "harness")]
    /// Cases per rule: the subject's, else `PROPTEST_CASES`, else 256.
    pub(crate) fn cases(&self) -> u32 {
        self.cases
            .or_else(|| std::env::var("PROPTEST_CASES").ok()?.parse().ok())
            .unwrap_or(DEFAULT_CASES)
            .max(1)
    }

    #[cfg(feature = "harness")]
    /// How long a rule may go without a case passing, on its own thread: six per-call
    /// timeouts, at least 60 s.
    pub(crate) fn rule_timeout(&self) -> Duration {
        self.rule_timeout
            .unwrap_or_else(|| (self.op_timeout * 6).max(Duration::from_secs(60)))
    }
}
