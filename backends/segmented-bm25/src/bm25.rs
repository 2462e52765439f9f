//! bm25 over words.

use std::collections::HashMap;

/// bm25's term-frequency saturation.
const K1: f64 = 1.2;
/// bm25's length normalisation.
const B: f64 = 0.75;

/// The indexes of `documents` (each a document's words, repeats kept) that hold at least one
/// of `terms` (distinct), best bm25 first (`k1` 1.2, `b` 0.75), ties in index order; the
/// statistics (document count, average length, each term's document frequency) are taken
/// over `documents`.
///
/// ```
/// let words = |text: &str| text.split(' ').map(str::to_owned).collect::<Vec<_>>();
/// let documents = [words("a b"), words("a c"), words("d"), words("a a c")];
/// let documents: Vec<&[String]> = documents.iter().map(Vec::as_slice).collect();
/// assert_eq!(memory_segmented_bm25::bm25(&documents, &words("c")), [1, 3]);
/// assert!(memory_segmented_bm25::bm25(&documents, &words("z")).is_empty());
/// ```
pub fn bm25(documents: &[&[String]], terms: &[String]) -> Vec<usize> {
    if documents.is_empty() || terms.is_empty() {
        return Vec::new();
    }
    let count = documents.len() as f64;
    let average = documents.iter().map(|d| d.len()).sum::<usize>() as f64 / count;
    let idf: HashMap<&String, f64> = terms
        .iter()
        .map(|term| {
            let n = documents.iter().filter(|d| d.contains(term)).count() as f64;
            (term, ((count - n + 0.5) / (n + 0.5) + 1.0).ln())
        })
        .collect();
    let mut scored: Vec<(f64, usize)> = documents
        .iter()
        .enumerate()
        .filter_map(|(i, words)| {
            let length = words.len() as f64;
            let mut score = 0.0;
            let mut matched = false;
            for term in terms {
                let tf = words.iter().filter(|w| *w == term).count() as f64;
                if tf > 0.0 {
                    matched = true;
                    score +=
                        idf[term] * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * length / average));
                }
            }
            matched.then_some((score, i))
        })
        .collect();
    // Stable: ties keep index order.
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.into_iter().map(|(_, i)| i).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_owned).collect()
    }

    #[test]
    fn bm25_ranks_the_rarer_word_first_and_leaves_out_what_matches_nothing() {
        let docs = [words("a b"), words("a c"), words("d"), words("a a c")];
        let refs: Vec<&[String]> = docs.iter().map(Vec::as_slice).collect();
        assert_eq!(bm25(&refs, &words("c")), [1, 3]);
        assert_eq!(bm25(&refs, &words("a c"))[..2], [1, 3]);
        assert!(bm25(&refs, &words("z")).is_empty());
    }
}
