//! The linear layers' `x Wᵀ + b`, with W packed once, when the model loads, into the layout
//! the kernel reads: panels of [`PANEL`] output columns, each panel's `inputs × PANEL` values
//! contiguous. A general sgemm packs its right-hand matrix on every call; for a short batch
//! (one query, a few dozen tokens) that packing costs about as much as the products.
//!
//! On x86-64 the kernel (chosen at run time) keeps a tile of rows × [`PANEL`] columns in
//! registers: 12 rows with AVX-512, 6 rows × half a panel with AVX2 and FMA; elsewhere a
//! portable loop computes the same sums in the same order.

use std::ops::Range;

use crate::crew::{Columns, Crew};

/// Output columns per panel: two AVX-512 registers of 16 f32.
pub(crate) const PANEL: usize = 32;
/// Panels a crew member takes at a time (see `Crew::share_out`): small enough to balance the
/// members of a 384-column layer (12 panels), large enough to keep their turns few.
const PANELS_A_TURN: usize = 2;
/// Rows per block: a block's inputs (at most 64 × 1536 f32, 384 KiB) stay in cache while every
/// panel passes over them.
const BLOCK_ROWS: usize = 64;

/// A weight matrix Wᵀ ([inputs, outputs], row-major) packed in panels of [`PANEL`] columns.
pub(crate) struct Packed {
    inputs: usize,
    outputs: usize,
    panels: Vec<f32>,
}

impl Packed {
    /// Packs `wt` = Wᵀ, [inputs, outputs] row-major. `outputs` must be a multiple of [`PANEL`]
    /// (384, 1152 and 1536 are).
    pub(crate) fn new(wt: &[f32], inputs: usize, outputs: usize) -> Packed {
        assert!(wt.len() == inputs * outputs && outputs.is_multiple_of(PANEL));
        let mut panels = Vec::with_capacity(wt.len());
        for p in 0..outputs / PANEL {
            for i in 0..inputs {
                let start = i * outputs + p * PANEL;
                panels.extend_from_slice(&wt[start..start + PANEL]);
            }
        }
        Packed {
            inputs,
            outputs,
            panels,
        }
    }

    /// `out` = `then`(`x` Wᵀ + `b`), `x` being [rows, inputs] row-major; `out` becomes
    /// [rows, outputs]. `then` is applied in place to runs of a row's values (an activation;
    /// `|_| {}` for none). The panels are shared out between the crew's members, a few at a
    /// time, each member computing and finishing every row of the panels it takes: for a short batch the weights, not the rows,
    /// are the work, so this is how one text uses two cores. The sums are the same, in the
    /// same order, on any number of members.
    pub(crate) fn linear(
        &self,
        x: &[f32],
        rows: usize,
        b: &[f32],
        out: &mut Vec<f32>,
        crew: &Crew<'_>,
        then: fn(&mut [f32]),
    ) {
        let (inputs, outputs) = (self.inputs, self.outputs);
        assert!(x.len() >= rows * inputs && b.len() == outputs);
        out.clear();
        out.resize(rows * outputs, 0.0);
        let panels = outputs / PANEL;
        let out = Columns(out.as_mut_ptr());
        crew.share_out(panels, PANELS_A_TURN, &|range| {
            let (first, width) = (range.start * PANEL, range.len() * PANEL);
            // SAFETY: `out` holds rows × outputs values (resized above, and borrowed until
            // `share_out` returns, after every member); each range of panels goes to one
            // member, so no other member touches these columns.
            unsafe { self.linear_panels(x, rows, b, out, range) };
            for r in 0..rows {
                // SAFETY: as above: row r's columns of this range's panels.
                then(unsafe { std::slice::from_raw_parts_mut(out.at(r * outputs + first), width) });
            }
        });
    }

    /// Columns `panels × PANEL` of every row of `out`, dispatched to the best kernel.
    ///
    /// # Safety
    /// `out` must point to `rows × outputs` values, and no other thread may read or write
    /// these columns of them meanwhile; `x` and `b` are checked by `linear`.
    unsafe fn linear_panels(
        &self,
        x: &[f32],
        rows: usize,
        b: &[f32],
        out: Columns,
        panels: Range<usize>,
    ) {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                // SAFETY: the CPU has AVX-512F (checked above); `linear`'s assert and this
                // function's contract bound every access (see `avx512::linear`).
                unsafe { avx512::linear(self, x, rows, b, out.0, panels) };
                return;
            }
            if std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
            {
                // SAFETY: the CPU has AVX2 and FMA (checked above); bounds as above.
                unsafe { avx2::linear(self, x, rows, b, out.0, panels) };
                return;
            }
        }
        // SAFETY: as this function's contract.
        unsafe { self.linear_portable(x, rows, b, out.0, panels) };
    }

    /// The same sums as the AVX2 kernel, in the same order, without intrinsics.
    ///
    /// # Safety
    /// As [`linear_panels`](Self::linear_panels).
    unsafe fn linear_portable(
        &self,
        x: &[f32],
        rows: usize,
        b: &[f32],
        out: *mut f32,
        panels: Range<usize>,
    ) {
        let (inputs, outputs) = (self.inputs, self.outputs);
        for r in 0..rows {
            let xr = &x[r * inputs..(r + 1) * inputs];
            for p in panels.clone() {
                let panel = &self.panels[p * inputs * PANEL..(p + 1) * inputs * PANEL];
                let mut acc = [0.0f32; PANEL];
                acc.copy_from_slice(&b[p * PANEL..(p + 1) * PANEL]);
                for (xv, w) in xr.iter().zip(panel.chunks_exact(PANEL)) {
                    for (a, wv) in acc.iter_mut().zip(w) {
                        *a = xv.mul_add(*wv, *a);
                    }
                }
                // SAFETY: row r's columns of panel p are inside `out` (the contract), and this
                // thread alone writes them.
                unsafe {
                    std::ptr::copy_nonoverlapping(
                        acc.as_ptr(),
                        out.add(r * outputs + p * PANEL),
                        PANEL,
                    );
                }
            }
        }
    }
}

/// Calls `tile::<n>(...)` for a run-time row count `n` in `1..=$max` (any larger `n` is $max).
macro_rules! dispatch_rows {
    ($n:expr, $tile:ident, $max:literal, $args:tt, [$($r:literal)*]) => {
        match $n {
            $($r => $tile::<$r> $args,)*
            _ => $tile::<$max> $args,
        }
    };
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::{
        __m512, _mm512_fmadd_ps, _mm512_loadu_ps, _mm512_set1_ps, _mm512_storeu_ps,
    };

    use std::ops::Range;

    use super::{BLOCK_ROWS, PANEL, Packed};

    /// Rows per register tile: 12 rows × 2 registers of accumulators, 2 of weights, 1
    /// broadcast, of the 32 registers.
    const TILE_ROWS: usize = 12;

    /// # Safety
    /// The CPU must have AVX-512F; `x` must hold `rows × inputs` values, `b` `outputs` and
    /// `out` `rows × outputs`, whose columns of `panels` no other thread touches meanwhile
    /// (as `Packed::linear` ensures).
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn linear(
        w: &Packed,
        x: &[f32],
        rows: usize,
        b: &[f32],
        out: *mut f32,
        panels: Range<usize>,
    ) {
        let (inputs, outputs) = (w.inputs, w.outputs);
        let mut block = 0;
        while block < rows {
            let block_end = (block + BLOCK_ROWS).min(rows);
            for p in panels.clone() {
                let panel = w.panels[p * inputs * PANEL..].as_ptr();
                let bias = b[p * PANEL..].as_ptr();
                let mut r = block;
                while r < block_end {
                    let n = (block_end - r).min(TILE_ROWS);
                    let xs = x[r * inputs..].as_ptr();
                    // SAFETY: row r, column p·PANEL is inside `out` (the contract).
                    let os = unsafe { out.add(r * outputs + p * PANEL) };
                    // SAFETY: rows r..r+n of `x` and `out` exist (n ≤ rows − r); the panel
                    // holds `inputs × PANEL` values and `bias` PANEL from its start.
                    unsafe {
                        dispatch_rows!(n, tile, 12, (xs, inputs, panel, bias, os, outputs),
                            [1 2 3 4 5 6 7 8 9 10 11])
                    }
                    r += n;
                }
            }
            block = block_end;
        }
    }

    /// Rows `0..R` of `x` (`inputs` apart) times one panel, plus the bias, into `out` (`stride`
    /// apart): 2·R accumulators in registers over the whole inner dimension.
    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn tile<const R: usize>(
        x: *const f32,
        inputs: usize,
        panel: *const f32,
        bias: *const f32,
        out: *mut f32,
        stride: usize,
    ) {
        // SAFETY (every pointer below): within the bounds `linear` states for this tile.
        unsafe {
            let b0 = _mm512_loadu_ps(bias);
            let b1 = _mm512_loadu_ps(bias.add(16));
            let mut acc: [[__m512; 2]; R] = [[b0, b1]; R];
            for i in 0..inputs {
                let w0 = _mm512_loadu_ps(panel.add(i * PANEL));
                let w1 = _mm512_loadu_ps(panel.add(i * PANEL + 16));
                for (r, a) in acc.iter_mut().enumerate() {
                    let xv = _mm512_set1_ps(*x.add(r * inputs + i));
                    a[0] = _mm512_fmadd_ps(xv, w0, a[0]);
                    a[1] = _mm512_fmadd_ps(xv, w1, a[1]);
                }
            }
            for (r, a) in acc.iter().enumerate() {
                _mm512_storeu_ps(out.add(r * stride), a[0]);
                _mm512_storeu_ps(out.add(r * stride + 16), a[1]);
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        __m256, _mm256_broadcast_ss, _mm256_fmadd_ps, _mm256_loadu_ps, _mm256_storeu_ps,
    };

    use std::ops::Range;

    use super::{BLOCK_ROWS, PANEL, Packed};

    /// Rows per register tile: 6 rows × 2 registers of accumulators (half a panel), 2 of
    /// weights, 1 broadcast, of the 16 registers.
    const TILE_ROWS: usize = 6;
    /// The columns one tile covers: half a panel.
    const HALF: usize = PANEL / 2;

    /// # Safety
    /// The CPU must have AVX2 and FMA; `x` must hold `rows × inputs` values, `b` `outputs`
    /// and `out` `rows × outputs`, whose columns of `panels` no other thread touches meanwhile
    /// (as `Packed::linear` ensures).
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn linear(
        w: &Packed,
        x: &[f32],
        rows: usize,
        b: &[f32],
        out: *mut f32,
        panels: Range<usize>,
    ) {
        let (inputs, outputs) = (w.inputs, w.outputs);
        let mut block = 0;
        while block < rows {
            let block_end = (block + BLOCK_ROWS).min(rows);
            for p in panels.clone() {
                for half in [0, HALF] {
                    let panel = w.panels[p * inputs * PANEL + half..].as_ptr();
                    let bias = b[p * PANEL + half..].as_ptr();
                    let mut r = block;
                    while r < block_end {
                        let n = (block_end - r).min(TILE_ROWS);
                        let xs = x[r * inputs..].as_ptr();
                        // SAFETY: row r, column p·PANEL + half is inside `out` (the contract).
                        let os = unsafe { out.add(r * outputs + p * PANEL + half) };
                        // SAFETY: rows r..r+n of `x` and `out` exist (n ≤ rows − r); the
                        // panel holds `inputs × PANEL` values from `p`'s start, read HALF at a
                        // time from `half`; `bias` holds HALF from `half`.
                        unsafe {
                            dispatch_rows!(n, tile, 6, (xs, inputs, panel, bias, os, outputs),
                                [1 2 3 4 5])
                        }
                        r += n;
                    }
                }
            }
            block = block_end;
        }
    }

    /// Rows `0..R` of `x` (`inputs` apart) times half a panel (`HALF` columns, rows `PANEL`
    /// apart), plus the bias, into `out` (`stride` apart).
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    unsafe fn tile<const R: usize>(
        x: *const f32,
        inputs: usize,
        panel: *const f32,
        bias: *const f32,
        out: *mut f32,
        stride: usize,
    ) {
        // SAFETY (every pointer below): within the bounds `linear` states for this tile.
        unsafe {
            let b0 = _mm256_loadu_ps(bias);
            let b1 = _mm256_loadu_ps(bias.add(8));
            let mut acc: [[__m256; 2]; R] = [[b0, b1]; R];
            for i in 0..inputs {
                let w0 = _mm256_loadu_ps(panel.add(i * PANEL));
                let w1 = _mm256_loadu_ps(panel.add(i * PANEL + 8));
                for (r, a) in acc.iter_mut().enumerate() {
                    let xv = _mm256_broadcast_ss(&*x.add(r * inputs + i));
                    a[0] = _mm256_fmadd_ps(xv, w0, a[0]);
                    a[1] = _mm256_fmadd_ps(xv, w1, a[1]);
                }
            }
            for (r, a) in acc.iter().enumerate() {
                _mm256_storeu_ps(out.add(r * stride), a[0]);
                _mm256_storeu_ps(out.add(r * stride + 8), a[1]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crew::with_crew;

    /// x Wᵀ + b the plain way, in f64.
    fn naive(
        x: &[f32],
        rows: usize,
        wt: &[f32],
        inputs: usize,
        outputs: usize,
        b: &[f32],
    ) -> Vec<f64> {
        let mut out = vec![0.0; rows * outputs];
        for r in 0..rows {
            for o in 0..outputs {
                out[r * outputs + o] = f64::from(b[o])
                    + (0..inputs)
                        .map(|i| f64::from(x[r * inputs + i]) * f64::from(wt[i * outputs + o]))
                        .sum::<f64>();
            }
        }
        out
    }

    /// Deterministic values in [-1, 1).
    fn values(n: usize, seed: u32) -> Vec<f32> {
        let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
        (0..n)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                (state as f32 / u32::MAX as f32) * 2.0 - 1.0
            })
            .collect()
    }

    #[test]
    fn every_row_count_and_every_path_gives_x_times_w_transposed_plus_b() {
        let (inputs, outputs) = (37, 96);
        let wt = values(inputs * outputs, 1);
        let b = values(outputs, 2);
        let packed = Packed::new(&wt, inputs, outputs);
        // Tiles of every height, a full block and a block and a bit.
        for rows in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 25, 64, 71] {
            let x = values(rows * inputs, rows as u32 + 3);
            let want = naive(&x, rows, &wt, inputs, outputs, &b);
            let mut paths = Vec::new();
            // One thread, two, and more threads than the three panels.
            for threads in [1, 2, 4] {
                let mut fast = Vec::new();
                with_crew(threads, |crew| {
                    packed.linear(&x, rows, &b, &mut fast, crew, |_| {})
                });
                paths.push((fast, format!("dispatched on {threads} threads")));
            }
            let all = 0..outputs / PANEL;
            let mut portable = vec![0.0; rows * outputs];
            // SAFETY: `portable` holds rows × outputs values, written by this thread alone.
            unsafe { packed.linear_portable(&x, rows, &b, portable.as_mut_ptr(), all.clone()) };
            paths.push((portable, "portable".to_string()));
            #[cfg(target_arch = "x86_64")]
            {
                if std::arch::is_x86_feature_detected!("avx512f") {
                    let mut out = vec![0.0; rows * outputs];
                    // SAFETY: AVX-512F is there; the sizes are as `linear` requires.
                    unsafe { avx512::linear(&packed, &x, rows, &b, out.as_mut_ptr(), all.clone()) };
                    paths.push((out, "avx512".to_string()));
                }
                if std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("fma")
                {
                    let mut out = vec![0.0; rows * outputs];
                    // SAFETY: AVX2 and FMA are there; the sizes are as `linear` requires.
                    unsafe { avx2::linear(&packed, &x, rows, &b, out.as_mut_ptr(), all.clone()) };
                    paths.push((out, "avx2".to_string()));
                }
            }
            // The finishing step reaches every value once, on any number of members.
            for threads in [1, 2, 4] {
                let mut negated = Vec::new();
                with_crew(threads, |crew| {
                    packed.linear(&x, rows, &b, &mut negated, crew, |run| {
                        run.iter_mut().for_each(|v| *v = -*v)
                    })
                });
                let back: Vec<f32> = negated.iter().map(|v| -v).collect();
                paths.push((back, format!("negated on {threads} threads")));
            }
            // Every path and thread count computes the same sums in the same order.
            for (got, path) in &paths {
                assert_eq!(got, &paths[0].0, "{path} differs from {}", paths[0].1);
            }
            for (got, path) in &paths {
                assert_eq!(got.len(), rows * outputs);
                for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                    assert!(
                        (f64::from(*g) - w).abs() < 1e-4,
                        "{path}, {rows} rows: element {k} is {g}, want {w}"
                    );
                }
            }
        }
    }
}
