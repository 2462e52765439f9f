//! Backends whose writes show late or never: not deviants when their profile declares how late
//! (`visibility = within N ms`), caught when a write takes longer.

use std::time::Duration;

use memory_conformance::profile::{Profile, Visibility};

use super::{Deviation, Visible};

/// How long a write of [`DelayedWrites`] takes to show.
pub const WRITE_DELAY: Duration = Duration::from_millis(30);

/// How long a write of [`SlowWrites`] takes to show: far beyond any scheduling delay, so a
/// profile that declares much less is caught however busy the machine is.
pub const SLOW_WRITE_DELAY: Duration = Duration::from_secs(3);

/// The reference's profile named `name`, its writes visible within `bound`.
fn visible_within(name: &str, bound: Duration) -> Profile {
    let mut profile = Profile::reference().named(name);
    profile.visibility = Visibility::Within {
        millis: bound.as_millis() as u64,
    };
    profile
}

/// Not a deviant: every write shows [`WRITE_DELAY`] after it answered, well within the bound
/// its profile declares.
#[derive(Debug)]
pub struct DelayedWrites;

impl Deviation for DelayedWrites {
    fn profile(&self) -> Profile {
        visible_within("delayed", 8 * WRITE_DELAY)
    }

    fn writes_visible(&self) -> Visible {
        Visible::After(WRITE_DELAY)
    }
}

/// Not a deviant: every write shows [`SLOW_WRITE_DELAY`] after it answered, within the bound
/// its profile declares; one that declares less is caught.
#[derive(Debug)]
pub struct SlowWrites;

impl Deviation for SlowWrites {
    fn profile(&self) -> Profile {
        visible_within("slow", 2 * SLOW_WRITE_DELAY)
    }

    fn writes_visible(&self) -> Visible {
        Visible::After(SLOW_WRITE_DELAY)
    }
}

/// Claims the profile of [`DelayedWrites`], but its writes never show.
#[derive(Debug)]
pub struct NeverVisible;

impl Deviation for NeverVisible {
    fn profile(&self) -> Profile {
        DelayedWrites.profile()
    }

    fn writes_visible(&self) -> Visible {
        Visible::Never
    }
}
