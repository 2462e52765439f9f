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
///
/// The capture sees every event its body emits, whatever other tests run beside it: see
/// [`Undecided`], which holds the process-wide default from before `main`.
pub fn with_captured_logs<T>(body: impl std::future::Future<Output = T>) -> (T, String) {
    install_undecided_default();
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

/// The process-wide default subscriber of every test binary that uses this module: it records
/// nothing, and answers every callsite with [`Interest::sometimes`], so that no callsite's
/// interest is ever cached as "never".
///
/// tracing caches one interest per callsite, computed once, when the callsite is first reached
/// anywhere in the process. With one dispatcher registered, tracing-core computes it from the
/// default subscriber of the thread that reached it first: a sibling test's thread, with no
/// subscriber, caches `never`, and a capture on another thread then misses that callsite's
/// events (a capture installed after the registration repairs it; one installed while it runs
/// does not). With this default set before any test thread starts, the thread that registers
/// a callsite always has a subscriber that leaves the question open, and each event asks the
/// subscriber of its own thread.
///
/// [`Interest::sometimes`]: tracing::subscriber::Interest::sometimes
struct Undecided;

impl tracing::Subscriber for Undecided {
    fn register_callsite(
        &self,
        _: &'static tracing::Metadata<'static>,
    ) -> tracing::subscriber::Interest {
        tracing::subscriber::Interest::sometimes()
    }

    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        false
    }

    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }

    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}

    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}

    fn event(&self, _: &tracing::Event<'_>) {}

    fn enter(&self, _: &tracing::span::Id) {}

    fn exit(&self, _: &tracing::span::Id) {}
}

/// Sets [`Undecided`] as the global default subscriber, once; later calls do nothing.
extern "C" fn install_undecided_default() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // Only this module sets a global default in the kit's tests.
        let _ = tracing::subscriber::set_global_default(Undecided);
    });
}

/// Installs [`Undecided`] before `main`, so before the test runner starts any test thread
/// (an ELF constructor, run by the loader; elsewhere the first capture installs it).
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static INSTALL_UNDECIDED_BEFORE_MAIN: extern "C" fn() = install_undecided_default;
