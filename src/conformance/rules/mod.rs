//! The rules: each a stable id, a one-sentence statement and a property checked on generated
//! scenarios. Required rules hold for every backend; profile rules check what the profile
//! declares; capability rules check what it claims beyond the two calls.
//!
//! Every rule is also a plain `pub async fn` taking a [`Subject`], for a hand-written
//! `#[tokio::test]`:
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! use memory_conformance::{rules, InMemoryMemoryService, Profile, Subject};
//! let subject = Subject::new("reference", Profile::reference(), || async { InMemoryMemoryService::new() })
//!     .cases(8);
//! rules::key_isolation(&subject).await.unwrap();
//! rules::replace_readd_replaces(&subject).await.unwrap();
//! # }
//! ```

mod concurrency;
mod index;
mod key;
mod lexical;
mod recall;
mod replace;
mod result;
mod storage;

use std::fmt;

use proptest::strategy::BoxedStrategy;
use serde::Serialize;

use super::failure::{FailureKind, RuleFailure};
use super::property;
use super::scenario::{Expect, Scenario};
use super::subject::Subject;
use crate::{Content, Profile};

/// Whether a rule binds every backend or only what a profile declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum Requirement {
    /// Holds for every backend; breaking it needs a declared known violation.
    Required,
    /// Checks a dimension of the profile: the backend must behave as it declares.
    Profile,
    /// Checks a capability the profile claims; ignored when it does not claim it.
    Capability,
}

impl fmt::Display for Requirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Required => "required",
            Self::Profile => "profile",
            Self::Capability => "capability",
        })
    }
}

/// One rule of the kit.
#[derive(Clone, Copy)]
pub struct Rule {
    id: &'static str,
    statement: &'static str,
    requirement: Requirement,
    /// Cases run are the subject's case count divided by this (heavy rules run fewer).
    weight: u32,
    applies: fn(&Profile) -> Result<(), String>,
    scenarios: fn(&Profile) -> BoxedStrategy<Scenario>,
}

/// What a passing rule checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RulePass {
    /// How many generated (and replayed) cases ran.
    pub cases: u32,
}

impl Rule {
    /// The stable id, `group.name` (`key.isolation`).
    pub fn id(&self) -> &'static str {
        self.id
    }

    /// The rule in one sentence.
    pub fn statement(&self) -> &'static str {
        self.statement
    }

    /// Whether the rule binds every backend.
    pub fn requirement(&self) -> Requirement {
        self.requirement
    }

    /// `Ok` when the rule applies to `profile`, else why not.
    pub fn applies_to(&self, profile: &Profile) -> Result<(), String> {
        (self.applies)(profile)
    }

    /// Checks the rule against `subject`.
    pub async fn check(&self, subject: &Subject) -> Result<RulePass, RuleFailure> {
        let failure = |kind| RuleFailure {
            rule_id: self.id,
            statement: self.statement.to_owned(),
            backend: subject.backend().to_owned(),
            profile: subject.profile().name.clone(),
            kind,
            reproduce: String::new(),
            record: None,
        };
        if let Err(reason) = self.applies_to(subject.profile()) {
            return Err(failure(FailureKind::NotApplicable(reason)));
        }
        let cases = (subject.options.cases() / self.weight).max(1);
        let scenarios = (self.scenarios)(subject.profile());
        match property::check(subject, self.id, cases, scenarios).await {
            Ok(cases) => Ok(RulePass { cases }),
            Err(found) => {
                let mut report = failure(FailureKind::Counterexample(Box::new(found.clone())));
                report.reproduce = subject.reproduce_command(self.id, found.seed);
                report.record = subject.record_path(self.id);
                Err(report)
            }
        }
    }
}

impl fmt::Debug for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rule")
            .field("id", &self.id)
            .field("requirement", &self.requirement)
            .finish()
    }
}

/// Every rule of the kit, in report order.
pub fn catalogue() -> &'static [Rule] {
    &CATALOGUE
}

/// The rule with this id.
pub fn find(id: &str) -> Option<&'static Rule> {
    CATALOGUE.iter().find(|rule| rule.id == id)
}

static CATALOGUE: [Rule; 24] = [
    key::ISOLATION,
    key::NO_SEPARATOR_COLLISION,
    replace::READD_REPLACES,
    replace::READD_WITH_NOTHING,
    replace::OTHER_SESSIONS_UNTOUCHED,
    index::TEXT_ONLY,
    index::EMPTY_EVENTS,
    lexical::QUERY_BLANK,
    lexical::QUERY_UNKNOWN_KEY,
    lexical::QUERY_CASE_INSENSITIVE,
    lexical::PUNCTUATION_QUERY,
    lexical::PUNCTUATION_EVENT,
    lexical::QUERY_DIGITS,
    lexical::QUERY_NON_ASCII,
    lexical::QUERY_MULTI_WORD,
    result::FIDELITY,
    result::LIMIT,
    result::ORDER,
    recall::ACROSS_SESSIONS,
    concurrency::ADDS_LAND,
    concurrency::ATOMIC_REPLACE,
    lexical::MODEL_RANDOM_OPS,
    storage::DURABILITY_REOPEN,
    storage::SCOPE_SHARED,
];

macro_rules! rule_fns {
    ($($name:ident => $rule:path, $id:literal;)*) => {$(
        #[doc = concat!("Checks rule `", $id, "` against `subject` (see [`catalogue`]).")]
        pub async fn $name(subject: &Subject) -> Result<RulePass, RuleFailure> {
            $rule.check(subject).await
        }
    )*};
}

rule_fns! {
    key_isolation => key::ISOLATION, "key.isolation";
    key_no_separator_collision => key::NO_SEPARATOR_COLLISION, "key.no_separator_collision";
    replace_readd_replaces => replace::READD_REPLACES, "replace.readd_replaces";
    replace_readd_with_nothing => replace::READD_WITH_NOTHING, "replace.readd_with_nothing";
    replace_other_sessions_untouched => replace::OTHER_SESSIONS_UNTOUCHED, "replace.other_sessions_untouched";
    index_text_only => index::TEXT_ONLY, "index.text_only";
    index_empty_events => index::EMPTY_EVENTS, "index.empty_events";
    query_blank => lexical::QUERY_BLANK, "query.blank";
    query_unknown_key => lexical::QUERY_UNKNOWN_KEY, "query.unknown_key";
    query_case_insensitive => lexical::QUERY_CASE_INSENSITIVE, "query.case_insensitive";
    punctuation_query => lexical::PUNCTUATION_QUERY, "punctuation.query";
    punctuation_event => lexical::PUNCTUATION_EVENT, "punctuation.event";
    query_digits => lexical::QUERY_DIGITS, "query.digits";
    query_non_ascii => lexical::QUERY_NON_ASCII, "query.non_ascii";
    query_multi_word => lexical::QUERY_MULTI_WORD, "query.multi_word";
    result_fidelity => result::FIDELITY, "result.fidelity";
    result_limit => result::LIMIT, "result.limit";
    result_order => result::ORDER, "result.order";
    recall_across_sessions => recall::ACROSS_SESSIONS, "recall.across_sessions";
    concurrency_adds_land => concurrency::ADDS_LAND, "concurrency.adds_land";
    concurrency_atomic_replace => concurrency::ATOMIC_REPLACE, "concurrency.atomic_replace";
    model_random_ops => lexical::MODEL_RANDOM_OPS, "model.random_ops";
    durability_reopen => storage::DURABILITY_REOPEN, "durability.reopen";
    scope_shared => storage::SCOPE_SHARED, "scope.shared";
}

/// Applies to every backend.
fn always(_: &Profile) -> Result<(), String> {
    Ok(())
}

/// Applies to lexical backends only.
fn lexical_only(profile: &Profile) -> Result<(), String> {
    if profile.is_lexical() {
        Ok(())
    } else {
        Err("the profile declares semantic retrieval, so no lexical result can be computed".into())
    }
}

/// Exactly `contents` for a lexical backend; for a semantic one, at least them, once each.
fn exactly(profile: &Profile, contents: Vec<Content>) -> Vec<Expect> {
    if profile.is_lexical() {
        vec![Expect::Contents(contents)]
    } else {
        vec![Expect::Includes(contents), Expect::NoDuplicates]
    }
}

/// Nothing for a lexical backend; for a semantic one, none of `contents`.
fn none_of(profile: &Profile, contents: Vec<Content>) -> Vec<Expect> {
    if profile.is_lexical() {
        vec![Expect::Nothing]
    } else {
        vec![Expect::Excludes(contents)]
    }
}

/// At most this many events per session in scenarios that must see every match.
fn per_search(profile: &Profile, wanted: usize) -> usize {
    match profile.limit {
        crate::profile::Limit::AtMost(n) => wanted.min(n).max(1),
        crate::profile::Limit::Unlimited => wanted,
    }
}
