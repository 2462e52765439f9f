//! The dimension table's rows for what is stored and when it is seen: the key, re-adds,
//! strings, event ids, visibility and event deltas.

use super::{Dimension, ValueEntry};
use crate::profile::{EventIds, EventsDelta, KeyScheme, Profile, Readd, Strings, Visibility};

dimension! {
    KeyScheme {
        key: "key",
        label: "key",
        decided_by: &["key.no_separator_collision", "key.isolation"],
        field: key,
        values: [KeyScheme::Structured, KeyScheme::JoinedWithSlash, KeyScheme::JoinedWith(':')],
    }
    KeyScheme::Structured => {
        value: "structured",
        says: "no two pairs share a store",
        rules: ["key.no_separator_collision", "key.isolation"],
        inputs: ["joined keys"],
        text: "(app, user) kept apart, exact",
    }
    KeyScheme::JoinedWithSlash => {
        value: "joined with \"/\"",
        says: "pairs that join to one `app/user` string share a store (an implied violation)",
        rules: ["key.no_separator_collision", "model.random_ops"],
        inputs: ["joined keys", "random operations"],
        implies: [(
            "key.no_separator_collision",
            "(\"a/b\", \"c\") and (\"a\", \"b/c\") join to one string and share one store",
        )],
        text: "string app/user: (a/b, c) collides with (a, b/c)",
    }
    KeyScheme::JoinedWith(c) => {
        value: "joined with another character",
        says: "pairs that join to one string around the declared character (`app:user`) share a store (an implied violation)",
        rules: ["key.no_separator_collision", "model.random_ops"],
        inputs: ["joined keys", "random operations"],
        implies: [(
            "key.no_separator_collision",
            "(\"a:b\", \"c\") and (\"a\", \"b:c\") join to one string around the declared character and share one store",
        )],
        text: format!("string app{c}user: (a{c}b, c) collides with (a, b{c}c)"),
    }
}

dimension! {
    Readd {
        key: "readd",
        label: "re-add",
        decided_by: &[
            "replace.readd_replaces",
            "replace.readd_with_nothing",
            "replace.readd_as_declared",
        ],
        field: readd,
        values: [
            Readd::Replace,
            Readd::ReplaceUnlessNoText,
            Readd::UpsertByEventId,
            Readd::KeepFirst,
            Readd::Append,
        ],
    }
    Readd::Replace => {
        value: "replace",
        says: "a re-add replaces, also with nothing",
        rules: ["replace.readd_replaces", "replace.readd_with_nothing", "replace.readd_as_declared"],
        inputs: ["re-adds", "re-adds by event id"],
    }
    Readd::Append => {
        value: "append",
        says: "a re-add appends (implied violations of the replace rules)",
        rules: [
            "model.random_ops",
            "durability.reopen",
            "replace.readd_replaces",
            "replace.readd_as_declared",
        ],
        inputs: ["re-adds", "random operations", "re-adds by event id"],
        implies: [
            (
                "replace.readd_replaces",
                "a re-add appends to what the session held, so old words still match and entries come back twice",
            ),
            (
                "replace.readd_with_nothing",
                "a re-add with no text appends nothing, so the old text stays",
            ),
        ],
        text: "append (duplicates)",
    }
    Readd::ReplaceUnlessNoText => {
        value: "replace unless no text",
        says: "a re-add without a word is ignored (an implied violation)",
        rules: ["model.random_ops", "replace.readd_with_nothing", "replace.readd_as_declared"],
        inputs: ["re-adds", "textless events", "re-adds by event id"],
        implies: [(
            "replace.readd_with_nothing",
            "a re-add none of whose events has a word is ignored, so the old text stays",
        )],
        text: "replace, but a re-add with no words is ignored",
    }
    Readd::UpsertByEventId => {
        value: "upsert by event id",
        says: "each event with text is written over the stored event with its id; events without text are skipped and missing ones stay (implied violations of the replace rules)",
        rules: [
            "replace.readd_as_declared",
            "model.random_ops",
            "replace.readd_replaces",
            "replace.readd_with_nothing",
        ],
        inputs: ["re-adds by event id", "re-adds", "random operations"],
        implies: [
            (
                "replace.readd_replaces",
                "a re-add writes each event by its id, so an event the new version no longer has, or has under another id, still matches",
            ),
            (
                "replace.readd_with_nothing",
                "events without text are skipped, so the old text stays",
            ),
        ],
        text: "upsert by event id (events without text skipped)",
    }
    Readd::KeepFirst => {
        value: "keep first",
        says: "a re-add stores the events with text whose id the session does not hold; a stored event keeps its first version, none is removed, and events without text are never stored (implied violations of the replace rules)",
        rules: [
            "replace.readd_as_declared",
            "model.random_ops",
            "durability.reopen",
            "replace.readd_replaces",
            "replace.readd_with_nothing",
        ],
        inputs: ["re-adds by event id", "re-adds", "random operations"],
        implies: [
            (
                "replace.readd_replaces",
                "a re-added event keeps its first version and events the new version no longer has stay, so old words still match",
            ),
            (
                "replace.readd_with_nothing",
                "a re-add with no text stores nothing and removes nothing, so the old text stays",
            ),
        ],
        text: "keep first (a re-add stores only event ids it does not hold)",
    }
}

dimension! {
    Strings {
        key: "strings",
        label: "strings",
        // `infer` does not decide it: a backend is inferred as taking any string.
        decided_by: &[],
        field: strings,
        values: [Strings::Any, Strings::WithoutNul, Strings::WithoutNulOrEmptyKey],
    }
    Strings::Any => {
        value: "any",
        says: "the contract: any string, U+0000 included, is stored and looked up",
        rules: ["key.isolation", "key.no_separator_collision", "model.random_ops"],
        inputs: ["odd key strings"],
        text: "any, U+0000 included",
    }
    Strings::WithoutNul => {
        value: "without NUL",
        says: "a call carrying U+0000 may fail with an error (the store cannot hold it), never panic or hang, and the case ends there; every other case runs as usual",
        rules: ["key.isolation", "key.no_separator_collision", "model.random_ops"],
        inputs: ["odd key strings"],
        departs: "R7.any-string",
        text: "without U+0000, a call carrying one may fail",
    }
    Strings::WithoutNulOrEmptyKey => {
        value: "without NUL or empty key",
        says: "a call carrying U+0000, or under an empty app name or user id, may fail with an error (the service refuses it), never panic or hang, and the case ends there; every other case runs as usual",
        rules: ["key.isolation", "key.no_separator_collision", "model.random_ops"],
        inputs: ["odd key strings", "near-miss keys", "joined keys"],
        departs: "R7.any-string",
        text: "without U+0000 or an empty app name or user id, a call carrying one may fail",
    }
}

dimension! {
    EventIds {
        key: "event_ids",
        label: "event ids",
        // `infer` does not decide it: a backend is inferred as keeping event ids per session.
        decided_by: &[],
        field: event_ids,
        values: [EventIds::PerSession, EventIds::PerKey],
    }
    EventIds::PerSession => {
        value: "per session",
        says: "the contract: two sessions of a key may hold events with the same id, each stored",
        rules: ["replace.other_sessions_untouched", "replace.readd_as_declared", "result.limit", "result.order", "concurrency.adds_land", "model.random_ops"],
        inputs: ["near-miss session ids", "re-adds by event id", "many matches", "concurrent adds", "random operations"],
        text: "unique in their session",
    }
    EventIds::PerKey => {
        value: "per key",
        says: "an event whose id another session of the key already stores is not stored; the oracle's rules (model.random_ops, replace.readd_as_declared, result.order) expect that, and the rules that need several sessions stored give each its own event ids",
        rules: ["model.random_ops", "replace.readd_as_declared", "result.order", "replace.other_sessions_untouched", "result.limit", "concurrency.adds_land", "durability.reopen"],
        inputs: ["random operations", "re-adds by event id", "near-miss session ids", "many matches", "concurrent adds", "reopen"],
        departs: "R6.no-dedup",
        text: "unique in their key: an id another session holds is not stored again",
    }
}

dimension! {
    Visibility {
        key: "visibility",
        label: "visibility",
        // `infer` does not decide it: a backend is inferred as showing writes at once.
        decided_by: &[],
        field: visibility,
        values: [Visibility::Immediate, Visibility::Within { millis: 1 }],
    }
    Visibility::Immediate => {
        value: "immediate",
        says: "every write is visible to the next search",
        rules: ["model.random_ops", "key.isolation"],
        inputs: ["random operations"],
        text: "at once",
    }
    Visibility::Within { millis } => {
        value: "within a bound",
        says: "rules wait for a write up to the bound and wait it out before checking absence; later or never fails",
        rules: ["model.random_ops", "key.isolation", "replace.readd_replaces"],
        inputs: ["delayed writes", "random operations"],
        text: format!("within {millis} ms"),
    }
}

dimension! {
    Option<EventsDelta> {
        key: "capabilities.events_delta",
        label: "event delta",
        decided_by: &["delta.as_declared"],
        field: capabilities.events_delta,
        values: [
            Some(EventsDelta::AppendNewIds),
            Some(EventsDelta::UpsertByEventId),
            None,
        ],
    }
    Some(EventsDelta::AppendNewIds) => {
        value: "append new ids",
        says: "a delta appends events whose id the session does not hold, keeping stored versions",
        rules: ["delta.as_declared", "model.random_ops"],
        inputs: ["event deltas"],
        text: "appends events with new ids",
    }
    Some(EventsDelta::UpsertByEventId) => {
        value: "upsert by event id",
        says: "a delta writes each event with text over the stored one with its id, or after",
        rules: ["delta.as_declared", "model.random_ops"],
        inputs: ["event deltas"],
        text: "upserts events with text by id",
    }
    None => {
        text: "no",
    }
}
