//! Delayed visibility judged on the backend's time, not the machine's.
//!
//! A profile may declare that writes show within a bound (`visible_within`). A search that
//! misses a write is a violation only when it was *sent* after the bound had passed since the
//! write returned, plus however late the harness's own timers ran meanwhile (the machine's
//! scheduling delay, measured on every pause the harness takes while it waits), and only when
//! one more search, sent a poll interval later, misses it too. Both observations and the
//! measured delay go into the failure, so a time verdict says what it measured.

use std::time::{Duration, Instant};

/// How often a search is repeated while it waits for a write to become visible.
pub(crate) const POLL_INTERVAL: Duration = Duration::from_millis(10);

/// The clock of one scenario run: when the last write returned and how late the harness's
/// own timers have run since.
#[derive(Debug)]
pub(crate) struct Settling {
    bound: Duration,
    /// When the last write returned, where the bound is not zero.
    written: Option<Instant>,
    /// The longest one of the harness's own pauses overran since the last write.
    lag: Duration,
    /// The longest any pause overran in the whole run.
    longest_lag: Option<Duration>,
}

/// A search that missed what it should have seen, sent when the bound (and the measured
/// scheduling delay) had passed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Overdue {
    /// How long after the last write the search was sent.
    pub(crate) sent_after: Duration,
}

impl Settling {
    pub(crate) fn new(bound: Duration) -> Self {
        Self {
            bound,
            written: None,
            lag: Duration::ZERO,
            longest_lag: None,
        }
    }

    /// Notes that a write returned.
    pub(crate) fn wrote(&mut self) {
        if !self.bound.is_zero() {
            self.written = Some(Instant::now());
            self.lag = Duration::ZERO;
        }
    }

    /// The moment every write so far must be visible by, if it is still ahead: the bound
    /// after the last write, plus the scheduling delay measured since.
    pub(crate) fn settled_at(&self) -> Option<Instant> {
        self.written
            .map(|at| at + self.bound + self.lag)
            .filter(|&settled| settled > Instant::now())
    }

    /// Whether a search sent at `sent` had to see every write so far; `Some` with how long
    /// after the last write it was sent if so.
    pub(crate) fn overdue(&self, sent: Instant) -> Option<Overdue> {
        let written = self.written?;
        (sent >= written + self.bound + self.lag).then(|| Overdue {
            sent_after: sent.duration_since(written),
        })
    }

    /// Pauses for `wanted`, and counts how much longer the pause took as scheduling delay.
    pub(crate) async fn pause(&mut self, wanted: Duration) {
        let started = Instant::now();
        tokio::time::sleep(wanted).await;
        self.overran(started.elapsed().saturating_sub(wanted));
    }

    /// Waits until every write so far must be visible, allowing for the scheduling delay the
    /// wait itself shows.
    pub(crate) async fn wait_out(&mut self) {
        while let Some(settled) = self.settled_at() {
            tokio::time::sleep_until(settled.into()).await;
            self.overran(Instant::now().saturating_duration_since(settled));
        }
    }

    fn overran(&mut self, by: Duration) {
        self.lag = self.lag.max(by);
        self.longest_lag = Some(self.longest_lag.unwrap_or_default().max(by));
    }

    /// The longest the harness's own pauses overran in this run, if it paused at all.
    pub(crate) fn scheduling_delay(&self) -> Option<Duration> {
        self.longest_lag
    }

    /// What two overdue observations measured, for a failure message.
    pub(crate) fn describe(&self, first: Overdue, second: Overdue) -> String {
        format!(
            "in searches sent {} ms and {} ms after the last write (the profile declares writes \
             visible within {} ms; the harness's own timers ran up to {} ms late meanwhile, \
             which was allowed on top)",
            first.sent_after.as_millis(),
            second.sent_after.as_millis(),
            self.bound.as_millis(),
            self.lag.as_millis()
        )
    }

    /// How long ago the last write returned, if there was one (and the bound is not zero).
    pub(crate) fn since_write(&self) -> Option<Duration> {
        self.written.map(|at| at.elapsed())
    }

    /// Whether writes are visible only after a delay.
    pub(crate) fn is_delayed(&self) -> bool {
        !self.bound.is_zero()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_is_overdue_only_when_sent_after_the_bound_and_the_measured_delay() {
        let mut settling = Settling::new(Duration::from_millis(100));
        let before = Instant::now();
        assert!(settling.overdue(before).is_none(), "no write yet");
        settling.wrote();
        let written = settling.written.expect("a write");
        assert!(
            settling
                .overdue(written + Duration::from_millis(99))
                .is_none()
        );
        assert!(
            settling
                .overdue(written + Duration::from_millis(100))
                .is_some()
        );
        settling.overran(Duration::from_millis(50));
        assert!(
            settling
                .overdue(written + Duration::from_millis(149))
                .is_none(),
            "50 ms of the machine's delay is allowed on top"
        );
        let overdue = settling
            .overdue(written + Duration::from_millis(150))
            .expect("overdue");
        assert_eq!(overdue.sent_after, Duration::from_millis(150));
        assert_eq!(settling.scheduling_delay(), Some(Duration::from_millis(50)));
        settling.wrote();
        assert_eq!(settling.lag, Duration::ZERO, "a new write measures afresh");
        assert_eq!(settling.scheduling_delay(), Some(Duration::from_millis(50)));
    }

    #[test]
    fn without_a_bound_nothing_waits() {
        let mut settling = Settling::new(Duration::ZERO);
        settling.wrote();
        assert!(settling.settled_at().is_none());
        assert!(settling.overdue(Instant::now()).is_none());
        assert!(!settling.is_delayed());
    }
}
