//! A direct try, for the dimensions infer probes before the rules decide them: texts stored
//! under one key of a fresh namespace, beside a control word, and words searched alone.

use crate::conformance::{Namespace, Subject};
use crate::{Event, Session};

/// The word stored with the probed texts, and searched alone first as the control: a search
/// of it that finds nothing means the backend finds nothing by any word, so the probe tells
/// nothing.
pub(super) const CONTROL: &str = "lemur";

/// For each of `queries`, whether a search of it alone finds anything, after `texts` were
/// stored under one key (`user`) of a fresh namespace, each in an event of its own. An error
/// from a search counts as found (the rules then decide). `None` where the add fails, where
/// a search of [`CONTROL`] (which one of `texts` must hold) finds nothing, or where the
/// runtime cannot start. The namespace is cleaned after.
pub(super) fn found(
    subject: &Subject,
    user: &str,
    texts: &[String],
    queries: &[&str],
) -> Option<Vec<bool>> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .ok()?;
    runtime.block_on(async {
        let namespace = Namespace::fresh();
        let backend = subject.open(&namespace).await;
        let events: Vec<Event> = texts
            .iter()
            .map(|text| Event::text("user", text.clone()))
            .collect();
        let session = Session::new("infer", user, "s-1").with_events(events);
        let added = backend.add_session_to_memory(&session).await;
        let mut found = None;
        if added.is_ok()
            && backend
                .search_memory("infer", user, CONTROL)
                .await
                .is_ok_and(|found| !found.memories.is_empty())
        {
            let mut each = Vec::with_capacity(queries.len());
            for query in queries {
                each.push(
                    backend
                        .search_memory("infer", user, query)
                        .await
                        .map_or(true, |found| !found.memories.is_empty()),
                );
            }
            found = Some(each);
        }
        drop(backend);
        subject.clean(&namespace);
        found
    })
}
