//! Every backend call the harness makes goes through here: bounded by the per-call timeout,
//! its error and its panic turned into a [`Problem`].

use std::any::Any;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use super::mismatch::Problem;
use crate::MemoryError;

/// Runs a backend call with a timeout, turning errors and panics into [`Problem`]s.
/// `op` describes the call, and is only asked for when something went wrong.
pub(crate) async fn guarded<'f, T>(
    timeout: Duration,
    op: impl FnOnce() -> String,
    call: impl Future<Output = Result<T, MemoryError>> + Send + 'f,
) -> Result<T, Problem> {
    let caught = CatchUnwind(Box::pin(call));
    match tokio::time::timeout(timeout, caught).await {
        Err(_) => Err(Problem::TimedOut {
            op: op(),
            after: timeout,
        }),
        Ok(Err(payload)) => Err(Problem::Panicked {
            op: op(),
            message: panic_message(payload),
        }),
        Ok(Ok(Err(error))) => Err(Problem::Failed {
            op: op(),
            error: error_chain(&error),
        }),
        Ok(Ok(Ok(value))) => Ok(value),
    }
}

/// An error and its sources, joined with `: `; a source the text already quotes (a bridge
/// child's message) is not repeated.
fn error_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

/// The text of a panic's payload.
pub(crate) fn panic_message(payload: Box<dyn Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with a non-text payload".into())
}

/// A future that turns a panic while polling into an `Err` holding the panic's payload.
struct CatchUnwind<'f, T>(Pin<Box<dyn Future<Output = T> + Send + 'f>>);

impl<T> Future for CatchUnwind<'_, T> {
    type Output = Result<T, Box<dyn Any + Send>>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = self.0.as_mut();
        match std::panic::catch_unwind(AssertUnwindSafe(|| inner.poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(value)) => Poll::Ready(Ok(value)),
            Err(payload) => Poll::Ready(Err(payload)),
        }
    }
}
