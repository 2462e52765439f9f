//! Helper threads kept for one `embed` call, which share out each of its linear layers with the
//! calling thread. A short text's layers are too small to pay for a thread each (spawning and
//! joining one per layer, 24 times a text, cost as much as the second core gained); a crew is
//! spawned once, waits for the next layer by spinning briefly and then parking, and is told of
//! one by a counter.

use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::thread::{self, Thread};

/// A task, run once by every member of the crew: `task(member, members)`.
type Task<'t> = &'t (dyn Fn(usize, usize) + Sync);

/// How long a helper, or the caller waiting for the helpers, spins before it parks or yields:
/// about the time between two layers of a short text.
const SPINS: u32 = 20_000;

/// The generation number that tells the helpers to stop.
const STOP: u64 = u64::MAX;

/// The calling thread and its helpers. `Crew::solo()` has no helpers and runs every task on the
/// calling thread.
pub(crate) struct Crew<'b> {
    board: Option<&'b Board>,
    helpers: Vec<Thread>,
}

/// What the caller and the helpers share.
struct Board {
    members: usize,
    generation: AtomicU64,
    task: Mutex<Option<ErasedTask>>,
    done: AtomicUsize,
    panic: Mutex<Option<Box<dyn std::any::Any + Send>>>,
}

/// A task with its lifetime erased, so it can sit on the board. It is only called between its
/// publication and the last helper's `done`, which `Crew::run` waits for before it returns (or
/// unwinds), while the task is still borrowed.
#[derive(Clone, Copy)]
struct ErasedTask(*const (dyn Fn(usize, usize) + Sync + 'static));

// SAFETY: the task is `Sync`, and `Crew::run` keeps it alive while helpers call it.
unsafe impl Send for ErasedTask {}

impl Crew<'_> {
    /// No helpers: every task runs on the calling thread alone.
    pub(crate) fn solo() -> Crew<'static> {
        Crew {
            board: None,
            helpers: Vec::new(),
        }
    }

    /// How many threads run each task: the caller and its helpers.
    #[cfg(test)]
    pub(crate) fn members(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Runs `task(member, members)` on every member at once, the caller as member 0, and
    /// returns when every member has finished. A panic in any member is raised here, after
    /// every member has finished.
    pub(crate) fn run(&self, task: Task<'_>) {
        let Some(board) = self.board else {
            task(0, 1);
            return;
        };
        board.done.store(0, Ordering::Relaxed);
        // SAFETY: the borrow outlives every call through the erased pointer: this function
        // waits below for every helper to finish the task, also when the caller's part panics.
        let erased: ErasedTask = ErasedTask(unsafe {
            std::mem::transmute::<Task<'_>, *const (dyn Fn(usize, usize) + Sync + 'static)>(task)
        });
        *lock(&board.task) = Some(erased);
        board.generation.fetch_add(1, Ordering::Release);
        for helper in &self.helpers {
            helper.unpark();
        }
        let own = catch_unwind(AssertUnwindSafe(|| task(0, board.members)));
        let helpers = board.members - 1;
        let mut spins = 0;
        while board.done.load(Ordering::Acquire) < helpers {
            if spins < SPINS {
                spins += 1;
                std::hint::spin_loop();
            } else {
                thread::yield_now();
            }
        }
        *lock(&board.task) = None;
        if let Err(panic) = own {
            resume_unwind(panic);
        }
        if let Some(panic) = lock(&board.panic).take() {
            resume_unwind(panic);
        }
    }
}

impl Crew<'_> {
    /// Calls `work` on ranges of `0..items`, `chunk` items each (the last may be shorter),
    /// every range once, the crew's members taking the next range as they finish one: a member
    /// that started late or runs slower takes fewer. Returns when every range is done. A solo
    /// crew calls `work` once, on all of `0..items`.
    pub(crate) fn share_out(
        &self,
        items: usize,
        chunk: usize,
        work: &(dyn Fn(Range<usize>) + Sync),
    ) {
        if self.board.is_none() {
            // Alone: one range, in order.
            if items > 0 {
                work(0..items);
            }
            return;
        }
        let chunk = chunk.max(1);
        let next = AtomicUsize::new(0);
        self.run(&|_, _| {
            loop {
                let start = next.fetch_add(chunk, Ordering::Relaxed);
                if start >= items {
                    return;
                }
                work(start..(start + chunk).min(items));
            }
        });
    }
}

/// Calls `f` with a crew of `threads` members (the caller and `threads − 1` helpers spawned
/// for the call, stopped and joined when it returns or unwinds); with one thread, a solo crew.
pub(crate) fn with_crew<R>(threads: usize, f: impl FnOnce(&Crew<'_>) -> R) -> R {
    if threads <= 1 {
        return f(&Crew::solo());
    }
    let board = Board {
        members: threads,
        generation: AtomicU64::new(0),
        task: Mutex::new(None),
        done: AtomicUsize::new(0),
        panic: Mutex::new(None),
    };
    thread::scope(|scope| {
        let helpers: Vec<Thread> = (1..threads)
            .map(|member| {
                let board = &board;
                scope.spawn(move || board.serve(member)).thread().clone()
            })
            .collect();
        let crew = Crew {
            board: Some(&board),
            helpers,
        };
        /// Stops the helpers however `f` ends, so the scope can join them.
        struct Stop<'c, 'b>(&'c Crew<'b>);
        impl Drop for Stop<'_, '_> {
            fn drop(&mut self) {
                if let Some(board) = self.0.board {
                    board.generation.store(STOP, Ordering::Release);
                    for helper in &self.0.helpers {
                        helper.unpark();
                    }
                }
            }
        }
        let _stop = Stop(&crew);
        f(&crew)
    })
}

impl Board {
    /// A helper's loop: wait for the next generation, run its task, count itself done.
    fn serve(&self, member: usize) {
        let mut seen = 0;
        loop {
            let mut spins = 0;
            let generation = loop {
                let generation = self.generation.load(Ordering::Acquire);
                if generation != seen {
                    break generation;
                }
                if spins < SPINS {
                    spins += 1;
                    std::hint::spin_loop();
                } else {
                    thread::park();
                }
            };
            if generation == STOP {
                return;
            }
            seen = generation;
            if let Some(task) = *lock(&self.task) {
                // SAFETY: `Crew::run` published the task for this generation and waits for
                // this helper's `done` before the task's borrow ends.
                let task = unsafe { &*task.0 };
                if let Err(panic) = catch_unwind(AssertUnwindSafe(|| task(member, self.members))) {
                    lock(&self.panic).get_or_insert(panic);
                }
            }
            self.done.fetch_add(1, Ordering::Release);
        }
    }
}

/// The mutex's value, also after a panic elsewhere (the values here stay consistent: each is
/// written whole).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A matrix the crew's members write at once, each in columns (or rows) no other member
/// touches, through this pointer to its first value; the matrix outlives the task.
#[derive(Clone, Copy)]
pub(crate) struct Columns(pub(crate) *mut f32);

impl Columns {
    /// The pointer to value `offset` (the caller keeps it inside the matrix).
    pub(crate) fn at(self, offset: usize) -> *mut f32 {
        self.0.wrapping_add(offset)
    }
}

// SAFETY: a `Columns` is only written as its type states: each member in its own part, while
// the crew's task borrows the matrix.
unsafe impl Send for Columns {}
// SAFETY: as for `Send`.
unsafe impl Sync for Columns {}

/// Member `member`'s share of `0..items` among `members`: contiguous, sizes differing by at
/// most one, the first shares the larger.
#[cfg(test)]
pub(crate) fn share(items: usize, member: usize, members: usize) -> Range<usize> {
    let (base, extra) = (items / members, items % members);
    let start = member * base + member.min(extra);
    start..start + base + usize::from(member < extra)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicUsize;

    use super::*;

    #[test]
    fn shares_cover_the_items_once_in_order() {
        for items in 0..20 {
            for members in 1..6 {
                let shares: Vec<_> = (0..members).map(|m| share(items, m, members)).collect();
                assert_eq!(shares[0].start, 0);
                assert_eq!(shares[members - 1].end, items);
                for pair in shares.windows(2) {
                    assert_eq!(pair[0].end, pair[1].start, "{items} items, {members}");
                    assert!(pair[0].len() >= pair[1].len() && pair[0].len() <= pair[1].len() + 1);
                }
            }
        }
    }

    #[test]
    fn every_member_runs_every_task_once_and_run_waits_for_them() {
        for threads in [1, 2, 3] {
            let counts: Vec<AtomicUsize> = (0..threads).map(|_| AtomicUsize::new(0)).collect();
            with_crew(threads, |crew| {
                assert_eq!(crew.members(), threads);
                for round in 1..=100 {
                    crew.run(&|member, members| {
                        assert_eq!(members, threads);
                        counts[member].fetch_add(1, Ordering::Relaxed);
                    });
                    // Every member finished before run returned.
                    for count in &counts {
                        assert_eq!(count.load(Ordering::Relaxed), round);
                    }
                }
            });
        }
    }

    #[test]
    fn share_out_does_every_range_once() {
        for threads in [1, 2, 3] {
            for (items, chunk) in [(0, 3), (1, 1), (10, 3), (36, 2), (7, 100)] {
                let done: Vec<AtomicUsize> = (0..items).map(|_| AtomicUsize::new(0)).collect();
                with_crew(threads, |crew| {
                    crew.share_out(items, chunk, &|range| {
                        assert!(!range.is_empty());
                        assert!(threads == 1 || range.len() <= chunk);
                        for i in range {
                            done[i].fetch_add(1, Ordering::Relaxed);
                        }
                    })
                });
                assert!(
                    done.iter().all(|d| d.load(Ordering::Relaxed) == 1),
                    "{threads} threads, {items} items in chunks of {chunk}"
                );
            }
        }
    }

    #[test]
    fn a_helpers_panic_is_raised_by_run_and_the_crew_still_stops() {
        let caught = std::panic::catch_unwind(|| {
            with_crew(2, |crew| {
                crew.run(&|member, _| assert_ne!(member, 1, "helper fails"));
            })
        });
        let panic = caught.expect_err("the helper's panic reaches the caller");
        let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(message.contains("helper fails"), "{message}");
    }
}
