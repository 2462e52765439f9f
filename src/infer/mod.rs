//! Inference: the profile that fits a backend, dimension by dimension, found by running the
//! rules that decide each dimension (the dimension table's, `src/profile/dimension.rs`) against
//! every value it can take.
//!
//! The strings the backend takes are probed first (a store that cannot hold U+0000 would fail
//! every rule whose input carries one) and checked last by their rules. The other dimensions
//! are decided in an order where each needs only those before it: the retrieval (a vector
//! index over an embedder the kit can embed with, else lexical), the key, the re-add, the
//! timestamps, tool data, the limit (counted directly), for a lexical backend the words it
//! drops and whether it stems (both probed directly: stop words and short terms searched
//! alone, a stored form of a word searched by another, so the word rules are decided with
//! them), the word rules of stored text and queries together and any or all words (both with
//! no order promised), for a full-text word rule the diacritics it removes (probed directly: a
//! word stored plain and searched accented), the case mapping, the dropped words and the stemming again (the probed
//! value or none, by their rules), what a blank query returns, the order, then the capabilities, each after the one it needs
//! (`delete` after `entry_ids`). Where no word rules fit a lexical backend, it is inferred
//! again as semantic, held to the contract rules.
//!
//! For each, the candidates go from most to least specific, and the first none of whose rules
//! fails, one of them having run and held, is taken. Where no rule could run for any value,
//! the first (the contract's) is taken, not checked; where rules ruled some values out but
//! none held for the rest, the last of the rest (the one that claims least, as `append` for a
//! re-add), not checked; where every value fails, the one with the fewest failing rules, with
//! a note naming them. A capability is claimed only where its rules ran and held: one no rule
//! could check is not claimed. The profile file names, on each line, the rules that held for
//! its value, or why it is not checked or not claimed, and is always one
//! [`ProfileFile::parse`](crate::conformance::ProfileFile::parse) reads back.
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
mod diacritics;
mod dropped;
mod key;
mod limit;
mod probe;
mod retrieval;
mod stemming;
mod strings;
mod words;

use std::fmt::Write as _;

use crate::conformance::{ProfileFile, Subject};
use crate::profile::dimension::{CAPABILITIES, Dimension};
use crate::profile::{
    BlankEvents, Capabilities, CaseMapping, DroppedWords, Duplicates, EventIds, EventsDelta,
    KeyScheme, Limit, MultiWord, Order, Profile, QueryTerms, Readd, Retrieval, Stemming, Strings,
    Timestamps, ToolData, Visibility, WordRule,
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
    /// Those of `rules` that ran on the backend and held with the value taken: the rules its
    /// line in the profile file names.
    pub held: Vec<&'static str>,
    /// Those of `rules` that failed as the value taken says they must (the known violations
    /// it implies, such as the replace rules for an appending re-add).
    pub implied_failures: Vec<&'static str>,
    /// Set when no value fits: the rules that fail with the value taken.
    pub misfit: Option<Vec<String>>,
    /// Whether no rule held for the value taken, because none of `rules` could run for it:
    /// the value is the contract's where nothing ran, else the one that claims least, and a
    /// capability is not claimed.
    pub unchecked: bool,
    /// Why the value was not checked, or why a capability is not claimed.
    pub reason: Option<String>,
    /// The first of `rules` that does not apply, and why not.
    not_applicable: Option<String>,
    /// Whether the value is the one that claims nothing, kept because no other held (a
    /// capability not claimed).
    declined: bool,
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
    /// The rules that still fail on the backend under [`Inference::profile`], each with the
    /// first line of its verdict: the last step of `infer` gates every rule of the catalogue
    /// on the profile decided. Not a claim: a defect of the backend, or a design no value of
    /// the vocabulary says; the gate on the profile shows them red.
    pub still_failing: Vec<String>,
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

    /// The profile file of the inference: each dimension's decision as a comment above it,
    /// and on each line of a value or capability, the rules that ran on the backend and held
    /// for it (`delete = true  # checked by forget.never_returned`), or why it is not claimed
    /// or not checked. Every capability is written, those not claimed as `false`.
    pub fn to_toml(&self) -> String {
        let mut out = String::from(
            "# Inferred by `memory-conformance infer`: each dimension was decided by running the\n\
             # rules that check it against every value it can take.\n",
        );
        for decision in &self.decisions {
            let _ = writeln!(out, "# {}", comment(&decision.note()));
        }
        if !self.still_failing.is_empty() {
            out.push_str(
                "#\n# Still failing under this profile, every rule gated on it: a defect of the backend,\n\
                 # or a design no value says (the gate names the value at fault where one fits):\n",
            );
            for failing in &self.still_failing {
                let _ = writeln!(out, "#   {}", comment(failing));
            }
        }
        out.push('\n');
        out.push_str(&self.commented(&ProfileFile::of(self.profile.clone()).to_toml()));
        out
    }

    /// `file` with the comment of each value's line, and a line for each capability the file
    /// leaves out (not claimed).
    fn commented(&self, file: &str) -> String {
        let mut out = String::new();
        let mut table = String::new();
        let mut written: Vec<String> = Vec::new();
        let mut top_level_done = false;
        for line in file.lines() {
            if !top_level_done && (line.is_empty() || line.starts_with('[')) {
                self.top_level_left(&written, &mut out);
                top_level_done = true;
            }
            if line.starts_with('[') {
                self.capabilities_left(&table, &written, &mut out);
                table = line.trim_matches(['[', ']']).to_owned();
                written.clear();
                let _ = writeln!(out, "{line}");
                continue;
            }
            let Some((key, _)) = line.split_once(" = ") else {
                let _ = writeln!(out, "{line}");
                continue;
            };
            let key = if table.is_empty() {
                key.to_owned()
            } else {
                format!("{table}.{key}")
            };
            match self.claim(&key) {
                Some(claim) => {
                    let _ = writeln!(out, "{line}  # {}", comment(&claim));
                }
                None => {
                    let _ = writeln!(out, "{line}");
                }
            }
            written.push(key);
        }
        self.capabilities_left(&table, &written, &mut out);
        out
    }

    /// After the file's first keys: the strings, which the file leaves out where they are the
    /// contract's, with the rules that held for them; and the dimensions infer does not decide,
    /// whose contract values stand, not checked.
    fn top_level_left(&self, written: &[String], out: &mut String) {
        for (key, value) in [
            (Strings::KEY, serde_json::to_value(self.profile.strings)),
            (
                Duplicates::KEY,
                serde_json::to_value(self.profile.duplicates),
            ),
            (Stemming::KEY, serde_json::to_value(self.profile.stemming)),
        ] {
            if !written.iter().any(|k| k == key)
                && let Some(claim) = self.claim(key)
                && let Ok(serde_json::Value::String(value)) = value
            {
                let _ = writeln!(out, "{key} = \"{value}\"  # {}", comment(&claim));
            }
        }
        if self.profile.dropped_words.is_none()
            && let Some(claim) = self.claim(DroppedWords::KEY)
        {
            let _ = writeln!(
                out,
                "# {} = none (the table left out: nothing dropped)  # {}",
                DroppedWords::KEY,
                comment(&claim)
            );
        }
        let mut standing = Vec::new();
        for (key, value) in [
            (
                Duplicates::KEY,
                serde_json::to_value(self.profile.duplicates),
            ),
            (EventIds::KEY, serde_json::to_value(self.profile.event_ids)),
            (
                BlankEvents::KEY,
                serde_json::to_value(self.profile.blank_events),
            ),
        ] {
            if !written.iter().any(|k| k == key)
                && self.claim(key).is_none()
                && let Ok(serde_json::Value::String(value)) = value
            {
                standing.push(format!("{key} = {value}"));
            }
        }
        if self.profile.visibility == Visibility::Immediate {
            standing.push(format!("{} = immediate", Visibility::KEY));
        }
        // Decided for a lexical backend only (the table is for lexical retrieval).
        if self.profile.dropped_words.is_none() && self.claim(DroppedWords::KEY).is_none() {
            standing.push(format!("{} = none", DroppedWords::KEY));
        }
        if self.profile.stemming == Stemming::None && self.claim(Stemming::KEY).is_none() {
            standing.push(format!("{} = none", Stemming::KEY));
        }
        if !standing.is_empty() {
            let _ = writeln!(
                out,
                "# not decided by infer, not checked: the contract's {} stand",
                standing.join(", ")
            );
        }
    }

    /// At the end of the `[capabilities]` table, a line for each capability the file leaves
    /// out: `false` and why, or for the event delta (which has no `false`), a comment.
    fn capabilities_left(&self, table: &str, written: &[String], out: &mut String) {
        if table != "capabilities" {
            return;
        }
        for field in CAPABILITY_FIELDS {
            let key = format!("capabilities.{field}");
            if written.contains(&key) {
                continue;
            }
            let claim = self.claim(&key).unwrap_or_else(|| "not claimed".to_owned());
            if field == "events_delta" {
                let _ = writeln!(out, "# {field} is not written: {}", comment(&claim));
            } else {
                let _ = writeln!(out, "{field} = false  # {}", comment(&claim));
            }
        }
    }

    /// The comment on the line of `key` (`capabilities.delete`, `event_words.rule`): the rules
    /// that held for its value, or why it is not claimed or not checked; `None` for a line
    /// that claims nothing about the backend (`name`).
    fn claim(&self, key: &str) -> Option<String> {
        let words = [words::TOGETHER, words::WITH_SEPARATORS, words::PAIR];
        if (key == Retrieval::KEY || key.starts_with("vector."))
            && self.profile.is_lexical()
            && let Some(decision) = self.last_of(&words)
            && decision.misfit.is_none()
            && !decision.held.is_empty()
        {
            return Some(format!(
                "checked by {} (no embedder held {})",
                decision.held.join(", "),
                retrieval::VECTOR_RULES.join(", ")
            ));
        }
        let dimensions: Vec<&str> = match key {
            "multi_word" => vec![words::TOGETHER, MultiWord::KEY],
            // A key joined with a character other than `/` is the table `[key]`.
            "key.joined_with" => vec![KeyScheme::KEY],
            "capabilities.durable" => vec![CAPABILITIES[0].label, DURABLE_AND_SHARED],
            "capabilities.shared" => vec![CAPABILITIES[1].label, DURABLE_AND_SHARED],
            "capabilities.events_delta" => vec![<Option<EventsDelta>>::LABEL],
            key if key.starts_with("vector.") => vec![Retrieval::KEY],
            key if key.starts_with("dropped_words.") => vec![DroppedWords::KEY],
            key if key.starts_with("event_words.") || key.starts_with("query_terms.") => {
                words.to_vec()
            }
            key => match CAPABILITIES.iter().find(|c| c.key == key) {
                Some(capability) => vec![capability.label],
                None => vec![key],
            },
        };
        self.last_of(&dimensions).map(Decision::claim)
    }

    /// The last decision of the first of `dimensions` decided.
    fn last_of(&self, dimensions: &[&str]) -> Option<&Decision> {
        dimensions
            .iter()
            .find_map(|name| self.decisions.iter().rev().find(|d| d.dimension == *name))
    }
}

/// The fields of `[capabilities]`, in the file's order.
const CAPABILITY_FIELDS: [&str; 7] = [
    "durable",
    "shared",
    "events_delta",
    "explicit_memories",
    "delete",
    "entry_ids",
    "search_limit",
];

/// The name of the decision of durable and shared together.
const DURABLE_AND_SHARED: &str = "capabilities";

/// `text` as a TOML comment may hold it: control characters (a generated U+0000 in a
/// failure's first line) written as escapes.
fn comment(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            let escaped: Vec<char> = if c.is_control() {
                c.escape_unicode().collect()
            } else {
                vec![c]
            };
            escaped
        })
        .collect()
}

impl Decision {
    /// The decision in one line: `readd: append (why)`.
    fn note(&self) -> String {
        let (dimension, value) = (&self.dimension, &self.value);
        let reason = self.reason.as_deref().unwrap_or_default();
        if let Some(failing) = &self.misfit {
            return format!(
                "{dimension}: NO value fits; closest {value} (still failing: {})",
                failing.join("; ")
            );
        }
        if self.unchecked {
            return format!("{dimension}: {value} (not checked: {reason})");
        }
        if self.held.is_empty() && self.implied_failures.is_empty() {
            let reason = self
                .reason
                .as_deref()
                .unwrap_or("no other value held the rules that check it");
            return format!("{dimension}: {value} ({reason})");
        }
        let mut why = Vec::new();
        if !self.held.is_empty() {
            why.push(format!("every case of {} held", self.held.join(", ")));
        }
        if !self.implied_failures.is_empty() {
            why.push(format!(
                "{} failed as this value says it must",
                self.implied_failures.join(", ")
            ));
        }
        format!("{dimension}: {value} ({})", why.join("; "))
    }

    /// The comment on the value's line: `checked by` the rules that held, or why it is not
    /// claimed, not checked, or no value fits.
    fn claim(&self) -> String {
        let reason = self.reason.as_deref().unwrap_or_default();
        if let Some(failing) = &self.misfit {
            return format!("NO value fits; still failing: {}", failing.join("; "));
        }
        let unclaimed = if self.declined { "not claimed, " } else { "" };
        if self.unchecked {
            return match &self.not_applicable {
                Some(detail) => format!("{unclaimed}not checked: {reason} ({detail})"),
                None => format!("{unclaimed}not checked: {reason}"),
            };
        }
        if self.held.is_empty() {
            return format!("not claimed: {reason}");
        }
        let mut claim = format!("checked by {}", self.held.join(", "));
        if !self.implied_failures.is_empty() {
            let _ = write!(
                claim,
                "; {} failed as this value says it must",
                self.implied_failures.join(", ")
            );
        }
        claim
    }
}

/// Infers the profile of the backend `subject` opens (whatever profile it declares), with
/// `cases` cases per rule run and `seed`; `progress` hears each dimension as it starts.
///
/// What it finds is a profile [`ProfileFile::parse`](crate::conformance::ProfileFile::parse)
/// reads back and a gate accepts: a capability is claimed only where its rules ran on the
/// backend and held, and only with the capabilities it needs (`delete` with `entry_ids`).
pub fn infer(
    subject: &Subject,
    cases: u32,
    seed: u64,
    mut progress: impl FnMut(&str),
) -> Inference {
    let strings = strings::probed(subject);
    let mut run = Run::new(subject, cases, seed, &mut progress);
    run.profile.strings = strings;
    retrieval::decide_vector(&mut run);
    let inferred = the_rest(run, strings);
    let words_misfit = inferred
        .decisions
        .iter()
        .any(|d| d.misfit.is_some() && d.rules.iter().any(|r| WordRule::DECIDED_BY.contains(r)));
    if !(inferred.profile.is_lexical() && words_misfit) {
        return inferred;
    }
    let mut run = Run::new(subject, cases, seed, &mut progress);
    run.profile.strings = strings;
    retrieval::semantic(&mut run);
    the_rest(run, strings)
}

/// Every dimension after the retrieval, under the retrieval decided: the word rules, the
/// dropped words and the stemming only for a lexical one; the strings, `probed` first, checked last under the profile decided.
fn the_rest(mut run: Run<impl FnMut(&str)>, probed: Strings) -> Inference {
    key::decide(&mut run);
    run.dimension::<Readd>();
    run.dimension::<Timestamps>();
    run.dimension::<ToolData>();
    limit::decide(&mut run);
    if run.profile.is_lexical() {
        run.report("dropped_words (probing: each stop word and short query terms searched alone)");
        let dropped = dropped::probed(&run.subject());
        run.profile.dropped_words = dropped.clone();
        run.report("stemming (probing: a stored form of a word searched by another form)");
        let stems = stemming::probed(&run.subject());
        run.profile.stemming = stems;
        words::decide(&mut run);
        diacritics::decide(&mut run);
        run.dimension::<CaseMapping>();
        dropped::decide(&mut run, &dropped);
        stemming::decide(&mut run, stems);
    } else {
        words::not_decided(&mut run);
    }
    retrieval::blank_query(&mut run);
    if !run.profile.is_lexical() {
        retrieval::order(&mut run);
    } else {
        run.dimension::<Order>();
    }
    durable_and_shared(&mut run);
    calls(&mut run);
    duplicates(&mut run);
    if run.misfit(Order::KEY) {
        if run.profile.is_lexical() {
            run.dimension::<Order>();
        } else {
            retrieval::order(&mut run);
        }
    }
    strings::decide(&mut run, probed);
    sound(&mut run.profile);
    let still_failing = run.still_failing();
    let mut inference = run.finish();
    inference.still_failing = still_failing;
    inference
}

/// Whether the backend merges equal entries, decided once the calls are known, since the
/// rules that tell it combine them (the order is decided again after it where no order fitted
/// with every duplicate kept). Where those rules fail under either value, duplicates are not
/// what is at fault: the contract's value stays, not claimed, and the final check names them.
fn duplicates(run: &mut Run<impl FnMut(&str)>) {
    let before = run.profile.duplicates;
    run.dimension::<Duplicates>();
    if run.misfit(Duplicates::KEY) {
        run.profile.duplicates = before;
        run.forget(&[Duplicates::KEY]);
        run.declined(
            Duplicates::KEY,
            "kept",
            Duplicates::DECIDED_BY,
            format!(
                "{} failed under every value alike",
                Duplicates::DECIDED_BY.join(", ")
            ),
            false,
        );
    }
}

/// Durable and shared, decided together first: a backend whose storage outlives an instance
/// is usually shared by instances too. Where they do not hold together, each alone (a file
/// store one instance at a time is durable, not shared). Not claiming one is no value that
/// fits when its rules fail: it checks nothing, so it is only taken when the claim fails.
fn durable_and_shared(run: &mut Run<impl FnMut(&str)>) {
    let [durable, shared, ..] = &CAPABILITIES;
    let rules: Vec<&'static str> = [durable.decided_by, shared.decided_by].concat();
    let both = run.with(|p| {
        (durable.claim)(&mut p.capabilities);
        (shared.claim)(&mut p.capabilities);
    });
    run.decide_or_decline(
        DURABLE_AND_SHARED,
        &rules,
        vec![("durable and shared".to_owned(), both)],
        "neither durable nor shared",
    );
    if (durable.claimed)(&run.profile.capabilities) {
        return;
    }
    for capability in [durable, shared] {
        let claimed = run.with(|p| (capability.claim)(&mut p.capabilities));
        run.decide_or_decline(
            capability.label,
            capability.decided_by,
            vec![(capability.label.to_owned(), claimed)],
            "not claimed",
        );
    }
}

/// Each call beyond the two, in the table's order: claimed where its rules ran and held,
/// else not (which checks nothing). `delete` is tried only once `entry_ids` is claimed: a
/// delete takes an entry's id, and a profile file claiming it alone is refused.
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
        if let Some(needed) = NEEDS
            .iter()
            .find(|(needing, _)| *needing == capability.key)
            .and_then(|(_, needed)| CAPABILITIES.iter().find(|c| c.key == *needed))
            && !(needed.claimed)(&run.profile.capabilities)
        {
            run.declined(
                capability.label,
                "not claimed",
                capability.decided_by,
                format!(
                    "it needs `{}`, which is not claimed, so its rules were not run",
                    needed.key
                ),
                true,
            );
            continue;
        }
        let claimed = run.with(|p| (capability.claim)(&mut p.capabilities));
        run.decide_or_decline(
            capability.label,
            capability.decided_by,
            vec![(capability.label.to_owned(), claimed)],
            "not claimed",
        );
    }
}

/// The capabilities a profile file accepts only with another (the one claiming, the one it
/// needs), as `ProfileFile::read` refuses them: each is decided after the one it needs.
const NEEDS: [(&str, &str); 1] = [("capabilities.delete", "capabilities.entry_ids")];

/// Makes `profile` one a profile file can say and a gate accepts, whatever was decided: a
/// name that is not blank, a limit of at least one, and no delete without entry ids (which
/// [`calls`] already keeps to).
fn sound(profile: &mut Profile) {
    if profile.name.trim().is_empty() {
        profile.name = "inferred".to_owned();
    }
    if profile.limit == Limit::AtMost(0) {
        profile.limit = Limit::AtMost(1);
    }
    if !profile.capabilities.entry_ids {
        profile.capabilities.delete = false;
    }
    if !profile.is_lexical() || matches!(profile.query_terms, QueryTerms::Substrings { .. }) {
        profile.stemming = Stemming::None;
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
            held: Vec::new(),
            implied_failures: Vec::new(),
            misfit,
            unchecked: false,
            reason: None,
            not_applicable: None,
            declined: false,
            ruled_out,
        };
        let inference = Inference {
            profile: Profile::reference(),
            still_failing: Vec::new(),
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
            still_failing: Vec::new(),
            decisions: vec![decision("key", None, Vec::new())],
        };
        assert_eq!(fits.misfit_reports(), "");
    }

    /// A failure's first line can carry a generated U+0000 or a newline: the comments write
    /// them as escapes, so the file still reads; a delete without entry ids is never written.
    #[test]
    fn the_file_reads_back_whatever_the_notes_hold() {
        let mut profile = Profile::reference().named(" ");
        profile.capabilities.delete = true;
        profile.capabilities.entry_ids = false;
        sound(&mut profile);
        assert!(!profile.capabilities.delete);
        assert_eq!(profile.name, "inferred");
        let inference = Inference {
            profile,
            still_failing: Vec::new(),
            decisions: vec![Decision {
                dimension: "key".to_owned(),
                value: "structured".to_owned(),
                rules: vec!["key.isolation"],
                held: Vec::new(),
                implied_failures: Vec::new(),
                misfit: Some(vec!["key.isolation (user \u{0}\n\u{7f})".to_owned()]),
                unchecked: false,
                reason: None,
                not_applicable: None,
                declined: false,
                ruled_out: Vec::new(),
            }],
        };
        let text = inference.to_toml();
        assert!(text.contains("user \\u{0}\\u{a}\\u{7f}"), "{text}");
        let file = ProfileFile::parse(&text).unwrap_or_else(|err| panic!("{err}\n{text}"));
        assert_eq!(file.profile, inference.profile);
    }
}
