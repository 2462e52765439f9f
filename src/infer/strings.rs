//! The strings a backend takes, probed before anything else (a store that cannot hold U+0000
//! would fail every rule whose generated input carries one) and checked last, under the
//! profile decided, by the rules whose keys carry U+0000 and empty names.

use crate::conformance::{Namespace, Subject};
use crate::profile::Strings;
use crate::profile::dimension::Dimension;
use crate::{Event, Session};

use super::decide::Run;

/// The rules that check the strings: their generated keys carry U+0000 and empty app names
/// and user ids, and both apply to every profile.
const RULES: &[&str] = &["key.isolation", "query.unknown_key"];

/// The strings the backend takes, as a direct try shows: a text and a user id holding U+0000,
/// then an empty app name and user id, each added and searched. A call that fails makes the
/// value that allows it.
pub(super) fn probed(subject: &Subject) -> Strings {
    let nul = takes(subject, "infer", "strings", "espresso \u{0} nul")
        && takes(subject, "infer", "u-\u{0}", "espresso");
    let empty = takes(subject, "", "", "espresso");
    match (nul, empty) {
        (true, true) => Strings::Any,
        (false, true) => Strings::WithoutNul,
        (_, false) => Strings::WithoutNulOrEmptyKey,
    }
}

/// Decides the strings among the probed value and those that allow more failures, checked by
/// [`RULES`] under the profile decided so far.
pub(super) fn decide(run: &mut Run<impl FnMut(&str)>, probed: Strings) {
    let candidates = Strings::values()
        .into_iter()
        .skip_while(|value| *value != probed)
        .map(|value| {
            let name = value
                .entry()
                .map_or_else(|| value.text(), |entry| entry.value.to_owned());
            (name, run.with(|p| value.set(p)))
        })
        .collect();
    run.decide(Strings::KEY, RULES, candidates);
}

/// Whether the backend stores `text` under (`app`, `user`) and answers a search of it
/// without an error.
fn takes(subject: &Subject, app: &str, user: &str, text: &str) -> bool {
    let Ok(runtime) = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    else {
        return true;
    };
    runtime.block_on(async {
        let namespace = Namespace::fresh();
        let backend = subject.open(&namespace).await;
        let session = Session::new(app, user, "s-1").with_events([Event::text("user", text)]);
        let added = backend.add_session_to_memory(&session).await;
        let found = backend.search_memory(app, user, "espresso").await;
        drop(backend);
        subject.clean(&namespace);
        added.is_ok() && found.is_ok()
    })
}
