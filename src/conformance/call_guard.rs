//! Every backend call the harness makes goes through here: bounded by the per-call timeout
//! (judged on the backend's time: see [`late_timer`](super::late_timer)), its error and its
//! panic turned into a [`Problem`].

use std::any::Any;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use super::late_timer;
use super::mismatch::Problem;
use crate::MemoryError;

/// Runs a backend call with a timeout, turning errors and panics into [`Problem`]s.
/// `op` describes the call, and is only asked for when something went wrong. A call still
/// running at the timeout is given once more as long as the harness's own timer fired late
/// ([`late_timer::within`]).
pub(crate) async fn guarded<'f, T>(
    timeout: Duration,
    op: impl FnOnce() -> String,
    call: impl Future<Output = Result<T, MemoryError>> + Send + 'f,
) -> Result<T, Problem> {
    let caught = CatchUnwind(Box::pin(call));
    match late_timer::within(timeout, caught).await {
        Err(overrun) => Err(Problem::TimedOut {
            op: op(),
            after: timeout,
            overrun,
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

#[cfg(test)]
mod tests {
    use super::super::mismatch::Mismatch;
    use super::*;

    #[tokio::test]
    async fn a_hung_call_times_out_saying_what_was_measured() {
        let problem = guarded(
            Duration::from_millis(20),
            || "search_memory(\"a\"/\"u\", \"q\")".into(),
            std::future::pending::<Result<(), MemoryError>>(),
        )
        .await
        .expect_err("a hung call fails");
        assert!(problem.is_hang());
        let text = Mismatch { step: 2, problem }.to_string();
        assert!(
            text.starts_with(
                "step 2: search_memory(\"a\"/\"u\", \"q\") did not answer within 20ms (the \
                 per-call timeout); given up after "
            ) && text.contains(" ms: the harness's own timer fired ")
                && text.ends_with(" ms late, and that scheduling delay was allowed once on top"),
            "{text}"
        );
    }

    #[tokio::test]
    async fn errors_and_panics_become_problems() {
        let limit = Duration::from_secs(60);
        let failed = guarded(limit, || "add".into(), async {
            Err::<(), _>(MemoryError::backend("disk full"))
        })
        .await;
        assert!(
            matches!(&failed, Err(Problem::Failed { op, error }) if op == "add" && error.contains("disk full")),
            "{failed:?}"
        );
        let panicked = guarded(limit, || "add".into(), async {
            if limit > Duration::ZERO {
                panic!("index out of bounds");
            }
            Ok(())
        })
        .await;
        assert!(
            matches!(&panicked, Err(Problem::Panicked { message, .. }) if message == "index out of bounds"),
            "{panicked:?}"
        );
        assert_eq!(
            guarded(limit, || "add".into(), async { Ok(7) }).await.ok(),
            Some(7)
        );
    }
}
