//! The ranking of a vector search.

use memory_conformance::embed::cosine;

/// The indexes of `vectors`, each with its cosine similarity to `query`, the nearest first,
/// ties in index order: how [`VectorMemory`](crate::VectorMemory) ranks the events it holds.
///
/// ```
/// let vectors: [&[f32]; 3] = [&[0.0, 1.0], &[1.0, 0.0], &[1.0, 1.0]];
/// let ranked = memory_vector::nearest_first(&[1.0, 0.0], vectors);
/// assert_eq!(ranked.iter().map(|(i, _)| *i).collect::<Vec<_>>(), [1, 2, 0]);
/// assert_eq!(ranked[0].1, 1.0);
/// ```
pub fn nearest_first<'v>(
    query: &[f32],
    vectors: impl IntoIterator<Item = &'v [f32]>,
) -> Vec<(usize, f64)> {
    let mut ranked: Vec<(usize, f64)> = vectors
        .into_iter()
        .map(|vector| cosine(query, vector))
        .enumerate()
        .collect();
    // Stable: ties keep index order.
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    ranked
}
