//! The gate: every rule of the kit against one [`Subject`], with known violations declared.

use std::fmt;
use std::time::Duration;

use super::known_violation::{KnownViolation, implied_violations};
use super::profile_file::ProfileFile;
use super::rule_set::RuleSetVersion;
use super::subject::Subject;
use crate::benchmark::floor::RecallFloor;

/// Every rule of the kit against one backend, with its known violations: the one declaration
/// of a backend's gate, run by its test target (`conformance_main!`), by the command line and
/// by reports alike.
///
/// ```
/// use memory_conformance::InMemoryMemoryService;
/// use memory_conformance::conformance::{Gate, Subject};
/// use memory_conformance::profile::Profile;
/// let subject = Subject::new("reference", Profile::reference(), || async { InMemoryMemoryService::new() });
/// let report = Gate::new(subject).cases(8).run();
/// assert!(report.is_green(), "{report}");
/// ```
#[derive(Clone, Debug)]
pub struct Gate {
    pub(crate) subject: Subject,
    pub(crate) declared: Vec<KnownViolation>,
    snapshot_dir: Option<String>,
    unavailable: Option<String>,
    description: Option<String>,
    recall_floor: RecallFloor,
    one_at_a_time: Option<String>,
    /// The rule set pinned, or why the pin given is not one.
    rules_as_of: Option<Result<RuleSetVersion, String>>,
}

/// When this environment variable is set, a gate marked [unavailable](Gate::unavailable) fails
/// instead of showing its tests as ignored (CI sets it after installing every backend).
pub const REQUIRE_ALL_BACKENDS: &str = "MEMORY_CONFORMANCE_REQUIRE_ALL_BACKENDS";

impl Gate {
    /// A gate of every rule against `subject`, with the violations its profile implies and no
    /// other.
    pub fn new(mut subject: Subject) -> Self {
        // A gate's spending is its own, even where two gates share a subject.
        subject.options.spending = std::sync::Arc::default();
        Self {
            subject,
            declared: Vec::new(),
            snapshot_dir: None,
            unavailable: None,
            description: None,
            recall_floor: RecallFloor::default(),
            one_at_a_time: None,
            rules_as_of: None,
        }
    }

    /// The gate of the kit's reference, [`InMemoryMemoryService`](crate::InMemoryMemoryService)
    /// under [`Profile::reference`](crate::profile::Profile::reference).
    pub fn reference() -> Self {
        let subject = Subject::new(
            "reference",
            crate::profile::Profile::reference(),
            || async { crate::InMemoryMemoryService::new() },
        );
        Self::new(subject).describe(concat!("memory-conformance ", env!("CARGO_PKG_VERSION")))
    }

    /// Says what exactly runs (package, version, how it is reached), for reports.
    #[must_use]
    pub fn describe(mut self, what_runs: impl Into<String>) -> Self {
        self.description = Some(what_runs.into());
        self
    }

    /// What exactly runs, as [described](Gate::describe); the backend's name when not.
    pub fn description(&self) -> &str {
        self.description
            .as_deref()
            .unwrap_or_else(|| self.subject.backend())
    }

    /// Declares that the backend breaks `rule_id`, because of `reason` (one line, ideally
    /// naming the upstream source or issue). Violations the profile implies are not declared
    /// again: [`validate`](Gate::validate) refuses them.
    #[must_use]
    pub fn known_violation(
        mut self,
        rule_id: impl Into<String>,
        reason: impl Into<String>,
    ) -> Self {
        self.declared
            .push(KnownViolation::declared(rule_id, reason));
        self
    }

    /// Declares that the backend breaks `rule_id` in some runs and not in others, because of
    /// `reason`: a race whose outcome the scheduler decides (a connection pool that hands two
    /// halves of one operation to different connections, say). The trial passes whether the
    /// violation shows or not, and says which; unlike a [known
    /// violation](Gate::known_violation), a run where the rule holds does not fail, because it
    /// proves no fix. The rule is therefore not enforced at all: declare this only for a race
    /// whose cause the reason names, and prefer fixing the race.
    ///
    /// Reports give such a rule the same row in every run (`intermittent violation` and the
    /// reason), so that a generated report stays the same from run to run, and a case that hit
    /// the race is not [recorded](Gate::failure_records): it belongs to no case.
    #[must_use]
    pub fn known_intermittent_violation(
        mut self,
        rule_id: impl Into<String>,
        reason: impl Into<String>,
    ) -> Self {
        self.declared
            .push(KnownViolation::intermittent(rule_id, reason));
        self
    }

    /// The gate with what a profile file declares for it: its known violations (races as
    /// [intermittent](Gate::known_intermittent_violation)), its cases, seed, recall floor and
    /// per-call timeout (`op_timeout_seconds`, given to [`Gate::op_timeout`]) and the rule set it
    /// pins (`rules_as_of`, given to [`Gate::rules_as_of`]). A bridged
    /// backend's timeout is the bridge's: whoever starts the bridge takes it from the file
    /// first (`ProfileFile::op_timeout_seconds.take()`), since
    /// [`bridged_subject`](crate::process::bridged_subject) gives the harness a margin beyond
    /// it.
    ///
    /// ```
    /// use memory_conformance::conformance::{Gate, ProfileFile, Subject};
    /// let file = ProfileFile::parse(r#"
    ///     format = 1
    ///     extends = "adk-python"
    ///     name = "my-sqlite-memory"
    ///     [[known_violation]]
    ///     rule = "result.fidelity"
    ///     reason = "naive local timestamps"
    ///     [gate]
    ///     cases = 64
    /// "#).unwrap();
    /// let subject = Subject::new("my-sqlite-memory", file.profile.clone(), || async {
    ///     memory_conformance::InMemoryMemoryService::new()
    /// });
    /// let gate = Gate::new(subject).declared_by(&file);
    /// assert_eq!(gate.known_violations().last().unwrap().rule_id(), "result.fidelity");
    /// assert!(gate.known_violations().iter().all(|v| !v.is_intermittent()));
    /// ```
    #[must_use]
    pub fn declared_by(self, file: &ProfileFile) -> Self {
        let mut gate = self.recall_floor(file.recall_floor.clone());
        gate.declared.extend(file.known_violations.iter().cloned());
        if let Some(cases) = file.cases {
            gate = gate.cases(cases);
        }
        if let Some(seed) = file.seed {
            gate = gate.seed(seed);
        }
        if let Some(seconds) = file.op_timeout_seconds {
            gate = gate.op_timeout(Duration::from_secs(seconds.max(1)));
        }
        if let Some(version) = file.rules_as_of {
            gate.rules_as_of = Some(Ok(version));
        }
        gate
    }

    /// Pins the rules the gate counts to those of kit version `version` (`MAJOR.MINOR`, as
    /// `CHANGELOG.md` heads its sections): a rule a later version brought still runs and is
    /// reported as new, but does not fail the gate until the pin moves. Unpinned, every rule of
    /// the kit counts. A version that is not one of the kit's rule sets (from
    /// [`RuleSetVersion::FIRST`] to [`RuleSetVersion::CURRENT`]) is a wrong declaration:
    /// [`validate`](Gate::validate) says what was expected.
    ///
    /// ```
    /// use memory_conformance::conformance::{Gate, RuleSetVersion};
    /// let gate = Gate::reference().rules_as_of("0.1");
    /// assert_eq!(gate.rule_set(), RuleSetVersion::FIRST);
    /// let wrong = Gate::reference().rules_as_of("0.1.0").validate().unwrap_err();
    /// assert!(wrong.contains("rules_as_of") && wrong.contains("MAJOR.MINOR"), "{wrong}");
    /// ```
    #[must_use]
    pub fn rules_as_of(mut self, version: &str) -> Self {
        self.rules_as_of = Some(version.parse());
        self
    }

    /// The rule set the gate counts: the one it [pins](Gate::rules_as_of), else this kit's.
    pub fn rule_set(&self) -> RuleSetVersion {
        self.pinned_rule_set().unwrap_or(RuleSetVersion::CURRENT)
    }

    /// The rule set the gate [pins](Gate::rules_as_of), if it pins a valid one.
    pub fn pinned_rule_set(&self) -> Option<RuleSetVersion> {
        self.rules_as_of.clone().and_then(Result::ok)
    }

    /// Why the gate's pin is not a rule set, if it is not.
    #[cfg(feature = "harness")]
    pub(crate) fn rules_as_of_problem(&self) -> Option<String> {
        match &self.rules_as_of {
            Some(Err(problem)) => Some(format!("rules_as_of: {problem}")),
            _ => None,
        }
    }

    /// Marks the backend as not runnable here (a missing interpreter, an uninstalled
    /// package): every trial shows as ignored with `reason`, which should say how to install
    /// what is missing.
    #[must_use]
    pub fn unavailable(mut self, reason: impl Into<String>) -> Self {
        self.unavailable = Some(reason.into());
        self
    }

    /// [`unavailable`](Gate::unavailable) when `available` is an error.
    #[must_use]
    pub fn available(self, available: Result<(), String>) -> Self {
        match available {
            Ok(()) => self,
            Err(reason) => self.unavailable(reason),
        }
    }

    /// Runs the gate's rules one at a time under `conformance_main!` (as reports always do),
    /// because of `reason`: instances of different cases contend on something outside their
    /// namespaces, such as a lock a database server holds for every client.
    #[must_use]
    pub fn one_rule_at_a_time(mut self, reason: impl Into<String>) -> Self {
        self.one_at_a_time = Some(reason.into());
        self
    }

    /// Why the rules run one at a time, if they must.
    pub fn one_rule_at_a_time_reason(&self) -> Option<&str> {
        self.one_at_a_time.as_deref()
    }

    /// Where `conformance_main!` pins the recall snapshots, relative to the test file
    /// (default `snapshots/` beside it, named `<test file>__<backend>_recall.snap`; with a
    /// folder given, `<backend>_recall.snap`).
    #[must_use]
    pub fn snapshots_in(mut self, dir: impl Into<String>) -> Self {
        self.snapshot_dir = Some(dir.into());
        self
    }

    /// Generated cases per rule (default: `PROPTEST_CASES`, else 256; heavy rules run fewer).
    #[must_use]
    pub fn cases(mut self, cases: u32) -> Self {
        self.subject.options.cases = Some(cases.max(1));
        self
    }

    /// The seed cases are generated from (default: `PROPTEST_RNG_SEED`, else random).
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Self {
        self.subject.options.seed = Some(seed);
        self
    }

    /// How long one backend call may take before its rule fails (default
    /// [`DEFAULT_OP_TIMEOUT`](super::options::DEFAULT_OP_TIMEOUT)).
    #[must_use]
    pub fn op_timeout(mut self, timeout: Duration) -> Self {
        self.subject.options.op_timeout = timeout;
        self
    }

    /// How long a rule may go without a case passing, on its own thread (default: six per-call
    /// timeouts, at least 60 s); the recall benchmark and the replicas probe get it once in
    /// all. It catches backends that block their thread, where the per-call timeout cannot
    /// fire, and never fails a rule whose many slow cases keep passing.
    #[must_use]
    pub fn rule_timeout(mut self, timeout: Duration) -> Self {
        self.subject.options.rule_timeout = Some(timeout);
        self
    }

    /// Bounds the run's time, from now: the rules that apply to the profile share `budget` as
    /// they start, each with an even share of what is left (a run of only some of them stays
    /// well inside it), and a rule stops before a case it would not finish within its share
    /// (judging by its longest case so far). Every rule runs at least one case, so a
    /// budget too small for that is overrun, and [`spent`](Gate::spent) says by how much.
    /// Failing cases are still shrunk. Without a budget, every rule runs all its cases.
    #[must_use]
    pub fn budget(self, budget: Duration) -> Self {
        self.budget_from(budget, std::time::Instant::now())
    }

    /// [`budget`](Gate::budget), counted from `started` (when the command started, so the
    /// time a bridge took to start counts too).
    #[must_use]
    pub fn budget_from(self, budget: Duration, started: std::time::Instant) -> Self {
        self.subject.options.spending.bound(budget, started);
        self
    }

    /// What the run spent so far: time against the budget, cases run against those planned,
    /// stores opened and the time that took.
    pub fn spent(&self) -> super::budget::Spent {
        self.subject.options.spending.spent()
    }

    /// The command that reruns one rule, printed in failure reports, in the terms of the
    /// runner that runs the gate: `{id}` stands for the rule's id, `{rule}` for its test name
    /// and `{seed}` for the seed (see [`Subject::reproduce_with`]).
    #[must_use]
    pub fn reproduce_with(mut self, command: impl Into<String>) -> Self {
        self.subject = self.subject.reproduce_with(command);
        self
    }

    /// Where failing cases are recorded and replayed first on the next run (one file per
    /// rule). The one-file gate sets it to `proptest-regressions/conformance/` of the calling
    /// crate.
    #[must_use]
    pub fn failure_records(mut self, dir: impl Into<std::path::PathBuf>) -> Self {
        self.subject.options.failure_records = Some(dir.into());
        self
    }

    /// The subject under test.
    pub fn subject(&self) -> &Subject {
        &self.subject
    }

    /// Declares the least recall on the [recall benchmark](crate::benchmark) the gate accepts:
    /// its test `backend::recall.floor` fails below it, naming the questions not answered.
    #[must_use]
    pub fn recall_floor(mut self, floor: RecallFloor) -> Self {
        self.recall_floor = floor;
        self
    }

    /// The recall floor declared, if any.
    pub fn declared_recall_floor(&self) -> Option<&RecallFloor> {
        (!self.recall_floor.is_empty()).then_some(&self.recall_floor)
    }

    /// Why the backend cannot run here, if it cannot.
    pub fn unavailable_reason(&self) -> Option<&str> {
        self.unavailable.as_deref()
    }

    /// Where the recall snapshots go, if not beside the test file.
    pub fn snapshot_dir(&self) -> Option<&str> {
        self.snapshot_dir.as_deref()
    }

    /// Every known violation: those the profile implies, then those declared.
    pub fn known_violations(&self) -> Vec<KnownViolation> {
        let mut all = implied_violations(self.subject.profile());
        all.extend(self.declared.iter().cloned());
        all
    }

    #[cfg(feature = "harness")]
    pub(crate) fn known_violation_of(&self, rule_id: &str) -> Option<KnownViolation> {
        self.known_violations()
            .into_iter()
            .find(|k| k.rule_id() == rule_id)
    }
}

impl fmt::Display for Gate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "gate of backend {:?} (profile {:?})",
            self.subject.backend(),
            self.subject.profile().name
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_file_declares_the_timeout_and_the_violations_of_its_gate() {
        let file = ProfileFile::parse(
            "format = 1\nextends = \"reference\"\n[[known_violation]]\nrule = \"scope.shared\"\nreason = \"a pool race\"\nintermittent = true\n[gate]\nop_timeout_seconds = 42\n",
        )
        .unwrap();
        let gate = Gate::reference().declared_by(&file);
        assert_eq!(gate.subject.options.op_timeout, Duration::from_secs(42));
        let declared: Vec<_> = gate
            .known_violations()
            .into_iter()
            .filter(|v| v.implied_by().is_none())
            .collect();
        assert_eq!(
            declared,
            [KnownViolation::intermittent("scope.shared", "a pool race")]
        );

        let mut taken = file;
        taken.op_timeout_seconds = None;
        assert_eq!(
            Gate::reference()
                .declared_by(&taken)
                .subject
                .options
                .op_timeout,
            Gate::reference().subject.options.op_timeout,
            "without `op_timeout_seconds` the subject keeps its own timeout"
        );
    }
}
