use std::sync::Arc;

use async_trait::async_trait;

use crate::{MemoryError, SearchMemoryResponse, Session};

/// An agent's long-term memory: ADK's two calls, in async Rust.
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
        }
    )*};
}

forward_memory_service!(Arc<T>, Box<T>, &T);
