//! Running blocking database work without blocking the async runtime.

use memory_conformance::MemoryError;

/// Runs `work` on Tokio's blocking thread pool when called inside a Tokio runtime, and on the
/// calling thread otherwise (another executor, or none), so the service works everywhere and
/// never stalls a Tokio worker. `doing` describes the work for the error raised when the
/// blocking task itself fails (it panicked or the runtime is shutting down).
///
/// The work runs to its end even when the returned future is dropped: a cancelled add still
/// lands, whole.
pub(crate) async fn run_blocking<T, F>(
    doing: impl FnOnce() -> String,
    work: F,
) -> Result<T, MemoryError>
where
    T: Send + 'static,
    F: FnOnce() -> Result<T, MemoryError> + Send + 'static,
{
    match tokio::runtime::Handle::try_current() {
        Ok(runtime) => runtime
            .spawn_blocking(work)
            .await
            .map_err(|err| MemoryError::backend_with_source(doing(), err))?,
        Err(_) => work(),
    }
}
