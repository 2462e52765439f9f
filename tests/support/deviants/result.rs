//! Deviants that answer otherwise than the reference: fewer or more entries, another order, or
//! entries that are not the event as stored (R6), and the ranked profile's cut.

use memory_conformance::profile::{Limit, Order, Profile, Timestamps};
use memory_conformance::{
    Content, MemoryEntry, Part, SearchMemoryResponse, Session, Timestamp, async_trait,
};

use super::query::{live_tokens, words};
use super::{Answer, Deviation, Done, Search, Store, two_calls};

/// Answers the first ten matches only. Breaks R6.every-match.
#[derive(Debug)]
pub struct LimitTen;

#[async_trait]
impl Deviation for LimitTen {
    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        first(store, search, 10).await
    }
}

/// Answers the first hundred matches only. Breaks R6.every-match.
#[derive(Debug)]
pub struct LimitHundred;

#[async_trait]
impl Deviation for LimitHundred {
    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        first(store, search, 100).await
    }
}

/// The reference's first `n` entries for `search`.
async fn first(store: &Store, search: Search<'_>, n: usize) -> Answer {
    let mut found = store.search(search).await?;
    found.memories.truncate(n);
    Ok(found)
}

/// Answers an entry whose content was already answered only once. Breaks R6.no-dedup.
#[derive(Debug)]
pub struct Deduplicate;

#[async_trait]
impl Deviation for Deduplicate {
    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let mut found = store.search(search).await?;
        let mut seen = Vec::new();
        found.memories.retain(|e| {
            let fresh = !seen.contains(&e.content);
            seen.push(e.content.clone());
            fresh
        });
        Ok(found)
    }
}

/// Answers, of the matching entries equal in author, text (the text parts joined with a space)
/// and timestamp, the first only, as a service that merges them on purpose does
/// (adk-database-memory 0.1.0's `search_memory`). Claims `duplicates = "merged"`, a departure
/// from R6.no-dedup its profile states, and keeps it.
#[derive(Debug)]
pub struct MergeLookalikes;

#[async_trait]
impl Deviation for MergeLookalikes {
    fn profile(&self) -> Profile {
        let mut profile = two_calls(Profile::reference().named("merged"));
        profile.duplicates = memory_conformance::profile::Duplicates::Merged;
        profile
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let mut found = store.search(search).await?;
        let mut seen = std::collections::HashSet::new();
        found.memories.retain(|e| {
            let text: Vec<&str> = e.content.texts().filter(|t| !t.is_empty()).collect();
            seen.insert((e.author.clone(), text.join(" "), e.timestamp.clone()))
        });
        Ok(found)
    }
}

/// Answers the matches in the reverse of the reference's order. Breaks R6.order.
#[derive(Debug)]
pub struct ReverseOrder;

#[async_trait]
impl Deviation for ReverseOrder {
    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let mut found = store.search(search).await?;
        found.memories.reverse();
        Ok(found)
    }
}

/// Answers entries without their author. Breaks R6.entries.
#[derive(Debug)]
pub struct DropAuthor;

#[async_trait]
impl Deviation for DropAuthor {
    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let mut found = store.search(search).await?;
        found.memories.iter_mut().for_each(|e| e.author = None);
        Ok(found)
    }
}

/// Answers entries whose content has no role. Breaks R6.entries.
#[derive(Debug)]
pub struct DropRole;

#[async_trait]
impl Deviation for DropRole {
    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        Ok(without_role(store.search(search).await?))
    }
}

/// Answers entries whose role is their event's author, a defect of a published service
/// (adk-memshield 0.1.1, `docs/findings/adk-memshield-role-replaced-by-author.md`). Breaks
/// R6.entries, and nothing else: every other rule knows an entry by its text.
#[derive(Debug)]
pub struct RoleFromAuthor;

#[async_trait]
impl Deviation for RoleFromAuthor {
    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let mut found = store.search(search).await?;
        found
            .memories
            .iter_mut()
            .for_each(|e| e.content.role = e.author.clone());
        Ok(found)
    }
}

/// Answers nothing to every search, a defect reported of a published agent framework's
/// fallback store (elizaOS, <https://github.com/elizaOS/eliza/issues/24460>:
/// `InMemoryDatabaseAdapter.searchMemories` always returns an empty list, and nothing
/// throws). Breaks guide.load-memory and R6.every-match.
#[derive(Debug)]
pub struct FindsNothing;

#[async_trait]
impl Deviation for FindsNothing {
    async fn search(&self, _: &Store, _: Search<'_>) -> Answer {
        Ok(SearchMemoryResponse::new(Vec::new()))
    }
}

/// Answers entries without a timestamp, a defect of a published service (adk-inspeximus 0.1.0,
/// `docs/findings/adk-inspeximus-timestamp-dropped.md`). Breaks R6.entries.
#[derive(Debug)]
pub struct DropTimestamp;

#[async_trait]
impl Deviation for DropTimestamp {
    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let mut found = store.search(search).await?;
        found.memories.iter_mut().for_each(|e| e.timestamp = None);
        Ok(found)
    }
}

/// Answers entries whose content holds its text parts only, its function calls, responses and
/// inline data lost, a defect of a published service (adk-milvus 0.1.0,
/// `docs/findings/adk-milvus-tool-parts-lost.md`). Breaks R6.entries.
#[derive(Debug)]
pub struct TextPartsOnly;

#[async_trait]
impl Deviation for TextPartsOnly {
    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let mut found = store.search(search).await?;
        for entry in &mut found.memories {
            entry.content.parts.retain(|p| p.as_text().is_some());
        }
        Ok(found)
    }
}

/// Answers every entry as model text: role `model`, its text parts joined with a newline into
/// one, its other parts lost, a defect of a published service (adk-rs 0.6.0,
/// `docs/findings/adk-rs-role-and-parts-lost.md`). Breaks R6.entries.
#[derive(Debug)]
pub struct ModelTextOnly;

#[async_trait]
impl Deviation for ModelTextOnly {
    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let mut found = store.search(search).await?;
        for entry in &mut found.memories {
            let text: Vec<&str> = entry.content.texts().collect();
            entry.content = Content::text(text.join("\n")).with_role("model");
        }
        Ok(found)
    }
}

/// `found` with no role on any entry's content.
fn without_role(mut found: SearchMemoryResponse) -> SearchMemoryResponse {
    found
        .memories
        .iter_mut()
        .for_each(|e| e.content.role = None);
    found
}

/// Formats epoch milliseconds as epoch seconds (ADK Java's released defect). Breaks
/// R6.entries.
#[derive(Debug)]
pub struct TimestampFromSeconds;

#[async_trait]
impl Deviation for TimestampFromSeconds {
    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let mut found = store.search(search).await?;
        for entry in &mut found.memories {
            entry.timestamp = entry.timestamp.as_deref().map(millis_as_seconds);
        }
        Ok(found)
    }
}

/// `timestamp`'s epoch milliseconds formatted as if they were epoch seconds.
fn millis_as_seconds(timestamp: &str) -> String {
    let Ok(at) = timestamp.parse::<Timestamp>() else {
        return timestamp.to_owned();
    };
    let seconds = at.as_millisecond();
    let (days, rest) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    // Howard Hinnant's civil-from-days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "+{year}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// Not a deviant: writes timestamps as naive isoformat, as its profile declares
/// (`timestamps = naive-isoformat`).
#[derive(Debug)]
pub struct NaiveTimestamps;

#[async_trait]
impl Deviation for NaiveTimestamps {
    fn profile(&self) -> Profile {
        let mut profile = two_calls(Profile::reference().named("naive-timestamps"));
        profile.timestamps = Timestamps::NaiveIsoformat;
        profile
    }

    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        store.log(session);
        store.add(session).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let mut found = store.search(search).await?;
        let sessions = store.sessions_of(search.app, search.user);
        for entry in &mut found.memories {
            // The event's own instant, from the latest version that holds the content.
            let at = sessions
                .iter()
                .rev()
                .flat_map(|s| &s.events)
                .find(|e| e.content.as_ref() == Some(&entry.content))
                .map(|e| e.timestamp);
            if let Some(at) = at {
                entry.timestamp = Some(naive_isoformat(at));
            }
        }
        Ok(found)
    }
}

/// `at` as Python's `datetime.fromtimestamp(t).isoformat()` writes it in UTC: the wall clock,
/// no offset, microseconds (rounded half to even) only when not zero.
fn naive_isoformat(at: Timestamp) -> String {
    let nanos = at.as_nanosecond();
    let (micros, rest) = (nanos.div_euclid(1_000), nanos.rem_euclid(1_000));
    let micros = if rest > 500 || (rest == 500 && micros % 2 != 0) {
        micros + 1
    } else {
        micros
    };
    let rounded = Timestamp::from_microsecond(micros as i64).unwrap_or(at);
    let civil = jiff::tz::Offset::UTC.to_datetime(rounded);
    let whole = civil.strftime("%Y-%m-%dT%H:%M:%S").to_string();
    match civil.subsec_nanosecond() / 1_000 {
        0 => whole,
        fraction => format!("{whole}.{fraction:06}"),
    }
}

/// [`NaiveTimestamps`], as declared, that also answers entries whose content has no role: the
/// declared departure exempts the timestamp only. Breaks R6.entries.
#[derive(Debug)]
pub struct NaiveTimestampsDropRole;

#[async_trait]
impl Deviation for NaiveTimestampsDropRole {
    fn profile(&self) -> Profile {
        NaiveTimestamps.profile()
    }

    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        NaiveTimestamps.add_session(store, session).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        Ok(without_role(NaiveTimestamps.search(store, search).await?))
    }
}

/// Claims the ranked profile (ADK Python's: most query words matched first, at most ten), but
/// cuts the matches to ten before ranking them. Breaks the declared order.
#[derive(Debug)]
pub struct TruncateBeforeRank;

#[async_trait]
impl Deviation for TruncateBeforeRank {
    fn profile(&self) -> Profile {
        let mut profile = two_calls(Profile::reference().named("ranked"));
        profile.order = Order::MatchedTerms;
        profile.limit = Limit::AtMost(10);
        profile
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let live = live_tokens(search.query);
        let mut found = store.search(search).await?;
        found.memories.truncate(10);
        let matched = |entry: &MemoryEntry| {
            let words = words(entry);
            live.iter().filter(|t| words.contains(t)).count()
        };
        found
            .memories
            .sort_by_key(|e| std::cmp::Reverse(matched(e)));
        Ok(found)
    }
}

/// Stores each text part cut to its first 8,192 bytes (at a character boundary), as a
/// `VARCHAR(8192)` column or an index field's length limit would: a long text comes back cut,
/// and a word near its end is never found. Breaks R6.entries on a text of tens of kilobytes.
#[derive(Debug)]
pub struct TruncatedLongText;

/// The bytes of a text [`TruncatedLongText`] keeps.
const KEPT_BYTES: usize = 8_192;

#[async_trait]
impl Deviation for TruncatedLongText {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        let mut cut = session.clone();
        let parts = cut
            .events
            .iter_mut()
            .filter_map(|event| event.content.as_mut())
            .flat_map(|content| content.parts.iter_mut());
        for part in parts {
            if let Part::Text(text) = part
                && text.len() > KEPT_BYTES
            {
                let end = (0..=KEPT_BYTES)
                    .rev()
                    .find(|&i| text.is_char_boundary(i))
                    .unwrap_or(0);
                text.truncate(end);
            }
        }
        store.add(&cut).await
    }
}

/// Stores the JSON of function calls and responses with every number read as an `f64` and
/// written back as JavaScript's `JSON.stringify` writes it (as an integer where the `f64` is
/// one), as a store that keeps tool data through a JavaScript or Go JSON layer does: 2^53 + 1
/// comes back as 2^53. Breaks R6.entries on tool data with integers beyond 2^53.
#[derive(Debug)]
pub struct NumbersThroughF64;

#[async_trait]
impl Deviation for NumbersThroughF64 {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        let mut session = session.clone();
        let parts = session
            .events
            .iter_mut()
            .filter_map(|event| event.content.as_mut())
            .flat_map(|content| content.parts.iter_mut());
        for part in parts {
            match part {
                Part::FunctionCall { args: value, .. }
                | Part::FunctionResponse {
                    response: value, ..
                } => through_f64(value),
                _ => {}
            }
        }
        store.add(&session).await
    }
}

/// `value` with every number read as an `f64`, and written as an integer where it is one.
fn through_f64(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Number(n) => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            let whole = f.fract() == 0.0 && f.abs() < 1e21;
            *value = if whole && f >= i64::MIN as f64 && f < i64::MAX as f64 {
                Value::from(f as i64)
            } else if whole && f >= 0.0 && f < u64::MAX as f64 {
                Value::from(f as u64)
            } else {
                serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
            };
        }
        Value::Array(items) => items.iter_mut().for_each(through_f64),
        Value::Object(map) => map.values_mut().for_each(through_f64),
        _ => {}
    }
}
