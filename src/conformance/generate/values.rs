//! The building blocks of generated scenarios. Every choice is made with `select` over short
//! lists ordered from plainest to oddest, and every collection shrinks towards fewer items,
//! so shrinking ends at a short, readable scenario of plain words and plain keys.

use proptest::prelude::*;
use proptest::sample::select;
use serde_json::json;

use crate::profile::{EventIds, Profile};
use crate::{Content, Event, MemoryKey, Part, Session, Timestamp};

/// Plain lowercase ASCII words: every lexical profile indexes and matches them alike.
pub(crate) const WORDS: [&str; 10] = [
    "coffee", "tea", "latte", "milk", "sugar", "mocha", "oolong", "espresso", "cocoa", "chai",
];

/// A word of no generated text, used where a search must find nothing by its words.
pub(crate) const ABSENT: &str = "zebra";

/// App names, from plainest to oddest: separators, `/`, case, whitespace, empty, emoji.
pub(crate) const APPS: [&str; 8] = [
    "support",
    "support-bot",
    "a/b",
    "Support",
    " support",
    "",
    "app.v2",
    "🧪",
];

/// User ids, from plainest to oddest: numeric ids with and without prefix, `/`, case.
pub(crate) const USERS: [&str; 8] = ["u-42", "42", "b/c", "U-42", "u_42", "", "user 7", "\u{0}"];

/// Session ids, from plainest to oddest: integer-like ids, `/`, empty, whitespace.
pub(crate) const SESSION_IDS: [&str; 7] = ["s-1", "s-2", "s-3", "10", "2", "s/4", ""];

/// Authors of generated events, in every case.
pub(crate) const AUTHORS: [&str; 6] = [
    "user",
    "model",
    "barista",
    "support-agent",
    "Barista",
    "MODEL",
];

/// Midnight, 2026-01-01, UTC: generated timestamps count from here.
pub(crate) fn base_time() -> Timestamp {
    Timestamp::from_second(1_767_225_600).unwrap_or(Timestamp::UNIX_EPOCH)
}

/// An event at `base_time() + millis`, with a stable id.
pub(crate) fn event_at(author: &str, content: Option<Content>, millis: i64) -> Event {
    let timestamp = base_time()
        .checked_add(jiff::SignedDuration::from_millis(millis))
        .unwrap_or(base_time());
    Event {
        id: format!("e-{millis}"),
        author: author.to_owned(),
        content,
        timestamp,
    }
}

/// A text event, timestamped `millis` after the base time.
pub(crate) fn text_event(text: &str, millis: i64) -> Event {
    event_at("user", Some(Content::text(text)), millis)
}

/// A session of `key` with one text event per text.
pub(crate) fn session_of(key: &MemoryKey, id: &str, texts: &[String]) -> Session {
    let events = texts
        .iter()
        .enumerate()
        .map(|(i, t)| text_event(t, i as i64 * 1_000));
    Session::new(key.app_name.clone(), key.user_id.clone(), id).with_events(events)
}

/// `session` as a rule that needs every one of its sessions stored adds it: where the profile
/// declares event ids unique per key, each event id is made the session's own (`e-0` of
/// session `s-1` becomes `s-1:e-0`); elsewhere unchanged, so sessions share event ids as the
/// contract allows.
pub(crate) fn stored_apart(profile: &Profile, mut session: Session) -> Session {
    if profile.event_ids == EventIds::PerKey {
        for event in &mut session.events {
            event.id = format!("{}:{}", session.id, event.id);
        }
    }
    session
}

pub(crate) fn content(text: &str) -> Content {
    Content::text(text)
}

/// App names and user ids a backend might normalise, each beside the id it might take it
/// for: shaped like numbers (`042`, `+42`, `42`, read as the integer 42), holding percent
/// escapes (`a%2Fb`, `%41`, read as `a/b` and `A`), and longer than 64 characters, equal in
/// their first 64 (cut by a `VARCHAR(64)` column).
pub(crate) const ODD_IDS: [(&str, &str); 6] = [
    ("042", "42"),
    ("+42", "42"),
    ("42", "042"),
    ("a%2Fb", "a/b"),
    ("%41", "A"),
    (
        "support-agent-of-the-northern-region-for-coffee-and-tea-orders-00042",
        "support-agent-of-the-northern-region-for-coffee-and-tea-orders-00043",
    ),
];

/// The share of key pairs [`key_and_odd_twin`] draws from [`ODD_IDS`]: one in 8.
pub(crate) const ODD_PAIR_SHARE: u32 = 8;

/// A key from the app and user pools.
pub(crate) fn key() -> impl Strategy<Value = MemoryKey> {
    (select(APPS.to_vec()), select(USERS.to_vec()))
        .prop_map(|(app, user)| MemoryKey::new(app, user))
}

/// A plain key, and whether an odd id goes in its app name (else in its user id).
fn odd_key() -> impl Strategy<Value = (MemoryKey, bool)> {
    (select(APPS.to_vec()), select(USERS.to_vec()), any::<bool>())
        .prop_map(|(app, user, as_app)| (MemoryKey::new(app, user), as_app))
}

/// A key whose app name or user id is one of [`ODD_IDS`], and the key with the id it might be
/// taken for in its place.
fn odd_pair() -> impl Strategy<Value = (MemoryKey, MemoryKey)> {
    (odd_key(), select(ODD_IDS.to_vec())).prop_map(|((key, as_app), (id, twin))| {
        if as_app {
            (
                MemoryKey::new(id, key.user_id.clone()),
                MemoryKey::new(twin, key.user_id),
            )
        } else {
            (
                MemoryKey::new(key.app_name.clone(), id),
                MemoryKey::new(key.app_name, twin),
            )
        }
    })
}

/// `n` distinct plain words.
pub(crate) fn distinct_words(n: usize) -> impl Strategy<Value = Vec<&'static str>> {
    proptest::sample::subsequence(WORDS.to_vec(), n).prop_shuffle()
}

/// How a near-miss key is derived from a key.
#[derive(Clone, Copy, Debug)]
pub(crate) enum NearMiss {
    UpperUser,
    UpperApp,
    SwapSeparator,
    TrailingSpace,
    PrefixUser,
    DigitsOnlyUser,
    SwapAppAndUser,
    EmptyUser,
}

const NEAR_MISSES: [NearMiss; 8] = [
    NearMiss::UpperUser,
    NearMiss::SwapSeparator,
    NearMiss::TrailingSpace,
    NearMiss::PrefixUser,
    NearMiss::DigitsOnlyUser,
    NearMiss::UpperApp,
    NearMiss::SwapAppAndUser,
    NearMiss::EmptyUser,
];

/// A key and a different key that nearly equals it (never a re-split around `/`, which is
/// `key.no_separator_collision`'s concern).
pub(crate) fn key_and_near_miss() -> impl Strategy<Value = (MemoryKey, MemoryKey)> {
    (key(), select(NEAR_MISSES.to_vec())).prop_map(|(key, how)| {
        let near = near_miss(&key, how);
        let joined = |k: &MemoryKey| format!("{}/{}", k.app_name, k.user_id);
        if near != key && joined(&near) != joined(&key) {
            (key, near)
        } else {
            let other = MemoryKey::new(key.app_name.clone(), format!("{}x", key.user_id));
            (key, other)
        }
    })
}

/// As [`key_and_near_miss`], but one pair in [`ODD_PAIR_SHARE`] is a key with an odd id and
/// the key with its twin ([`ODD_IDS`]): the pairs a backend that normalises ids confuses.
pub(crate) fn key_and_odd_twin() -> impl Strategy<Value = (MemoryKey, MemoryKey)> {
    proptest::strategy::Union::new_weighted(vec![
        (ODD_PAIR_SHARE - 1, key_and_near_miss().boxed()),
        (1, odd_pair().boxed()),
    ])
}

fn near_miss(key: &MemoryKey, how: NearMiss) -> MemoryKey {
    let (app, user) = (key.app_name.clone(), key.user_id.clone());
    let swap = |s: &str| {
        if s.contains('-') {
            s.replace('-', "_")
        } else if s.contains('_') {
            s.replace('_', "-")
        } else {
            format!("{s}-")
        }
    };
    let toggle_case = |s: &str| {
        let upper = s.to_uppercase();
        if upper == s { s.to_lowercase() } else { upper }
    };
    match how {
        NearMiss::UpperUser => MemoryKey::new(app, toggle_case(&user)),
        NearMiss::UpperApp => MemoryKey::new(toggle_case(&app), user),
        NearMiss::SwapSeparator => MemoryKey::new(app, swap(&user)),
        NearMiss::TrailingSpace => MemoryKey::new(app, format!("{user} ")),
        NearMiss::PrefixUser => MemoryKey::new(app, format!("u-{user}")),
        NearMiss::DigitsOnlyUser => {
            let digits: String = user.chars().filter(char::is_ascii_digit).collect();
            MemoryKey::new(
                app,
                if digits == user {
                    format!("{digits}0")
                } else {
                    digits
                },
            )
        }
        NearMiss::SwapAppAndUser => MemoryKey::new(user, app),
        NearMiss::EmptyUser => MemoryKey::new(
            app,
            if user.is_empty() {
                " ".into()
            } else {
                String::new()
            },
        ),
    }
}

/// How a backend might join (app name, user id) into one string: the slash of ADK Java and
/// ADK JS first, then other separators, a longer one, and none at all.
pub(crate) const JOINS: [&str; 10] = ["/", ":", "", "|", "::", "-", "_", ".", " ", "\u{0}"];

/// Two distinct keys that join to the same string under one of the [`JOINS`]:
/// (`a/b`, `c`) and (`a`, `b/c`), (`a:b`, `c`) and (`a`, `b:c`), (`ab`, `c`) and (`a`, `bc`).
pub(crate) fn separator_split_keys() -> impl Strategy<Value = (MemoryKey, MemoryKey)> {
    let segment = select(vec!["a", "b", "c", "support", "u-42", "", "x/y"]);
    (
        select(JOINS.to_vec()),
        segment.clone(),
        segment.clone(),
        segment,
    )
        .prop_map(|(join, x, y, z)| {
            // With no separator an empty middle would make the two keys equal.
            let y = if join.is_empty() && y.is_empty() {
                "b"
            } else {
                y
            };
            (
                MemoryKey::new(x, format!("{y}{join}{z}")),
                MemoryKey::new(format!("{x}{join}{y}"), z),
            )
        })
}

/// A session id and a different one that nearly equals it (case, separator, whitespace, a
/// prefix, digits only, empty).
pub(crate) fn session_id_and_near_miss() -> impl Strategy<Value = (&'static str, &'static str)> {
    select(vec![
        ("s-1", "S-1"),
        ("s-1", "s_1"),
        ("s-1", "s-1 "),
        ("s-1", "1"),
        ("s-1", "s-10"),
        ("s-1", ""),
        ("10", "010"),
        ("s/4", "s"),
    ])
}

/// An event that carries no searchable text, of each kind the backends trip on.
pub(crate) fn textless_event() -> impl Strategy<Value = Event> {
    (0..6usize, 0..100i64).prop_map(|(kind, millis)| {
        let content = match kind {
            0 => None,
            1 => Some(Content::new(vec![])),
            2 => Some(Content::text("")),
            3 => Some(Content::new(vec![Part::function_call(
                "lookup",
                json!({"note": ABSENT}),
            )])),
            4 => Some(Content::new(vec![Part::function_response(
                "lookup",
                json!({"status": ABSENT}),
            )])),
            _ => Some(Content::new(vec![Part::inline_data(
                "text/plain",
                ABSENT.as_bytes().to_vec(),
            )])),
        };
        event_at("model", content, millis)
    })
}

/// What a text may end with, after a space: emoji (one code point, one with a variation
/// selector, a sequence joined by U+200D) and U+0000, alone or inside a word. A text holding
/// U+0000 is stored only where the profile's `strings` accept it; elsewhere the call carrying
/// it may fail, which ends the case.
pub(crate) const TEXT_ENDINGS: [&str; 5] = [
    "\u{1F9EA}",
    "\u{2615}\u{FE0F}",
    "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}",
    "\u{0}",
    "a\u{0}b",
];

/// Integers a JSON layer that reads every number as an `f64` changes: 2^53 + 1 and its
/// negative, a 20-digit one, and `u64::MAX`.
pub(crate) fn big_numbers() -> [serde_json::Value; 4] {
    [
        json!(9_007_199_254_740_993_u64),
        json!(-9_007_199_254_740_993_i64),
        json!(12_345_678_901_234_567_890_u64),
        json!(u64::MAX),
    ]
}

/// MIME types of inline data, in mixed case and with a parameter, which a backend keeps as
/// given.
pub(crate) const MIME_TYPES: [&str; 4] = [
    "image/png",
    "Image/PNG",
    "application/JSON",
    "text/Plain; charset=UTF-8",
];

/// Whitespace-only and empty queries, ASCII and Unicode.
pub(crate) fn blank_query() -> impl Strategy<Value = String> {
    let blank = select(vec![
        " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{A0}", "\u{2003}", "\u{3000}",
    ]);
    proptest::collection::vec(blank, 0..4).prop_map(|parts| parts.concat())
}

/// Punctuation the backends treat differently: every ASCII punctuation character, then
/// Unicode ones (apostrophe, guillemet, ellipsis, dashes, CJK and fullwidth marks).
pub(crate) const PUNCTUATION: [&str; 42] = [
    "?", ".", ",", "!", "'", "-", "#", "(", ":", "\"", ")", ";", "/", "\\", "@", "$", "%", "&",
    "*", "+", "<", "=", ">", "[", "]", "^", "_", "`", "{", "|", "}", "~", "\u{2019}", "\u{AB}",
    "\u{2026}", "\u{2014}", "\u{2013}", "\u{3002}", "\u{FF01}", "\u{BF}", "\u{A1}", "\u{B7}",
];

/// Words and phrases with digits.
pub(crate) const DIGIT_WORDS: [&str; 8] = [
    "4417",
    "order 4417",
    "abc123",
    "12:30",
    "3.14",
    "v2",
    "2026-01-01",
    "#4417",
];

/// Non-ASCII words: accents in NFC and NFD, German, CJK, mixed scripts, and a letter with two
/// diacritics (ệ, which FTS5 folds under `remove_diacritics 2` only) beside its plain form.
pub(crate) const NON_ASCII_WORDS: [&str; 14] = [
    "café",
    "cafe\u{301}",
    "cafe",
    "naïve",
    "nai\u{308}ve",
    "Stra\u{DF}e",
    "咖啡",
    "我喜欢咖啡",
    "東京",
    "私はPythonを使う",
    "CAFÉ",
    "crème brûlée",
    "Việt",
    "viet",
];

/// Separators between words in generated text: ASCII whitespace of every kind, then Unicode
/// whitespace (no-break, em, ideographic, line separator, next line), then punctuation.
pub(crate) const SEPARATORS: [&str; 14] = [
    " ", "  ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{A0}", "\u{2003}", "\u{3000}",
    "\u{2028}", "\u{85}", ", ", " - ",
];

/// Words joined by generated separators.
pub(crate) fn join_with_separators(words: Vec<String>, separators: Vec<&'static str>) -> String {
    let mut text = String::new();
    for (i, word) in words.into_iter().enumerate() {
        if i > 0 {
            text.push_str(separators.get(i - 1).copied().unwrap_or(" "));
        }
        text.push_str(&word);
    }
    text
}

/// Mixed words for model checks: plain, upper-case, punctuated, digits, non-ASCII.
pub(crate) fn mixed_words() -> Vec<String> {
    let mut words: Vec<String> = WORDS[..5].iter().map(|w| (*w).to_owned()).collect();
    words.extend(
        [
            "Coffee",
            "TEA",
            "coffee?",
            "latte.",
            "flat-white",
            "white",
            "flat",
            "(milk)",
        ]
        .map(String::from),
    );
    words.extend(DIGIT_WORDS[..4].iter().map(|w| (*w).to_owned()));
    words.extend(NON_ASCII_WORDS[..8].iter().map(|w| (*w).to_owned()));
    words
}
