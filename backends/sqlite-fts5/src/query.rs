//! Cutting any query string, and any stored text, into words as the index tokenizer does.
//!
//! Text is cut into words by the very tokenizer that indexes the stored text (`unicode61` with
//! `remove_diacritics 2`, run on a per-connection temporary FTS5 table), so a query word and a
//! stored word agree on every character, whatever the Unicode version of SQLite's tables. A
//! search looks up each of the first [`MAX_QUERY_WORDS`] distinct words of a query as a plain
//! value, so `NOT`, `NEAR`, `*`, `^`, `:`, quotes and parentheses are only ever words or
//! separators, never operators.

use std::collections::{HashMap, HashSet};

use rusqlite::Connection;

use crate::MAX_QUERY_WORDS;
use crate::failure::Failure;

/// The tokenizer of the index; the query tokenizer must be the same.
pub(crate) const TOKENIZE: &str = "unicode61 remove_diacritics 2";

/// Whether `query` certainly holds no word, without asking SQLite: it is empty or made only of
/// ASCII characters other than letters and digits, which `unicode61` always separates.
pub(crate) fn is_blank(query: &str) -> bool {
    query
        .bytes()
        .all(|b| b.is_ascii() && !b.is_ascii_alphanumeric())
}

/// The first [`MAX_QUERY_WORDS`] distinct words of `query`, in order of first appearance, as
/// the index tokenizer folds them (lowercase, diacritics removed).
///
/// An ASCII query is split here: for ASCII, `unicode61` takes exactly the letters and digits as
/// word characters and folds only case. Any other query is split by SQLite, on `conn`'s
/// temporary schema (nothing of the database is touched).
pub(crate) fn query_words(conn: &Connection, query: &str) -> Result<Vec<String>, Failure> {
    if query.is_ascii() {
        Ok(ascii_words(query))
    } else {
        unicode61_words(conn, query)
    }
}

fn ascii_words(query: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    for word in query
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| !word.is_empty())
    {
        let word = word.to_ascii_lowercase();
        if seen.insert(word.clone()) {
            words.push(word);
            if words.len() == MAX_QUERY_WORDS {
                break;
            }
        }
    }
    words
}

/// Creates, if missing, the temporary tables that split a text into words: an empty FTS5 table
/// of the index tokenizer and its instances.
fn create_query_tables(conn: &Connection) -> Result<(), Failure> {
    conn.prepare_cached(&format!(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.memory_query
         USING fts5 (q, content = '', tokenize = '{TOKENIZE}')"
    ))?
    .execute([])?;
    conn.prepare_cached(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.memory_query_words
         USING fts5vocab (temp, memory_query, instance)",
    )?
    .execute([])?;
    Ok(())
}

fn unicode61_words(conn: &Connection, query: &str) -> Result<Vec<String>, Failure> {
    create_query_tables(conn)?;
    let clear = "INSERT INTO temp.memory_query (memory_query) VALUES ('delete-all')";
    conn.prepare_cached(clear)?.execute([])?;
    conn.prepare_cached("INSERT INTO temp.memory_query (rowid, q) VALUES (1, ?1)")?
        .execute([query])?;
    let max_words = i64::try_from(MAX_QUERY_WORDS).unwrap_or(i64::MAX);
    let words = conn
        .prepare_cached(
            "SELECT term FROM temp.memory_query_words
             GROUP BY term ORDER BY min(offset) LIMIT ?1",
        )?
        .query_map([max_words], |row| row.get(0))?
        .collect::<Result<Vec<String>, _>>();
    conn.prepare_cached(clear)?.execute([])?;
    Ok(words?)
}

/// Every word of `text` as the index tokenizer folds it, each once with how many times `text`
/// holds it, in no particular order: what FTS5 indexes for `text`.
pub(crate) fn word_counts(conn: &Connection, text: &str) -> Result<Vec<(String, i64)>, Failure> {
    if text.is_ascii() {
        let mut counts: HashMap<String, i64> = HashMap::new();
        for word in text
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|word| !word.is_empty())
        {
            *counts.entry(word.to_ascii_lowercase()).or_default() += 1;
        }
        return Ok(counts.into_iter().collect());
    }
    create_query_tables(conn)?;
    let clear = "INSERT INTO temp.memory_query (memory_query) VALUES ('delete-all')";
    conn.prepare_cached(clear)?.execute([])?;
    conn.prepare_cached("INSERT INTO temp.memory_query (rowid, q) VALUES (1, ?1)")?
        .execute([text])?;
    let counts = conn
        .prepare_cached("SELECT term, count(*) FROM temp.memory_query_words GROUP BY term")?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<Result<Vec<(String, i64)>, _>>();
    conn.prepare_cached(clear)?.execute([])?;
    Ok(counts?)
}

/// The FTS5 expression that matches a row holding at least one of `words`, or `None` when
/// there are no words: the query FTS5's own `bm25()` ranks, which the word table's ranking is
/// tested against.
#[cfg(test)]
pub(crate) fn any_word_expression(words: &[String]) -> Option<String> {
    if words.is_empty() {
        return None;
    }
    let mut expression = String::with_capacity(words.len() * 8);
    for (n, word) in words.iter().enumerate() {
        if n > 0 {
            expression.push_str(" OR ");
        }
        push_fts_string(&mut expression, word);
    }
    Some(expression)
}

/// Appends `text` as an FTS5 string: wrapped in `"`, every `"` doubled.
#[cfg(test)]
fn push_fts_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        if c == '"' {
            out.push('"');
        }
        out.push(c);
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    use proptest::prelude::*;

    fn words(query: &str) -> Vec<String> {
        let conn = Connection::open_in_memory().unwrap();
        query_words(&conn, query).unwrap()
    }

    proptest! {
        #[test]
        fn ascii_queries_split_exactly_as_unicode61_splits_them(query in "[\\x00-\\x7f]{0,60}") {
            let conn = Connection::open_in_memory().unwrap();
            prop_assert_eq!(ascii_words(&query), unicode61_words(&conn, &query).unwrap());
        }
    }

    #[test]
    fn every_ascii_character_is_classified_as_unicode61_does() {
        let conn = Connection::open_in_memory().unwrap();
        let all: String = (0u8..=127)
            .map(|b| format!("a{}b ", char::from(b)))
            .collect();
        assert_eq!(ascii_words(&all), unicode61_words(&conn, &all).unwrap());
    }

    #[test]
    fn punctuation_and_symbols_separate_words_that_fold() {
        assert_eq!(
            words("Where's order #4417? FLAT-white, Café bob@example.com"),
            [
                "where", "s", "order", "4417", "flat", "white", "cafe", "bob", "example", "com"
            ]
        );
    }

    #[test]
    fn operators_are_plain_words() {
        let found = words(r#"NOT "a" AND (b OR c*) NEAR d^e:f"#);
        assert_eq!(
            found,
            ["not", "a", "and", "b", "or", "c", "near", "d", "e", "f"]
        );
        assert_eq!(
            any_word_expression(&found[..3]).as_deref(),
            Some(r#""not" OR "a" OR "and""#)
        );
    }

    #[test]
    fn the_temporary_table_is_reused_and_left_empty() {
        let conn = Connection::open_in_memory().unwrap();
        assert_eq!(query_words(&conn, "latte latte LATTE").unwrap(), ["latte"]);
        assert_eq!(query_words(&conn, "mocha").unwrap(), ["mocha"]);
        assert!(query_words(&conn, " \t?!.,😀").unwrap().is_empty());
    }

    #[test]
    fn only_the_first_distinct_words_are_kept() {
        for accent in ["", "é"] {
            let query: Vec<String> = (0..MAX_QUERY_WORDS + 50)
                .map(|n| format!("w{n}{accent} W0{accent}"))
                .collect();
            let found = words(&query.join(" "));
            let folded = if accent.is_empty() { "" } else { "e" };
            assert_eq!(found.len(), MAX_QUERY_WORDS);
            assert_eq!(found[0], format!("w0{folded}"));
            let last = format!("w{}{folded}", MAX_QUERY_WORDS - 1);
            assert_eq!(found[MAX_QUERY_WORDS - 1], last);
        }
    }

    proptest! {
        #[test]
        fn word_counts_are_what_unicode61_indexes(text in "[\\x00-\\x7f]{0,60}", accent in proptest::bool::ANY) {
            let conn = Connection::open_in_memory().unwrap();
            let text = if accent { format!("{text} é") } else { text };
            let mut counts = word_counts(&conn, &text).unwrap();
            counts.sort();
            let mut expected: Vec<(String, i64)> = Vec::new();
            conn.execute_batch("CREATE VIRTUAL TABLE t USING fts5 (b, tokenize = 'unicode61 remove_diacritics 2');
                                CREATE VIRTUAL TABLE v USING fts5vocab (t, instance);").unwrap();
            conn.execute("INSERT INTO t (b) VALUES (?1)", [&text]).unwrap();
            let mut st = conn.prepare("SELECT term, count(*) FROM v GROUP BY term ORDER BY term").unwrap();
            for row in st.query_map([], |row| Ok((row.get(0)?, row.get(1)?))).unwrap() {
                expected.push(row.unwrap());
            }
            prop_assert_eq!(counts, expected);
        }
    }

    #[test]
    fn quotes_are_doubled() {
        let mut out = String::new();
        push_fts_string(&mut out, r#"a"b"#);
        assert_eq!(out, r#""a""b""#);
        assert_eq!(any_word_expression(&[]), None);
    }

    #[test]
    fn blank_means_ascii_without_letters_or_digits() {
        assert!(is_blank(""));
        assert!(is_blank(" \t\n\0?!\"()*:^-"));
        assert!(!is_blank("a"));
        assert!(!is_blank("7"));
        assert!(!is_blank("😀"), "non-ASCII is left to the tokenizer");
    }
}
