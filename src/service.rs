use std::sync::Arc;

use async_trait::async_trait;

use crate::{Event, MemoryEntry, MemoryError, SearchMemoryResponse, Session};

/// An agent's long-term memory: ADK's two calls, in async Rust, and the optional calls ADK
/// Python's `BaseMemoryService` has grown (a delta of events, explicit memories, deleting a
/// memory by id) and a search with options, each answering [`MemoryError::Unsupported`] unless
/// the backend implements it (and declares it in its profile's capabilities).
///
/// The trait is object safe: `Arc<dyn MemoryService>` works, and so does any `Arc`, `Box` or
/// reference to an implementation. Implement it with the re-exported
/// [`async_trait`](crate::async_trait):
///
/// ```
/// use memory_conformance::{async_trait, MemoryError, MemoryService, SearchMemoryResponse, Session};
///
/// struct Forgetful;
///
/// #[async_trait]
/// impl MemoryService for Forgetful {
///     async fn add_session_to_memory(&self, _session: &Session) -> Result<(), MemoryError> {
///         Ok(())
///     }
///     async fn search_memory(&self, _app: &str, _user: &str, _query: &str)
///         -> Result<SearchMemoryResponse, MemoryError> {
///         Ok(SearchMemoryResponse::default())
///     }
/// }
/// let memory: std::sync::Arc<dyn MemoryService> = std::sync::Arc::new(Forgetful);
/// ```
#[async_trait]
pub trait MemoryService: Send + Sync {
    /// Stores `session`'s events so later searches under its app name and user id can find
    /// them. May be called many times for the same session; what a repeated call does
    /// (replace or append) is part of a backend's declared behaviour.
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError>;

    /// Searches what was stored under (`app_name`, `user_id`) for `query`.
    async fn search_memory(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
    ) -> Result<SearchMemoryResponse, MemoryError>;

    /// Searches with [`SearchOptions`] (a result limit). A backend that takes no options
    /// answers a search without any as [`search_memory`](Self::search_memory) does, and any
    /// other with [`MemoryError::Unsupported`] (the default); one that takes them declares the
    /// `search_limit` capability in its profile.
    async fn search_memory_with(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
        options: &SearchOptions,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        if options.is_default() {
            self.search_memory(app_name, user_id, query).await
        } else {
            Err(MemoryError::Unsupported {
                operation: "search options (a result limit)",
            })
        }
    }

    /// Adds `events` as an incremental update (a delta) of the session `session_id` (or of no
    /// session), never as the whole session: ADK's `add_events_to_memory`. What it does with
    /// events already stored is part of a backend's declared behaviour (the `events_delta`
    /// capability). The default answers [`MemoryError::Unsupported`].
    async fn add_events_to_memory(
        &self,
        app_name: &str,
        user_id: &str,
        session_id: Option<&str>,
        events: &[Event],
    ) -> Result<(), MemoryError> {
        let _ = (app_name, user_id, session_id, events);
        Err(MemoryError::Unsupported {
            operation: "add_events_to_memory",
        })
    }

    /// Stores explicit memories, searchable like events: ADK's `add_memory`. An entry's `id`,
    /// when given, is the id later searches return and [`delete_memory`](Self::delete_memory)
    /// takes. The default answers [`MemoryError::Unsupported`].
    async fn add_memory(
        &self,
        app_name: &str,
        user_id: &str,
        memories: &[MemoryEntry],
    ) -> Result<(), MemoryError> {
        let _ = (app_name, user_id, memories);
        Err(MemoryError::Unsupported {
            operation: "add_memory",
        })
    }

    /// Forgets the memory whose [`MemoryEntry::id`] is `memory_id` under (`app_name`,
    /// `user_id`): no later search returns it, and nothing under another key changes. ADK's
    /// `delete_memory`. An unknown id changes nothing. The default answers
    /// [`MemoryError::Unsupported`].
    async fn delete_memory(
        &self,
        app_name: &str,
        user_id: &str,
        memory_id: &str,
    ) -> Result<(), MemoryError> {
        let _ = (app_name, user_id, memory_id);
        Err(MemoryError::Unsupported {
            operation: "delete_memory",
        })
    }
}

/// What a search may carry beyond its key and query.
///
/// ```
/// use memory_conformance::SearchOptions;
/// assert_eq!(SearchOptions::default().limit, None);
/// assert_eq!(SearchOptions::with_limit(5).limit, Some(5));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct SearchOptions {
    /// At most this many entries, the best first where the backend ranks, instead of the
    /// backend's own limit (adk-rust's `SearchRequest.limit`, whose default is 10).
    pub limit: Option<usize>,
}

impl SearchOptions {
    /// Options asking for at most `limit` entries.
    pub fn with_limit(limit: usize) -> Self {
        Self { limit: Some(limit) }
    }

    /// Whether these are the options of a plain search.
    pub fn is_default(&self) -> bool {
        self.limit.is_none()
    }
}

macro_rules! forward_memory_service {
    ($($pointer:ty),*) => {$(
        #[async_trait]
        impl<T: MemoryService + ?Sized> MemoryService for $pointer {
            async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
                (**self).add_session_to_memory(session).await
            }

            async fn search_memory(
                &self,
                app_name: &str,
                user_id: &str,
                query: &str,
            ) -> Result<SearchMemoryResponse, MemoryError> {
                (**self).search_memory(app_name, user_id, query).await
            }

            async fn search_memory_with(
                &self,
                app_name: &str,
                user_id: &str,
                query: &str,
                options: &SearchOptions,
            ) -> Result<SearchMemoryResponse, MemoryError> {
                (**self).search_memory_with(app_name, user_id, query, options).await
            }

            async fn add_events_to_memory(
                &self,
                app_name: &str,
                user_id: &str,
                session_id: Option<&str>,
                events: &[Event],
            ) -> Result<(), MemoryError> {
                (**self).add_events_to_memory(app_name, user_id, session_id, events).await
            }

            async fn add_memory(
                &self,
                app_name: &str,
                user_id: &str,
                memories: &[MemoryEntry],
            ) -> Result<(), MemoryError> {
                (**self).add_memory(app_name, user_id, memories).await
            }

            async fn delete_memory(
                &self,
                app_name: &str,
                user_id: &str,
                memory_id: &str,
            ) -> Result<(), MemoryError> {
                (**self).delete_memory(app_name, user_id, memory_id).await
            }
        }
    )*};
}

forward_memory_service!(Arc<T>, Box<T>, &T);
