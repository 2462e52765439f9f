//! Running one piece of the gate on its own thread and runtime, with a deadline judged on the
//! backend's time (see [`late_timer`](crate::conformance::late_timer)): a backend that blocks
//! its thread, or panics, cannot take the caller with it.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::call_guard::panic_message;
use crate::conformance::late_timer::block_within;

/// Runs the future `make` returns on a fresh two-worker runtime on a thread named `name`, and
/// waits for it at most `deadline` (and once more as long as the wait overran, the machine's
/// scheduling delay). The error says what went wrong, in a phrase that follows the name of
/// what ran ("did not finish within 60s: ...", with what was measured).
pub(crate) fn on_own_thread<F, Fut, T>(name: &str, deadline: Duration, make: F) -> Result<T, String>
where
    F: FnOnce() -> Fut + Send + 'static,
    Fut: Future<Output = T>,
    T: Send + 'static,
{
    watched(name, deadline, None, make)
}

/// [`on_own_thread`], where `deadline` bounds the time without progress: each time it passes
/// with `cases` (the cases that passed) higher than when it started, the wait starts again. A
/// rule of many slow cases (a backend whose store opens slowly) runs as long as its cases
/// keep passing; one that stops making progress fails, saying how many cases had passed.
pub(crate) fn on_own_thread_watched<F, Fut, T>(
    name: &str,
    deadline: Duration,
    cases: Arc<AtomicU32>,
    make: F,
) -> Result<T, String>
where
    F: FnOnce() -> Fut + Send + 'static,
    Fut: Future<Output = T>,
    T: Send + 'static,
{
    watched(name, deadline, Some(cases), make)
}

fn watched<F, Fut, T>(
    name: &str,
    deadline: Duration,
    cases: Option<Arc<AtomicU32>>,
    make: F,
) -> Result<T, String>
where
    F: FnOnce() -> Fut + Send + 'static,
    Fut: Future<Output = T>,
    T: Send + 'static,
{
    let (sender, receiver) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name(name.to_owned())
        .spawn(move || {
            let outcome = match tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
            {
                Ok(runtime) => {
                    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        runtime.block_on(make())
                    }));
                    runtime.shutdown_background();
                    outcome.map_err(|payload| {
                        format!("made the harness panic: {}", panic_message(payload))
                    })
                }
                Err(err) => Err(format!("could not start: no tokio runtime ({err})")),
            };
            let _ = sender.send(outcome);
        });
    if let Err(err) = spawned {
        return Err(format!("could not start: no thread ({err})"));
    }
    let (mut outcome, mut ended) = (None, false);
    let passed = || cases.as_ref().map_or(0, |c| c.load(Ordering::Relaxed));
    let waited = loop {
        let passed_before = passed();
        let waited = block_within(deadline, Instant::now, |wait| {
            match receiver.recv_timeout(wait) {
                Ok(result) => outcome = Some(result),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => ended = true,
            }
            outcome.is_some() || ended
        });
        if waited.is_ok() || passed() == passed_before {
            break waited;
        }
    };
    match (outcome, waited) {
        (Some(result), _) => result,
        (None, Err(overrun)) if cases.is_some() => {
            let stalled = match passed() {
                0 => format!("did not finish a case within {deadline:?}"),
                n => format!("made no progress for {deadline:?} after {n} cases passed"),
            };
            Err(format!(
                "{stalled}: a backend call blocked its thread, where the per-call timeout \
                 cannot fire, or one case took that long ({overrun})"
            ))
        }
        (None, Err(overrun)) => Err(format!(
            "did not finish within {deadline:?}: a backend call blocked its thread, where the \
             per-call timeout cannot fire ({overrun})"
        )),
        (None, Ok(())) => {
            Err("stopped without a result: its thread ended without sending one".into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_comes_back_and_a_hang_fails_saying_what_was_measured() {
        let limit = Duration::from_secs(60);
        assert_eq!(on_own_thread("answers", limit, || async { 7 }), Ok(7));
        let panicked = on_own_thread("panics", limit, || async { panic!("boom") });
        assert_eq!(
            panicked,
            Err::<(), _>("made the harness panic: boom".into())
        );
        // A thread that never finishes (left behind, as a blocked backend's would be).
        let hung = on_own_thread("hangs", Duration::from_millis(20), || {
            std::future::pending::<()>()
        })
        .expect_err("a hang fails");
        assert!(
            hung.starts_with(
                "did not finish within 20ms: a backend call blocked its thread, where the \
                 per-call timeout cannot fire (given up after "
            ) && hung.contains(" ms: the harness's own timer fired ")
                && hung.ends_with(" ms late, and that scheduling delay was allowed once on top)"),
            "{hung}"
        );
    }

    #[test]
    fn a_rule_whose_cases_keep_passing_runs_past_the_deadline_and_one_that_stalls_fails() {
        let deadline = Duration::from_secs(1);
        // 150 cases of 20 ms each: 3 s in all, three times the deadline, and a case passes
        // fifty times as often as the deadline (a busy machine delays them far less).
        let cases = Arc::new(AtomicU32::new(0));
        let counted = Arc::clone(&cases);
        let slow =
            on_own_thread_watched("slow", deadline, Arc::clone(&cases), move || async move {
                for _ in 0..150 {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    counted.fetch_add(1, Ordering::Relaxed);
                }
                "done"
            });
        assert_eq!(slow, Ok("done"));
        // Two cases pass, then the rule stalls.
        let cases = Arc::new(AtomicU32::new(0));
        let counted = Arc::clone(&cases);
        let stalled = on_own_thread_watched("stalls", deadline, cases, move || async move {
            counted.fetch_add(2, Ordering::Relaxed);
            std::future::pending::<()>().await;
        })
        .expect_err("a stall fails");
        assert!(
            stalled.starts_with(
                "made no progress for 1s after 2 cases passed: a backend call blocked its \
                 thread, where the per-call timeout cannot fire, or one case took that long \
                 (given up after "
            ),
            "{stalled}"
        );
    }
}
