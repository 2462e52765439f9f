//! The rules: each a stable id, a one-sentence statement and a property checked on generated
//! scenarios. Required rules hold for every backend; profile rules check what the profile
//! declares; capability rules check what it claims beyond the two calls.
//!
//! A rule lives in the file named by its id's group (`key.isolation` in `key.rs`), with its
//! scenarios; the generators are in `generate/values.rs`, and the expected answer of a profile rule
//! comes from the oracle (`judge/oracle/`). Every rule is also a plain `pub async fn` named by its
//! id (`key.isolation` is [`key_isolation`]), for a hand-written `#[tokio::test]`, run with the
//! default settings (`PROPTEST_CASES`, `PROPTEST_RNG_SEED`); [`Gate::check`](super::Gate::check)
//! runs one rule with a gate's settings:
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! use memory_conformance::InMemoryMemoryService;
//! use memory_conformance::conformance::{Subject, Verdict, rules};
//! use memory_conformance::profile::Profile;
//! let subject = Subject::new("reference", Profile::reference(), || async { InMemoryMemoryService::new() });
//! rules::key_isolation(&subject).await.assert_green();
//! let not_durable = rules::durability_reopen(&subject).await;
//! assert!(matches!(not_durable, Verdict::NotApplicable { .. }), "{not_durable}");
//! # }
//! ```

/// Declares one rule: the constant the catalogue lists and the `pub async fn` that checks it,
/// both from one id.
macro_rules! rule {
    (
        $(#[$meta:meta])*
        pub fn $function:ident -> $constant:ident {
            id: $id:literal,
            since: $since:literal,
            statement: $statement:literal,
            requirement: $requirement:expr,
            weight: $weight:expr,
            applies: $applies:expr,
            scenarios: $scenarios:expr $(,)?
        }
    ) => {
        pub(crate) const $constant: $crate::conformance::rules::Rule = $crate::conformance::rules::Rule {
            id: $id,
            since: $crate::conformance::RuleSetVersion::literal($since),
            statement: $statement,
            requirement: $requirement,
            weight: $weight,
            applies: $applies,
            scenarios: $scenarios,
            lexicon: $crate::conformance::generate::lexicon::Draws::Declared,
            function: stringify!($function),
            module: module_path!(),
        };

        #[doc = concat!("Checks rule `", $id, "`: ", $statement)]
        $(#[$meta])*
        pub async fn $function(
            subject: &$crate::conformance::Subject,
        ) -> $crate::conformance::Verdict {
            $constant.check(subject).await
        }
    };
}

mod concurrency;
mod delta;
mod durability;
mod forget;
mod index;
mod key;
mod memories;
mod model;
mod punctuation;
mod query;
mod recall;
mod replace;
mod result;
mod scope;
mod vector;

use std::fmt;

use proptest::strategy::BoxedStrategy;
use serde::Serialize;

use super::declare::rule_set::RuleSetVersion;
use super::declare::subject::Subject;
use super::generate::lexicon::{self, Draws, SHARES, Words};
use super::generate::scenario::{Expect, Scenario};
use super::run::failure_record::FailureRecord;
use super::run::property;
use super::verdict::at_fault::at_fault;
use super::verdict::failure::{FailureKind, RuleFailure};
use super::verdict::rule_verdict::Verdict;
use crate::Content;
use crate::profile::{Profile, Retrieval};

pub use self::concurrency::{concurrency_adds_land, concurrency_atomic_replace};
pub use self::delta::delta_as_declared;
pub use self::durability::durability_reopen;
pub use self::forget::{forget_never_returned, forget_other_keys_untouched};
pub use self::index::{index_empty_events, index_text_only};
pub use self::key::{key_isolation, key_no_separator_collision};
pub use self::memories::memories_searchable;
pub use self::model::model_random_ops;
pub use self::punctuation::{punctuation_event, punctuation_query};
pub use self::query::{
    query_blank, query_case_insensitive, query_digits, query_multi_word, query_non_ascii,
    query_unknown_key,
};
pub use self::recall::recall_across_sessions;
pub use self::replace::{
    replace_other_sessions_untouched, replace_readd_as_declared, replace_readd_replaces,
    replace_readd_with_nothing,
};
pub use self::result::{
    result_entry_ids, result_fidelity, result_limit, result_limit_option, result_order,
};
pub use self::scope::{scope_replicas, scope_shared};
pub use self::vector::vector_nearest_first;

/// Whether a rule binds every backend or only what a profile declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum Requirement {
    /// Holds for every backend; breaking it needs a known violation.
    Required,
    /// Checks a dimension of the profile: the backend must behave as it declares.
    Profile,
    /// Checks a capability the profile claims; not applicable when it does not claim it.
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
    /// The rule set that brought the rule.
    since: RuleSetVersion,
    statement: &'static str,
    requirement: Requirement,
    /// Cases run are the subject's case count divided by this (heavy rules run fewer).
    weight: u32,
    applies: fn(&Profile) -> Result<(), String>,
    scenarios: fn(&Profile) -> BoxedStrategy<Scenario>,
    /// Which generators its lexicon draws take.
    lexicon: Draws,
    /// The name of the rule's `pub async fn`.
    function: &'static str,
    /// The module the rule is declared in.
    module: &'static str,
}

impl Rule {
    /// The stable id, `group.name` (`key.isolation`).
    pub fn id(&self) -> &'static str {
        self.id
    }

    /// The version of the kit's rule set that brought the rule (`since` in its declaration,
    /// and its section of `CHANGELOG.md`): a gate [pinned](super::Gate::rules_as_of) to an
    /// earlier one reports it as new and does not fail on it.
    pub fn since(&self) -> RuleSetVersion {
        self.since
    }

    /// The same rule, as if the rule set after this kit's had brought it: for the kit's own
    /// tests of [`Gate::rules_as_of`](super::Gate::rules_as_of), which need a rule later than
    /// a pin while every rule of the kit is in the first rule set. The gate weighs it by the
    /// same [`since`](Rule::since) as every rule.
    #[doc(hidden)]
    #[must_use]
    pub fn brought_by_next_rule_set(self) -> Self {
        Self {
            since: RuleSetVersion::CURRENT.next(),
            ..self
        }
    }

    /// The same rule with its lexicon's scenarios alone, every draw from the named generator
    /// (one of [`lexicon_generators`]), or with no lexicon draw at all (`None`: the rule's
    /// other scenarios alone): for the kit's own measure of what each generator catches. A
    /// rule that does not draw from the lexicon is left as it is. Panics on a name that is no
    /// generator's.
    #[doc(hidden)]
    #[must_use]
    pub fn drawing_lexicon_from(self, generator: Option<&str>) -> Self {
        let lexicon = match generator {
            Some(name) => Draws::Only(Words::named(name).unwrap_or_else(|| {
                panic!(
                    "{name:?} is no generator of the lexicon: {:?}",
                    lexicon_generators()
                )
            })),
            None => Draws::Nothing,
        };
        Self { lexicon, ..self }
    }

    /// Whether the rule's scenarios under `profile` draw from the lexicon's generators.
    #[doc(hidden)]
    pub fn draws_from_lexicon(&self, profile: &Profile) -> bool {
        lexicon::building(self.lexicon, None, || (self.scenarios)(profile)).1
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

    /// Checks the rule against `subject` on the caller's runtime, with the default settings
    /// (a [gate](super::Gate::check) runs it with its own): passed, not applicable (with the
    /// reason) or failed (with the minimal counterexample).
    pub async fn check(&self, subject: &Subject) -> Verdict {
        if let Err(reason) = self.applies_to(subject.profile()) {
            return Verdict::NotApplicable { reason };
        }
        let cases = self.planned_cases(subject);
        let spending = std::sync::Arc::clone(&subject.options.spending);
        let tally: lexicon::Tally = std::sync::Arc::new(move |words: Words| {
            spending.drew(words.name());
        });
        let (scenarios, _) = lexicon::building(self.lexicon, Some(tally), || {
            (self.scenarios)(subject.profile())
        });
        match property::check(subject, self.id, cases, scenarios).await {
            Ok(passed) => Verdict::Passed {
                cases: passed.cases,
                slowest_write: passed.slowest_write,
                scheduling_delay: passed.scheduling_delay,
                operations: (self.id == model::RANDOM_OPS.id).then(|| Box::new(passed.operations)),
            },
            Err(found) => Verdict::Failed(Box::new(self.failure(
                subject,
                FailureKind::Counterexample {
                    reproduce: subject.reproduce_command(self.id, found.seed),
                    record: FailureRecord::of(subject, self.id).path(),
                    at_fault: at_fault(subject.profile(), subject.embedder(), &found),
                    found: Box::new(found),
                },
            ))),
        }
    }

    /// The cases a run of this rule generates: the subject's cases per rule, fewer for a heavy
    /// rule.
    pub(crate) fn planned_cases(&self, subject: &Subject) -> u32 {
        (subject.options.cases() / self.weight).max(1)
    }

    /// The failure of a run of this rule that did not finish (`problem` follows "the rule").
    pub(crate) fn unfinished(&self, subject: &Subject, problem: String) -> RuleFailure {
        self.failure(subject, FailureKind::Unfinished(problem))
    }

    /// The failure of a gate whose declaration is wrong for this rule.
    pub(crate) fn misdeclared(&self, subject: &Subject, problem: String) -> RuleFailure {
        self.failure(subject, FailureKind::Misdeclared(problem))
    }

    fn failure(&self, subject: &Subject, kind: FailureKind) -> RuleFailure {
        RuleFailure {
            rule_id: self.id,
            statement: self.statement,
            backend: subject.backend().to_owned(),
            profile: subject.profile().name.clone(),
            kind,
        }
    }
}

impl fmt::Debug for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rule")
            .field("id", &self.id)
            .field("since", &self.since)
            .field("requirement", &self.requirement)
            .field("function", &self.function)
            .field("module", &self.module)
            .finish()
    }
}

/// Every rule of the kit, in report order.
pub fn catalogue() -> &'static [Rule] {
    &CATALOGUE
}

/// The lexicon's named generators and the share each is drawn with where a rule draws from
/// all of them, in their declared order: the names [`Gate::lexicon_draws`](super::Gate::lexicon_draws)
/// counts by.
#[doc(hidden)]
pub fn lexicon_generators() -> Vec<(&'static str, u32)> {
    SHARES
        .iter()
        .map(|(words, share)| (words.name(), *share))
        .collect()
}

/// The rule with this id.
pub fn find(id: &str) -> Option<&'static Rule> {
    CATALOGUE.iter().find(|rule| rule.id == id)
}

static CATALOGUE: [Rule; 33] = [
    key::ISOLATION,
    key::NO_SEPARATOR_COLLISION,
    replace::READD_REPLACES,
    replace::READD_WITH_NOTHING,
    replace::OTHER_SESSIONS_UNTOUCHED,
    replace::READD_AS_DECLARED,
    index::TEXT_ONLY,
    index::EMPTY_EVENTS,
    query::BLANK,
    query::UNKNOWN_KEY,
    query::CASE_INSENSITIVE,
    punctuation::QUERY,
    punctuation::EVENT,
    query::DIGITS,
    query::NON_ASCII,
    query::MULTI_WORD,
    vector::NEAREST_FIRST,
    result::FIDELITY,
    result::LIMIT,
    result::ORDER,
    result::ENTRY_IDS,
    result::LIMIT_OPTION,
    recall::ACROSS_SESSIONS,
    concurrency::ADDS_LAND,
    concurrency::ATOMIC_REPLACE,
    model::RANDOM_OPS,
    delta::AS_DECLARED,
    memories::SEARCHABLE,
    forget::NEVER_RETURNED,
    forget::OTHER_KEYS_UNTOUCHED,
    durability::REOPEN,
    scope::SHARED,
    scope::REPLICAS,
];

/// Applies to every backend.
fn always(_: &Profile) -> Result<(), String> {
    Ok(())
}

/// Applies to lexical backends only: the rules of how words are cut and matched.
fn lexical_only(profile: &Profile) -> Result<(), String> {
    match profile.retrieval {
        Retrieval::Lexical => Ok(()),
        Retrieval::Vector(_) => Err("the profile declares vector retrieval: words are not \
                                     matched but embedded, and model.random_ops and \
                                     vector.nearest_first check the ranking"
            .into()),
        Retrieval::Semantic => Err(
            "the profile declares semantic retrieval, so no lexical result can be computed".into(),
        ),
    }
}

/// Applies where the kit computes every search's answer from the profile: a lexical backend,
/// or a vector one whose embedder the kit embeds with.
fn computable(profile: &Profile) -> Result<(), String> {
    match profile.retrieval {
        Retrieval::Lexical | Retrieval::Vector(_) => Ok(()),
        Retrieval::Semantic => {
            Err("the profile declares semantic retrieval, so no result can be computed".into())
        }
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

#[cfg(test)]
mod tests {
    use super::catalogue;

    #[test]
    fn each_rule_lives_in_the_file_of_its_group_and_its_function_is_named_by_its_id() {
        for rule in catalogue() {
            let (group, _) = rule.id.split_once('.').expect("ids are group.name");
            let file = rule.module.rsplit("::").next().unwrap_or_default();
            assert_eq!(file, group, "{} is declared in {}", rule.id, rule.module);
            assert_eq!(rule.function, rule.id.replace('.', "_"), "{}", rule.id);
        }
    }
}

/// The README's rule table, rendered from the catalogue: one row per rule.
#[cfg(test)]
mod readme {
    use super::catalogue;

    const START: &str = "<!-- generated from the rule catalogue: MEMORY_CONFORMANCE_WRITE_DOCS=1 cargo test -p memory-conformance --lib rules -->\n";
    const END: &str = "<!-- end of the generated rule table -->";

    fn table() -> String {
        let mut out = String::from("| rule | requirement | what it checks |\n|---|---|---|\n");
        for rule in catalogue() {
            out.push_str(&format!(
                "| `{}` | {} | {} |\n",
                rule.id(),
                rule.requirement(),
                rule.statement().replace('|', "\\|")
            ));
        }
        out
    }

    #[test]
    fn the_readme_lists_every_rule_as_the_catalogue_states_it() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
        let readme = std::fs::read_to_string(path).expect("README.md");
        let (Some(start), Some(end)) = (readme.find(START), readme.find(END)) else {
            panic!("README.md has no generated rule table between {START:?} and {END:?}");
        };
        let (from, to) = (start + START.len(), end);
        let rendered = table();
        if std::env::var_os("MEMORY_CONFORMANCE_WRITE_DOCS").is_some() {
            let written = format!("{}{rendered}{}", &readme[..from], &readme[to..]);
            std::fs::write(path, written).expect("README.md is writable");
            return;
        }
        assert!(
            readme[from..to] == rendered,
            "README.md's rule table differs from the catalogue: regenerate it with \
             `MEMORY_CONFORMANCE_WRITE_DOCS=1 cargo test -p memory-conformance --lib rules`"
        );
    }
}
