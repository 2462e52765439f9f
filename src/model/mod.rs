//! The ADK memory data model: sessions of events, their content, and search results.

mod content;
mod event;
mod memory_entry;
mod memory_key;
mod part;
mod session;

pub use content::Content;
pub use event::Event;
pub use memory_entry::{MemoryEntry, SearchMemoryResponse};
pub(crate) use memory_key::KeyRef;
pub use memory_key::MemoryKey;
pub use part::Part;
pub use session::Session;
