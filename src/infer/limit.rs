//! The limit, counted rather than searched for: the number of entries a search for a word
//! that 500 events share returns.

use crate::conformance::{Namespace, Subject};
use crate::profile::Limit;
use crate::profile::dimension::Dimension;
use crate::{Event, Session};

use super::decide::Run;

/// Decides the limit: the counted one, checked by the limit's rules.
pub(super) fn decide(run: &mut Run<impl FnMut(&str)>) {
    let limit = counted(&run.subject());
    let name = match limit {
        Limit::AtMost(_) => limit.text(),
        Limit::Unlimited => limit
            .entry()
            .map(|entry| entry.value.to_owned())
            .unwrap_or_default(),
    };
    let candidate = run.with(|p| limit.set(p));
    run.decide(Limit::KEY, Limit::DECIDED_BY, vec![(name, candidate)]);
}

/// The backend's limit, counted.
pub(super) fn counted(subject: &Subject) -> Limit {
    count(subject).map_or(Limit::Unlimited, Limit::AtMost)
}

/// Adds 500 events that share a word (more than any plausible hidden cap) and searches it: the
/// number that comes back, when it is fewer, is the backend's limit.
fn count(subject: &Subject) -> Option<usize> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .ok()?;
    runtime.block_on(async {
        let namespace = Namespace::fresh();
        let backend = subject.open(&namespace).await;
        let session = Session::new("infer", "limit", "s-1")
            .with_events((0..500).map(|i| Event::text("user", format!("espresso number {i}"))));
        backend.add_session_to_memory(&session).await.ok()?;
        let found = backend.search_memory("infer", "limit", "espresso").await;
        drop(backend);
        subject.clean(&namespace);
        let found = found.ok()?.memories.len();
        (found < 500).then_some(found.max(1))
    })
}
