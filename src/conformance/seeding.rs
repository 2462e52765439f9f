//! Seeds: the run's seed, each case's seed derived from it, and the generator of a case.

use std::sync::atomic::{AtomicU64, Ordering};

use proptest::test_runner::{RngAlgorithm, TestRng};

/// SplitMix64: a good 64-bit mix, used to derive one case's seed from the run's seed.
pub(crate) fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The seed of case `case` (1-based) of a run seeded with `seed`.
pub(crate) fn case_seed(seed: u64, case: u32) -> u64 {
    splitmix(seed ^ u64::from(case))
}

/// A seed for a run that was given none: differs between runs and between calls.
pub(crate) fn random_seed() -> u64 {
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    splitmix(
        nanos
            ^ u64::from(std::process::id()).rotate_left(32)
            ^ CALLS.fetch_add(1, Ordering::Relaxed),
    )
}

/// The random generator a case's scenario is drawn from.
pub(crate) fn rng_for(case_seed: u64) -> TestRng {
    let mut bytes = [0u8; 32];
    let mut x = case_seed;
    for chunk in bytes.chunks_mut(8) {
        x = splitmix(x);
        chunk.copy_from_slice(&x.to_le_bytes());
    }
    TestRng::from_seed(RngAlgorithm::ChaCha, &bytes)
}
