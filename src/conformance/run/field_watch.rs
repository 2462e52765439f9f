//! Every field of every entry, after each step that can change it: a re-add, a delta, a reopen,
//! another instance, concurrent writes. Once such a step has run, each search's entries are
//! compared field for field with the events they stand for ([`first_departure`]); a field
//! that departs fails the rule whose scenario ran the step, naming the field and the steps,
//! unless `result.fidelity`'s own scenario (a first add into a fresh store, then the same
//! search) shows the same departure: that one stays `result.fidelity`'s alone. The check
//! costs nothing before such a step, and the first-add probe runs only on a departure, once a
//! kind of departure for the whole gate (its answer kept in the subject's run options).

use std::time::{Duration, Instant};

use super::call_guard::guarded;
use crate::conformance::declare::namespace::Namespace;
use crate::conformance::declare::subject::Subject;
use crate::conformance::generate::scenario::{Search, Step};
use crate::conformance::judge::fields::{Departure, Field, departure, first_departure};
use crate::conformance::judge::identity::same_entry;
use crate::conformance::judge::mismatch::Problem;
use crate::conformance::judge::oracle::Oracle;
use crate::profile::Timestamps;
use crate::{Event, MemoryEntry, MemoryKey, Session};

/// The steps of a run that can change a stored entry's fields.
#[derive(Default)]
pub(crate) struct FieldWatch {
    /// Each such step (1-based) and what it did.
    changers: Vec<(usize, String)>,
    /// The sessions added so far, to tell a re-add.
    added: Vec<(MemoryKey, String)>,
}

impl FieldWatch {
    /// Notes step `at` before it runs, if it can change what is stored.
    pub(crate) fn before(&mut self, at: usize, step: &Step) {
        let what = match step {
            Step::Add(session) => {
                let added = (session.key(), session.id.clone());
                if self.added.contains(&added) {
                    "a re-add".to_owned()
                } else {
                    self.added.push(added);
                    return;
                }
            }
            Step::AddEvents { .. } => "a delta of events".into(),
            Step::ConcurrentAdds(_) => "concurrent adds".into(),
            Step::RacingReplace { .. } => "re-adds raced with searches".into(),
            Step::Open => "another instance".into(),
            Step::Use(n) => format!("instance {n}"),
            Step::Replicas(n) => format!("{n} instances behind a load balancer"),
            Step::Reopen => "a reopen".into(),
            _ => return,
        };
        self.changers.push((at, what));
    }

    /// Checks every field of `actual`, the answer to `search` at step `at`, once a step that
    /// can change fields has run.
    pub(crate) async fn check(
        &mut self,
        subject: &Subject,
        oracle: &Oracle,
        search: &Search,
        actual: &[MemoryEntry],
        at: usize,
    ) -> Result<(), Problem> {
        if self.changers.iter().all(|(step, _)| *step >= at) {
            return Ok(());
        }
        let Some(departed) = first_departure(oracle, &search.key, actual) else {
            return Ok(());
        };
        let kind = format!("{:?}", kind(&departed));
        let known = lock(&subject.options.first_adds).get(&kind).copied();
        let first_add = match known {
            Some(shown) => shown,
            None => {
                let shown = first_add_departs(subject, &search.key, &search.query, &departed)
                    .await
                    .unwrap_or(true);
                lock(&subject.options.first_adds).insert(kind, shown);
                shown
            }
        };
        if first_add {
            return Ok(());
        }
        let steps: Vec<String> = self
            .changers
            .iter()
            .filter(|(step, _)| *step < at)
            .map(|(step, what)| format!("step {step} ({what})"))
            .collect();
        Err(Problem::Unexpected {
            expected: "every entry with the role, non-text parts, author and timestamp its \
                       event wrote, as a first add keeps them (result.fidelity's scenario)"
                .into(),
            why: format!(
                "the {} changed after {}: {departed}",
                departed.field.name(),
                steps.join(", ")
            ),
            actual: actual.to_vec(),
            with_metadata: true,
        })
    }
}

/// `mutex`'s value, also after a panic while it was held.
fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What makes two departures the same kind, for the probe's cache: the field, and its values
/// (a timestamp's only whether it is there, as each event's differs).
fn kind(departed: &Departure) -> (Field, Option<String>, Option<String>) {
    match departed.field {
        Field::Timestamp => (
            Field::Timestamp,
            None,
            departed.returned.as_ref().map(|_| String::new()),
        ),
        field => (field, departed.stored.clone(), departed.returned.clone()),
    }
}

/// Whether `result.fidelity`'s scenario shows `departed`'s field departing too: the event
/// alone, added to a fresh store of the backend, then searched for with `query`. `None` where
/// the probe could not tell (a call failed, or the search did not return the event).
async fn first_add_departs(
    subject: &Subject,
    key: &MemoryKey,
    query: &str,
    departed: &Departure,
) -> Option<bool> {
    let written = &departed.written;
    let format = subject.profile().timestamps;
    let at: jiff::Timestamp = written.timestamp.as_deref()?.parse().ok()?;
    let event = Event::new(written.author.clone()?, Some(written.content.clone()))
        .at(at)
        .with_id("e-0");
    let mut expected = MemoryEntry::from_event(&event)?;
    if format == Timestamps::NaiveIsoformat {
        expected = expected.with_timestamp(at.to_string());
    }
    let session = Session::new(key.app_name.clone(), key.user_id.clone(), "s-1").with_event(event);
    let namespace = Namespace::fresh();
    let answer = probe(subject, &namespace, &session, query).await;
    subject.clean(&namespace);
    let entry = answer?;
    Some(departure(format, expected, &entry).is_some_and(|d| d.field == departed.field))
}

/// Adds `session` to a fresh instance on `namespace` and searches `query` until the entry of
/// its one event shows (under delayed visibility, up to twice the bound).
async fn probe(
    subject: &Subject,
    namespace: &Namespace,
    session: &Session,
    query: &str,
) -> Option<MemoryEntry> {
    let timeout = subject.options.op_timeout;
    let backend = guarded(timeout, || "opening an instance".into(), async {
        Ok(subject.open(namespace).await)
    })
    .await
    .ok()?;
    let add = backend.add_session_to_memory(session);
    guarded(timeout, || "a first add".into(), add).await.ok()?;
    let content = session.events.first()?.content.as_ref()?;
    let key = session.key();
    let until = Instant::now() + subject.profile().visibility.bound() * 2;
    loop {
        let search = backend.search_memory(&key.app_name, &key.user_id, query);
        let found = guarded(timeout, || "a search".into(), search).await.ok()?;
        if let Some(entry) = found
            .memories
            .into_iter()
            .find(|e| same_entry(&e.content, content))
        {
            return Some(entry);
        }
        if Instant::now() >= until {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_add_changes_nothing_and_every_later_kind_of_step_is_noted() {
        let session = Session::new("a", "u", "s-1");
        let other = Session::new("a", "u", "s-2");
        let mut watch = FieldWatch::default();
        watch.before(1, &Step::Add(session.clone()));
        watch.before(2, &Step::Add(other));
        watch.before(3, &Step::Settle);
        assert!(watch.changers.is_empty());
        watch.before(4, &Step::Add(session));
        watch.before(5, &Step::Reopen);
        watch.before(6, &Step::Open);
        watch.before(7, &Step::ConcurrentAdds(Vec::new()));
        let noted: Vec<(usize, &str)> = watch
            .changers
            .iter()
            .map(|(at, what)| (*at, what.as_str()))
            .collect();
        assert_eq!(
            noted,
            [
                (4, "a re-add"),
                (5, "a reopen"),
                (6, "another instance"),
                (7, "concurrent adds")
            ]
        );
    }
}
