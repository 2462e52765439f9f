//! Running one piece of the gate on its own thread and runtime, with a deadline: a backend
//! that blocks its thread, or panics, cannot take the caller with it.

use std::future::Future;
use std::sync::mpsc;
use std::time::Duration;

use super::call_guard::panic_message;

/// Runs the future `make` returns on a fresh two-worker runtime on a thread named `name`, and
/// waits for it at most `deadline`. The error says what went wrong, in a phrase that follows
/// the name of what ran ("did not finish within 60s: ...").
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
    receiver.recv_timeout(deadline).unwrap_or_else(|_| {
        Err(format!(
            "did not finish within {deadline:?}: a backend call blocked its thread, where the \
             per-call timeout cannot fire"
        ))
    })
}
