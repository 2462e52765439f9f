//! The dimension table's rows for what a search returns: the limit, the order, timestamps,
//! blank queries, duplicates and blank events.

use super::{Dimension, ValueEntry};
use crate::profile::{BlankEvents, BlankQuery, Duplicates, Limit, Order, Profile, Timestamps};

dimension! {
    Limit {
        key: "limit",
        label: "limit",
        decided_by: &["result.limit"],
        field: limit,
        values: [Limit::Unlimited, Limit::AtMost(10)],
    }
    Limit::Unlimited => {
        value: "unlimited",
        says: "every match comes back",
        rules: ["result.limit"],
        inputs: ["many matches"],
        text: "none",
    }
    Limit::AtMost(n) => {
        value: "at most n",
        says: "at most n entries, the best n where the order ranks",
        rules: ["result.limit", "result.order"],
        inputs: ["many matches", "ranked beyond the limit"],
        text: format!("at most {n}"),
    }
}

dimension! {
    Order {
        key: "order",
        label: "order",
        decided_by: &["result.order", "model.random_ops"],
        field: order,
        values: [
            Order::Insertion { integer_ids_first: false },
            Order::Insertion { integer_ids_first: true },
            Order::MatchedTerms,
            Order::Relevance,
            Order::Unordered,
        ],
    }
    Order::Unordered => {
        value: "unordered",
        says: "no order is promised: results are compared as multisets",
        rules: ["model.random_ops"],
        inputs: ["random operations"],
        text: "none promised",
    }
    Order::Insertion { integer_ids_first: false } => {
        value: "insertion",
        says: "sessions by first add, events in order",
        rules: ["result.order"],
        inputs: ["re-adds"],
        text: "insertion (session first added, then event)",
    }
    Order::Insertion { integer_ids_first: true } => {
        value: "insertion, integer ids first",
        says: "sessions whose id is an array index (`2`, `10`) first, in numeric order, then by first add; events in order",
        rules: ["result.order"],
        inputs: ["re-adds"],
        text: "insertion, integer-like session ids first",
    }
    Order::MatchedTerms => {
        value: "matched terms",
        says: "most distinct query terms matched first, then insertion",
        rules: ["result.order"],
        inputs: ["ranked beyond the limit"],
        text: "most query words matched first, then insertion",
    }
    Order::Relevance => {
        value: "relevance",
        says: "a score the kit cannot compute: checked where relevance is unambiguous",
        rules: ["result.order"],
        inputs: ["ranked beyond the limit"],
        text: "relevance (e.g. bm25)",
    }
}

dimension! {
    Timestamps {
        key: "timestamps",
        label: "timestamps",
        decided_by: &["result.fidelity"],
        field: timestamps,
        values: [Timestamps::Rfc3339Utc, Timestamps::NaiveIsoformat],
    }
    Timestamps::Rfc3339Utc => {
        value: "RFC 3339 UTC",
        says: "the contract: RFC 3339 UTC, milliseconds, Z, sub-millisecond time cut",
        rules: ["result.fidelity"],
        inputs: ["timestamps"],
        text: "RFC 3339 UTC, milliseconds, Z",
    }
    Timestamps::NaiveIsoformat => {
        value: "naive isoformat",
        says: "an entry's timestamp is the event's wall-clock time without an offset, as Python's isoformat writes it, microseconds when not zero; result.fidelity checks that format, and the content, role and author as before",
        rules: ["result.fidelity"],
        inputs: ["timestamps", "multi-part contents", "authors"],
        departs: "R6.entries",
        text: "naive local isoformat, microseconds when not zero",
    }
}

dimension! {
    BlankQuery {
        key: "blank_query",
        label: "blank query",
        // `infer` does not decide it: a backend is inferred as answering a blank query with
        // nothing.
        decided_by: &[],
        field: blank_query,
        values: [BlankQuery::Nothing, BlankQuery::Nearest],
    }
    BlankQuery::Nothing => {
        value: "nothing",
        says: "the contract: an empty or whitespace-only query returns nothing",
        rules: ["query.blank"],
        inputs: ["blank queries"],
        text: "nothing",
    }
    BlankQuery::Nearest => {
        value: "nearest",
        says: "a blank query is searched like any other and may return the nearest entries stored under its key, within the limit; never another key's, a deleted or a replaced one",
        rules: ["query.blank"],
        inputs: ["blank queries"],
        departs: "R7.blank-query",
        text: "the nearest entries of the key, as any query",
    }
}

dimension! {
    Duplicates {
        key: "duplicates",
        label: "duplicates",
        decided_by: &["model.random_ops", "result.order", "delta.as_declared"],
        field: duplicates,
        values: [Duplicates::Kept, Duplicates::Merged],
    }
    Duplicates::Kept => {
        value: "kept",
        says: "the contract: the same event stored in two sessions comes back twice",
        rules: ["model.random_ops", "result.limit"],
        inputs: ["random operations", "many matches"],
        text: "each time stored",
    }
    Duplicates::Merged => {
        value: "merged",
        says: "of the matching entries equal in author, text and timestamp a search returns the first only (the nearest, under vector search); model.random_ops, result.order and delta.as_declared expect that",
        rules: ["model.random_ops", "result.order", "delta.as_declared"],
        inputs: ["random operations", "re-adds", "event deltas"],
        departs: "R6.no-dedup",
        text: "once: entries equal in author, text and timestamp are merged",
    }
}

dimension! {
    BlankEvents {
        key: "blank_events",
        label: "blank events",
        // `infer` does not decide it: a backend is inferred as never returning them.
        decided_by: &[],
        field: blank_events,
        values: [BlankEvents::NeverReturned, BlankEvents::RankedLast],
    }
    BlankEvents::NeverReturned => {
        value: "never returned",
        says: "under vector search, an event whose text holds no word (whitespace or punctuation only) is stored but never returned",
        rules: ["vector.nearest_first", "replace.readd_as_declared", "model.random_ops"],
        inputs: ["vector texts", "re-adds by event id", "random operations"],
        text: "never returned",
    }
    BlankEvents::RankedLast => {
        value: "ranked last",
        says: "under vector search, an event whose text is not empty but holds no word is stored as any text and is a candidate of every search of its key, ranked after every event with a word; the re-add rules keep it as text",
        rules: ["vector.nearest_first", "replace.readd_as_declared", "model.random_ops"],
        inputs: ["vector texts", "re-adds by event id", "random operations"],
        text: "returned, after every event with a word",
    }
}
