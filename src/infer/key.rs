//! The key: structured, or joined into one string around which character. The rules that
//! decide it cannot tell the characters apart (under any joined key, the collision is the
//! known violation of `key.no_separator_collision` it implies), so a direct try finds the
//! character first.

use crate::conformance::{Namespace, Subject};
use crate::profile::KeyScheme;
use crate::profile::dimension::Dimension;
use crate::{Event, Session};

use super::decide::Run;

/// The characters tried, `/` first.
const CHARACTERS: [char; 10] = ['/', ':', '|', '#', '_', '-', '.', ';', ',', ' '];

/// Decides the key among the structured one and the key joined with the character a direct
/// try shows, or among every value the table lists where no try shows one.
pub(super) fn decide(run: &mut Run<impl FnMut(&str)>) {
    let values = match joined_with(&run.subject()) {
        Some('/') => vec![KeyScheme::Structured, KeyScheme::JoinedWithSlash],
        Some(c) => vec![KeyScheme::Structured, KeyScheme::JoinedWith(c)],
        None => KeyScheme::values(),
    };
    let candidates = values
        .into_iter()
        .map(|value| {
            let name = match value {
                KeyScheme::JoinedWith(c) => format!("joined with {c:?}"),
                _ => value
                    .entry()
                    .map_or_else(|| value.text(), |entry| entry.value.to_owned()),
            };
            (name, run.with(|p| value.set(p)))
        })
        .collect();
    run.decide(KeyScheme::KEY, KeyScheme::DECIDED_BY, candidates);
}

/// The first character `c` for which an entry added under (`k{c}a`, `b`) is found under
/// (`k`, `a{c}b`): the backend joins the pair around it.
fn joined_with(subject: &Subject) -> Option<char> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .ok()?;
    runtime.block_on(async {
        let namespace = Namespace::fresh();
        let backend = subject.open(&namespace).await;
        let mut found = None;
        for (i, c) in CHARACTERS.into_iter().enumerate() {
            let app = format!("infer-key-{i}");
            let session = Session::new(format!("{app}{c}a"), "b", "s-1")
                .with_events([Event::text("user", "espresso")]);
            if backend.add_session_to_memory(&session).await.is_err() {
                continue;
            }
            let shared = backend
                .search_memory(&app, &format!("a{c}b"), "espresso")
                .await
                .is_ok_and(|response| !response.memories.is_empty());
            if shared {
                found = Some(c);
                break;
            }
        }
        drop(backend);
        subject.clean(&namespace);
        found
    })
}
