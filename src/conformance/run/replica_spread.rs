//! The debugging guide's replicas, observed: one write through the first of three replicas
//! behind a round-robin load balancer, then searches spread across the three.

use serde::Serialize;

use super::call_guard::guarded;
use crate::conformance::declare::namespace::Namespace;
use crate::conformance::declare::subject::Subject;
use crate::conformance::judge::mismatch::Mismatch;
use crate::{Event, MemoryService, Session};

/// How many replicas stand behind the load balancer: the guide's three.
pub const REPLICAS: usize = 3;

/// What the searches of [`replicas`] found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ReplicaSpread {
    /// Whether the profile declares a shared store.
    pub declared_shared: bool,
    /// The replicas behind the load balancer ([`REPLICAS`]); the write went through replica 1.
    pub replicas: usize,
    /// Each search in order: the replica it went to (from 1) and whether it found the write.
    pub searches: Vec<(usize, bool)>,
}

impl ReplicaSpread {
    /// How many searches found the write.
    pub fn found(&self) -> usize {
        self.searches.iter().filter(|(_, found)| *found).count()
    }

    /// `found by 1 of 3 searches`.
    pub fn summary(&self) -> String {
        let searches = self.searches.len();
        let plural = if searches == 1 { "" } else { "es" };
        format!("found by {} of {searches} search{plural}", self.found())
    }
}

/// Runs the guide's scenario on `subject`: [`REPLICAS`] instances opened on one fresh
/// namespace, as identically configured replicas would be, behind a round-robin load
/// balancer; one session (`My favourite coffee is a flat white.`) written through replica 1,
/// then `searches` searches for `coffee` under its key, each through the next replica (2, 3,
/// 1, 2, …). A subject whose factory ignores the namespace ([`Subject::new`]: an in-process
/// store per instance) makes separate stores, and only the searches through replica 1 find
/// the write (`found by 1 of 3 searches`); one whose instances share the namespace's storage
/// finds it every time (`3 of 3`). The namespace is cleaned up afterwards.
///
/// The searches start once the profile's visibility bound has passed after the write, so a
/// backend that indexes later is not taken for one that does not share. Every call is bounded
/// by the subject's per-call timeout. The error says which call failed
/// (step 1 is the write, step 2 the first search).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use memory_conformance::InMemoryMemoryService;
/// use memory_conformance::conformance::{self, Subject};
/// use memory_conformance::profile::Profile;
/// let subject = Subject::new("reference", Profile::reference(), || async { InMemoryMemoryService::new() });
/// let spread = conformance::replicas(&subject, 3).await.unwrap();
/// assert_eq!(spread.summary(), "found by 1 of 3 searches");
/// assert_eq!(spread.searches, [(2, false), (3, false), (1, true)]);
/// # }
/// ```
pub async fn replicas(subject: &Subject, searches: usize) -> Result<ReplicaSpread, String> {
    let namespace = Namespace::fresh();
    let observed = observe(subject, &namespace, searches).await;
    subject.clean(&namespace);
    observed
}

async fn observe(
    subject: &Subject,
    namespace: &Namespace,
    searches: usize,
) -> Result<ReplicaSpread, String> {
    let timeout = subject.options.op_timeout;
    let failed = |step: usize| move |problem| Mismatch { step, problem }.to_string();
    let mut instances: Vec<std::sync::Arc<dyn MemoryService>> = Vec::new();
    for _ in 0..REPLICAS {
        let opening = async { Ok(subject.open(namespace).await) };
        instances.push(
            guarded(timeout, || "opening a replica".into(), opening)
                .await
                .map_err(failed(0))?,
        );
    }
    let session = Session::new("support", "u-42", "monday")
        .with_event(Event::text("user", "My favourite coffee is a flat white."));
    let written = session.events[0].content.clone();
    let op = || "add_session_to_memory through replica 1".to_owned();
    guarded(timeout, op, instances[0].add_session_to_memory(&session))
        .await
        .map_err(failed(1))?;
    // A backend that declares its writes visible only after a delay has it to show them.
    tokio::time::sleep(subject.profile().visibility.bound()).await;
    let mut seen = Vec::with_capacity(searches);
    for search in 0..searches {
        let replica = (search + 1) % REPLICAS;
        let op = || {
            format!(
                "search_memory(\"support\", \"u-42\", \"coffee\") through replica {}",
                replica + 1
            )
        };
        let found = guarded(
            timeout,
            op,
            instances[replica].search_memory("support", "u-42", "coffee"),
        )
        .await
        .map_err(failed(search + 2))?;
        let hit = found
            .memories
            .iter()
            .any(|entry| Some(&entry.content) == written.as_ref());
        seen.push((replica + 1, hit));
    }
    drop(instances);
    Ok(ReplicaSpread {
        declared_shared: subject.profile().capabilities.shared,
        replicas: REPLICAS,
        searches: seen,
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::replicas;
    use crate::conformance::Subject;
    use crate::profile::Profile;
    use crate::{
        InMemoryMemoryService, MemoryError, MemoryService, SearchMemoryResponse, Session,
        async_trait,
    };

    /// An instance on a store every instance shares; its searches fail when `broken`.
    struct OnShared {
        store: Arc<InMemoryMemoryService>,
        broken: bool,
    }

    #[async_trait]
    impl MemoryService for OnShared {
        async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
            self.store.add_session_to_memory(session).await
        }

        async fn search_memory(
            &self,
            app: &str,
            user: &str,
            query: &str,
        ) -> Result<SearchMemoryResponse, MemoryError> {
            if self.broken {
                return Err(MemoryError::backend("the index is gone"));
            }
            self.store.search_memory(app, user, query).await
        }
    }

    fn shared(broken: bool) -> Subject {
        let store = Arc::new(InMemoryMemoryService::new());
        let mut profile = Profile::reference();
        profile.capabilities.shared = true;
        Subject::namespaced("shared", profile, move |_namespace| {
            let store = Arc::clone(&store);
            async move { OnShared { store, broken } }
        })
    }

    #[tokio::test]
    async fn a_shared_store_is_found_through_every_replica_and_a_failing_call_is_named() {
        let spread = replicas(&shared(false), 4).await.unwrap();
        assert!(spread.declared_shared);
        assert_eq!(
            spread.searches,
            [(2, true), (3, true), (1, true), (2, true)]
        );
        assert_eq!(spread.summary(), "found by 4 of 4 searches");

        let failed = replicas(&shared(true), 3).await.unwrap_err();
        assert_eq!(
            failed,
            "step 2: search_memory(\"support\", \"u-42\", \"coffee\") through replica 2 failed: \
             memory backend failed: the index is gone"
        );
    }
}
