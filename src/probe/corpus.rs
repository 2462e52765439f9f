//! The probe corpus: fixed sessions that exercise every dimension of the behaviour matrix, and
//! the probes searched against them. Versioned: changing either changes every snapshot.

use serde_json::json;

use crate::{Content, Event, MemoryKey, Part, Session, Timestamp};

/// The corpus and probe set's version, printed in every observation.
pub const VERSION: u32 = 1;

/// A profile dimension a probe exercises, so a difference can be explained by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[non_exhaustive]
pub enum Dimension {
    /// Whether matching is lexical or by similarity (it decides every probe).
    Retrieval,
    /// How (app name, user id) selects a store.
    Key,
    /// What re-adding a session does.
    Readd,
    /// How stored text is cut into words.
    EventWords,
    /// How a query is cut into terms.
    QueryTerms,
    /// Any word or all words.
    MultiWord,
    /// Whether tool data is searchable.
    ToolData,
    /// The result limit.
    Limit,
    /// The result order.
    Order,
}

/// One search of the probe set.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Probe {
    /// A short stable name, `coffee-question-mark`.
    pub id: &'static str,
    /// The key searched.
    pub key: MemoryKey,
    /// The query.
    pub query: &'static str,
    /// The dimensions that decide its result.
    pub dimensions: &'static [Dimension],
    /// Whether the query means a fact the corpus holds in text under this key, so that a hit
    /// is recall and no hit is a miss. False for probes whose right answer is nothing (a
    /// replaced session, a near-miss key, a blank query, a fact only in tool data or state)
    /// and for fragments and stop words.
    pub means_a_fact: bool,
}

/// The sessions, added in this order (one session id is added twice: a re-add).
pub fn sessions() -> Vec<Session> {
    let support = |id: &str| Session::new("support", "u-42", id);
    vec![
        support("monday")
            .with_event(text(
                0,
                "user",
                "My favourite coffee is a flat white. Order 4417 shipped.",
            ))
            .with_event(event(
                1,
                "model",
                vec![Part::function_response(
                    "get_order",
                    json!({"status": "delivered", "id": 4417}),
                )],
            ))
            .with_event(Event::without_content("user").at(at(2)).with_id("monday-3"))
            .with_state("allergy", json!("peanuts")),
        support("tuesday")
            .with_event(text(10, "user", "Is the café open? Yes\u{2014}until 6pm!"))
            .with_event(text(
                11,
                "user",
                "I'd like a cafe\u{301} noir, not a crème brûlée.",
            ))
            .with_event(text(12, "model", "我喜欢咖啡 and 私はPythonを使う"))
            .with_event(text(13, "user", "flat\twhite\nlatte\u{a0}art")),
        support("wednesday").with_event(text(20, "user", "green tea before noon")),
        Session::new("support", "42", "monday").with_event(text(
            30,
            "user",
            "espresso for the back office",
        )),
        Session::new("support_bot", "u-42", "monday").with_event(text(
            31,
            "user",
            "mocha for the bot",
        )),
        Session::new("a/b", "c", "split").with_event(text(32, "user", "oolong under a/b + c")),
        support("wednesday").with_event(text(21, "user", "black tea after noon")),
        support("many")
            .with_events((1..=12).map(|n| text(40 + n, "user", &format!("latte number {n}")))),
    ]
}

/// The probes, in report order.
pub fn probes() -> Vec<Probe> {
    use Dimension::*;
    let fact = |id, query, dimensions| Probe {
        id,
        key: MemoryKey::new("support", "u-42"),
        query,
        dimensions,
        means_a_fact: true,
    };
    let probe = |id, query, dimensions| Probe {
        means_a_fact: false,
        ..fact(id, query, dimensions)
    };
    let under = |id, app: &str, user: &str, query, dimensions| Probe {
        key: MemoryKey::new(app, user),
        ..probe(id, query, dimensions)
    };
    vec![
        fact("coffee", "coffee", &[]),
        fact("coffee-upper-case", "Coffee", &[QueryTerms]),
        fact("coffee-question-mark", "coffee?", &[QueryTerms]),
        fact(
            "coffee-preference",
            "coffee preference?",
            &[QueryTerms, MultiWord],
        ),
        fact("flat-white-hyphen", "flat-white", &[QueryTerms]),
        fact("white-dot", "white.", &[QueryTerms]),
        fact("order-number", "4417", &[EventWords, QueryTerms]),
        fact(
            "where-is-order",
            "Where's order 4417?",
            &[QueryTerms, MultiWord],
        ),
        probe("common-word", "is", &[]),
        fact("cafe-accent", "café", &[EventWords, QueryTerms]),
        fact("cafe-plain", "cafe", &[EventWords]),
        fact("cafe-nfd", "cafe\u{301}", &[EventWords, QueryTerms]),
        probe("caf-fragment", "caf", &[EventWords]),
        fact("creme", "creme", &[EventWords]),
        fact("cjk-coffee", "咖啡", &[EventWords, QueryTerms]),
        fact("python-in-japanese", "python", &[EventWords]),
        fact("punctuated-text", "open", &[EventWords]),
        fact("tab-separated", "white", &[EventWords]),
        fact("nbsp-separated", "art", &[EventWords]),
        fact("two-words", "green black", &[MultiWord, Order]),
        probe("tool-only-fact", "delivered", &[ToolData]),
        probe("state-only-fact", "peanuts", &[]),
        probe("readd-old", "green", &[Readd]),
        fact("readd-new", "black", &[Readd]),
        fact("more-than-ten", "latte", &[Limit, Order]),
        probe("blank", " \t ", &[]),
        under("numeric-user-id", "support", "42", "coffee", &[Key]),
        under("separator-in-app", "support_bot", "u-42", "coffee", &[Key]),
        under("slash-joined-key", "a", "b/c", "oolong", &[Key]),
        under("unknown-user", "support", "u-7", "coffee", &[Key]),
    ]
}

fn at(millis: i64) -> Timestamp {
    Timestamp::from_millisecond(1_767_225_600_000 + millis * 60_000)
        .unwrap_or(Timestamp::UNIX_EPOCH)
}

fn text(minute: i64, author: &str, text: &str) -> Event {
    Event::text(author, text)
        .at(at(minute))
        .with_id(format!("e-{minute}"))
}

fn event(minute: i64, author: &str, parts: Vec<Part>) -> Event {
    Event::new(author, Some(Content::new(parts)))
        .at(at(minute))
        .with_id(format!("e-{minute}"))
}
