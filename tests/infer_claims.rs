//! `infer` claims only what a rule checked and held, and writes a profile file the kit reads
//! back and a gate accepts: on the reference (whatever profile its subject declares), on the
//! test zoo's deviant backends, on a BM25 backend with its own stemming word function, and on
//! backends whose calls beyond the two answer unsupported.

mod support;

use std::collections::HashMap;
use std::sync::Mutex;

use memory_conformance::conformance::{Gate, ProfileFile, Subject, Verdict, rules};
use memory_conformance::infer::{Inference, infer};
use memory_conformance::profile::{
    CustomWords, Limit, MultiWord, Order, Profile, QueryTerms, Readd, Retrieval, Strings, WordRule,
    presets,
};
use memory_conformance::{
    InMemoryMemoryService, MemoryEntry, MemoryError, MemoryService, SearchMemoryResponse, Session,
    async_trait,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use support::deviants::replicas::{Replica, ReplicaFault, SharedStorage};
use support::deviants::{Deviant, Deviation, calls, index, key, query, replace, result, words};

/// Cases per rule and candidate: enough for every rule to meet what it checks, few enough
/// for the property to run in seconds.
const CASES: u32 = 8;

/// A word function that stems (`coffees`, `brewing`, `brewed` are `coffee`, `brew`, `brew`),
/// as a BM25 store with a stemming analyser cuts text and queries: no word rule of the kit's.
fn stemmed_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(|word| {
            let word = word.to_lowercase();
            for suffix in ["ing", "ed", "es", "s"] {
                if let Some(stem) = word.strip_suffix(suffix)
                    && stem.chars().count() >= 3
                {
                    return stem.to_owned();
                }
            }
            word
        })
        .collect()
}

/// A BM25 store with a stemming analyser: the two calls only (every other call answers
/// unsupported, as the trait's defaults do), entries without ids, the ten best by a BM25
/// score, a re-add replacing the session.
#[derive(Default)]
struct StemmingBm25 {
    sessions: Mutex<Vec<Session>>,
    /// Whether a re-add inserts every event again instead of replacing the session.
    appends: bool,
    /// Whether a search ranks by its score; else the first stored first, unranked.
    ranks: bool,
}

#[async_trait]
impl MemoryService for StemmingBm25 {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
        let mut sessions = self.sessions.lock().unwrap();
        if !self.appends {
            sessions.retain(|s| !(s.key() == session.key() && s.id == session.id));
        }
        sessions.push(session.clone());
        Ok(())
    }

    async fn search_memory(
        &self,
        app: &str,
        user: &str,
        query: &str,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        let terms = stemmed_words(query);
        let sessions = self.sessions.lock().unwrap();
        let documents: Vec<(Vec<String>, MemoryEntry)> = sessions
            .iter()
            .filter(|s| s.app_name == app && s.user_id == user)
            .flat_map(|s| &s.events)
            .filter_map(|event| {
                let entry = MemoryEntry::from_event(event)?;
                let text: Vec<&str> = entry.content.texts().collect();
                Some((stemmed_words(&text.join(" ")), entry))
            })
            .collect();
        let count = documents.len().max(1) as f64;
        let average = documents.iter().map(|(w, _)| w.len()).sum::<usize>() as f64 / count;
        let mut scored: Vec<(f64, MemoryEntry)> = documents
            .iter()
            .filter_map(|(words, entry)| {
                let mut score = 0.0;
                for term in &terms {
                    let tf = words.iter().filter(|w| *w == term).count() as f64;
                    if tf == 0.0 {
                        continue;
                    }
                    let df = documents.iter().filter(|(w, _)| w.contains(term)).count() as f64;
                    let idf = ((count - df + 0.5) / (df + 0.5) + 1.0).ln();
                    let norm = 1.2 * (0.25 + 0.75 * words.len() as f64 / average.max(1.0));
                    score += idf * tf * 2.2 / (tf + norm);
                }
                (score > 0.0).then(|| {
                    let mut entry = entry.clone();
                    entry.id = None;
                    (score, entry)
                })
            })
            .collect();
        if self.ranks {
            scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        }
        scored.truncate(10);
        Ok(SearchMemoryResponse::new(
            scored.into_iter().map(|(_, e)| e).collect(),
        ))
    }
}

/// The BM25 store, declaring its own stemming word function as a Rust backend does.
fn stemming_bm25() -> Subject {
    bm25(false, true)
}

/// The BM25 store, re-adds appending where `appends`, ranking where `ranks`.
fn bm25(appends: bool, ranks: bool) -> Subject {
    let mut profile = Profile::reference().named("stemming-bm25");
    profile.event_words = WordRule::Custom(CustomWords::new("stemmed", stemmed_words));
    profile.query_terms = QueryTerms::Words {
        non_ascii_substring: false,
    };
    profile.multi_word = MultiWord::AnyWord;
    profile.limit = Limit::AtMost(10);
    profile.order = Order::Relevance;
    let name = match (appends, ranks) {
        (false, true) => "stemming-bm25",
        (true, true) => "appending-bm25",
        (_, false) => "unranked-stemming",
    };
    Subject::new(name, profile, move || async move {
        StemmingBm25 {
            appends,
            ranks,
            ..StemmingBm25::default()
        }
    })
}

/// The reference with the two calls only: its delta, memories and delete answer unsupported.
#[derive(Debug)]
struct TwoCallsOnly;

#[async_trait]
impl Deviation for TwoCallsOnly {
    async fn add_events(
        &self,
        _: &support::deviants::Store,
        _: &str,
        _: &str,
        _: Option<&str>,
        _: &[memory_conformance::Event],
    ) -> support::deviants::Done {
        Err(MemoryError::Unsupported {
            operation: "add_events_to_memory",
        })
    }

    async fn add_memory(
        &self,
        _: &support::deviants::Store,
        _: &str,
        _: &str,
        _: &[MemoryEntry],
    ) -> support::deviants::Done {
        Err(MemoryError::Unsupported {
            operation: "add_memory",
        })
    }

    async fn delete(
        &self,
        _: &support::deviants::Store,
        _: &str,
        _: &str,
        _: &str,
    ) -> support::deviants::Done {
        Err(MemoryError::Unsupported {
            operation: "delete_memory",
        })
    }
}

/// The reference over a store that cannot hold U+0000 (PostgreSQL's `text`): a call carrying
/// one in a key, a session id, an author or a text fails with an error.
#[derive(Debug)]
struct NulRefused;

/// An error where one of `strings` holds U+0000.
fn refuse_nul(strings: &[&str]) -> support::deviants::Done {
    if strings.iter().any(|s| s.contains('\0')) {
        return Err(MemoryError::backend(
            "invalid byte sequence for encoding \"UTF8\": 0x00",
        ));
    }
    Ok(())
}

#[async_trait]
impl Deviation for NulRefused {
    async fn add_session(
        &self,
        store: &support::deviants::Store,
        session: &Session,
    ) -> support::deviants::Done {
        let mut strings = vec![
            session.app_name.as_str(),
            session.user_id.as_str(),
            session.id.as_str(),
        ];
        let texts: Vec<String> = session
            .events
            .iter()
            .flat_map(|e| {
                let mut texts = vec![e.author.clone(), e.id.clone()];
                if let Some(content) = &e.content {
                    texts.extend(content.texts().map(str::to_owned));
                }
                texts
            })
            .collect();
        strings.extend(texts.iter().map(String::as_str));
        refuse_nul(&strings)?;
        store.add(session).await
    }

    async fn search(
        &self,
        store: &support::deviants::Store,
        search: support::deviants::Search<'_>,
    ) -> support::deviants::Answer {
        refuse_nul(&[search.app, search.user, search.query])?;
        store.search(search).await
    }
}

/// The deviants inferred: one of each kind the zoo has that answers in time (no hang, panic
/// or delayed write), and the reference with the two calls only.
fn deviants() -> Vec<&'static dyn Deviation> {
    vec![
        &TwoCallsOnly,
        &NulRefused,
        &key::SlashJoinedKey,
        &key::ColonJoinedKey,
        &key::RejectEmptyUser,
        &key::NonAsciiKeyRefused,
        &replace::AppendOnReadd,
        &replace::KeepFirstIngest,
        &replace::IgnoreReaddWithoutText,
        &result::LimitTen,
        &result::NaiveTimestamps,
        &result::Deduplicate,
        &result::ReverseOrder,
        &result::FindsNothing,
        &query::AllWords,
        &query::SubstringQuery,
        &query::SubstringTerms,
        &query::CaseSensitiveQuery,
        &index::UnicodeWords,
        &index::IndexToolResponses,
        &calls::DeleteIgnored,
        &calls::UnstableIds,
        &calls::LimitIgnored,
        &calls::MemoriesDropped,
        &words::StopWordsDropped,
        &words::ShortTermsDropped,
        &words::SnowballStemmed,
    ]
}

/// `deviation` as a subject declaring its own profile.
fn deviant(deviation: &'static dyn Deviation) -> Subject {
    Subject::new(
        format!("{deviation:?}"),
        deviation.profile(),
        move || async move { Deviant::new(deviation) },
    )
}

/// The reference, declaring `profile` (which infer does not read).
fn reference(profile: Profile) -> Subject {
    Subject::new("reference", profile, || async {
        InMemoryMemoryService::new()
    })
}

/// Infers `subject` quietly, at [`CASES`] cases from `seed`.
fn inferred(subject: &Subject, seed: u64) -> Inference {
    infer(subject, CASES, seed, |_| {})
}

/// Writes `text` to a file of its own and reads it back with [`ProfileFile::read`], removing
/// the file.
fn read_back(text: &str, name: &str) -> Result<ProfileFile, String> {
    let dir = std::env::temp_dir().join(format!("mc-infer-claims-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let file = dir.join(format!("{name}.toml"));
    std::fs::write(&file, text).map_err(|e| e.to_string())?;
    let read = ProfileFile::read(&file).map_err(|e| e.to_string());
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_dir(&dir);
    read
}

/// Whether `subject`'s inferred profile file reads back and its gate accepts the declaration:
/// `Err` says what was refused, with the file.
fn accepted(subject: &Subject, seed: u64) -> Result<(), String> {
    let text = inferred(subject, seed).to_toml();
    let name = subject
        .backend()
        .replace(|c: char| !c.is_alphanumeric(), "-");
    let file = read_back(&text, &name).map_err(|err| format!("refused: {err}\n{text}"))?;
    Gate::new(subject.clone().with_profile(file.profile))
        .validate()
        .map_err(|err| format!("the gate refuses the declaration: {err}\n{text}"))
}

/// Whichever backend, declared profile and seed, the profile file infer prints is read back
/// by `ProfileFile::read` and accepted by the gate.
#[test]
fn every_profile_infer_prints_is_read_back_and_accepted_by_the_gate() {
    let mut subjects: Vec<Subject> = deviants().into_iter().map(deviant).collect();
    subjects.extend([stemming_bm25(), bm25(true, true), bm25(false, false)]);
    subjects.extend(presets().into_iter().map(reference));
    let count = subjects.len();
    let mut runner = TestRunner::new_with_rng(
        Config {
            cases: 16,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
    );
    runner
        .run(&(0..count, 0u64..1_000), |(which, seed)| {
            accepted(&subjects[which], seed).map_err(TestCaseError::fail)
        })
        .unwrap();
    // Every backend once, at the default seed, whatever the property drew.
    for subject in &subjects[..count - presets().len() + 1] {
        if let Err(err) = accepted(subject, 1) {
            panic!("{}: {err}", subject.backend());
        }
    }
}

/// The regression of the profile files the gate refused: a BM25 store with its own stemming
/// words, whose delete answers unsupported and whose entries carry no id, was inferred with
/// `delete = true` and without `entry_ids` (semantic retrieval, where the delete rules do not
/// run), and `ProfileFile::read` refused the file ("deleting takes an entry's id").
#[test]
fn a_stemming_bm25_store_is_not_claimed_to_delete_without_entry_ids() {
    let inference = inferred(&stemming_bm25(), 1);
    let text = inference.to_toml();
    let file = read_back(&text, "stemming-bm25").unwrap_or_else(|err| panic!("{err}\n{text}"));
    assert_eq!(inference.profile.retrieval, Retrieval::Semantic, "{text}");
    let capabilities = file.profile.capabilities;
    assert!(!capabilities.entry_ids && !capabilities.delete, "{text}");
    assert!(
        !capabilities.explicit_memories && capabilities.events_delta.is_none(),
        "{text}"
    );
}

/// The lines of `text` that give a value: (key, value, comment), the key with its table
/// (`capabilities.delete`).
fn value_lines(text: &str) -> Vec<(String, String, Option<String>)> {
    let mut table = String::new();
    let mut lines = Vec::new();
    for line in text.lines() {
        if let Some(header) = line.strip_prefix('[') {
            table = header.split(']').next().unwrap_or_default().to_owned();
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        let Some((key, rest)) = line.split_once(" = ") else {
            continue;
        };
        let (value, comment) = match rest.split_once("  # ") {
            Some((value, comment)) => (value, Some(comment.to_owned())),
            None => (rest, None),
        };
        let key = if table.is_empty() {
            key.to_owned()
        } else {
            format!("{table}.{key}")
        };
        lines.push((key, value.to_owned(), comment));
    }
    lines
}

/// The rule ids a comment names after `checked by`, up to the first `(` or `;`.
fn checked_by(comment: &str) -> Option<Vec<&str>> {
    let rest = comment.strip_prefix("checked by ")?;
    let named = rest.split([';', '(']).next().unwrap_or_default();
    Some(
        named
            .split(',')
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .collect(),
    )
}

/// Every line of a value or capability infer prints names the rules that ran on the backend
/// and held for it, each a rule of the catalogue that held again when run on its own under the
/// profile printed; or it says why it is not checked or not claimed, and then claims nothing
/// (a capability `false` or left out).
#[test]
fn every_claim_names_the_rules_that_ran_and_held() {
    let mut subjects = vec![
        reference(Profile::reference()),
        stemming_bm25(),
        deviant(&TwoCallsOnly),
        deviant(&replace::AppendOnReadd),
        deviant(&key::SlashJoinedKey),
        deviant(&result::LimitTen),
    ];
    subjects.push(reference(Profile::adk_python()));
    for subject in &subjects {
        let inference = inferred(subject, 1);
        let text = inference.to_toml();
        let file = ProfileFile::parse(&text).unwrap_or_else(|err| panic!("{err}\n{text}"));
        let gate = Gate::new(subject.clone().with_profile(file.profile.clone()))
            .cases(CASES)
            .seed(1);
        assert!(
            text.contains("\nstrings = \"any\"  # checked by key.isolation, query.unknown_key\n")
                || text.contains("\nstrings = \"without-nul"),
            "the strings are written with the rules that held for them:\n{text}"
        );
        assert!(
            text.contains("\nduplicates = \"kept\"  # checked by ")
                || text.contains("\nduplicates = \"merged\"  # checked by ")
                || text.contains("\nduplicates = \"kept\"  # not claimed: "),
            "the duplicates are written with the rules that held for them, or unclaimed:\n{text}"
        );
        assert!(
            text.contains(
                "\n# not decided by infer, not checked: the contract's event_ids = per-session"
            ),
            "the dimensions infer does not decide are named:\n{text}"
        );
        let mut rerun: HashMap<&str, bool> = HashMap::new();
        for (key, value, comment) in value_lines(&text) {
            if ["format", "name", "provenance"].contains(&key.as_str()) {
                continue;
            }
            let comment =
                comment.unwrap_or_else(|| panic!("{key} = {value} names no rule:\n{text}"));
            if let Some(named) = checked_by(&comment) {
                assert!(!named.is_empty(), "{key}: {comment}\n{text}");
                for id in &named {
                    let rule = rules::find(id)
                        .unwrap_or_else(|| panic!("{key} names {id}, no rule:\n{text}"));
                    assert!(
                        inference.decisions.iter().any(|d| d.held.contains(id)),
                        "{key} names {id}, which held in no decision:\n{text}"
                    );
                    rerun
                        .entry(rule.id())
                        .or_insert_with(|| matches!(gate.check(rule), Verdict::Passed { .. }));
                }
                assert!(
                    named.iter().any(|id| rerun[id]),
                    "{key} = {value}: none of {named:?} held again under the profile printed\n{text}"
                );
                continue;
            }
            let unclaimed = comment.starts_with("not checked")
                || comment.starts_with("not claimed")
                || comment.starts_with("NO value fits");
            assert!(unclaimed, "{key} = {value}  # {comment}\n{text}");
            if key.starts_with("capabilities.") && comment.starts_with("not claimed") {
                assert_eq!(value, "false", "{key}  # {comment}\n{text}");
            }
        }
    }
}

/// Where no rule can check a call (semantic retrieval, where every rule of the delta, the
/// memories and the delete needs an expected answer), it is printed unclaimed, saying it was
/// not checked and why; and a call that answers unsupported is not claimed.
#[test]
fn an_unchecked_capability_is_printed_unclaimed_saying_why() {
    let text = inferred(&stemming_bm25(), 1).to_toml();
    for (field, why) in [
        ("explicit_memories", "memories.searchable"),
        ("delete", "capabilities.entry_ids"),
    ] {
        let line = text
            .lines()
            .find(|line| line.starts_with(&format!("{field} = ")))
            .unwrap_or_else(|| panic!("no line for {field}:\n{text}"));
        assert!(
            line.starts_with(&format!("{field} = false  # not claimed, not checked: "))
                && line.contains(why),
            "{line}\n{text}"
        );
    }
    assert!(
        text.lines().any(|line| line.starts_with(
            "# events_delta is not written: not claimed, not checked: none of delta.as_declared applies"
        )),
        "{text}"
    );
    let text = inferred(&deviant(&TwoCallsOnly), 1).to_toml();
    for field in ["explicit_memories", "delete"] {
        let line = text
            .lines()
            .find(|line| line.starts_with(&format!("{field} = ")))
            .unwrap_or_else(|| panic!("no line for {field}:\n{text}"));
        assert!(
            line.starts_with(&format!("{field} = false  # not claimed")),
            "{line}\n{text}"
        );
    }
    let file = ProfileFile::parse(&text).unwrap();
    assert!(file.profile.capabilities.events_delta.is_none(), "{text}");
    assert!(file.profile.capabilities.entry_ids, "{text}");
}

/// Under semantic retrieval, where the rule that tells an append from an upsert by event id
/// does not run, a store whose every add inserts again is inferred as the value that claims
/// least, `append` (whose implied failures it shows), noted as not checked; never as an
/// upsert.
#[test]
fn a_readd_no_rule_could_tell_is_the_value_that_claims_least() {
    let inference = inferred(&bm25(true, true), 1);
    let text = inference.to_toml();
    assert_eq!(inference.profile.retrieval, Retrieval::Semantic, "{text}");
    assert_eq!(inference.profile.readd, Readd::Append, "{text}");
    let line = text
        .lines()
        .find(|line| line.starts_with("readd = "))
        .unwrap_or_else(|| panic!("no readd line:\n{text}"));
    assert!(
        line.starts_with(
            "readd = \"append\"  # not checked: no rule held for it; replace.readd_replaces, \
             replace.readd_with_nothing failed as it says they must; of the values no rule ruled \
             out, the one that claims least (replace.readd_as_declared: the profile declares \
             semantic retrieval"
        ),
        "{line}\n{text}"
    );
}

/// Under semantic retrieval a store that does not rank (the first stored first) is inferred as
/// promising no order, `unordered` being tried after `relevance`; one that ranks by BM25 as
/// ordered by relevance.
#[test]
fn a_semantic_store_promises_an_order_only_where_it_ranks() {
    let unranked = inferred(&bm25(false, false), 1);
    assert_eq!(unranked.profile.retrieval, Retrieval::Semantic);
    assert_eq!(
        unranked.profile.order,
        Order::Unordered,
        "{}",
        unranked.to_toml()
    );
    let ranked = inferred(&stemming_bm25(), 1);
    assert_eq!(
        ranked.profile.order,
        Order::Relevance,
        "{}",
        ranked.to_toml()
    );
}

/// A store that cannot hold U+0000 is inferred as one (`strings = "without-nul"`, probed before
/// any rule runs and checked last), and every other dimension is decided as the reference's:
/// a generated U+0000 breaks no later decision.
#[test]
fn a_store_that_cannot_hold_nul_is_inferred_without_nul_and_the_rest_as_usual() {
    let inference = inferred(&deviant(&NulRefused), 1);
    let text = inference.to_toml();
    assert!(!inference.has_misfit(), "{text}");
    assert_eq!(inference.profile.strings, Strings::WithoutNul, "{text}");
    let mut expected = Profile::reference();
    expected.strings = Strings::WithoutNul;
    let dimensions = |profile: &Profile| {
        let mut profile = profile.clone().named("compared");
        profile.provenance = String::new();
        profile.capabilities = Default::default();
        profile
    };
    assert_eq!(
        dimensions(&inference.profile),
        dimensions(&expected),
        "{text}"
    );
    assert!(
        text.contains("\nstrings = \"without-nul\"  # checked by "),
        "{text}"
    );
}

/// A store keyed by `app:user` is inferred as joined with `:`, one keyed by `app/user` as
/// joined with `/`, and one that matches query words inside stored words as matching
/// substrings: the values that say what they do.
#[test]
fn a_colon_joined_key_and_substring_terms_are_inferred_as_what_they_are() {
    use memory_conformance::profile::KeyScheme;

    for (deviation, key) in [
        (
            &key::ColonJoinedKey as &'static dyn Deviation,
            KeyScheme::JoinedWith(':'),
        ),
        (&key::SlashJoinedKey, KeyScheme::JoinedWithSlash),
        (&query::SubstringTerms, KeyScheme::Structured),
    ] {
        let inference = inferred(&deviant(deviation), 1);
        assert_eq!(inference.profile.key, key, "{}", inference.to_toml());
    }
    let substrings = inferred(&deviant(&query::SubstringTerms), 1);
    assert!(
        matches!(
            substrings.profile.query_terms,
            QueryTerms::Substrings { .. }
        ),
        "{}",
        substrings.to_toml()
    );
}

/// The reference is inferred as `case_mapping = full`, which `query.case_insensitive` decides.
/// A backend that lowercases its queries code point by code point (the dotted capital `İ` to
/// a plain `i`) differs from it only where a generated query holds `İ`, which infer's cases
/// draw too rarely to decide `simple`: infer keeps `full` and announces the failure its last
/// check finds there.
#[test]
fn the_case_mapping_is_inferred_full_and_a_simple_one_is_announced() {
    use memory_conformance::profile::CaseMapping;

    let full = infer(&reference(Profile::reference()), 64, 1, |_| {});
    assert_eq!(
        full.profile.case_mapping,
        CaseMapping::Full,
        "{}",
        full.to_toml()
    );
    let simple = infer(&deviant(&words::DottedCapitalIAsI), 64, 1, |_| {});
    assert!(
        simple.profile.case_mapping == CaseMapping::Simple
            || simple
                .still_failing
                .iter()
                .any(|failing| failing.contains("query.case_insensitive")),
        "{}",
        simple.to_toml()
    );
}

/// Cases per rule and candidate of the round trip's `infer`: the command's default.
const ROUND_TRIP_INFER_CASES: u32 = 32;

/// Cases per rule of the round trip's gates: more than any one candidate of infer ran.
const ROUND_TRIP_CASES: u32 = 64;

/// The round trip a new team makes: `infer`, then `gate` on the profile it printed, read back
/// from its file. Every rule the gate shows red, infer's file says still fails under that
/// profile (a defect, or a design no value says): infer never hands over a profile whose
/// failures it did not announce. On the reference under every preset and on every deviant of
/// the zoo infer can reach; the table pins, per backend, the rules shown as known violations
/// (failures the profile's values imply) and the red rules.
#[test]
fn every_rule_red_on_infers_profile_is_announced_in_it() {
    let mut subjects: Vec<Subject> = deviants().into_iter().map(deviant).collect();
    subjects.extend([stemming_bm25(), bm25(true, true), bm25(false, false)]);
    subjects.extend(presets().into_iter().map(|profile| {
        Subject::new(
            format!("reference as {}", profile.name),
            profile,
            || async { InMemoryMemoryService::new() },
        )
    }));
    let mut table =
        String::from("| backend | known violations its values imply | red |\n|---|---|---|\n");
    let mut unannounced = Vec::new();
    for subject in &subjects {
        let inference = infer(subject, ROUND_TRIP_INFER_CASES, 1, |_| {});
        let text = inference.to_toml();
        let file = read_back(&text, "round-trip")
            .unwrap_or_else(|err| panic!("{}: {err}\n{text}", subject.backend()));
        let report = Gate::new(subject.clone().with_profile(file.profile.clone()))
            .declared_by(&file)
            .cases(ROUND_TRIP_CASES)
            .seed(1)
            .run();
        let announced: Vec<&str> = inference
            .still_failing
            .iter()
            .map(|failing| {
                failing
                    .split_once(' ')
                    .map_or(failing.as_str(), |(id, _)| id)
            })
            .collect();
        let (mut known, mut red) = (Vec::new(), Vec::new());
        for run in report.runs() {
            match run.verdict() {
                Verdict::Failed(_) => red.push(run.rule().id()),
                Verdict::KnownViolationShown { .. } => known.push(run.rule().id()),
                _ => {}
            }
        }
        let missed: Vec<&str> = red
            .iter()
            .copied()
            .filter(|id| !announced.contains(id))
            .collect();
        if !missed.is_empty() || !report.problems().is_empty() {
            unannounced.push(format!(
                "{}: red and not announced {missed:?}, problems {:?}\n{text}",
                subject.backend(),
                report.problems()
            ));
        }
        table.push_str(&format!(
            "| {} | {} | {} |\n",
            subject.backend(),
            known.join(", "),
            red.join(", ")
        ));
    }
    insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("infer_round_trip", table);
    });
    assert!(unannounced.is_empty(), "{}", unannounced.join("\n\n"));
}

/// A store whose storage outlives an instance but whose instances save over each other's
/// writes (each keeps a copy, and saves it whole) is inferred durable and not shared: the
/// two are tried alone where they do not hold together.
#[test]
fn a_durable_store_whose_instances_do_not_share_is_inferred_durable_only() {
    let fault = ReplicaFault::StaleCopyWriteBack;
    let subject = Subject::namespaced("durable-unshared", fault.profile(), move |namespace| {
        let storage = SharedStorage::of(&namespace);
        async move { Replica::open(fault, storage) }
    })
    .cleanup_with(SharedStorage::remove);
    let inference = inferred(&subject, 1);
    let text = inference.to_toml();
    let capabilities = inference.profile.capabilities;
    assert!(capabilities.durable && !capabilities.shared, "{text}");
    assert!(
        text.contains("\ndurable = true  # checked by durability.reopen\n"),
        "{text}"
    );
    assert!(text.contains("\nshared = false  # not claimed: "), "{text}");
}

/// A lexical store that drops stop words, or query terms too short, is inferred with exactly
/// what it drops (the stop list, the length), probed directly and then checked by the rules
/// of the dimension: the file writes `[dropped_words]` with the rules that held, reads back
/// and the gate accepts it. The reference, which drops nothing, is inferred dropping
/// nothing, checked by the same rules.
#[test]
fn the_words_a_store_drops_are_inferred_and_checked_by_their_rules() {
    use memory_conformance::profile::DroppedWords;

    // The rules of the dimension's rows (`dropped_words` in the dimension table).
    const RULES: [&str; 6] = [
        "query.case_insensitive",
        "punctuation.query",
        "punctuation.event",
        "query.digits",
        "query.non_ascii",
        "query.multi_word",
    ];

    for (deviation, expected) in [
        (
            &words::StopWordsDropped as &'static dyn Deviation,
            DroppedWords::stop_words(words::stop_words()),
        ),
        (
            &words::ShortTermsDropped,
            DroppedWords::none().with_shorter_than(3),
        ),
    ] {
        let subject = deviant(deviation);
        let inference = inferred(&subject, 1);
        let text = inference.to_toml();
        assert_eq!(inference.profile.dropped_words, expected, "{text}");
        let decision = inference
            .decisions
            .iter()
            .find(|d| d.dimension == "dropped_words")
            .unwrap_or_else(|| panic!("no decision of dropped_words:\n{text}"));
        assert!(
            decision.misfit.is_none() && !decision.unchecked && !decision.held.is_empty(),
            "{decision:?}\n{text}"
        );
        assert!(
            decision.held.iter().all(|id| RULES.contains(id)),
            "{decision:?}"
        );
        let checked = format!("checked by {}", decision.held.join(", "));
        let key = if expected.stop_words.is_empty() {
            "dropped_words.shorter_than"
        } else {
            "dropped_words.stop_words"
        };
        assert!(text.contains("\n[dropped_words]\n"), "{text}");
        assert!(
            value_lines(&text)
                .iter()
                .any(|(k, _, comment)| k == key && comment.as_deref() == Some(checked.as_str())),
            "{key} is written with the rules that held:\n{text}"
        );
        let file = read_back(&text, "dropped-words").unwrap_or_else(|err| panic!("{err}\n{text}"));
        assert_eq!(file.profile.dropped_words, expected, "{text}");
        accepted(&subject, 1).unwrap_or_else(|err| panic!("{err}"));
    }

    let inference = inferred(&reference(Profile::reference()), 1);
    let text = inference.to_toml();
    assert!(inference.profile.dropped_words.is_none(), "{text}");
    assert!(!text.contains("[dropped_words]"), "{text}");
    assert!(
        text.contains(
            "\n# dropped_words = none (the table left out: nothing dropped)  # checked by "
        ),
        "{text}"
    );
}

/// A lexical store that stems is inferred `stemming = english`, probed directly (a stored
/// form of a word searched by another form) and then checked by the rules of the dimension:
/// the file writes it with the rules that held, reads back and the gate accepts it. The
/// reference, which stems nothing, is inferred `none`, checked by the same rules; before
/// the probe, a stemming store fitted no word rule and was inferred as semantic.
#[test]
fn a_store_that_stems_is_inferred_stemming_and_checked_by_its_rules() {
    use memory_conformance::profile::{Retrieval, Stemming};

    // The rules of the dimension's rows (`stemming` in the dimension table).
    const RULES: [&str; 3] = ["punctuation.query", "punctuation.event", "query.multi_word"];

    for (subject, expected) in [
        (deviant(&words::SnowballStemmed), Stemming::English),
        (reference(Profile::reference()), Stemming::None),
    ] {
        let inference = inferred(&subject, 1);
        let text = inference.to_toml();
        assert_eq!(inference.profile.retrieval, Retrieval::Lexical, "{text}");
        assert_eq!(inference.profile.stemming, expected, "{text}");
        let decision = inference
            .decisions
            .iter()
            .rfind(|d| d.dimension == "stemming")
            .unwrap_or_else(|| panic!("no decision of stemming:\n{text}"));
        assert!(
            decision.misfit.is_none() && !decision.unchecked && !decision.held.is_empty(),
            "{decision:?}\n{text}"
        );
        assert!(
            decision.held.iter().all(|id| RULES.contains(id)),
            "{decision:?}"
        );
        let value = serde_json::to_string(&expected).expect("a stemming serialises");
        let checked = format!("checked by {}", decision.held.join(", "));
        assert!(
            value_lines(&text)
                .iter()
                .any(|(k, v, comment)| k == "stemming"
                    && *v == value
                    && comment.as_deref() == Some(checked.as_str())),
            "stemming = {value} is written with the rules that held:\n{text}"
        );
        let file = read_back(&text, "stemming").unwrap_or_else(|err| panic!("{err}\n{text}"));
        assert_eq!(file.profile.stemming, expected, "{text}");
        accepted(&subject, 1).unwrap_or_else(|err| panic!("{err}"));
    }
}
