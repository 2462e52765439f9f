//! [`ProcessMemoryService`]: one store of a [`ProcessBridge`](super::ProcessBridge)'s child.

use std::fmt;
use std::sync::Arc;

use async_trait::async_trait;
use serde_json::{Map, Value};

use super::child::Connection;
use super::protocol::Op;
use crate::{
    Event, MemoryEntry, MemoryError, MemoryService, SearchMemoryResponse, SearchOptions, Session,
};

/// The [`MemoryService`] of one store of a bridge child: `add_session_to_memory` sends `add`,
/// `search_memory` sends `search` and reads the entries the child returns with the kit's own
/// model (fields the kit does not know are ignored); protocol v2's optional calls send
/// `add_events`, `add_memory`, `delete` and `search` with a `limit`, and a child that answers
/// one with `"unsupported": true` gives [`MemoryError::Unsupported`].
///
/// Made by [`ProcessBridge::store`](super::ProcessBridge::store), whose drop sends `drop`, or
/// by [`ProcessBridge::open`](super::ProcessBridge::open), one instance of the store, whose
/// drop sends `close` (the store's storage stays until [`ProcessBridge::forget`]).
///
/// [`ProcessBridge::forget`]: super::ProcessBridge::forget
pub struct ProcessMemoryService {
    connection: Arc<Connection>,
    store: String,
    instance: Option<u64>,
}

impl ProcessMemoryService {
    pub(super) fn new(connection: Arc<Connection>, store: String, instance: Option<u64>) -> Self {
        Self {
            connection,
            store,
            instance,
        }
    }

    /// The name of the child's store this service reads and writes.
    pub fn store(&self) -> &str {
        &self.store
    }

    /// The number of the instance of the store this service is, when it was opened with
    /// protocol v2's `open`.
    pub fn instance(&self) -> Option<u64> {
        self.instance
    }

    fn memories(&self, mut fields: Map<String, Value>) -> Result<Vec<MemoryEntry>, MemoryError> {
        let memories = fields.remove("memories").ok_or_else(|| {
            self.connection
                .error("answered a search without `memories`")
        })?;
        serde_json::from_value(memories).map_err(|err| {
            // The reader's message can quote the answer's content.
            let (err, note) = self.connection.shown(&err.to_string());
            self.connection.error(format!(
                "answered a search with memories the kit cannot read: {err}{note}"
            ))
        })
    }
}

#[async_trait]
impl MemoryService for ProcessMemoryService {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
        let op = Op::Add {
            store: &self.store,
            instance: self.instance,
            session,
        };
        self.connection.request(&op).await.map(drop)
    }

    async fn search_memory(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        self.search_memory_with(app_name, user_id, query, &SearchOptions::default())
            .await
    }

    async fn search_memory_with(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
        options: &SearchOptions,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        let op = Op::Search {
            store: &self.store,
            instance: self.instance,
            app_name,
            user_id,
            query,
            limit: options.limit,
        };
        let fields = self.connection.request(&op).await?;
        self.memories(fields).map(SearchMemoryResponse::new)
    }

    async fn add_events_to_memory(
        &self,
        app_name: &str,
        user_id: &str,
        session_id: Option<&str>,
        events: &[Event],
    ) -> Result<(), MemoryError> {
        let op = Op::AddEvents {
            store: &self.store,
            instance: self.instance,
            app_name,
            user_id,
            session_id,
            events,
        };
        self.connection.request(&op).await.map(drop)
    }

    async fn add_memory(
        &self,
        app_name: &str,
        user_id: &str,
        memories: &[MemoryEntry],
    ) -> Result<(), MemoryError> {
        let op = Op::AddMemory {
            store: &self.store,
            instance: self.instance,
            app_name,
            user_id,
            memories,
        };
        self.connection.request(&op).await.map(drop)
    }

    async fn delete_memory(
        &self,
        app_name: &str,
        user_id: &str,
        memory_id: &str,
    ) -> Result<(), MemoryError> {
        let op = Op::Delete {
            store: &self.store,
            instance: self.instance,
            app_name,
            user_id,
            memory_id,
        };
        self.connection.request(&op).await.map(drop)
    }
}

impl Drop for ProcessMemoryService {
    fn drop(&mut self) {
        match self.instance {
            Some(instance) => self.connection.send(&Op::Close {
                store: &self.store,
                instance,
            }),
            None => self.connection.send(&Op::Drop { store: &self.store }),
        }
    }
}

impl fmt::Debug for ProcessMemoryService {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProcessMemoryService")
            .field("store", &self.store)
            .field("instance", &self.instance)
            .field("connection", &self.connection)
            .finish()
    }
}
