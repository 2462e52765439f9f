//! Inference: the profile that fits a backend, dimension by dimension, found by running the
//! rules that decide each dimension (the dimension table's, `src/profile/dimension.rs`) against
//! every value it can take.
//!
//! Dimensions are decided in an order where each needs only those before it: the retrieval
//! (a vector index over an embedder the kit can embed with, else lexical), the key, the
//! re-add, the timestamps, tool data, the limit (counted directly), for a lexical backend the
//! word rules of stored text and queries together and any or all words (both with no order
//! promised), what a blank query returns, the order, then the capabilities. Where no word
//! rules fit a lexical backend, it is inferred again as semantic, held to the contract rules. For each, the candidates go from most to least specific, and the
//! first whose rules all hold (and check something) is taken; when none does, the one with the
//! fewest failing rules is taken, with a note naming the rules that will fail.
//!
//! ```no_run
//! use memory_conformance::InMemoryMemoryService;
//! use memory_conformance::conformance::Subject;
//! use memory_conformance::profile::Profile;
//! let subject = Subject::new("reference", Profile::reference(), || async { InMemoryMemoryService::new() });
//! let inferred = memory_conformance::infer::infer(&subject, 32, 1, |dimension| eprintln!("deciding {dimension}"));
//! print!("{}", inferred.to_toml());
//! ```

mod decide;
mod limit;
mod retrieval;
mod words;

use std::fmt::Write as _;

use crate::conformance::{ProfileFile, Subject};
use crate::profile::dimension::{CAPABILITIES, Dimension};
use crate::profile::{
    Capabilities, EventsDelta, KeyScheme, Order, Profile, Readd, Timestamps, ToolData, WordRule,
};

use self::decide::Run;

/// How one dimension was decided.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Decision {
    /// The dimension (`readd`).
    pub dimension: String,
    /// The value taken, by its name (`replace unless no text`).
    pub value: String,
    /// The rules that decided it.
    pub rules: Vec<&'static str>,
    /// Those of `rules` that failed as the value taken says they must (the known violations
    /// it implies, such as the replace rules for an appending re-add).
    pub implied_failures: Vec<&'static str>,
    /// Set when no value fits: the rules that fail with the value taken.
    pub misfit: Option<Vec<String>>,
    /// Whether none of `rules` applies to the profile, so the value taken (the first) is
    /// not checked.
    pub unchecked: bool,
    /// Set when no value fits: each value tried, with the report of the first rule that ruled
    /// it out (its minimal scenario and how to reproduce it).
    pub ruled_out: Vec<(String, String)>,
}

/// What [`infer`] found: the profile, and how each dimension was decided.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Inference {
    /// The profile that fits.
    pub profile: Profile,
    /// One decision per dimension, in the order they were made.
    pub decisions: Vec<Decision>,
}

impl Inference {
    /// For each dimension no value fits, why: each value tried and the failure that ruled it
    /// out, as text for a person (empty when every dimension found a value).
    pub fn misfit_reports(&self) -> String {
        let mut out = String::new();
        for decision in self.decisions.iter().filter(|d| d.misfit.is_some()) {
            let _ = writeln!(out, "no value of {} fits:", decision.dimension);
            for (value, report) in &decision.ruled_out {
                let _ = writeln!(out, "\n  {value} was ruled out by:");
                for line in report.lines() {
                    let _ = writeln!(out, "    {line}");
                }
            }
            out.push('\n');
        }
        out
    }

    /// Whether some dimension has no value that fits.
    pub fn has_misfit(&self) -> bool {
        self.decisions.iter().any(|d| d.misfit.is_some())
    }

    /// The profile file of the inference, each dimension's decision as a comment above it.
    pub fn to_toml(&self) -> String {
        let mut out = String::from(
            "# Inferred by `memory-conformance infer`: each dimension was decided by running the\n\
             # rules that check it against every value it can take.\n",
        );
        for decision in &self.decisions {
            let _ = writeln!(out, "# {}", decision.note());
        }
        out.push('\n');
        out.push_str(&ProfileFile::of(self.profile.clone()).to_toml());
        out
    }
}

impl Decision {
    /// The decision in one line: `readd: append (why)`.
    fn note(&self) -> String {
        let (dimension, value) = (&self.dimension, &self.value);
        if self.unchecked {
            return format!(
                "{dimension}: {value} (not checked: none of {} applies to the profile)",
                self.rules.join(", ")
            );
        }
        if let Some(failing) = &self.misfit {
            return format!(
                "{dimension}: NO value fits; closest {value} (still failing: {})",
                failing.join("; ")
            );
        }
        if self.rules.is_empty() {
            return format!("{dimension}: {value} (no other value held the rules that check it)");
        }
        let held: Vec<&str> = self
            .rules
            .iter()
            .filter(|rule| !self.implied_failures.contains(rule))
            .copied()
            .collect();
        let mut why = Vec::new();
        if !held.is_empty() {
            why.push(format!("every case of {} held", held.join(", ")));
        }
        if !self.implied_failures.is_empty() {
            why.push(format!(
                "{} failed as this value says it must",
                self.implied_failures.join(", ")
            ));
        }
        format!("{dimension}: {value} ({})", why.join("; "))
    }
}

/// Infers the profile of the backend `subject` opens (whatever profile it declares), with
/// `cases` cases per rule run and `seed`; `progress` hears each dimension as it starts.
pub fn infer(
    subject: &Subject,
    cases: u32,
    seed: u64,
    mut progress: impl FnMut(&str),
) -> Inference {
    let mut run = Run::new(subject, cases, seed, &mut progress);
    retrieval::decide_vector(&mut run);
    let inferred = the_rest(run);
    let words_misfit = inferred
        .decisions
        .iter()
        .any(|d| d.misfit.is_some() && d.rules.iter().any(|r| WordRule::DECIDED_BY.contains(r)));
    if !(inferred.profile.is_lexical() && words_misfit) {
        return inferred;
    }
    let mut run = Run::new(subject, cases, seed, &mut progress);
    retrieval::semantic(&mut run);
    the_rest(run)
}

/// Every dimension after the retrieval, under the retrieval decided: the word rules only for
/// a lexical one.
fn the_rest(mut run: Run<impl FnMut(&str)>) -> Inference {
    run.dimension::<KeyScheme>();
    run.dimension::<Readd>();
    run.dimension::<Timestamps>();
    run.dimension::<ToolData>();
    limit::decide(&mut run);
    if run.profile.is_lexical() {
        words::decide(&mut run);
    }
    retrieval::blank_query(&mut run);
    if !run.profile.is_lexical() {
        retrieval::relevance(&mut run);
    } else {
        run.dimension::<Order>();
    }
    durable_and_shared(&mut run);
    calls(&mut run);
    run.finish()
}

/// Durable and shared, decided together: a backend whose storage outlives an instance is
/// usually shared by instances too. Neither is a value that fits when the rules fail: it
/// checks nothing, so it is only taken when durable and shared do not hold.
fn durable_and_shared(run: &mut Run<impl FnMut(&str)>) {
    let [durable, shared, ..] = &CAPABILITIES;
    let rules: Vec<&'static str> = [durable.decided_by, shared.decided_by].concat();
    let both = run.with(|p| {
        (durable.claim)(&mut p.capabilities);
        (shared.claim)(&mut p.capabilities);
    });
    run.decide_or_decline(
        "capabilities",
        &rules,
        vec![("durable and shared".to_owned(), both)],
        "neither durable nor shared",
    );
}

/// Each call beyond the two, in the table's order: claimed where its rule holds, else not
/// (which checks nothing).
fn calls(run: &mut Run<impl FnMut(&str)>) {
    let candidates = |run: &Run<_>| -> Vec<(String, Profile)> {
        <Option<EventsDelta>>::values()
            .into_iter()
            .flatten()
            .map(|delta| {
                let name = Some(delta).text();
                (name, run.with(|p| Some(delta).set(p)))
            })
            .collect()
    };
    let delta = candidates(run);
    run.decide_or_decline(
        <Option<EventsDelta>>::LABEL,
        <Option<EventsDelta>>::DECIDED_BY,
        delta,
        "not claimed",
    );
    for capability in &CAPABILITIES[2..] {
        let claimed = run.with(|p| (capability.claim)(&mut p.capabilities));
        run.decide_or_decline(
            capability.label,
            capability.decided_by,
            vec![(capability.label.to_owned(), claimed)],
            "not claimed",
        );
    }
}

/// The profile inference starts from: the reference's, named after the backend, claiming
/// the two calls only until a capability's rules show the backend has it.
fn start(subject: &Subject) -> Profile {
    let mut profile = Profile::reference().named(subject.backend());
    profile.capabilities = Capabilities::default();
    profile.provenance = format!(
        "inferred by memory-conformance {}",
        env!("CARGO_PKG_VERSION")
    );
    profile
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_misfit_reports_the_failure_that_ruled_out_each_value() {
        let decision = |dimension: &str, misfit: Option<Vec<String>>, ruled_out| Decision {
            dimension: dimension.to_owned(),
            value: "replace".to_owned(),
            rules: vec!["replace.readd_replaces"],
            implied_failures: Vec::new(),
            misfit,
            unchecked: false,
            ruled_out,
        };
        let inference = Inference {
            profile: Profile::reference(),
            decisions: vec![
                decision("key", None, Vec::new()),
                decision(
                    "readd",
                    Some(vec!["replace.readd_replaces (it failed)".to_owned()]),
                    vec![
                        (
                            "replace".to_owned(),
                            "rule failed\n  minimal scenario: a".to_owned(),
                        ),
                        (
                            "append".to_owned(),
                            "rule failed\n  minimal scenario: b".to_owned(),
                        ),
                    ],
                ),
            ],
        };
        assert_eq!(
            inference.misfit_reports(),
            "no value of readd fits:\n\
             \n  replace was ruled out by:\n    rule failed\n      minimal scenario: a\n\
             \n  append was ruled out by:\n    rule failed\n      minimal scenario: b\n\n"
        );
        assert!(inference.to_toml().contains(
            "# readd: NO value fits; closest replace (still failing: replace.readd_replaces (it failed))"
        ));
        let fits = Inference {
            profile: Profile::reference(),
            decisions: vec![decision("key", None, Vec::new())],
        };
        assert_eq!(fits.misfit_reports(), "");
    }
}
