//! Every backend call the harness makes goes through here: bounded by the per-call timeout
//! (judged on the backend's time: see [`late_timer`]), its error and its
//! panic turned into a [`Problem`].

use std::any::Any;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use crate::MemoryError;
use crate::conformance::judge::mismatch::Problem;
use crate::conformance::late_timer;

/// Runs a backend call with a timeout, turning errors and panics into [`Problem`]s.
/// `op` describes the call, and is only asked for when something went wrong. A call still
/// running at the timeout is given once more as long as the harness's own timer fired late
/// ([`late_timer::within`]).
pub(crate) async fn guarded<'f, T>(
    timeout: Duration,
    op: impl FnOnce() -> String,
    call: impl Future<Output = Result<T, MemoryError>> + Send + 'f,
) -> Result<T, Problem> {
    let started = Instant::now();
    let call = std::pin::pin!(call);
    let mut caught = CatchUnwind(call);
    // A call that answers on its first poll (an in-process backend without I/O) needs no
    // timer: one is armed only when it has to wait.
    let first = std::future::poll_fn(|cx| Poll::Ready(Pin::new(&mut caught).poll(cx))).await;
    let outcome = match first {
        Poll::Ready(outcome) => Ok(outcome),
        Poll::Pending => late_timer::within_after_pending(started, timeout, caught).await,
    };
    match outcome {
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
            error: error.report(),
        }),
        Ok(Ok(Ok(value))) => Ok(value),
    }
}

/// The text of a panic's payload.
pub(crate) fn panic_message(payload: Box<dyn Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with a non-text payload".into())
}

/// A future that turns a panic while polling the future it borrows into an `Err` holding the
/// panic's payload.
struct CatchUnwind<'f, F>(Pin<&'f mut F>);

impl<F: Future> Future for CatchUnwind<'_, F> {
    type Output = Result<F::Output, Box<dyn Any + Send>>;

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
    use super::*;
    use crate::conformance::judge::mismatch::Mismatch;

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
    async fn a_call_that_waits_is_polled_again_only_after_the_others_had_their_turn() {
        // A backend's interleaving with the harness's other work (a concurrent add, a search
        // racing a re-add) is the executor's: after a call's first `Pending`, the guard arms
        // its timer and hands the turn back before polling the call again.
        let other_ran = std::sync::atomic::AtomicBool::new(false);
        let call = async {
            tokio::task::yield_now().await;
            Ok(other_ran.load(std::sync::atomic::Ordering::SeqCst))
        };
        let other = async {
            other_ran.store(true, std::sync::atomic::Ordering::SeqCst);
        };
        let (seen, ()) = tokio::join!(
            guarded(Duration::from_secs(60), || "add".into(), call),
            other
        );
        assert_eq!(seen.ok(), Some(true));
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
