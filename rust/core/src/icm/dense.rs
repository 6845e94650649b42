//! The exact recursion over a table of every subset of the players, indexed by the
//! bit mask (see [`super::exact`] for the recursion over sets).
//!
//! The table holds `share[T] = prob[T] / (chips outside T)`: player `j` outside `T`
//! takes place `|T| + 1` after `T` with probability `stack_j share[T]`, and
//! `prob[T] = Σ_{j ∈ T} stack_j share[T - j]`.
//!
//! **Order of the work.** The table is filled by halves: the sets without the highest
//! player first (recursively), then that player's stack times that whole half is added
//! to the other half in one contiguous loop (the sets with the player get their term
//! from the sets without), then the other half (recursively). Every term of every sum
//! is so added by a vectorised loop except those of the lowest three players, which
//! [`leaf`] writes out for eight sets at once; the halves fit in the caches long
//! before the bottom. Sets of `paid` players or more are skipped.
//!
//! **The places.** Player `j`'s chance of place `k + 1` is `stack_j` times the sum of
//! `share[T]` over the sets of `k` players without `j`. The table is read in blocks that
//! share their high bits (the low bits: about half the players, at most
//! [`MOST_BLOCK_BITS`]) as each block is done: per block and size the sum (`rows`), per
//! low mask and size the sum (`columns`); a low player's sums without it come from the
//! columns, a high player's from the rows.

use crate::error::CoreError;
use std::sync::atomic::{AtomicBool, Ordering};

/// The most low bits of a mask that one block of the table spans.
const MOST_BLOCK_BITS: usize = 10;

/// The players of one [`leaf`].
const LEAF_BITS: usize = 3;

struct Table<'a> {
    stacks: &'a [f64],
    /// Places paid: sets of this size or more are not needed.
    paid: usize,
    /// The low bits of a block (fewer when there are fewer players).
    low: usize,
    /// Chips outside a set: the low players' left out plus the high players'.
    low_rest: Vec<f64>,
    high_rest: Vec<f64>,
    /// `1 / (chips outside)` of the block being filled.
    inverse: Vec<f64>,
    share: Vec<f64>,
    columns: Vec<f64>,
    rows: Vec<f64>,
    cancel: &'a AtomicBool,
}

/// Each player's probability of each of the first `paid` places into `out` (row `i`
/// is player `i`'s), for at most [`super::DENSE_PLAYERS`] players.
pub(super) fn places(
    stacks: &[f64],
    paid: usize,
    out: &mut [f64],
    cancel: &AtomicBool,
) -> Result<(), CoreError> {
    let n = stacks.len();
    // About half the players low: the sums of the columns and of the rows cost alike.
    let low = n.div_ceil(2).clamp(n.min(LEAF_BITS), MOST_BLOCK_BITS);
    let (low_stacks, high_stacks) = stacks.split_at(low);
    let mut table = Table {
        stacks,
        paid,
        low,
        low_rest: rest(low_stacks),
        high_rest: rest(high_stacks),
        inverse: vec![0.0; 1 << low],
        share: vec![0.0; 1 << n],
        columns: vec![0.0; paid << low],
        rows: vec![0.0; paid << (n - low)],
        cancel,
    };
    table.share[0] = 1.0;
    table.fill(0, n, 0)?;
    table.sums(out);
    Ok(())
}

impl Table<'_> {
    /// Fills the `2^level` sets from `start` (their players above `level` fixed, `above`
    /// of them), whose entries hold the terms from those players.
    fn fill(&mut self, start: usize, level: usize, above: usize) -> Result<(), CoreError> {
        if above >= self.paid {
            return Ok(());
        }
        let block = level == self.low;
        if block {
            if self.cancel.load(Ordering::Relaxed) {
                return Err(CoreError::Interrupted);
            }
            let high = self.high_rest[start >> self.low];
            for (i, r) in self.inverse.iter_mut().zip(&self.low_rest) {
                *i = 1.0 / (high + r);
            }
        }
        if level == LEAF_BITS && self.low >= LEAF_BITS {
            let low = start & ((1 << self.low) - 1);
            let inverse: &[f64; 8] = self.inverse[low..low + 8].try_into().expect("8 sets");
            let stacks: &[f64; 3] = self.stacks[..3].try_into().expect("3 players");
            leaf(&mut self.share[start..start + 8], stacks, inverse);
        } else if level == 0 {
            self.share[start] *= self.inverse[start & ((1 << self.low) - 1)];
        } else {
            let half = 1 << (level - 1);
            self.fill(start, level - 1, above)?;
            if above + 1 < self.paid {
                let stack = self.stacks[level - 1];
                let (without, with) = self.share[start..start + 2 * half].split_at_mut(half);
                for (w, s) in with.iter_mut().zip(without.iter()) {
                    *w += stack * s;
                }
            }
            self.fill(start + half, level - 1, above + 1)?;
        }
        if block {
            self.add_block(start, above);
        }
        Ok(())
    }

    /// Adds a filled block's shares to the rows and columns.
    fn add_block(&mut self, start: usize, above: usize) {
        let width = 1 << self.low;
        let row = &mut self.rows[(start >> self.low) * self.paid..][..self.paid];
        for (lo, &s) in self.share[start..start + width].iter().enumerate() {
            let k = above + lo.count_ones() as usize;
            if k < self.paid {
                self.columns[k * width + lo] += s;
                row[k] += s;
            }
        }
    }

    /// Each player's chance of each place (see the module docs).
    fn sums(&self, out: &mut [f64]) {
        let (m, width) = (self.paid, 1usize << self.low);
        let blocks = self.rows.len() / m;
        for (j, &stack) in self.stacks.iter().enumerate() {
            let place = &mut out[j * m..(j + 1) * m];
            if j < self.low {
                for (k, o) in place.iter_mut().enumerate() {
                    let column = &self.columns[k * width..(k + 1) * width];
                    let without: f64 = (0..width)
                        .filter(|lo| lo >> j & 1 == 0)
                        .map(|lo| column[lo])
                        .sum();
                    *o = stack * without;
                }
            } else {
                let b = j - self.low;
                for hi in (0..blocks).filter(|hi| hi >> b & 1 == 0) {
                    for (o, r) in place.iter_mut().zip(&self.rows[hi * m..(hi + 1) * m]) {
                        *o += r;
                    }
                }
                for o in place.iter_mut() {
                    *o *= stack;
                }
            }
        }
    }
}

/// The eight sets of the three lowest players (their terms from the others already
/// in `s`): each set's term from its own members, then its share.
#[inline(always)]
fn leaf(s: &mut [f64], stacks: &[f64; 3], inverse: &[f64; 8]) {
    let [a, b, c] = *stacks;
    let s0 = s[0] * inverse[0];
    let s1 = (s[1] + a * s0) * inverse[1];
    let s2 = (s[2] + b * s0) * inverse[2];
    let s3 = (s[3] + a * s2 + b * s1) * inverse[3];
    let s4 = (s[4] + c * s0) * inverse[4];
    let s5 = (s[5] + a * s4 + c * s1) * inverse[5];
    let s6 = (s[6] + b * s4 + c * s2) * inverse[6];
    let s7 = (s[7] + a * s6 + b * s5 + c * s3) * inverse[7];
    s.copy_from_slice(&[s0, s1, s2, s3, s4, s5, s6, s7]);
}

/// For each subset of `stacks` (by bit mask), the sum of the stacks left out of it.
fn rest(stacks: &[f64]) -> Vec<f64> {
    let full = (1usize << stacks.len()) - 1;
    let mut rest = vec![0.0f64; full + 1];
    for mask in (0..=full).rev() {
        let out = full & !mask;
        rest[mask] = if out == 0 {
            0.0
        } else {
            rest[mask | (out & out.wrapping_neg())] + stacks[out.trailing_zeros() as usize]
        };
    }
    rest
}
