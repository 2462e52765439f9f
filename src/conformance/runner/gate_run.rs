//! The gate's run: its declaration checked, every rule run on its own thread and weighed
//! against the known violations into a [`GateReport`], and the recall observations (probe
//! corpus, replicas, recall benchmark) made the same way.

use super::report::{GateReport, RuleRun};
use crate::benchmark::{Benchmark, BenchmarkRun};
use crate::conformance::declare::gate::Gate;
use crate::conformance::declare::known_violation::implied_violations;
use crate::conformance::declare::namespace::Namespace;
use crate::conformance::rules::{self, Rule};
use crate::conformance::run::replica_spread::{ReplicaSpread, replicas};
use crate::conformance::run::rule_thread::{on_own_thread, on_own_thread_watched};
use crate::conformance::verdict::rule_verdict::Verdict;
use crate::probe::{Difference, Observation};

/// The limit an unordered backend's benchmark searches carry: more than any question's
/// matches, so that every match comes back.
const UNORDERED_LIMIT: usize = 10_000;

/// How many events the recall benchmark version 1 holds: the unit of a benchmark's time.
const V1_EVENTS: usize = 457;

impl Gate {
    /// Checks the declaration itself: every declared known violation names a rule of the
    /// kit, once, with a reason, and is not one the profile already implies; a pinned rule set
    /// is one of the kit's.
    pub fn validate(&self) -> Result<(), String> {
        let implied = implied_violations(self.subject.profile());
        let mut problems: Vec<String> = self.rules_as_of_problem().into_iter().collect();
        if let Some(vector) = self.subject.profile().vector() {
            match self.subject.embedder() {
                None => problems.push(format!(
                    "the profile declares vector search with the embedder {:?}, which is \
                     not the kit's (hashed-N): give the subject that embedder with \
                     Subject::with_embedder",
                    vector.embedder
                )),
                Some(embedder) if embedder.name() != vector.embedder => {
                    problems.push(format!(
                        "the profile declares the embedder {:?}, but the subject carries {:?}",
                        vector.embedder,
                        embedder.name()
                    ));
                }
                Some(_) => {}
            }
        }
        problems.extend(self.dropped_words_problem());
        for (i, known) in self.declared.iter().enumerate() {
            let id = known.rule_id();
            if rules::find(id).is_none() {
                let ids: Vec<&str> = rules::catalogue().iter().map(Rule::id).collect();
                problems.push(format!(
                    "known_violation names {id:?}, which is not a rule id; the rule ids are: {}",
                    ids.join(", ")
                ));
            }
            if known.reason().trim().is_empty() {
                problems.push(format!(
                    "known_violation {id:?} has no reason; say why in one line"
                ));
            }
            if self.declared[..i].iter().any(|k| k.rule_id() == id) {
                problems.push(format!("known_violation {id:?} is declared twice"));
            }
            if let Some(by) = implied.iter().find(|k| k.rule_id() == id) {
                problems.push(format!(
                    "known_violation {id:?} is already implied by the profile ({}): remove the declaration",
                    by.implied_by().unwrap_or_default()
                ));
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("\n"))
        }
    }

    /// Where the profile drops a word the rules ask with expectations of their own (the kit's
    /// words, `WORDS`, and the query `shared` of `concurrency.atomic_replace`, which every
    /// search finds as stored): the problem, since the gate could not tell the backend's
    /// dropping from a lost write.
    fn dropped_words_problem(&self) -> Option<String> {
        let dropped = &self.subject.profile().dropped_words;
        let asked = crate::conformance::generate::values::WORDS
            .into_iter()
            .chain(["shared"]);
        let lost: Vec<&str> = asked
            .filter(|word| dropped.is_stop_word(word) || dropped.is_too_short(word))
            .collect();
        (!lost.is_empty()).then(|| {
            format!(
                "the profile's dropped_words drop {}, which the rules ask by themselves and \
                 expect found as stored: the gate supports stop words other than these and \
                 shorter_than up to 3",
                lost.join(", ")
            )
        })
    }

    /// Runs one rule on its own thread and runtime, and weighs the result against the
    /// known violations, then against the rule set the gate [pins](Gate::rules_as_of): a rule
    /// later than the pin comes back [`Verdict::New`], which does not fail the gate. A backend call that blocks its thread (where the per-call timeout
    /// cannot fire) fails the rule once the subject's [rule
    /// timeout](Gate::rule_timeout) passes with no case passing, instead of hanging.
    pub fn check(&self, rule: &'static Rule) -> Verdict {
        let mut subject = self.subject.clone();
        let spending = &self.subject.options.spending;
        if rule.applies_to(subject.profile()).is_ok() {
            subject.options.case_deadline = spending.rule_starts(|| {
                rules::catalogue()
                    .iter()
                    .filter(|rule| rule.applies_to(self.subject.profile()).is_ok())
                    .count()
            });
        }
        let planned = rule.planned_cases(&subject);
        let known = self.known_violation_of(rule.id());
        if known.as_ref().is_some_and(|k| k.is_intermittent()) {
            // A race belongs to no case: a recorded case that hit it would only be
            // replayed, at the cost of its timeout, to prove nothing.
            subject.options.failure_records = None;
        }
        let cases = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
        subject.options.cases_passed = Some(std::sync::Arc::clone(&cases));
        let verdict = on_own_thread_watched(
            rule.id(),
            self.subject.options.rule_timeout(),
            cases,
            move || async move { rule.check(&subject).await },
        );
        let verdict = verdict.unwrap_or_else(|problem| {
            Verdict::Failed(Box::new(rule.unfinished(&self.subject, problem)))
        });
        if let Verdict::Passed { cases, .. } = &verdict {
            spending.rule_ran(planned, *cases);
        }
        let verdict = verdict.against(known, |reason| {
            rule.misdeclared(
                &self.subject,
                format!(
                    "it is declared a known violation, but the rule does not apply to the profile: {reason}"
                ),
            )
        });
        match self.pinned_rule_set() {
            Some(pinned)
                if rule.since() > pinned && !matches!(verdict, Verdict::NotApplicable { .. }) =>
            {
                Verdict::New {
                    since: rule.since(),
                    pinned,
                    verdict: Box::new(verdict),
                }
            }
            _ => verdict,
        }
    }

    /// Tells the gate its rules run `lanes` at a time (a test runner's threads), for a runner
    /// of its own: a budget is then shared in rounds of that many.
    pub fn run_in_lanes(&self, lanes: usize) {
        self.subject.options.spending.run_in_lanes(lanes);
    }

    /// Runs every rule, one after the other, each on its own thread.
    pub fn run(&self) -> GateReport {
        self.run_with(|_| {})
    }

    /// [`run`](Gate::run), calling `before` with each rule before it runs (for progress).
    pub fn run_with(&self, mut before: impl FnMut(&'static Rule)) -> GateReport {
        let problems = self.validate().err().into_iter().collect();
        let runs = rules::catalogue()
            .iter()
            .map(|rule| {
                before(rule);
                RuleRun::new(rule, self.check(rule))
            })
            .collect();
        GateReport::new(
            self.subject.backend(),
            &self.subject.profile().name,
            self.rule_set(),
            problems,
            runs,
        )
    }

    /// The backend's recall on the probe corpus, observed on a fresh instance on its own
    /// thread (so a backend that blocks cannot hang the caller), whose namespace is
    /// cleaned up afterwards.
    pub fn observe(&self) -> Result<Observation, String> {
        let subject = self.subject.clone();
        on_own_thread(
            "probe corpus",
            self.subject.options.rule_timeout(),
            move || async move {
                let namespace = Namespace::fresh();
                let backend = subject.open(&namespace).await;
                let observed =
                    Observation::of(subject.backend(), subject.profile(), backend.as_ref()).await;
                drop(backend);
                subject.clean(&namespace);
                observed
            },
        )
    }

    /// The debugging guide's replicas for the subject ([`replicas`]):
    /// a write through replica 1 of 3, then `searches` searches spread round-robin across
    /// them, on a thread and runtime of its own within the [rule timeout](Gate::rule_timeout),
    /// so a backend that blocks its thread cannot hang the caller.
    pub fn observe_replicas(&self, searches: usize) -> Result<ReplicaSpread, String> {
        let subject = self.subject.clone();
        on_own_thread(
            "replicas",
            self.subject.options.rule_timeout(),
            move || async move { replicas(&subject, searches).await },
        )?
        .map_err(|problem| format!("failed at {problem}"))
    }

    /// The backend's answers to the [recall benchmark](crate::benchmark) version 1, on a
    /// fresh instance on its own thread, whose namespace is cleaned up afterwards.
    pub fn benchmark(&self) -> Result<BenchmarkRun, String> {
        self.benchmark_on(&Benchmark::v1())
    }

    /// The backend's answers to `benchmark` (version 1, or LoCoMo), as
    /// [`benchmark`](Gate::benchmark). The thread may take the rule timeout once per
    /// version 1's worth of events (LoCoMo has about 13 times as many).
    pub fn benchmark_on(&self, benchmark: &Benchmark) -> Result<BenchmarkRun, String> {
        let subject = self.subject.clone();
        let benchmark = benchmark.clone();
        let events: usize = benchmark.sessions.iter().map(|s| s.events.len()).sum();
        let timeout = self.subject.options.rule_timeout()
            * u32::try_from(events.div_ceil(V1_EVENTS).max(1)).unwrap_or(u32::MAX);
        on_own_thread("recall benchmark", timeout, move || async move {
            let namespace = Namespace::fresh();
            let backend = subject.open(&namespace).await;
            // A backend that promises no order gives its entries in event-id order,
            // all of them where it takes a limit: its own order, and which entries
            // its limit keeps, change from run to run.
            let profile = subject.profile();
            let unordered = profile.order == crate::profile::Order::Unordered;
            let options = if unordered && profile.capabilities.search_limit {
                crate::SearchOptions::with_limit(UNORDERED_LIMIT)
            } else {
                crate::SearchOptions::default()
            };
            let run = BenchmarkRun::with_options(
                &benchmark,
                subject.backend(),
                backend.as_ref(),
                &options,
            )
            .await;
            drop(backend);
            subject.clean(&namespace);
            run.map(|run| {
                if unordered {
                    run.in_event_id_order()
                } else {
                    run
                }
            })
        })?
    }

    /// What the recall snapshots pin, by name: the backend's recall on the probe corpus
    /// (`recall`), its difference from the reference (`recall_vs_reference`), and its
    /// answer to every question of the recall benchmark (`benchmark`).
    pub fn observe_recall(&self) -> Result<Vec<(&'static str, String)>, String> {
        let observed = self.observe()?;
        let difference =
            Difference::between(&observed, self.subject.profile(), &Observation::reference());
        let benchmark = self.benchmark()?;
        Ok(vec![
            ("recall", observed.to_markdown()),
            ("recall_vs_reference", difference.to_markdown()),
            ("benchmark", benchmark.per_question()),
        ])
    }
}
