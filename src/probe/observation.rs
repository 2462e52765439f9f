//! Running the probe set against a backend, and the typed table of what came back.

use std::collections::HashMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::corpus::{self, Probe};
use crate::profile::Profile;
use crate::profile::{Limit, Order, VectorIndex};
use crate::{Content, MemoryKey, MemoryService};

/// What one backend returned for every probe of the probe set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Observation {
    /// The backend's name.
    pub backend: String,
    /// The probe corpus version it was observed with.
    pub corpus_version: u32,
    /// Each probe's result, in probe order.
    pub results: Vec<ProbeResult>,
}

/// What one probe returned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ProbeResult {
    /// The probe.
    pub probe: Probe,
    /// The labels of the stored events that came back (`monday#1`), or the error. In JSON:
    /// the hits, or `{"error": "…"}`.
    #[serde(serialize_with = "hits_or_error")]
    pub hits: Result<Hits, String>,
}

/// The stored events a search returned, as labels.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Hits {
    /// The labels, in the backend's order, or sorted when the profile promises no order (or
    /// declares an approximate vector index).
    pub labels: Vec<String>,
    /// True when the profile promises no order (or declares an approximate vector index) and
    /// the limit cut the matches: which ones came back is not defined, only how many.
    pub unordered_cut: bool,
}

impl ProbeResult {
    /// Whether the search returned at least one entry.
    pub fn found_something(&self) -> bool {
        self.hits.as_ref().is_ok_and(|hits| !hits.labels.is_empty())
    }

    /// The hits as one line: labels, `none`, a count for an unordered cut, or the error.
    pub fn hits_text(&self) -> String {
        render_hits(&self.hits)
    }
}

impl Observation {
    /// Adds the probe corpus to `service` (a fresh, empty instance) and runs every probe,
    /// normalising hits as `profile` allows: sorted when it promises no order or declares an
    /// approximate vector index.
    pub async fn of(backend: &str, profile: &Profile, service: &dyn MemoryService) -> Self {
        let sessions = corpus::sessions();
        let labels = labels(&sessions);
        let mut add_error = None;
        for session in &sessions {
            if let Err(err) = service.add_session_to_memory(session).await {
                add_error = Some(format!(
                    "adding the corpus failed at session {:?}: {}",
                    session.id,
                    err.backend_reason()
                ));
                break;
            }
        }
        let mut results = Vec::new();
        for probe in corpus::probes() {
            let hits = match &add_error {
                Some(error) => Err(error.clone()),
                None => search(service, &probe, &labels, profile).await,
            };
            results.push(ProbeResult { probe, hits });
        }
        Self {
            backend: backend.to_owned(),
            corpus_version: corpus::VERSION,
            results,
        }
    }

    /// The reference's recall on the probe corpus ([`InMemoryMemoryService`](crate::InMemoryMemoryService)
    /// under [`Profile::reference`]), computed without an async runtime: the reference never
    /// waits.
    pub fn reference() -> Self {
        let service = crate::InMemoryMemoryService::new();
        let profile = Profile::reference();
        let observing = Self::of("reference", &profile, &service);
        let mut observing = std::pin::pin!(observing);
        let mut context = std::task::Context::from_waker(std::task::Waker::noop());
        loop {
            if let std::task::Poll::Ready(observed) = observing.as_mut().poll(&mut context) {
                return observed;
            }
            std::thread::yield_now();
        }
    }

    /// The probes that mean a stored fact: (how many the backend found something for, how
    /// many there are).
    pub fn facts_found(&self) -> (usize, usize) {
        let facts = self.results.iter().filter(|r| r.probe.means_a_fact);
        let found = facts.clone().filter(|r| r.found_something()).count();
        (found, facts.count())
    }

    /// Several observations side by side as a Markdown table: one row per probe, one column
    /// per backend, and a last row counting the probes that mean a stored fact and found
    /// something.
    pub fn markdown_table(observations: &[&Observation]) -> String {
        let mut out = String::from("| probe | key | query |");
        for observed in observations {
            let _ = write!(out, " {} |", cell(&observed.backend));
        }
        let _ = writeln!(out, "\n|---|---|---|{}", "---|".repeat(observations.len()));
        for (i, probe) in corpus::probes().iter().enumerate() {
            let _ = write!(
                out,
                "| {} | {} | {} |",
                probe.id,
                cell(&probe.key.to_string()),
                cell(&format!("{:?}", probe.query))
            );
            for observed in observations {
                let hits = observed
                    .results
                    .get(i)
                    .map(ProbeResult::hits_text)
                    .unwrap_or_default();
                let _ = write!(out, " {} |", cell(&hits));
            }
            out.push('\n');
        }
        out.push_str("| **facts found** | | probes that mean a stored fact |");
        for observed in observations {
            let (found, facts) = observed.facts_found();
            let _ = write!(out, " **{found} of {facts}** |");
        }
        out.push('\n');
        out
    }

    /// The observation as a Markdown table, one row per probe.
    pub fn to_markdown(&self) -> String {
        let mut out = format!(
            "Recall of {} on the probe corpus (version {}).\n\n| probe | key | query | hits |\n|---|---|---|---|\n",
            self.backend, self.corpus_version
        );
        for result in &self.results {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                result.probe.id,
                cell(&result.probe.key.to_string()),
                cell(&format!("{:?}", result.probe.query)),
                cell(&render_hits(&result.hits))
            );
        }
        let (found, facts) = self.facts_found();
        let _ = writeln!(
            out,
            "\nProbes that mean a stored fact and found something: {found} of {facts}."
        );
        out
    }
}

fn hits_or_error<S: serde::Serializer>(
    hits: &Result<Hits, String>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Failed<'a> {
        error: &'a str,
    }
    match hits {
        Ok(hits) => hits.serialize(serializer),
        Err(error) => Failed { error }.serialize(serializer),
    }
}

async fn search(
    service: &dyn MemoryService,
    probe: &Probe,
    labels: &HashMap<String, String>,
    profile: &Profile,
) -> Result<Hits, String> {
    let MemoryKey { app_name, user_id } = &probe.key;
    let found = service
        .search_memory(app_name, user_id, probe.query)
        .await
        .map_err(|e| e.backend_reason())?;
    let mut hits: Vec<String> = found
        .memories
        .iter()
        .map(|entry| {
            let label = entry.content.entry_key().and_then(|key| labels.get(&key));
            label.cloned().unwrap_or_else(|| {
                let json = serde_json::to_string(&entry.content).unwrap_or_default();
                format!("unknown content {json}")
            })
        })
        .collect();
    // An approximate vector index (HNSW, IVFFlat) promises neither exactly which of the
    // nearest come back nor their order among near-equal distances: like a profile without
    // order, its hits are a sorted set, and only their count where the limit cut them.
    let approximate = profile
        .vector()
        .is_some_and(|vector| matches!(vector.index, VectorIndex::Approximate { .. }));
    let unordered = profile.order == Order::Unordered || approximate;
    if unordered {
        hits.sort();
    }
    let cut = matches!(profile.limit, Limit::AtMost(n) if hits.len() >= n);
    Ok(Hits {
        labels: hits,
        unordered_cut: unordered && cut,
    })
}

/// A label for every stored content: `session#n` under support/u-42, `app/user/session#n`
/// elsewhere; a re-added session's events are primed (`wednesday#1'`).
fn labels(sessions: &[crate::Session]) -> HashMap<String, String> {
    let mut labels: HashMap<String, String> = HashMap::new();
    let mut used = std::collections::HashSet::new();
    for session in sessions {
        let prefix = if session.app_name == "support" && session.user_id == "u-42" {
            session.id.clone()
        } else {
            format!("{}/{}/{}", session.app_name, session.user_id, session.id)
        };
        for (n, event) in session.events.iter().enumerate() {
            let Some(key) = event.content.as_ref().and_then(Content::entry_key) else {
                continue;
            };
            let mut label = format!("{prefix}#{}", n + 1);
            while !used.insert(label.clone()) {
                label.push('\'');
            }
            labels.insert(key, label);
        }
    }
    labels
}

pub(crate) fn render_hits(hits: &Result<Hits, String>) -> String {
    match hits {
        Err(error) => format!("error: {error}"),
        Ok(hits) if hits.labels.is_empty() => "none".into(),
        Ok(hits) if hits.unordered_cut => format!(
            "{} of the matches (which ones is not defined)",
            hits.labels.len()
        ),
        Ok(hits) => hits.labels.join(", "),
    }
}

pub(crate) fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}
