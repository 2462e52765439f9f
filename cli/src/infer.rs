//! `memory-conformance infer`: the profile that fits a backend, dimension by dimension, found by
//! running the rules that check each dimension against every value it can take.
//!
//! Dimensions are decided in an order where each needs only those before it: the key, the
//! re-add, tool data, the limit (counted directly), the word rules of stored text and queries
//! together and any or all words (both with no order promised), the order, then the
//! capabilities. For each, the candidates
//! go from most to least specific, and the first whose rules all hold (and check something) is
//! taken; when none does, the one with the fewest failing rules is taken, with a note naming
//! the rules that will fail.

use std::fmt::Write as _;

use memory_conformance::conformance::rules::{self, Rule};
use memory_conformance::conformance::{Gate, Subject, Verdict};
use memory_conformance::profile::ProfileFile;
use memory_conformance::profile::{
    Capabilities, EventsDelta, KeyScheme, Limit, MultiWord, Order, Profile, QueryTerms, Readd,
    RemoveDiacritics, Separators, Timestamps, ToolData, WordRule,
};
use memory_conformance::{Event, MemoryService, Session};

/// How one dimension was decided.
pub struct Decision {
    /// The dimension (`readd`).
    pub dimension: &'static str,
    /// The value taken, as the profile table writes it.
    pub value: String,
    /// The rules that decided it.
    pub rules: Vec<&'static str>,
    /// Those of `rules` that failed as the value taken says they must (the known violations
    /// it implies, such as the replace rules for an appending re-add).
    pub implied_failures: Vec<&'static str>,
    /// Set when no value fits: the rules that fail with the value taken.
    pub misfit: Option<Vec<String>>,
}

/// What `infer` found: the profile, and how each dimension was decided.
pub struct Inference {
    /// The profile that fits.
    pub profile: Profile,
    /// One decision per dimension, in the order they were made.
    pub decisions: Vec<Decision>,
}

impl Inference {
    /// The profile file of the inference, each dimension's decision as a comment above it.
    pub fn to_toml(&self) -> String {
        let mut out = String::from(
            "# Inferred by `memory-conformance infer`: each dimension was decided by running the\n\
             # rules that check it against every value it can take.\n",
        );
        for decision in &self.decisions {
            let _ = match &decision.misfit {
                None if decision.rules.is_empty() => writeln!(
                    out,
                    "# {}: {} (the rules that check it fail, so it is not claimed)",
                    decision.dimension, decision.value
                ),
                None => {
                    let held: Vec<&str> = decision
                        .rules
                        .iter()
                        .filter(|rule| !decision.implied_failures.contains(rule))
                        .copied()
                        .collect();
                    let mut why = Vec::new();
                    if !held.is_empty() {
                        why.push(format!("every case of {} held", held.join(", ")));
                    }
                    if !decision.implied_failures.is_empty() {
                        why.push(format!(
                            "{} failed as this value says it must",
                            decision.implied_failures.join(", ")
                        ));
                    }
                    writeln!(
                        out,
                        "# {}: {} ({})",
                        decision.dimension,
                        decision.value,
                        why.join("; ")
                    )
                }
                Some(failing) => writeln!(
                    out,
                    "# {}: NO value fits; closest {} (still failing: {})",
                    decision.dimension,
                    decision.value,
                    failing.join("; ")
                ),
            };
        }
        out.push('\n');
        out.push_str(&ProfileFile::of(self.profile.clone()).to_toml());
        out
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
    let subject_for = |profile: &Profile| subject.clone().with_profile(profile.clone());
    let mut profile = Profile::reference().named(subject.backend());
    // The two calls only, until a capability's rules show the backend has it.
    profile.capabilities = Capabilities::default();
    profile.provenance = format!(
        "inferred by memory-conformance {}",
        env!("CARGO_PKG_VERSION")
    );
    let mut decisions = Vec::new();
    let mut decide = |decisions: &mut Vec<Decision>,
                      profile: &mut Profile,
                      dimension: &'static str,
                      rule_ids: &[&'static str],
                      candidates: Vec<(String, Profile)>| {
        progress(dimension);
        let rules: Vec<&'static Rule> = rule_ids.iter().filter_map(|id| rules::find(id)).collect();
        let mut best: Option<(usize, String, Profile, Vec<String>)> = None;
        for (value, candidate) in candidates {
            let gate = Gate::new(subject_for(&candidate)).cases(cases).seed(seed);
            let mut failing = Vec::new();
            let mut implied_failures = Vec::new();
            let mut checked = 0;
            for rule in &rules {
                match gate.check(rule) {
                    Verdict::Passed { .. } | Verdict::KnownViolationNotShown { .. } => checked += 1,
                    Verdict::KnownViolationShown { .. } => {
                        checked += 1;
                        implied_failures.push(rule.id());
                    }
                    Verdict::NotApplicable { .. } => {}
                    other => failing.push(format!(
                        "{} ({})",
                        rule.id(),
                        other.to_string().lines().next().unwrap_or_default()
                    )),
                }
            }
            if failing.is_empty() && checked > 0 {
                *profile = candidate;
                decisions.push(Decision {
                    dimension,
                    value,
                    rules: rule_ids.to_vec(),
                    implied_failures,
                    misfit: None,
                });
                return;
            }
            if best
                .as_ref()
                .is_none_or(|(fails, ..)| failing.len() < *fails)
            {
                best = Some((failing.len(), value, candidate, failing));
            }
        }
        if let Some((_, value, candidate, failing)) = best {
            *profile = candidate;
            decisions.push(Decision {
                dimension,
                value,
                rules: rule_ids.to_vec(),
                implied_failures: Vec::new(),
                misfit: Some(failing),
            });
        }
    };

    let with = |base: &Profile, change: &dyn Fn(&mut Profile)| {
        let mut p = base.clone();
        change(&mut p);
        p
    };

    let base = profile.clone();
    let keys = vec![
        (
            "structured".to_owned(),
            with(&base, &|p| p.key = KeyScheme::Structured),
        ),
        (
            "joined with \"/\"".to_owned(),
            with(&base, &|p| p.key = KeyScheme::JoinedWithSlash),
        ),
    ];
    decide(
        &mut decisions,
        &mut profile,
        "key",
        &["key.no_separator_collision", "key.isolation"],
        keys,
    );

    let base = profile.clone();
    let readds = [
        ("replace", Readd::Replace),
        ("replace unless no text", Readd::ReplaceUnlessNoText),
        ("upsert by event id", Readd::UpsertByEventId),
        ("append", Readd::Append),
    ]
    .map(|(name, readd)| (name.to_owned(), with(&base, &|p| p.readd = readd)))
    .to_vec();
    decide(
        &mut decisions,
        &mut profile,
        "readd",
        &[
            "replace.readd_replaces",
            "replace.readd_with_nothing",
            "replace.readd_as_declared",
        ],
        readds,
    );

    let base = profile.clone();
    let formats = [
        ("RFC 3339 UTC", Timestamps::Rfc3339Utc),
        ("naive isoformat", Timestamps::NaiveIsoformat),
    ]
    .map(|(name, format)| (name.to_owned(), with(&base, &|p| p.timestamps = format)))
    .to_vec();
    decide(
        &mut decisions,
        &mut profile,
        "timestamps",
        &["result.fidelity"],
        formats,
    );

    let base = profile.clone();
    let tools = [
        ("not indexed", ToolData::NotIndexed),
        ("indexed", ToolData::Indexed),
    ]
    .map(|(name, tool_data)| (name.to_owned(), with(&base, &|p| p.tool_data = tool_data)))
    .to_vec();
    decide(
        &mut decisions,
        &mut profile,
        "tool_data",
        &["index.text_only"],
        tools,
    );

    let counted = count_limit(&subject_for(&profile));
    let base = profile.clone();
    let limits = match counted {
        Some(n) => vec![(
            format!("at most {n}"),
            with(&base, &|p| p.limit = Limit::AtMost(n)),
        )],
        None => vec![(
            "unlimited".to_owned(),
            with(&base, &|p| p.limit = Limit::Unlimited),
        )],
    };
    decide(
        &mut decisions,
        &mut profile,
        "limit",
        &["result.limit"],
        limits,
    );

    // The word rules and any-or-all words are decided with no order promised, so an order the
    // kit cannot know yet does not fail them; the order is decided last, with them known.
    profile.order = Order::Unordered;
    // Every word-rule candidate over `base`, the other dimensions left as they are.
    let word_profiles = |base: &Profile| -> Vec<(String, Profile)> {
        word_candidates()
            .into_iter()
            .map(|(name, event_words, query_terms)| {
                (
                    name,
                    with(base, &move |p| {
                        p.event_words = event_words;
                        p.query_terms = query_terms;
                    }),
                )
            })
            .collect()
    };
    let words = word_profiles(&profile);
    decide(
        &mut decisions,
        &mut profile,
        "event_words and query_terms",
        &[
            "punctuation.query",
            "punctuation.event",
            "query.digits",
            "query.non_ascii",
            "query.case_insensitive",
        ],
        words,
    );

    // Query separators show only in queries of several words, and any-or-all words only with
    // the right separators: the two are decided in turn, twice, each time with the other known.
    for _ in 0..2 {
        let words = word_profiles(&profile);
        decide(
            &mut decisions,
            &mut profile,
            "event_words and query_terms, with the query's separators",
            &[
                "punctuation.query",
                "punctuation.event",
                "query.digits",
                "query.non_ascii",
                "query.case_insensitive",
                "query.multi_word",
            ],
            words,
        );

        let base = profile.clone();
        let multi = [
            ("any word", MultiWord::AnyWord),
            ("all words", MultiWord::AllWords),
        ]
        .map(|(name, multi_word)| (name.to_owned(), with(&base, &|p| p.multi_word = multi_word)))
        .to_vec();
        decide(
            &mut decisions,
            &mut profile,
            "multi_word",
            &["query.multi_word"],
            multi,
        );
    }
    // Where the turns leave either one failing, the two are searched together.
    let misfit = |dimension: &str, decisions: &[Decision]| {
        decisions
            .iter()
            .rev()
            .find(|d| d.dimension == dimension)
            .is_some_and(|d| d.misfit.is_some())
    };
    if misfit("multi_word", &decisions)
        || misfit(
            "event_words and query_terms, with the query's separators",
            &decisions,
        )
    {
        let base = profile.clone();
        let mut both = Vec::new();
        for multi_word in [MultiWord::AnyWord, MultiWord::AllWords] {
            for (name, event_words, query_terms) in word_candidates() {
                both.push((
                    format!("{name}; {multi_word:?}"),
                    with(&base, &move |p| {
                        p.multi_word = multi_word;
                        p.event_words = event_words;
                        p.query_terms = query_terms;
                    }),
                ));
            }
        }
        decide(
            &mut decisions,
            &mut profile,
            "event_words, query_terms and multi_word together",
            &[
                "punctuation.query",
                "punctuation.event",
                "query.digits",
                "query.non_ascii",
                "query.case_insensitive",
                "query.multi_word",
            ],
            both,
        );
        if !misfit(
            "event_words, query_terms and multi_word together",
            &decisions,
        ) {
            decisions.retain(|d| {
                d.dimension != "multi_word"
                    && d.dimension != "event_words and query_terms, with the query's separators"
            });
        }
    }
    let base = profile.clone();
    let orders = [
        (
            "insertion",
            Order::Insertion {
                integer_ids_first: false,
            },
        ),
        (
            "insertion, integer ids first",
            Order::Insertion {
                integer_ids_first: true,
            },
        ),
        ("matched terms", Order::MatchedTerms),
        ("relevance", Order::Relevance),
        ("unordered", Order::Unordered),
    ]
    .map(|(name, order)| (name.to_owned(), with(&base, &|p| p.order = order)))
    .to_vec();
    decide(
        &mut decisions,
        &mut profile,
        "order",
        &["result.order", "model.random_ops"],
        orders,
    );

    {
        let base = profile.clone();
        let both = with(&base, &|p| {
            p.capabilities.durable = true;
            p.capabilities.shared = true;
        });
        decide(
            &mut decisions,
            &mut profile,
            "capabilities",
            &["durability.reopen", "scope.shared", "scope.replicas"],
            vec![("durable and shared".to_owned(), both)],
        );
        // Not durable and not shared is a value that fits when the rules fail: it checks
        // nothing, so it is only taken when durable and shared do not hold.
        if let Some(last) = decisions.last_mut()
            && last.misfit.is_some()
        {
            profile.capabilities = base.capabilities;
            last.value = "neither durable nor shared".into();
            last.rules.clear();
            last.misfit = None;
        }
    }
    // Each call beyond the two: claimed where its rule holds, else not (which checks nothing).
    let optional: [OptionalCall; 5] = [
        (
            "entry ids",
            "result.entry_ids",
            vec![("entry ids", |c| c.entry_ids = true)],
        ),
        (
            "search limit",
            "result.limit_option",
            vec![("a search limit", |c| c.search_limit = true)],
        ),
        (
            "event delta",
            "delta.as_declared",
            vec![
                ("appends events with new ids", |c| {
                    c.events_delta = Some(EventsDelta::AppendNewIds)
                }),
                ("upserts events by id", |c| {
                    c.events_delta = Some(EventsDelta::UpsertByEventId)
                }),
            ],
        ),
        (
            "explicit memories",
            "memories.searchable",
            vec![("explicit memories", |c| c.explicit_memories = true)],
        ),
        (
            "delete by id",
            "forget.never_returned",
            vec![("delete by id", |c| c.delete = true)],
        ),
    ];
    for (dimension, rule, values) in optional {
        let base = profile.clone();
        let candidates = values
            .into_iter()
            .map(|(value, claim)| {
                (
                    value.to_owned(),
                    with(&base, &|p| claim(&mut p.capabilities)),
                )
            })
            .collect();
        decide(&mut decisions, &mut profile, dimension, &[rule], candidates);
        if let Some(last) = decisions.last_mut()
            && last.misfit.is_some()
        {
            profile.capabilities = base.capabilities;
            last.value = "not claimed".into();
            last.rules.clear();
            last.misfit = None;
        }
    }
    // A dimension decided again keeps its last decision.
    let mut last: Vec<Decision> = Vec::new();
    for decision in decisions.into_iter().rev() {
        if !last.iter().any(|d| d.dimension == decision.dimension) {
            last.push(decision);
        }
    }
    last.reverse();
    Inference {
        profile,
        decisions: last,
    }
}

/// Every pairing of a stored-text word rule with a query-term rule that a backend of the
/// presets, or a plain variant of one, uses; most specific first.
fn word_candidates() -> Vec<(String, WordRule, QueryTerms)> {
    let ascii = Separators::AsciiWhitespace;
    let mut candidates = vec![
        (
            "ASCII letters; query tokens on ASCII whitespace".to_owned(),
            WordRule::AsciiLetters,
            QueryTerms::Tokens { separators: ascii },
        ),
        (
            "ASCII letters; query tokens on JavaScript whitespace".to_owned(),
            WordRule::AsciiLetters,
            QueryTerms::Tokens {
                separators: Separators::JavaScriptWhitespace,
            },
        ),
        (
            "ASCII letters; query tokens on Unicode whitespace".to_owned(),
            WordRule::AsciiLetters,
            QueryTerms::Tokens {
                separators: Separators::UnicodeWhitespace,
            },
        ),
        (
            "ASCII letters; query cut like text".to_owned(),
            WordRule::AsciiLetters,
            QueryTerms::Words {
                non_ascii_substring: false,
            },
        ),
    ];
    for script_runs in [true, false] {
        for substring in [true, false] {
            candidates.push((
                format!(
                    "Unicode words{}; query cut like text{}",
                    if script_runs { " with script runs" } else { "" },
                    if substring {
                        ", non-ASCII as substrings"
                    } else {
                        ""
                    }
                ),
                WordRule::UnicodeWords { script_runs },
                QueryTerms::Words {
                    non_ascii_substring: substring,
                },
            ));
        }
    }
    for remove in [
        RemoveDiacritics::All,
        RemoveDiacritics::Single,
        RemoveDiacritics::Keep,
    ] {
        let rule = WordRule::FullText {
            remove_diacritics: remove,
            script_runs: false,
        };
        for (name, separators) in [("ASCII", ascii), ("Unicode", Separators::UnicodeWhitespace)] {
            candidates.push((
                format!("full text ({remove:?}); query phrases on {name} whitespace"),
                rule,
                QueryTerms::Phrases { separators },
            ));
        }
        candidates.push((
            format!("full text ({remove:?}); query cut like text"),
            rule,
            QueryTerms::Words {
                non_ascii_substring: false,
            },
        ));
        // After the plain full-text rules: generated cases rarely tell the two apart, so the
        // script runs are chosen only where the plain rules fail.
        candidates.push((
            format!("full text ({remove:?}) with script runs; query word runs"),
            WordRule::FullText {
                remove_diacritics: remove,
                script_runs: true,
            },
            QueryTerms::WordRuns,
        ));
    }
    candidates.push((
        "Unicode segmentation (UAX #29); query cut like text".to_owned(),
        WordRule::UnicodeSegmentation,
        QueryTerms::Words {
            non_ascii_substring: false,
        },
    ));
    for (name, separators) in [
        ("Unicode", Separators::UnicodeWhitespace),
        ("ASCII", ascii),
        ("space", Separators::Space),
    ] {
        for cjk in [true, false] {
            candidates.push((
                format!(
                    "whitespace ({name}){}; query tokens",
                    if cjk { " with CJK grams" } else { "" }
                ),
                WordRule::Whitespace {
                    separators,
                    cjk_ngrams: cjk,
                },
                QueryTerms::Tokens { separators },
            ));
        }
    }
    candidates
}

/// Adds 500 events that share a word (more than any plausible hidden cap) and searches it: the
/// number that comes back, when it is fewer, is the backend's limit.
fn count_limit(subject: &Subject) -> Option<usize> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .ok()?;
    runtime.block_on(async {
        let namespace = memory_conformance::conformance::Namespace::fresh();
        let backend = subject.open(&namespace).await;
        let session = Session::new("infer", "limit", "s-1")
            .with_events((0..500).map(|i| Event::text("user", format!("espresso number {i}"))));
        backend.add_session_to_memory(&session).await.ok()?;
        let found = backend.search_memory("infer", "limit", "espresso").await;
        drop(backend);
        subject.clean(&namespace);
        let found = found.ok()?.memories.len();
        (found < 500).then_some(found.max(1))
    })
}

/// A call beyond the two: its name, the rule that decides it, and each value it can be
/// claimed with (a name, and how the claim sets the capabilities).
type OptionalCall = (
    &'static str,
    &'static str,
    Vec<(&'static str, fn(&mut Capabilities))>,
);
