//! Deviants that read words otherwise than their profile declares: another form of a word
//! taken for it (a stemmer, the crude one and Snowball English, which passes where its profile
//! declares `stemming = english`, and a profile declaring it over a store that stems nothing),
//! stop words dropped from the query, stored text normalised to NFC
//! before it is cut, and letters whose case does not map one to one folded otherwise (R4, R5):
//! each of the two lowercased with Unicode's simple case mapping, which passes where its
//! profile declares `case_mapping = simple`.

use memory_conformance::Content;
use memory_conformance::async_trait;
use memory_conformance::profile::{CaseMapping, Profile, QueryTerms, Stemming, WordRule};
use memory_conformance::tokenize::{event_words, is_query_separator, query_tokens};
use unicode_normalization::UnicodeNormalization;

use super::query::matching;
use super::{Answer, Deviation, Done, Search, Store, two_calls};

/// Stems every word it stores and every query word with a crude English suffix stripper of its
/// own, as a hand-written stemming analyser does, so `running` finds "I run", while its
/// profile declares the reference's plain words. Breaks R5.any-token: a query token matches
/// only an equal word. It is another stemmer than Snowball English: it joins `runner` to `run`
/// and `baker` to `bake`, which Snowball keeps apart, and keeps `study` from `studies`, which
/// Snowball joins; so declaring `stemming = english` does not make it pass.
#[derive(Debug)]
pub struct StemmedWords;

#[async_trait]
impl Deviation for StemmedWords {
    async fn add_session(&self, store: &Store, session: &memory_conformance::Session) -> Done {
        store.log(session);
        store.add(session).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        stemmed_search(store, search, stem).await
    }
}

/// Stems every word it stores and every query word with Snowball's English stemmer (Porter2),
/// as PostgreSQL's `english` configuration, Tantivy's and Elasticsearch's English analysers
/// do, so `brewing` finds "I brewed". Breaks R5.any-token: a query token matches only an equal
/// word. Passes where its profile declares `stemming = english`.
#[derive(Debug)]
pub struct SnowballStemmed;

#[async_trait]
impl Deviation for SnowballStemmed {
    async fn add_session(&self, store: &Store, session: &memory_conformance::Session) -> Done {
        store.log(session);
        store.add(session).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        stemmed_search(store, search, |word| {
            Stemming::English.stem(word).into_owned()
        })
        .await
    }
}

/// Declares `stemming = english` and stems nothing, as a backend whose profile names the
/// stemmer its index was meant to have: `brewing` does not find "I brewed". Breaks its own
/// declaration (no clause of the contract): a query word matches a stored word with the same
/// stem.
#[derive(Debug)]
pub struct StemmingDeclaredNotDone;

#[async_trait]
impl Deviation for StemmingDeclaredNotDone {
    fn profile(&self) -> Profile {
        let mut profile = two_calls(Profile::reference());
        profile.stemming = Stemming::English;
        profile
    }
}

/// The reference's search with every event word and query token reduced by `stem`: an event
/// matches where one of its stems equals a query token's.
async fn stemmed_search(
    store: &Store,
    search: Search<'_>,
    stem: impl Fn(&str) -> String,
) -> Answer {
    let terms: Vec<String> = query_tokens(search.query).iter().map(|t| stem(t)).collect();
    Ok(matching(store, search, |content| {
        let words: Vec<String> = content
            .texts()
            .flat_map(event_words)
            .map(|w| stem(&w))
            .collect();
        terms.iter().any(|t| words.contains(t))
    }))
}

/// `word` without its English inflection: `-ing`, `-ed`, `-es`, `-er`, `-s`, a doubled last
/// consonant and a final `e` (`running`, `runs` and `run` give `run`; `baked` and `bake`,
/// `bak`). A word that is not all ASCII letters is left as it is.
fn stem(word: &str) -> String {
    if !word.bytes().all(|b| b.is_ascii_lowercase()) {
        return word.to_owned();
    }
    let mut stem = word;
    for suffix in ["ing", "ed", "es", "er", "s"] {
        if let Some(shorter) = stem.strip_suffix(suffix).filter(|s| s.len() >= 3) {
            stem = shorter;
            break;
        }
    }
    let bytes = stem.as_bytes();
    let n = bytes.len();
    let doubled = n > 1 && bytes[n - 1] == bytes[n - 2] && !b"aeiou".contains(&bytes[n - 1]);
    if n > 3 && (doubled || bytes[n - 1] == b'e') {
        stem = &stem[..n - 1];
    }
    stem.to_owned()
}

/// English stop words, as a search engine's stop list has them.
const STOP_WORDS: [&str; 32] = [
    "the", "a", "an", "and", "or", "but", "of", "to", "in", "on", "at", "for", "with", "is", "are",
    "was", "were", "be", "it", "this", "that", "i", "you", "we", "they", "my", "your", "not", "no",
    "as", "by", "from",
];

/// Drops stop words from the query before searching, as a search engine with a stop list
/// does, so `the` finds nothing and "where is the coffee" only what holds `where` or
/// `coffee`. Breaks R5.any-token: every token that equals a stored word matches.
#[derive(Debug)]
pub struct StopWordsDropped;

#[async_trait]
impl Deviation for StopWordsDropped {
    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let kept: Vec<String> = query_tokens(search.query)
            .into_iter()
            .filter(|t| !STOP_WORDS.contains(&t.as_str()))
            .collect();
        store.search(search.with_query(&kept.join(" "))).await
    }
}

/// Drops the query tokens shorter than three characters (counted as written) before
/// searching, as a service that keeps only `len(w) > 2` of a query's words does, so `it`,
/// `v2` and `咖啡` find nothing; stored text is untouched. Breaks R5.any-token: every token
/// that equals a stored word matches. Passes where its profile declares
/// `dropped_words.shorter_than = 3`.
#[derive(Debug)]
pub struct ShortTermsDropped;

#[async_trait]
impl Deviation for ShortTermsDropped {
    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let kept: Vec<&str> = search
            .query
            .split(is_query_separator)
            .filter(|t| t.chars().count() >= 3)
            .collect();
        store.search(search.with_query(&kept.join(" "))).await
    }
}

/// The stop words [`StopWordsDropped`] drops, as a profile declares them.
pub fn stop_words() -> impl Iterator<Item = &'static str> {
    STOP_WORDS.into_iter()
}

/// Normalises stored text to NFC before cutting it into words, where its profile declares the
/// reference's ASCII letters of the text as stored: a decomposed `cafe\u{301}` becomes `café`,
/// whose `é` separates, so `cafe` no longer finds it. Breaks R4.ascii-letters.
#[derive(Debug)]
pub struct NfcBeforeWords;

#[async_trait]
impl Deviation for NfcBeforeWords {
    async fn add_session(&self, store: &Store, session: &memory_conformance::Session) -> Done {
        store.log(session);
        store.add(session).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let terms = query_tokens(search.query);
        Ok(matching(store, search, |content| {
            let nfc: Vec<String> = content.texts().map(|t| t.nfc().collect()).collect();
            let words: Vec<String> = nfc.iter().flat_map(|t| event_words(t)).collect();
            terms.iter().any(|t| words.contains(t))
        }))
    }
}

/// The profile of a backend that cuts text and queries into Unicode words (NFC, `\w+`,
/// lowercased as Unicode says, final sigma by its place in the word).
fn unicode_words() -> Profile {
    let mut profile = two_calls(Profile::reference()).named("Unicode words");
    profile.event_words = WordRule::UnicodeWords { script_runs: false };
    profile.query_terms = QueryTerms::Words {
        non_ascii_substring: false,
    };
    profile
}

/// Declares Unicode words, and lowercases one letter at a time with the simple mappings: a
/// capital sigma always becomes `σ`, never the final `ς`, and a dotted capital `İ` becomes a
/// plain `i` (as Go's `unicode.ToLower` and per-character folds do), so `ΟΔΟΣ` no longer finds
/// "οδος" and `istanbul` finds "İstanbul". Breaks `case_mapping = full` (the contract's: a
/// capital sigma lowercases by its place in the word); passes declaring `simple`.
#[derive(Debug)]
pub struct SimpleCaseFolding;

impl SimpleCaseFolding {
    /// `text` with its capital sigmas and dotted capital i's folded letter by letter.
    fn fold(text: &str) -> String {
        text.chars()
            .map(|c| match c {
                'Σ' => 'σ',
                'İ' => 'i',
                other => other,
            })
            .collect()
    }

    fn words(text: &str) -> Vec<String> {
        WordRule::UnicodeWords { script_runs: false }.words(&Self::fold(text))
    }
}

#[async_trait]
impl Deviation for SimpleCaseFolding {
    fn profile(&self) -> Profile {
        unicode_words()
    }

    async fn add_session(&self, store: &Store, session: &memory_conformance::Session) -> Done {
        store.log(session);
        store.add(session).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let terms = Self::words(search.query);
        Ok(matching(store, search, |content: &Content| {
            let texts: Vec<&str> = content.texts().filter(|t| !t.is_empty()).collect();
            let words = Self::words(&texts.join(" "));
            terms.iter().any(|t| words.contains(t))
        }))
    }
}

/// The reference's words, and queries lowercased code point by code point with the simple
/// case mapping (Go's `strings.ToLower`), so the dotted capital `İ` is a plain `i`: the query
/// `İstanbul` finds "Istanbul", which under the full mapping (`i` and U+0307) it never does.
/// Breaks `case_mapping = full` (R3.lowercase); passes declaring `simple`.
#[derive(Debug)]
pub struct DottedCapitalIAsI;

#[async_trait]
impl Deviation for DottedCapitalIAsI {
    async fn add_session(&self, store: &Store, session: &memory_conformance::Session) -> Done {
        store.log(session);
        store.add(session).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let lowered = CaseMapping::Simple.lowercase(search.query);
        let terms: Vec<&str> = lowered
            .split(is_query_separator)
            .filter(|t| !t.is_empty())
            .collect();
        Ok(matching(store, search, |content| {
            let words: Vec<String> = content.texts().flat_map(event_words).collect();
            terms.iter().any(|t| words.iter().any(|w| w == t))
        }))
    }
}
