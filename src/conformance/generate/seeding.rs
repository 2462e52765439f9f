//! Seeds: the run's seed, each case's seed derived from it, and the generator of a case.

use std::sync::atomic::{AtomicU64, Ordering};

use proptest::test_runner::{RngAlgorithm, TestRng};

use crate::conformance::declare::options::RunOptions;

/// SplitMix64: a good 64-bit mix, used to derive one case's seed from the run's seed.
pub(crate) fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The seed of case `case` (1-based) of a run seeded with `seed`.
///
/// Both halves are mixed before they meet, so neighbouring run seeds (1, 2, 3, ... as a CI
/// passes build numbers) draw unrelated cases: two runs share a case only by a 64-bit
/// coincidence. Mixing only their combination (`splitmix(seed ^ case)`) made seeds 1 and 2
/// share 126 of their first 128 cases.
pub(crate) fn case_seed(seed: u64, case: u32) -> u64 {
    splitmix(splitmix(seed).wrapping_add(splitmix(u64::from(case)).rotate_left(32)))
}

/// The seed of a run under `options`: the subject's, else `PROPTEST_RNG_SEED`, else random.
pub(crate) fn run_seed(options: &RunOptions) -> u64 {
    options
        .seed
        .or_else(|| std::env::var("PROPTEST_RNG_SEED").ok()?.parse().ok())
        .unwrap_or_else(random_seed)
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

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::case_seed;

    /// Run seeds a CI is likely to pass (small numbers, build numbers, round numbers) draw
    /// disjoint cases: by chance, 24 runs of 512 cases share a case seed with probability
    /// about 2^-39, so any shared case is the derivation's fault.
    #[test]
    fn two_run_seeds_share_no_case() {
        let run_seeds: Vec<u64> = (0..16)
            .chain([
                100,
                1000,
                1 << 32,
                u64::MAX,
                u64::MAX - 1,
                0x8000_0000_0000_0000,
            ])
            .chain([1 << 7, 1 << 9])
            .collect();
        let mut first_drawn_by: HashMap<u64, (u64, u32)> = HashMap::new();
        for &seed in &run_seeds {
            for case in 1..=512 {
                let drawn = case_seed(seed, case);
                if let Some(&(other_seed, other_case)) = first_drawn_by.get(&drawn) {
                    panic!(
                        "run seeds {other_seed} and {seed} share a case: case {other_case} of \
                         the first and case {case} of the second both have seed {drawn:016x}; \
                         reproduce with `cargo test --lib seeding`"
                    );
                }
                first_drawn_by.insert(drawn, (seed, case));
            }
        }
    }
}
