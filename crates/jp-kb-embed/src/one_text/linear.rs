//! `x · Wᵀ + b` for the few rows of one short text: each weight read
//! once, multiplied with every token while it is in registers.
//!
//! Why not candle's matrix product (gemm): for a dozen rows it repacks the
//! whole weight matrix at every call, and a query's forward pass is 36 of
//! them. `perf` of the model server put 54 % of a query in gemm's dispatch
//! and packing and 13 % in its kernels. This product, with pulp's vectors
//! (the SIMD crate gemm itself uses, chosen at run time), streams each
//! weight once: a query's forward pass took 7.4–8.6 ms against candle's
//! 9.7–13.9 ms for the same 40 questions in one process (medians,
//! docs/perf.md), and it is bound by memory (the encoder's 42 MB do not
//! fit the 32 MB cache; reading them alone takes 3.7 ms here). Batches of
//! texts keep candle: there the packing pays.

use std::ops::Range;

use pulp::{Arch, Simd, WithSimd};

/// A dense layer: `rows` outputs, each the dot product of a weight row of
/// `cols` values with the input, plus a bias.
#[derive(Debug)]
pub(super) struct Linear {
    /// Row-major, `rows × cols` (as `PyTorch` keeps `nn.Linear.weight`).
    pub weight: Vec<f32>,
    pub bias: Vec<f32>,
    pub cols: usize,
}

impl Linear {
    pub fn rows(&self) -> usize {
        self.bias.len()
    }

    /// `tokens` rows of `self.cols` values in `x`, through the layer:
    /// `tokens` rows of [`Linear::rows`] values.
    pub fn apply(&self, arch: Arch, x: &[f32], tokens: usize) -> Vec<f32> {
        self.apply_rows(arch, x, tokens, 0..self.rows())
    }

    /// The outputs `rows` of [`Linear::apply`] alone: `tokens` rows of
    /// `rows.len()` values.
    pub fn apply_rows(&self, arch: Arch, x: &[f32], tokens: usize, rows: Range<usize>) -> Vec<f32> {
        let mut out = vec![0f32; tokens * rows.len()];
        arch.dispatch(Product {
            linear: self,
            rows,
            x,
            tokens,
            out: &mut out,
        });
        out
    }
}

struct Product<'a> {
    linear: &'a Linear,
    /// The outputs computed.
    rows: Range<usize>,
    x: &'a [f32],
    tokens: usize,
    out: &'a mut [f32],
}

/// Weight rows and tokens multiplied together: `ROWS × TOKENS` running
/// sums fit the registers with the loads of one step.
const ROWS: usize = 4;
const TOKENS: usize = 3;

impl WithSimd for Product<'_> {
    type Output = ();

    // pulp compiles the SIMD path only into what is inlined into its
    // dispatch (its documented use).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn with_simd<S: Simd>(self, simd: S) {
        let Product {
            linear,
            rows,
            x,
            tokens,
            out,
        } = self;
        let (width, cols) = (rows.len(), linear.cols);
        let mut row = rows.start;
        while row < rows.end {
            let take = if rows.end - row >= ROWS { ROWS } else { 1 };
            let mut token = 0;
            while token < tokens {
                let n = (tokens - token).min(TOKENS);
                let tile = Tile {
                    weight: &linear.weight[row * cols..(row + take) * cols],
                    x: &x[token * cols..(token + n) * cols],
                    cols,
                };
                let sums: [[f32; TOKENS]; ROWS] = match (take, n) {
                    (ROWS, 3) => tile.sums::<S, ROWS, 3>(simd),
                    (ROWS, 2) => tile.sums::<S, ROWS, 2>(simd),
                    (ROWS, _) => tile.sums::<S, ROWS, 1>(simd),
                    (_, 3) => tile.sums::<S, 1, 3>(simd),
                    (_, 2) => tile.sums::<S, 1, 2>(simd),
                    _ => tile.sums::<S, 1, 1>(simd),
                };
                for (r, sums) in sums.iter().enumerate().take(take) {
                    for (t, sum) in sums.iter().enumerate().take(n) {
                        out[(token + t) * width + row - rows.start + r] =
                            sum + linear.bias[row + r];
                    }
                }
                token += n;
            }
            row += take;
        }
    }
}

/// `R` weight rows and `T` tokens, each `cols` long.
struct Tile<'a> {
    weight: &'a [f32],
    x: &'a [f32],
    cols: usize,
}

impl Tile<'_> {
    /// The `R × T` dot products (in the first `R` rows and `T` columns).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn sums<S: Simd, const R: usize, const T: usize>(&self, simd: S) -> [[f32; TOKENS]; ROWS] {
        let cols = self.cols;
        let weight: [(&[S::f32s], &[f32]); R] =
            std::array::from_fn(|r| S::as_simd_f32s(&self.weight[r * cols..(r + 1) * cols]));
        let x: [(&[S::f32s], &[f32]); T] =
            std::array::from_fn(|t| S::as_simd_f32s(&self.x[t * cols..(t + 1) * cols]));
        let zero = simd.splat_f32s(0.0);
        let mut acc = [[zero; T]; R];
        let steps = x[0].0.len();
        for k in 0..steps {
            let xk: [S::f32s; T] = std::array::from_fn(|t| x[t].0[k]);
            for r in 0..R {
                let wk = weight[r].0[k];
                for t in 0..T {
                    acc[r][t] = simd.mul_add_e_f32s(wk, xk[t], acc[r][t]);
                }
            }
        }
        let mut sums = [[0f32; TOKENS]; ROWS];
        for r in 0..R {
            for t in 0..T {
                let tail: f32 = weight[r].1.iter().zip(x[t].1).map(|(w, v)| w * v).sum();
                sums[r][t] = simd.reduce_sum_f32s(acc[r][t]) + tail;
            }
        }
        sums
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::one_text::tests::random;

    /// The same product, one multiply-add at a time, in f64.
    fn plain(linear: &Linear, x: &[f32], tokens: usize) -> Vec<f64> {
        let (rows, cols) = (linear.rows(), linear.cols);
        let mut out = vec![0f64; tokens * rows];
        for t in 0..tokens {
            for r in 0..rows {
                let dot: f64 = (0..cols)
                    .map(|k| f64::from(linear.weight[r * cols + k]) * f64::from(x[t * cols + k]))
                    .sum();
                out[t * rows + r] = dot + f64::from(linear.bias[r]);
            }
        }
        out
    }

    proptest! {
        /// Every shape: rows and tokens that do not fill a tile, lengths
        /// that are not a whole number of vectors.
        #[test]
        fn equals_the_plain_product(
            rows in 1usize..11,
            cols in 1usize..41,
            tokens in 1usize..8,
            seed in any::<u64>(),
        ) {
            let mut next = random(seed);
            let linear = Linear {
                weight: (0..rows * cols).map(|_| next()).collect(),
                bias: (0..rows).map(|_| next()).collect(),
                cols,
            };
            let x: Vec<f32> = (0..tokens * cols).map(|_| next()).collect();
            let got = linear.apply(Arch::new(), &x, tokens);
            let want = plain(&linear, &x, tokens);
            prop_assert_eq!(got.len(), want.len());
            for (g, w) in got.iter().zip(&want) {
                prop_assert!((f64::from(*g) - w).abs() < 1e-4, "{g} against {w}");
            }
        }
    }
}
