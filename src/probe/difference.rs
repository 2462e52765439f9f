//! Where a backend's recall differs from the reference's, and which declared dimension
//! explains each difference.

use std::fmt::Write as _;

use super::corpus::Dimension;
use super::observation::{Observation, cell, render_hits};
use crate::profile::Profile;

/// Probes whose result differs between a backend and the reference, with explanations.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Difference {
    /// The backend.
    pub backend: String,
    /// One row per differing probe.
    pub rows: Vec<DifferenceRow>,
    /// Probes that mean a stored fact, which the reference finds nothing for and the backend
    /// finds something for: the recall the backend adds.
    pub found_where_reference_misses: Vec<&'static str>,
    /// Probes that mean a stored fact, which the reference finds something for and the
    /// backend finds nothing for: the recall the backend loses.
    pub missed_where_reference_finds: Vec<&'static str>,
}

/// One probe whose result differs.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct DifferenceRow {
    /// The probe's id.
    pub probe: &'static str,
    /// The probe's query.
    pub query: &'static str,
    /// The reference's hits, rendered.
    pub reference: String,
    /// The backend's hits, rendered.
    pub backend: String,
    /// The declared dimensions that differ from the reference's and decide this probe;
    /// empty when no declared difference explains it.
    pub explained_by: Vec<String>,
}

impl Difference {
    /// Compares `observed` (under `profile`) with the reference's observation.
    pub fn between(observed: &Observation, profile: &Profile, reference: &Observation) -> Self {
        let reference_profile = Profile::reference();
        let rows = observed
            .results
            .iter()
            .zip(&reference.results)
            .filter(|(mine, theirs)| !same(&mine.hits, &theirs.hits))
            .map(|(mine, theirs)| {
                let mut dimensions: Vec<Dimension> = if only_order_differs(&mine.hits, &theirs.hits)
                {
                    vec![Dimension::Order]
                } else {
                    mine.probe.dimensions.to_vec()
                };
                if cut_by_limit(&mine.hits, &theirs.hits, profile)
                    && !dimensions.contains(&Dimension::Limit)
                {
                    dimensions.push(Dimension::Limit);
                }
                // Retrieval by similarity decides every probe.
                if !profile.is_lexical() {
                    dimensions.insert(0, Dimension::Retrieval);
                }
                DifferenceRow {
                    probe: mine.probe.id,
                    query: mine.probe.query,
                    reference: render_hits(&theirs.hits),
                    backend: render_hits(&mine.hits),
                    explained_by: dimensions
                        .into_iter()
                        .filter_map(|d| {
                            let (name, value) = dimension(profile, d);
                            (value != dimension(&reference_profile, d).1)
                                .then(|| format!("{name}: {value}"))
                        })
                        .collect(),
                }
            })
            .collect();
        let facts = || {
            observed
                .results
                .iter()
                .zip(&reference.results)
                .filter(|(mine, _)| mine.probe.means_a_fact)
        };
        Self {
            backend: observed.backend.clone(),
            rows,
            found_where_reference_misses: facts()
                .filter(|(mine, theirs)| mine.found_something() && !theirs.found_something())
                .map(|(mine, _)| mine.probe.id)
                .collect(),
            missed_where_reference_finds: facts()
                .filter(|(mine, theirs)| !mine.found_something() && theirs.found_something())
                .map(|(mine, _)| mine.probe.id)
                .collect(),
        }
    }

    /// The differences as a Markdown table, then the recall the backend adds and loses.
    pub fn to_markdown(&self) -> String {
        let mut out = self.table();
        if self.rows.is_empty() {
            return out;
        }
        let list = |probes: &[&str]| {
            if probes.is_empty() {
                "none".to_owned()
            } else {
                probes.join(", ")
            }
        };
        let _ = writeln!(
            out,
            "\nProbes that mean a stored fact: the reference finds nothing and {} finds something for {} ({}); \
             the reference finds something and {} finds nothing for {} ({}).",
            self.backend,
            self.found_where_reference_misses.len(),
            list(&self.found_where_reference_misses),
            self.backend,
            self.missed_where_reference_finds.len(),
            list(&self.missed_where_reference_finds),
        );
        out
    }

    fn table(&self) -> String {
        if self.rows.is_empty() {
            return format!(
                "Recall of {} on the probe corpus: the same as the reference on every probe.\n",
                self.backend
            );
        }
        let mut out = format!(
            "Recall of {} where it differs from the reference ({} probes).\n\n| probe | query | reference | {} | explained by |\n|---|---|---|---|---|\n",
            self.backend,
            self.rows.len(),
            self.backend
        );
        for row in &self.rows {
            let explained = if row.explained_by.is_empty() {
                "no declared dimension: an undeclared difference".to_owned()
            } else {
                row.explained_by.join("; ")
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                row.probe,
                cell(&format!("{:?}", row.query)),
                cell(&row.reference),
                cell(&row.backend),
                cell(&explained)
            );
        }
        out
    }
}

/// Whether the same events came back, in another order.
fn only_order_differs(a: &Result<super::Hits, String>, b: &Result<super::Hits, String>) -> bool {
    match (a, b) {
        (Ok(a), Ok(b)) if !a.unordered_cut && !b.unordered_cut => {
            let (mut x, mut y) = (a.labels.clone(), b.labels.clone());
            x.sort();
            y.sort();
            x == y && a.labels != b.labels
        }
        _ => false,
    }
}

/// Whether the backend returned exactly its limit where the reference found more.
fn cut_by_limit(
    mine: &Result<super::Hits, String>,
    theirs: &Result<super::Hits, String>,
    profile: &Profile,
) -> bool {
    match (mine, theirs, profile.limit) {
        (Ok(mine), Ok(theirs), crate::profile::Limit::AtMost(n)) => {
            mine.labels.len() == n && theirs.labels.len() > n
        }
        _ => false,
    }
}

fn same(a: &Result<super::Hits, String>, b: &Result<super::Hits, String>) -> bool {
    match (a, b) {
        (Ok(a), Ok(b)) => {
            if a.unordered_cut || b.unordered_cut {
                return a.labels.len() == b.labels.len() && a.unordered_cut == b.unordered_cut;
            }
            a.labels == b.labels
        }
        (Err(a), Err(b)) => a == b,
        _ => false,
    }
}

/// The profile's row for a dimension: (name, value).
fn dimension(profile: &Profile, dimension: Dimension) -> (&'static str, String) {
    let name = match dimension {
        Dimension::Retrieval => "retrieval",
        Dimension::Key => "key",
        Dimension::Readd => "re-add",
        Dimension::EventWords => "event words",
        Dimension::QueryTerms => "query terms",
        Dimension::MultiWord => "multi-word query",
        Dimension::ToolData => "tool data",
        Dimension::Limit => "limit",
        Dimension::Order => "order",
    };
    let value = profile
        .rows()
        .into_iter()
        .find(|(row, _)| *row == name)
        .map(|(_, value)| value)
        .unwrap_or_default();
    (name, value)
}
