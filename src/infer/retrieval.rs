//! Retrieval, decided first: a vector index over an embedder the kit can embed with, where
//! one holds `vector.nearest_first`; else lexical, the word rules deciding how; and semantic
//! (held to the contract rules only) when no word rules fit either.

use crate::profile::dimension::Dimension;
use crate::profile::{BlankQuery, Order, Profile, Retrieval, VectorSearch};

use super::decide::Run;

/// The dimension's name in the inference's notes.
pub(super) const RETRIEVAL: &str = "retrieval";

/// The widths of the kit's hashed embedder tried: its default and the common widths of
/// models a store's schema is made for (MiniLM's 384, 768, 1024, OpenAI's 1536).
const HASHED_WIDTHS: [usize; 5] = [256, 384, 768, 1024, 1536];

/// The share of the nearest an approximate index is tried with, after an exact one.
const APPROXIMATE_RECALL_PERCENT: u8 = 90;

/// The rules that decide a vector candidate.
pub(super) const VECTOR_RULES: &[&str] = &["vector.nearest_first"];

/// Takes a vector retrieval where one holds (with the backend's counted limit, its top k),
/// else keeps the profile lexical, noting that no embedder held.
pub(super) fn decide_vector(run: &mut Run<impl FnMut(&str)>) {
    let limit = super::limit::counted(&run.subject());
    let mut embedders: Vec<String> = HASHED_WIDTHS
        .iter()
        .map(|width| format!("hashed-{width}"))
        .collect();
    if let Some(own) = run.subject().embedder() {
        let own = own.name().to_owned();
        if !embedders.contains(&own) {
            embedders.insert(0, own);
        }
    }
    let candidates = embedders
        .iter()
        .flat_map(|embedder| {
            [
                VectorSearch::exact(embedder.as_str()),
                VectorSearch::approximate(embedder.as_str(), APPROXIMATE_RECALL_PERCENT),
            ]
        })
        .map(|search| {
            let name = describe(&search);
            let profile = run.with(|p| {
                p.retrieval = Retrieval::Vector(search);
                limit.set(p);
            });
            (name, profile)
        })
        .collect();
    let lexical = run.profile.clone();
    run.decide(RETRIEVAL, VECTOR_RULES, candidates);
    if run.misfit(RETRIEVAL) || run.unchecked(RETRIEVAL) {
        run.profile = lexical;
        run.forget(&[RETRIEVAL]);
        run.declined(
            RETRIEVAL,
            "lexical",
            &[],
            format!(
                "no embedder held {}; the word rules decide how",
                VECTOR_RULES.join(", ")
            ),
            false,
        );
    }
}

/// Makes the profile semantic: no word rules fit, so no search has an answer the kit can
/// compute, and the contract rules decide the rest.
pub(super) fn semantic(run: &mut Run<impl FnMut(&str)>) {
    let profile = run.with(|p| p.retrieval = Retrieval::Semantic);
    run.decide(
        RETRIEVAL,
        &["key.isolation", "query.unknown_key"],
        vec![(
            "semantic (no embedder held vector.nearest_first and no word rules fit)".to_owned(),
            profile,
        )],
    );
}

/// What a blank query returns: nothing, else the key's nearest entries.
pub(super) fn blank_query(run: &mut Run<impl FnMut(&str)>) {
    let candidates = BlankQuery::values()
        .into_iter()
        .map(|value| (value.text(), run.with(|p| value.set(p))))
        .collect::<Vec<(String, Profile)>>();
    run.decide(BlankQuery::KEY, &["query.blank"], candidates);
}

/// A vector or semantic backend's order: relevance, the nearest first
/// (docs/vector-search.md), where the order's rules hold; else none promised, for a service
/// that does not rank.
pub(super) fn order(run: &mut Run<impl FnMut(&str)>) {
    let candidates = [Order::Relevance, Order::Unordered]
        .into_iter()
        .map(|value| {
            let name = value
                .entry()
                .map_or_else(|| value.text(), |entry| entry.value.to_owned());
            (name, run.with(|p| value.set(p)))
        })
        .collect();
    run.decide(Order::KEY, Order::DECIDED_BY, candidates);
}

/// `vector over hashed-384, exact index`.
fn describe(search: &VectorSearch) -> String {
    let index = match search.index {
        crate::profile::VectorIndex::Exact => "exact index".to_owned(),
        crate::profile::VectorIndex::Approximate { min_recall_percent } => {
            format!("approximate index finding {min_recall_percent}% of the nearest")
        }
    };
    format!("vector over {}, {index}", search.embedder)
}
