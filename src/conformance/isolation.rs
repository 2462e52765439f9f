//! Running one piece of the gate on its own thread and runtime, with a deadline judged on the
//! backend's time (see [`late_timer`](super::late_timer)): a backend that blocks its thread,
//! or panics, cannot take the caller with it.

use std::future::Future;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::call_guard::panic_message;
use super::late_timer::block_within;

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
    let waited = block_within(deadline, Instant::now, |wait| {
        match receiver.recv_timeout(wait) {
            Ok(result) => outcome = Some(result),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => ended = true,
        }
        outcome.is_some() || ended
    });
    match (outcome, waited) {
        (Some(result), _) => result,
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
}
