//! Helpers shared by the kit's integration tests.
#![allow(dead_code)]

pub mod deviants;

use std::io;
use std::sync::{Arc, Mutex, PoisonError};

use memory_conformance::Timestamp;

/// A fixed instant `millis` milliseconds after 2026-01-01T00:00:00Z.
pub fn at(millis: i64) -> Timestamp {
    Timestamp::from_millisecond(1_767_225_600_000 + millis).expect("in range")
}

/// Runs `body` on a current-thread runtime with a tracing subscriber that captures every
/// event at INFO and above, and returns the body's output with the captured log text.
pub fn with_captured_logs<T>(body: impl std::future::Future<Output = T>) -> (T, String) {
    let buffer = SharedBuffer::default();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(buffer.clone())
        .with_ansi(false)
        .with_max_level(tracing::Level::INFO)
        .finish();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let output = tracing::subscriber::with_default(subscriber, || runtime.block_on(body));
    (output, buffer.text())
}

#[derive(Clone, Default)]
struct SharedBuffer(Arc<Mutex<Vec<u8>>>);

impl SharedBuffer {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(PoisonError::into_inner)).into_owned()
    }
}

impl io::Write for SharedBuffer {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for SharedBuffer {
    type Writer = SharedBuffer;

    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}
