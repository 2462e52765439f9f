//! Expected against actual: every [`Expect`] of a search step, and the oracle's answer,
//! compared with the entries a backend returned. Entries are known by their text parts
//! ([`same_entry`]), but under [`Expect::Entries`] (`result.fidelity`'s), which compares each
//! entry whole: content, role, author and timestamp.

use super::identity::{holds, same_entry};
use super::mismatch::Problem;
use super::oracle::{Expected, Oracle, Ranking};
use super::timestamp_format;
use crate::conformance::display::{ContentsDisplay, EntriesDisplay, count};
use crate::conformance::generate::scenario::{Expect, Search};
use crate::profile::{Limit, Profile, Timestamps, VectorIndex};
use crate::{Content, MemoryEntry, MemoryKey};

/// Whether searching `find_with` under `key` must return `content`, the memory a delete step
/// deletes: where the profile computes the answer and `content` is among the entries it
/// returns within the limit.
pub(crate) fn must_find(
    profile: &Profile,
    oracle: &Oracle,
    key: &MemoryKey,
    find_with: &str,
    content: &Content,
) -> bool {
    let expected = oracle.search(&key.app_name, &key.user_id, find_with);
    let position = expected
        .contents
        .iter()
        .position(|c| same_entry(c, content));
    // Where the profile computes no answer (semantic retrieval), no search must find it.
    let computable = profile.is_lexical() || profile.vector().is_some();
    computable
        && position.is_some_and(|i| match expected.limit {
            Limit::Unlimited => true,
            Limit::AtMost(n) => expected.contents.len() <= n || (expected.ordered && i < n),
        })
}

/// Checks `actual`, the answer to `search`, against each of its expectations in turn.
pub(crate) fn check_search(
    search: &Search,
    actual: &[MemoryEntry],
    oracle: &Oracle,
    profile: &str,
) -> Result<(), Problem> {
    for expect in &search.expect {
        if let Err((expected, why)) = check_one(expect, search, actual, oracle, profile) {
            return Err(Problem::Unexpected {
                expected,
                why,
                actual: actual.to_vec(),
                with_metadata: matches!(expect, Expect::Entries(_)),
            });
        }
    }
    Ok(())
}

/// `Err((what was expected, why the actual answer is not it))`.
fn check_one(
    expect: &Expect,
    search: &Search,
    actual: &[MemoryEntry],
    oracle: &Oracle,
    profile: &str,
) -> Result<(), (String, String)> {
    let contents: Vec<&Content> = actual.iter().map(|e| &e.content).collect();
    let listed = |c: &[Content]| ContentsDisplay(c).to_string();
    match expect {
        Expect::Oracle => {
            let expected = oracle.search_limited(
                &search.key.app_name,
                &search.key.user_id,
                &search.query,
                search.limit,
            );
            expected.check(actual).map_err(|why| {
                let list = if expected.contents.is_empty() {
                    String::new()
                } else {
                    format!(" {}", listed(&expected.contents))
                };
                (
                    format!(
                        "{}{list} (as profile {profile:?} computes)",
                        expected.describe()
                    ),
                    why,
                )
            })
        }
        Expect::Nothing => ensure(actual.is_empty(), || {
            ("nothing".into(), "entries where none belong".into())
        }),
        Expect::Contents(expected) => {
            let expected_refs: Vec<&Content> = expected.iter().collect();
            ensure(multiset_eq(&contents, &expected_refs), || {
                (
                    format!("exactly {}", listed(expected)),
                    "different entries".into(),
                )
            })
        }
        Expect::Includes(expected) => {
            let expected_refs: Vec<&Content> = expected.iter().collect();
            ensure(multiset_includes(&contents, &expected_refs), || {
                (
                    format!("at least {}", listed(expected)),
                    "missing entries".into(),
                )
            })
        }
        Expect::Excludes(excluded) => {
            let excluded_refs: Vec<&Content> = excluded.iter().collect();
            ensure(!contents.iter().any(|c| holds(&excluded_refs, c)), || {
                (
                    format!("none of {}", listed(excluded)),
                    "entries that should be gone or elsewhere".into(),
                )
            })
        }
        Expect::Stored => {
            let stored = oracle.stored(&search.key.app_name, &search.key.user_id);
            let limit = oracle.limit(search.limit);
            let over = match limit {
                Limit::AtMost(n) if actual.len() > n => Some(n),
                _ => None,
            };
            ensure(
                over.is_none() && multiset_includes(&stored, &contents),
                || {
                    let stored: Vec<Content> = stored.into_iter().cloned().collect();
                    (
                        format!(
                            "only entries stored under the key, each at most as often as stored, \
                         at most {}: of {}",
                            match limit {
                                Limit::AtMost(n) => n.to_string(),
                                Limit::Unlimited => "all of them".into(),
                            },
                            listed(&stored)
                        ),
                        match over {
                            Some(n) => format!("{} entries, over the limit of {n}", actual.len()),
                            None => {
                                "entries not stored under the key, or more often than stored".into()
                            }
                        },
                    )
                },
            )
        }
        Expect::NoDuplicates => {
            // By a set of text parts ([`same_entry`]): a key of thousands of entries stays cheap.
            let mut seen = std::collections::HashSet::with_capacity(contents.len());
            let duplicated = !contents
                .iter()
                .all(|c| seen.insert(c.texts().collect::<Vec<&str>>()));
            ensure(!duplicated, || {
                (
                    "no entry twice".into(),
                    "the same entry more than once".into(),
                )
            })
        }
        Expect::Entries(expected) => {
            let format = oracle.timestamps();
            let same = |e: &MemoryEntry, entry: &MemoryEntry| {
                e.content == entry.content
                    && e.author == entry.author
                    && timestamp_format::matches(
                        format,
                        e.timestamp.as_deref(),
                        entry.timestamp.as_deref(),
                    )
            };
            let mut remaining: Vec<&MemoryEntry> = expected.iter().collect();
            let all_found = actual.len() == expected.len()
                && actual.iter().all(|entry| {
                    let slot = remaining.iter().position(|e| same(e, entry));
                    slot.map(|i| remaining.swap_remove(i)).is_some()
                });
            ensure(all_found, || {
                let what = EntriesDisplay {
                    entries: expected,
                    with_metadata: true,
                };
                let why = match format {
                    Timestamps::Rfc3339Utc => "entries whose content, author or timestamp differ",
                    Timestamps::NaiveIsoformat => {
                        "entries whose content, author or timestamp differ (timestamps as the \
                         profile declares: naive isoformat in UTC, to the microsecond)"
                    }
                };
                (format!("exactly {what}"), why.into())
            })
        }
        Expect::Count(n) => ensure(actual.len() == *n, || {
            (count(*n), "a different number of entries".into())
        }),
        // Checked by the interpreter, which knows the ids of earlier searches.
        Expect::StableIds => Ok(()),
        Expect::First(first) => ensure(
            contents.first().is_some_and(|c| same_entry(c, first)),
            || {
                (
                    format!("{} first", listed(std::slice::from_ref(first))),
                    "another entry ranked first".into(),
                )
            },
        ),
    }
}

/// Whether `actual` is exactly one of `versions` (each compared as a multiset): what a search
/// may see while a session is re-added.
pub(crate) fn is_one_version(versions: &[Vec<Content>], actual: &[MemoryEntry]) -> bool {
    let contents: Vec<&Content> = actual.iter().map(|e| &e.content).collect();
    versions.iter().any(|version| {
        let refs: Vec<&Content> = version.iter().collect();
        multiset_eq(&contents, &refs)
    })
}

fn ensure(ok: bool, otherwise: impl FnOnce() -> (String, String)) -> Result<(), (String, String)> {
    if ok { Ok(()) } else { Err(otherwise()) }
}

impl Expected {
    /// Checks `actual` against the expectation; on a mismatch, says what differs.
    pub(crate) fn check(&self, actual: &[MemoryEntry]) -> Result<(), String> {
        let actual: Vec<&Content> = actual.iter().map(|e| &e.content).collect();
        if let Some(ranking) = &self.ranking {
            return self.check_nearest(ranking, &actual);
        }
        let expected: Vec<&Content> = self.contents.iter().collect();
        let cut = match self.limit {
            Limit::AtMost(n) if expected.len() > n => Some(n),
            _ => None,
        };
        match cut {
            None if self.ordered => {
                if !same_sequence(&actual, &expected) {
                    return Err(if multiset_eq(&actual, &expected) {
                        "the right entries in the wrong order".into()
                    } else {
                        "different entries".into()
                    });
                }
            }
            None => {
                if !multiset_eq(&actual, &expected) {
                    return Err(
                        "different entries (compared as a multiset: no order is promised)".into(),
                    );
                }
            }
            Some(n) => {
                if actual.len() != n {
                    return Err(format!(
                        "{} entries, but {} events match and the limit is {n}",
                        actual.len(),
                        expected.len()
                    ));
                }
                if self.ordered && !same_sequence(&actual, &expected[..n]) {
                    return Err(format!("not the first {n} matches in the profile's order"));
                }
                if !multiset_includes(&expected, &actual) {
                    return Err(format!(
                        "entries that do not match the query, within the limit of {n}"
                    ));
                }
            }
        }
        Ok(())
    }

    /// How many entries a search may return: the limit, or every candidate.
    fn cut(&self) -> usize {
        match self.limit {
            Limit::AtMost(n) => n.min(self.contents.len()),
            Limit::Unlimited => self.contents.len(),
        }
    }

    /// Checks a vector search's answer: every entry is a stored candidate, each at most as
    /// often as stored, the nearer first; and under an exact index the answer is the nearest
    /// `k`, under an approximate one at least the declared share of them.
    fn check_nearest(&self, ranking: &Ranking, actual: &[&Content]) -> Result<(), String> {
        /// Scores closer than this are ties (the backend computes in its own precision).
        const TIE: f64 = 1e-5;
        let mut used = vec![false; self.contents.len()];
        let mut scores = Vec::with_capacity(actual.len());
        for content in actual {
            let Some(i) = (0..self.contents.len())
                .find(|&i| !used[i] && same_entry(&self.contents[i], content))
            else {
                return Err(format!(
                    "an entry, {}, that is no candidate: not stored under this key, replaced, \
                     deleted, returned twice, or without a word to embed",
                    crate::conformance::display::ContentDisplay(content)
                ));
            };
            used[i] = true;
            scores.push(ranking.scores[i]);
        }
        if let Some(w) = scores.windows(2).position(|w| w[1] > w[0] + TIE) {
            return Err(format!(
                "entry {} (similarity {:.4}) comes after a farther one (similarity {:.4})",
                w + 2,
                scores[w + 1],
                scores[w]
            ));
        }
        let k = self.cut();
        // The k-th nearest similarity: an entry at least this near is one of the nearest k.
        let kth = if k == 0 {
            f64::INFINITY
        } else {
            ranking.scores[k - 1]
        };
        let nearest = scores.iter().filter(|&&s| s >= kth - TIE).count();
        match ranking.index {
            VectorIndex::Exact => {
                if actual.len() != k {
                    return Err(format!(
                        "{} entries, but {} events have a vector and the limit is {}",
                        actual.len(),
                        self.contents.len(),
                        limit_text(self.limit)
                    ));
                }
                if nearest < k {
                    return Err(format!(
                        "{} of the entries are not among the {k} nearest by {}",
                        k - nearest,
                        ranking.embedder
                    ));
                }
            }
            VectorIndex::Approximate { min_recall_percent } => {
                if actual.len() > k {
                    return Err(format!(
                        "{} entries, more than the {k} asked for",
                        actual.len()
                    ));
                }
                if nearest * 100 < usize::from(min_recall_percent) * k {
                    return Err(format!(
                        "{nearest} of the {k} nearest by {}, below the declared {min_recall_percent}%",
                        ranking.embedder
                    ));
                }
            }
        }
        Ok(())
    }

    /// What the expectation promises, for failure reports.
    pub(crate) fn describe(&self) -> String {
        if self.contents.is_empty() {
            return "nothing".into();
        }
        if let Some(ranking) = &self.ranking {
            let how = match ranking.index {
                VectorIndex::Exact => "the".to_owned(),
                VectorIndex::Approximate { min_recall_percent } => {
                    format!("at least {min_recall_percent}% of the")
                }
            };
            return format!(
                "{how} {} nearest of these {} by cosine similarity under {} (nearest first, ties in any order)",
                self.cut(),
                self.contents.len(),
                ranking.embedder
            );
        }
        match self.limit {
            Limit::AtMost(n) if self.contents.len() > n => {
                let which = if self.ordered { "the first" } else { "any" };
                format!("{which} {n} of these {} (limit {n})", self.contents.len())
            }
            _ if self.ordered => "exactly these, in this order".into(),
            _ => "exactly these, in any order".into(),
        }
    }
}

fn limit_text(limit: Limit) -> String {
    match limit {
        Limit::AtMost(n) => n.to_string(),
        Limit::Unlimited => "none".into(),
    }
}

/// Whether `a` and `b` are the same entries in the same order ([`same_entry`]).
fn same_sequence(a: &[&Content], b: &[&Content]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_entry(x, y))
}

/// Whether `a` and `b` are the same entries in any order ([`same_entry`]).
fn multiset_eq(a: &[&Content], b: &[&Content]) -> bool {
    a.len() == b.len() && multiset_includes(a, b)
}

/// Whether every element of `small` can be matched to a distinct element of `big` ([`same_entry`]).
pub(crate) fn multiset_includes(big: &[&Content], small: &[&Content]) -> bool {
    let mut used = vec![false; big.len()];
    small.iter().all(|item| {
        let slot = (0..big.len()).find(|&i| !used[i] && same_entry(big[i], item));
        slot.map(|i| used[i] = true).is_some()
    })
}
