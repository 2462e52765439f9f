//! What is at fault in a failure: the declared value of a dimension that the minimal scenario
//! contradicts, and the other value that fits it.
//!
//! A failing rule's minimal scenario carries what the backend answered (the failing step's
//! answer in the mismatch, the earlier searches' in the [`Transcript`]). Those answers are
//! judged again, with the same oracle and the same comparison as the run, under the declared
//! profile with one dimension changed to each other value of the dimension table
//! (`profile/dimension.rs`). No backend is called: it is a re-judgement of recorded answers, so
//! it costs a failing rule a few oracle runs over a few steps, and a passing rule nothing.
//!
//! What is tried:
//! - every other kind of value of the key scheme, re-add, event words, query terms, case
//!   mapping, dropped words, stemming, multi-word queries, tool data, order, timestamps, strings, blank queries, duplicates, event ids,
//!   blank events and the events delta (a kind once: `query_terms = tokens` with other
//!   separators is not tried again);
//! - the limit, whose values are open-ended, at two values derived from the scenario: the
//!   number of entries the failing step returned (`limit = 10` for a backend that returned 10),
//!   and `unlimited`;
//! - not the retrieval (under semantic retrieval the oracle computes no answer, so it would
//!   explain every failure), not the visibility bound (the recorded answers carry no timing),
//!   not the capabilities (they choose which rules run, not how an answer is judged), and no
//!   value that claims nothing (an events delta not claimed).
//!
//! Only alternatives that are valid profiles are tried: each is written as a profile file and
//! read back by the file format's own validation (where the declared profile reads back; one
//! with a custom word function cannot, and its alternatives are tried unchecked).
//!
//! The answer is said only when the re-judgement under the declared profile fails at the very
//! step the run failed at (else the recorded answers do not show the failure: a timeout, a
//! panic, a race, an id that changed); then the failure names every alternative under which
//! every recorded answer holds, or says that no single other value explains it.

use std::fmt;
use std::sync::Arc;

use crate::conformance::declare::profile_file::ProfileFile;
use crate::conformance::generate::scenario::{Scenario, Search, Step};
use crate::conformance::judge::comparison::{check_search, must_find};
use crate::conformance::judge::identity::same_entry;
use crate::conformance::judge::mismatch::{Mismatch, Problem};
use crate::conformance::judge::oracle::Oracle;
use crate::conformance::run::interpreter::may_refuse;
use crate::conformance::run::property::Counterexample;
use crate::conformance::run::transcript::Transcript;
use crate::embed::Embedder;
use crate::profile::dimension::{Dimension, value_id};
use crate::profile::{
    BlankEvents, BlankQuery, CaseMapping, DroppedWords, Duplicates, EventIds, EventsDelta,
    KeyScheme, Limit, MultiWord, Order, Profile, QueryTerms, Readd, RemoveDiacritics, Stemming,
    Strings, Timestamps, ToolData, WordRule,
};

/// What a failure's minimal scenario says is at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum AtFault {
    /// Step `step` contradicts a declared value, and each of `fits` makes every recorded
    /// answer hold.
    Fits { step: usize, fits: Vec<Fit> },
    /// No single other value of a dimension makes every recorded answer hold.
    Unexplained,
}

/// A declared value and the other value of its dimension that fits (`multi_word = any word`,
/// `multi_word = all words`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Fit {
    pub(crate) declared: String,
    pub(crate) fits: String,
}

impl AtFault {
    /// The values that fit (none when unexplained): a failure's causes, for grouping.
    pub(crate) fn causes(&self) -> Vec<&str> {
        match self {
            Self::Fits { fits, .. } => fits.iter().map(|fit| fit.fits.as_str()).collect(),
            Self::Unexplained => Vec::new(),
        }
    }
}

impl fmt::Display for AtFault {
    /// One line per fitting value: "step 2 contradicts `multi_word = any word`; it fits
    /// `multi_word = all words`"; or "no single other value of a dimension explains it".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unexplained => write!(f, "no single other value of a dimension explains it"),
            Self::Fits { step, fits } => {
                let lines: Vec<String> = fits
                    .iter()
                    .map(|fit| {
                        format!(
                            "step {step} contradicts `{}`; it fits `{}`",
                            fit.declared, fit.fits
                        )
                    })
                    .collect();
                write!(f, "{}", lines.join("\n"))
            }
        }
    }
}

/// The values that failures name as fitting, each with the rules whose failure names it, in
/// the order first named: "3 rules fail as `multi_word = all words` would: ...".
pub(crate) fn causes<'a>(
    failures: impl IntoIterator<Item = (&'a str, &'a AtFault)>,
) -> Vec<(&'a str, Vec<&'a str>)> {
    let mut grouped: Vec<(&str, Vec<&str>)> = Vec::new();
    for (rule, at_fault) in failures {
        for cause in at_fault.causes() {
            match grouped.iter_mut().find(|(named, _)| *named == cause) {
                Some((_, rules)) => rules.push(rule),
                None => grouped.push((cause, vec![rule])),
            }
        }
    }
    grouped
}

/// What is at fault in `found`, a counterexample of a run under `profile` whose oracle used
/// `embedder`; `None` where the recorded answers cannot show it (see the module's comment).
pub(crate) fn at_fault(
    profile: &Profile,
    embedder: Option<Arc<dyn Embedder>>,
    found: &Counterexample,
) -> Option<AtFault> {
    let judge = |profile: &Profile| {
        rejudge(
            profile,
            embedder.clone(),
            &found.scenario,
            &found.answers,
            &found.mismatch,
        )
    };
    let step = found.mismatch.step;
    if judge(profile)? != Judged::FailsAt(step) {
        return None;
    }
    let returned = match &found.mismatch.problem {
        Problem::Unexpected { actual, .. } => Some(actual.len()),
        _ => None,
    };
    // The file format's validation costs more than a judgement: only a fitting value is
    // checked.
    let validated = reads_back(profile);
    let mut fits: Vec<Fit> = Vec::new();
    for alternative in alternatives(profile, returned) {
        if judge(&alternative.profile) == Some(Judged::Holds)
            && !fits.contains(&alternative.fit)
            && (!validated || reads_back(&alternative.profile))
        {
            fits.push(alternative.fit);
        }
    }
    Some(if fits.is_empty() {
        AtFault::Unexplained
    } else {
        AtFault::Fits { step, fits }
    })
}

/// What a re-judgement of the recorded answers came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Judged {
    /// Every recorded answer holds, up to and with the failing step's.
    Holds,
    /// The first step (1-based) whose answer does not hold.
    FailsAt(usize),
}

/// Judges the answers of `scenario`, up to the step `mismatch` failed at, under `profile`,
/// as the interpreter does; `None` where an answer the judgement needs was not recorded, or
/// the failure is not in an answer (a timeout, a panic, a race during re-adds).
fn rejudge(
    profile: &Profile,
    embedder: Option<Arc<dyn Embedder>>,
    scenario: &Scenario,
    answers: &Transcript,
    mismatch: &Mismatch,
) -> Option<Judged> {
    let failing = mismatch.step;
    if failing == 0 {
        return None;
    }
    let mut oracle = Oracle::with_embedder(profile, embedder);
    for (i, step) in scenario.steps.iter().enumerate().take(failing) {
        let at = i + 1;
        let last = at == failing;
        let answer = if last {
            match &mismatch.problem {
                Problem::Unexpected { actual, .. } => Some(actual.as_slice()),
                // A refusal ends the case where the profile says the store may refuse.
                Problem::Failed { .. } if may_refuse(profile.strings, step) => {
                    return Some(Judged::Holds);
                }
                Problem::Failed { .. } => return Some(Judged::FailsAt(at)),
                Problem::TimedOut { .. } | Problem::Panicked { .. } => return None,
            }
        } else {
            answers.answer(at)
        };
        let held = match step {
            Step::Add(session) => {
                oracle.add(session);
                true
            }
            Step::ConcurrentAdds(sessions) => {
                sessions.iter().for_each(|session| oracle.add(session));
                true
            }
            Step::AddEvents {
                key,
                session_id,
                events,
            } => {
                let session_id = session_id.as_deref();
                oracle.add_events(&key.app_name, &key.user_id, session_id, events);
                true
            }
            Step::AddMemories { key, memories } => {
                oracle.add_memories(&key.app_name, &key.user_id, memories);
                true
            }
            Step::Search(search) => check_search(search, answer?, &oracle, &profile.name).is_ok(),
            Step::LoadMemory {
                session,
                query,
                expect,
            } => {
                let search = Search {
                    key: session.clone(),
                    query: query.clone(),
                    expect: expect.clone(),
                    limit: None,
                };
                check_search(&search, answer?, &oracle, &profile.name).is_ok()
            }
            Step::Delete {
                key,
                find_with,
                content,
            } => {
                let must = must_find(profile, &oracle, key, find_with, content);
                let hit = answer?.iter().find(|e| same_entry(&e.content, content));
                match hit.map(|entry| entry.id.as_deref()) {
                    Some(Some(id)) => {
                        oracle.forget(&key.app_name, &key.user_id, id, content);
                        true
                    }
                    Some(None) => false,
                    None => !must,
                }
            }
            Step::RacingReplace { .. } => return None,
            Step::DeleteId { .. }
            | Step::Open
            | Step::Use(_)
            | Step::Replicas(_)
            | Step::Reopen
            | Step::Settle => true,
        };
        if !held {
            return Some(Judged::FailsAt(at));
        }
    }
    Some(Judged::Holds)
}

/// The declared profile with one dimension changed.
struct Alternative {
    fit: Fit,
    profile: Profile,
}

/// Every alternative tried (see the module's comment); only a fitting one is validated.
fn alternatives(profile: &Profile, returned: Option<usize>) -> Vec<Alternative> {
    let mut all = Vec::new();
    others::<KeyScheme>(profile, &mut all);
    others::<Readd>(profile, &mut all);
    others::<WordRule>(profile, &mut all);
    diacritics(profile, &mut all);
    others::<QueryTerms>(profile, &mut all);
    others::<CaseMapping>(profile, &mut all);
    others::<DroppedWords>(profile, &mut all);
    others::<Stemming>(profile, &mut all);
    others::<MultiWord>(profile, &mut all);
    others::<ToolData>(profile, &mut all);
    limits(profile, returned, &mut all);
    others::<Order>(profile, &mut all);
    others::<Timestamps>(profile, &mut all);
    others::<Strings>(profile, &mut all);
    others::<BlankQuery>(profile, &mut all);
    others::<Duplicates>(profile, &mut all);
    others::<EventIds>(profile, &mut all);
    others::<BlankEvents>(profile, &mut all);
    others::<Option<EventsDelta>>(profile, &mut all);
    all
}

/// `profile` with `D` changed to each other kind of value that claims something.
fn others<D: Dimension>(profile: &Profile, all: &mut Vec<Alternative>) {
    let Some(declared) = D::of(profile).entry() else {
        return;
    };
    for value in D::values() {
        let Some(entry) = value.entry() else {
            continue;
        };
        if entry == declared {
            continue;
        }
        let mut changed = profile.clone();
        value.set(&mut changed);
        all.push(Alternative {
            fit: Fit {
                declared: value_id(D::KEY, declared),
                fits: value_id(D::KEY, entry),
            },
            profile: changed,
        });
    }
}

/// Under a full-text word rule, `profile` with each other `remove_diacritics`: one kind of
/// value (`full text`) covers the three, which differ on accented letters only, so the line
/// of the profile file to change is named (`event_words.remove_diacritics = single`).
fn diacritics(profile: &Profile, all: &mut Vec<Alternative>) {
    let WordRule::FullText {
        remove_diacritics: declared,
        script_runs,
    } = profile.event_words
    else {
        return;
    };
    let id = |remove: RemoveDiacritics| {
        let value = serde_json::to_value(remove)
            .ok()
            .and_then(|value| value.as_str().map(str::to_owned))
            .unwrap_or_else(|| format!("{remove:?}"));
        format!("{}.remove_diacritics = {value}", WordRule::KEY)
    };
    for other in RemoveDiacritics::VALUES {
        if other == declared {
            continue;
        }
        let mut changed = profile.clone();
        changed.event_words = WordRule::FullText {
            remove_diacritics: other,
            script_runs,
        };
        all.push(Alternative {
            fit: Fit {
                declared: id(declared),
                fits: id(other),
            },
            profile: changed,
        });
    }
}

/// `profile` with the limit as many as the failing step returned, and unlimited.
fn limits(profile: &Profile, returned: Option<usize>, all: &mut Vec<Alternative>) {
    let named = |limit: Limit| match limit {
        Limit::Unlimited => format!("{} = unlimited", Limit::KEY),
        Limit::AtMost(n) => format!("{} = {n}", Limit::KEY),
    };
    let candidates = returned
        .filter(|&n| n > 0)
        .map(Limit::AtMost)
        .into_iter()
        .chain([Limit::Unlimited]);
    for limit in candidates {
        if limit == profile.limit {
            continue;
        }
        let mut changed = profile.clone();
        changed.limit = limit;
        all.push(Alternative {
            fit: Fit {
                declared: named(profile.limit),
                fits: named(limit),
            },
            profile: changed,
        });
    }
}

/// Whether `profile`, written as a profile file, reads back.
fn reads_back(profile: &Profile) -> bool {
    ProfileFile::parse(&ProfileFile::of(profile.clone()).to_toml()).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::generate::scenario::{Expect, search};
    use crate::{Content, Event, MemoryEntry, Session};

    /// A counterexample of `steps`, failing at the last with `problem`, the earlier searches
    /// having answered `answers`.
    fn counterexample(steps: Vec<Step>, answers: Transcript, problem: Problem) -> Counterexample {
        Counterexample {
            mismatch: Mismatch {
                step: steps.len(),
                problem,
            },
            scenario: Scenario { steps },
            answers,
            seed: 0,
            case_seed: 0,
            case: 1,
            shrink_runs: 0,
            unshrunk_because: None,
        }
    }

    fn returned(entries: Vec<MemoryEntry>) -> Problem {
        Problem::Unexpected {
            expected: "as the profile computes".into(),
            why: "different entries".into(),
            actual: entries,
            with_metadata: false,
        }
    }

    fn entry(text: &str) -> MemoryEntry {
        MemoryEntry::new(Content::text(text))
    }

    fn session(text: &str) -> Session {
        Session::new("support", "u-42", "s-1").with_events([Event::text("user", text)])
    }

    fn fits(at_fault: &AtFault) -> Vec<String> {
        at_fault.to_string().lines().map(str::to_owned).collect()
    }

    #[test]
    fn a_search_that_needs_every_word_fits_all_words() {
        let stored = session("coffee tea");
        let key = stored.key();
        let steps = vec![
            Step::Add(stored),
            search(&key, "coffee milk", vec![Expect::Oracle]),
        ];
        let found = counterexample(steps, Transcript::default(), returned(Vec::new()));
        let at_fault = at_fault(&Profile::reference(), None, &found).expect("judged");
        let lines = fits(&at_fault);
        assert!(
            lines.contains(
                &"step 2 contradicts `multi_word = any word`; it fits `multi_word = all words`"
                    .to_owned()
            ),
            "{lines:#?}"
        );
        assert!(at_fault.causes().contains(&"multi_word = all words"));
    }

    /// ADK Python's `SqliteMemoryService` (FTS5 `unicode61`, `remove_diacritics 1`) declared
    /// as removing every diacritic: `việt` (two diacritics on one letter) does not find "viet",
    /// and the failure names the option to change (`keep` fits this step too), not only other
    /// word rules.
    #[test]
    fn a_full_text_search_that_kept_a_double_diacritic_fits_single() {
        let stored = session("viet");
        let key = stored.key();
        let steps = vec![
            Step::Add(stored),
            search(&key, "vi\u{1ec7}t", vec![Expect::Oracle]),
        ];
        let found = counterexample(steps, Transcript::default(), returned(Vec::new()));
        let mut profile = Profile::reference();
        profile.event_words = WordRule::FullText {
            remove_diacritics: RemoveDiacritics::All,
            script_runs: true,
        };
        profile.query_terms = QueryTerms::WordRuns;
        let at_fault = at_fault(&profile, None, &found).expect("judged");
        let lines = fits(&at_fault);
        assert!(
            lines.contains(
                &"step 2 contradicts `event_words.remove_diacritics = all`; it fits \
                  `event_words.remove_diacritics = single`"
                    .to_owned()
            ),
            "{lines:#?}"
        );
    }

    #[test]
    fn a_search_that_missed_an_exact_match_is_explained_by_no_single_value() {
        let stored = session("coffee");
        let key = stored.key();
        let steps = vec![
            Step::Add(stored),
            search(&key, "coffee", vec![Expect::Oracle]),
        ];
        let found = counterexample(steps, Transcript::default(), returned(Vec::new()));
        let at_fault = at_fault(&Profile::reference(), None, &found);
        assert_eq!(at_fault, Some(AtFault::Unexplained));
        assert_eq!(
            at_fault.unwrap().to_string(),
            "no single other value of a dimension explains it"
        );
    }

    #[test]
    fn a_limit_is_tried_at_the_number_of_entries_returned() {
        let key = session("").key();
        let mut steps: Vec<Step> = (0..3)
            .map(|i| {
                let mut one = session("coffee");
                one.id = format!("s-{i}");
                Step::Add(one)
            })
            .collect();
        steps.push(search(&key, "coffee", vec![Expect::Oracle]));
        let found = counterexample(
            steps,
            Transcript::default(),
            returned(vec![entry("coffee"), entry("coffee")]),
        );
        let at_fault = at_fault(&Profile::reference(), None, &found).expect("judged");
        assert!(
            at_fault.causes().contains(&"limit = 2"),
            "{:#?}",
            fits(&at_fault)
        );
    }

    #[test]
    fn an_earlier_recorded_answer_is_judged_again_too() {
        // Step 2's answer held as declared (any word) but not under all words, so all words
        // does not fit, although step 3 alone would.
        let stored = session("coffee tea");
        let key = stored.key();
        let steps = vec![
            Step::Add(stored),
            search(&key, "coffee milk", vec![Expect::Oracle]),
            search(&key, "tea milk", vec![Expect::Oracle]),
        ];
        let mut answers = Transcript::default();
        answers.answered(2, vec![entry("coffee tea")]);
        let found = counterexample(steps, answers, returned(Vec::new()));
        let at_fault = at_fault(&Profile::reference(), None, &found).expect("judged");
        assert!(
            !at_fault.causes().contains(&"multi_word = all words"),
            "{:#?}",
            fits(&at_fault)
        );
    }

    #[test]
    fn a_refused_empty_user_fits_strings_without_an_empty_key() {
        let refused = Session::new("support", "", "s-1").with_events([Event::text("user", "a")]);
        let problem = Problem::Failed {
            op: "add_session_to_memory".into(),
            error: "user_id must not be empty".into(),
        };
        let found = counterexample(vec![Step::Add(refused)], Transcript::default(), problem);
        let at_fault = at_fault(&Profile::reference(), None, &found).expect("judged");
        assert_eq!(
            at_fault.causes(),
            ["strings = without NUL or empty key"],
            "{at_fault}"
        );
    }

    #[test]
    fn answers_that_hold_as_declared_say_nothing() {
        // The run failed for what the answers do not show (an id that changed, a race).
        let stored = session("coffee");
        let key = stored.key();
        let steps = vec![
            Step::Add(stored),
            search(&key, "coffee", vec![Expect::Oracle]),
        ];
        let found = counterexample(
            steps,
            Transcript::default(),
            returned(vec![entry("coffee")]),
        );
        assert_eq!(at_fault(&Profile::reference(), None, &found), None);
        let hang = Problem::TimedOut {
            op: "search".into(),
            after: std::time::Duration::from_millis(1),
            overrun: crate::conformance::late_timer::Overrun {
                ran: std::time::Duration::ZERO,
                late: std::time::Duration::ZERO,
            },
        };
        let stored = session("coffee");
        let key = stored.key();
        let steps = vec![
            Step::Add(stored),
            search(&key, "coffee", vec![Expect::Oracle]),
        ];
        let found = counterexample(steps, Transcript::default(), hang);
        assert_eq!(at_fault(&Profile::reference(), None, &found), None);
    }

    #[test]
    fn failures_naming_one_value_are_grouped_under_it() {
        let fit = |fits: &str| Fit {
            declared: "multi_word = any word".into(),
            fits: fits.into(),
        };
        let all_words = AtFault::Fits {
            step: 2,
            fits: vec![fit("multi_word = all words")],
        };
        let both = AtFault::Fits {
            step: 3,
            fits: vec![fit("limit = 1"), fit("multi_word = all words")],
        };
        let grouped = causes([
            ("query.multi_word", &all_words),
            ("result.order", &AtFault::Unexplained),
            ("model.random_ops", &both),
        ]);
        assert_eq!(
            grouped,
            [
                (
                    "multi_word = all words",
                    vec!["query.multi_word", "model.random_ops"]
                ),
                ("limit = 1", vec!["model.random_ops"]),
            ]
        );
    }
}
