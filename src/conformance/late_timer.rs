//! Timeouts judged on the backend's time, not the machine's.
//!
//! On a busy machine the harness's own thread may not run when its timer is due, and a backend
//! on the same machine is slowed as much. So a timeout that fires first measures how late the
//! harness's own timer ran (the machine's scheduling delay, measured as
//! [`Settling`](super::run::settling::Settling) measures its pauses), and allows the call that much
//! more, once, before failing. A call that hangs still fails; the failure says what was
//! measured ([`Overrun`]).

use std::fmt;
use std::future::Future;
use std::task::Poll;
use std::time::{Duration, Instant};

/// What a timeout measured when it failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Overrun {
    /// How long the call had been waited for when it was given up.
    pub(crate) ran: Duration,
    /// How late the harness's own timer fired at the limit: the scheduling delay allowed once
    /// on top of it.
    pub(crate) late: Duration,
}

impl fmt::Display for Overrun {
    /// `given up after 20412 ms: the harness's own timer fired 406 ms late, and that scheduling
    /// delay was allowed once on top`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "given up after {} ms: the harness's own timer fired {} ms late, and that scheduling \
             delay was allowed once on top",
            self.ran.as_millis(),
            self.late.as_millis()
        )
    }
}

/// Awaits `call` for `limit`, then for as long again as the timer of that limit fired late.
pub(crate) async fn within<F: Future>(limit: Duration, call: F) -> Result<F::Output, Overrun> {
    within_on(limit, Instant::now, call).await
}

/// [`within`] for a call that started at `started` (on the monotonic clock) and whose first
/// poll has just returned `Pending`: its limit runs from `started`, and it is not polled again
/// before the task is woken, as an executor would not poll it again (the timer is armed and
/// the task goes back to the executor first).
pub(crate) async fn within_after_pending<F: Future>(
    started: Instant,
    limit: Duration,
    call: F,
) -> Result<F::Output, Overrun> {
    within_from(started, limit, Instant::now, call, true).await
}

/// [`within`], measuring lateness on the clock `now`.
async fn within_on<F: Future>(
    limit: Duration,
    now: impl Fn() -> Instant,
    call: F,
) -> Result<F::Output, Overrun> {
    within_from(now(), limit, now, call, false).await
}

/// [`within`] from `started`, measuring lateness on the clock `now`; `pending` says the call's
/// first poll has just returned `Pending`, so the first turn only arms the timer.
async fn within_from<F: Future>(
    started: Instant,
    limit: Duration,
    now: impl Fn() -> Instant,
    call: F,
    pending: bool,
) -> Result<F::Output, Overrun> {
    let mut call = std::pin::pin!(call);
    let due = tokio::time::Instant::from_std(started + limit);
    // Kept until the end: the timer armed on the first turn wakes the task at the limit even
    // if the call never does.
    let mut armed = std::pin::pin!(pending.then(|| tokio::time::sleep_until(due)));
    if let Some(mut armed) = armed.as_mut().as_pin_mut() {
        let mut turned = false;
        std::future::poll_fn(|cx| {
            if std::mem::replace(&mut turned, true) {
                return Poll::Ready(());
            }
            armed.as_mut().poll(cx)
        })
        .await;
    }
    if let Ok(output) = tokio::time::timeout_at(due, &mut call).await {
        return Ok(output);
    }
    let late = now().saturating_duration_since(started + limit);
    tokio::time::timeout(late, call).await.map_err(|_| Overrun {
        ran: now().saturating_duration_since(started),
        late,
    })
}

/// The blocking form of [`within`], on the clock `now`: `wait(d)` waits at most `d` for what
/// is awaited and says whether it came; it is asked for `limit`, then for as long again as
/// that wait overran.
pub(crate) fn block_within(
    limit: Duration,
    now: impl Fn() -> Instant,
    mut wait: impl FnMut(Duration) -> bool,
) -> Result<(), Overrun> {
    let started = now();
    if wait(limit) {
        return Ok(());
    }
    let late = now().saturating_duration_since(started + limit);
    if wait(late) {
        return Ok(());
    }
    Err(Overrun {
        ran: now().saturating_duration_since(started),
        late,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::{Cell, RefCell};

    const LIMIT: Duration = Duration::from_millis(50);

    /// A clock that reads `times` (ms after a start) one after the other, and calls `on_read`
    /// with how many it has read.
    fn clock<const N: usize>(times: [u64; N], on_read: impl Fn(usize)) -> impl Fn() -> Instant {
        let start = Instant::now();
        let next = Cell::new(0);
        move || {
            let at = start + Duration::from_millis(times[next.get()]);
            next.set(next.get() + 1);
            on_read(next.get());
            at
        }
    }

    #[tokio::test]
    async fn a_call_that_hangs_fails_and_says_what_was_measured() {
        let on_time = clock([0, 50, 50], |_| {});
        let overrun = within_on(LIMIT, on_time, std::future::pending::<()>())
            .await
            .expect_err("a hung call fails");
        assert_eq!(
            overrun,
            Overrun {
                ran: LIMIT,
                late: Duration::ZERO
            }
        );
        assert_eq!(
            overrun.to_string(),
            "given up after 50 ms: the harness's own timer fired 0 ms late, and that \
             scheduling delay was allowed once on top"
        );
        let late = clock([0, 80, 90], |_| {});
        assert_eq!(
            within_on(LIMIT, late, std::future::pending::<()>()).await,
            Err(Overrun {
                ran: Duration::from_millis(90),
                late: Duration::from_millis(30)
            }),
            "extended once, not again"
        );
        assert_eq!(within(LIMIT, async { 7 }).await, Ok(7));
    }

    #[tokio::test]
    async fn a_call_that_answers_within_the_measured_delay_passes() {
        // The machine stalls when the limit passes: the harness sees its timer a minute late,
        // and the answer comes only then (sent when the clock is read the second time).
        let (answer, answered) = tokio::sync::oneshot::channel();
        let answer = Cell::new(Some(answer));
        let stalled = clock([0, 60_050, 60_060], move |read| {
            if read == 2
                && let Some(answer) = answer.take()
            {
                let _ = answer.send("answered");
            }
        });
        assert_eq!(
            within_on(LIMIT, stalled, answered).await,
            Ok(Ok("answered"))
        );
    }

    #[test]
    fn a_blocking_wait_is_extended_by_how_late_its_limit_was_seen() {
        let asked = RefCell::new(Vec::new());
        let second_wait_answers = |wait: Duration| {
            asked.borrow_mut().push(wait);
            asked.borrow().len() == 2
        };
        let late = clock([0, 350, 700], |_| {});
        assert_eq!(block_within(LIMIT, late, second_wait_answers), Ok(()));
        assert_eq!(
            *asked.borrow(),
            [LIMIT, Duration::from_millis(300)],
            "the limit, then how late it was seen to pass"
        );

        let asked = Cell::new(0);
        let never = |_| {
            asked.set(asked.get() + 1);
            false
        };
        let late = clock([0, 350, 700], |_| {});
        assert_eq!(
            block_within(LIMIT, late, never),
            Err(Overrun {
                ran: Duration::from_millis(700),
                late: Duration::from_millis(300)
            })
        );
        assert_eq!(asked.get(), 2, "extended once, not again");
    }
}
