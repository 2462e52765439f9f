//! bm25 ranking from the word table, without a lookup per match.
//!
//! `memory_words` holds, for each word of each indexed entry (as the index tokenizer folds
//! it), how often the entry holds it, the entry's length in words, and the entry's place
//! (session row, position). A search reads one range of it per query word (the query word,
//! the key's row ids) and computes, for every matching entry, the very score FTS5's `bm25()`
//! gives it, with the same statistics (the index's row count and word total, and how many
//! rows hold each word) and the same floating-point steps, so the order is FTS5's to the last
//! bit; ties go in session then event order. Only the entries kept are read from
//! `memory_events`.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, params};

use crate::failure::Failure;

/// FTS5's `bm25()` parameters (`fts5_aux.c`).
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// The row ids of the `limit` best entries (all when `None`) among those of the row id range
/// `first..=last` that hold at least one of `words`: best bm25 score first, ties in session
/// then event order. `words` are distinct words as the index tokenizer folds them, in query
/// order.
pub(crate) fn best_rows(
    conn: &Connection,
    words: &[String],
    first: i64,
    last: i64,
    limit: Option<usize>,
) -> Result<Vec<i64>, Failure> {
    let (rows, tokens) = index_totals(conn)?;
    if rows == 0 {
        return Ok(Vec::new());
    }
    let average_length = tokens as f64 / rows as f64;
    // Entry row id -> (score so far, session row, position); words are added in query order,
    // as FTS5 sums its phrases.
    let mut scores: HashMap<i64, (f64, i64, i64)> = HashMap::new();
    let mut count_rows =
        conn.prepare_cached("SELECT count(*) FROM memory_words WHERE word = ?1")?;
    let mut matches = conn.prepare_cached(
        "SELECT entry, count, length, session_row, position FROM memory_words
         WHERE word = ?1 AND entry BETWEEN ?2 AND ?3",
    )?;
    for word in words {
        let holding: i64 = count_rows.query_row([word], |row| row.get(0))?;
        if holding == 0 {
            continue;
        }
        let idf = idf(rows, holding);
        let mut found = matches.query(params![word, first, last])?;
        while let Some(row) = found.next()? {
            let entry: i64 = row.get(0)?;
            let count: i64 = row.get(1)?;
            let length: i64 = row.get(2)?;
            let place: (i64, i64) = (row.get(3)?, row.get(4)?);
            let score = scores.entry(entry).or_insert((0.0, place.0, place.1));
            let frequency = count as f64;
            let length = length as f64;
            score.0 += idf
                * ((frequency * (K1 + 1.0))
                    / (frequency + K1 * (1.0 - B + B * length / average_length)));
        }
    }
    // bm25() returns the sum negated, so that the best comes first in ascending order.
    let mut ranked: Vec<(f64, i64, i64, i64)> = scores
        .into_iter()
        .map(|(entry, (score, session_row, position))| (-score, session_row, position, entry))
        .collect();
    let order = |a: &(f64, i64, i64, i64), b: &(f64, i64, i64, i64)| {
        a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2))
    };
    if let Some(limit) = limit
        && limit < ranked.len()
    {
        ranked.select_nth_unstable_by(limit, order);
        ranked.truncate(limit);
    }
    ranked.sort_unstable_by(order);
    Ok(ranked.into_iter().map(|(_, _, _, entry)| entry).collect())
}

/// FTS5's inverse document frequency of a word held by `holding` of `rows` rows.
fn idf(rows: i64, holding: i64) -> f64 {
    let idf = (((rows - holding) as f64 + 0.5) / (holding as f64 + 0.5)).ln();
    if idf <= 0.0 { 1e-6 } else { idf }
}

/// The FTS5 index's row count and word total, from its averages record (`memory_fts_data`
/// row 1: a varint row count, then a varint word total per column), read as `bm25()` reads
/// them: what the record lacks (an empty index's record is empty) counts as 0.
fn index_totals(conn: &Connection) -> Result<(i64, i64), Failure> {
    let record: Vec<u8> = conn
        .prepare_cached("SELECT block FROM memory_fts_data WHERE id = 1")?
        .query_row([], |row| row.get(0))
        .optional()?
        .unwrap_or_default();
    let mut at = 0;
    let mut next = || {
        if at < record.len() {
            varint(&record, &mut at).ok_or("the FTS5 averages record is truncated")
        } else {
            Ok(0)
        }
    };
    let rows = next()?;
    let tokens = next()?;
    let as_count = |n: u64| i64::try_from(n).map_err(|_| "the FTS5 averages record is corrupt");
    Ok((as_count(rows)?, as_count(tokens)?))
}

/// SQLite's varint at `*at` (big-endian groups of 7 bits, the ninth byte whole), moving `*at`
/// past it.
fn varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut value: u64 = 0;
    for n in 0..9 {
        let byte = *bytes.get(*at)?;
        *at += 1;
        if n == 8 {
            return Some((value << 8) | u64::from(byte));
        }
        value = (value << 7) | u64::from(byte & 0x7f);
        if byte & 0x80 == 0 {
            return Some(value);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    use memory_conformance::{Event, MemoryService, Session};

    use crate::SqliteFts5MemoryService;
    use crate::query::any_word_expression;
    use crate::store::event_rows;

    /// The row ids FTS5's own `bm25()` ranks first, ties in session then event order.
    fn fts5_order(conn: &Connection, words: &[String], key_id: i64) -> Vec<i64> {
        let (first, last) = event_rows(key_id).unwrap();
        conn.prepare(
            "SELECT memory_fts.rowid FROM memory_fts
             JOIN memory_events AS e ON e.id = memory_fts.rowid
             WHERE memory_fts MATCH ?1 AND memory_fts.rowid BETWEEN ?2 AND ?3
             ORDER BY bm25(memory_fts), e.session_row, e.position",
        )
        .unwrap()
        .query_map(params![any_word_expression(words), first, last], |row| {
            row.get(0)
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
    }

    #[tokio::test]
    async fn the_order_is_fts5_bm25_order_to_the_last_tie() {
        let memory = SqliteFts5MemoryService::open_in_memory().unwrap();
        let vocabulary = ["coffee", "tea", "flat", "white", "Café", "oat", "milk", "x"];
        let mut seed: u64 = 7;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) as usize % n
        };
        for round in 0..3 {
            for user in ["u-1", "u-2"] {
                for s in 0..12 {
                    let mut events = Vec::new();
                    for _ in 0..next(6) {
                        let words: Vec<&str> =
                            (0..1 + next(9)).map(|_| vocabulary[next(8)]).collect();
                        events.push(Event::text("user", words.join(" ")));
                    }
                    // Later rounds re-add some sessions: their new rows come last by row id
                    // but keep their session's place.
                    if round == 0 || next(3) == 0 {
                        let session = Session::new("a", user, format!("s-{s}")).with_events(events);
                        memory.add_session_to_memory(&session).await.unwrap();
                    }
                }
            }
        }
        memory
            .inner
            .connections
            .with(|conn| {
                let queries = [
                    vec!["coffee"],
                    vec!["cafe", "tea"],
                    vec!["x", "oat", "white"],
                ];
                for key_id in [1, 2] {
                    for query in &queries {
                        let words: Vec<String> = query.iter().map(|w| (*w).to_owned()).collect();
                        let expected = fts5_order(conn, &words, key_id);
                        assert!(expected.len() > 5, "{query:?}: {expected:?}");
                        let (first, last) = event_rows(key_id)?;
                        assert_eq!(best_rows(conn, &words, first, last, None)?, expected);
                        for limit in [1, 3, 10] {
                            let best = best_rows(conn, &words, first, last, Some(limit))?;
                            assert_eq!(best, expected[..limit.min(expected.len())]);
                        }
                    }
                }
                Ok(())
            })
            .unwrap();
    }

    #[test]
    fn varints_read_as_sqlite_writes_them() {
        let read = |bytes: &[u8]| {
            let mut at = 0;
            (varint(bytes, &mut at), at)
        };
        assert_eq!(read(&[0x05]), (Some(5), 1));
        assert_eq!(read(&[0x81, 0x00]), (Some(128), 2));
        assert_eq!(read(&[0x86, 0xc3, 0x17]), (Some(106_903), 3));
        assert_eq!(read(&[0xff; 9]), (Some(u64::MAX), 9));
        assert_eq!(read(&[0x81]).0, None);
    }
}
