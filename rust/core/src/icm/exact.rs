//! Exact Malmuth-Harville by the recursion over subsets.
//!
//! `prob[T]` is the probability that the players of the set `T` take the first `|T|`
//! places (in some order). From `T`, each player `j` outside it takes place `|T| + 1`
//! with probability `stack_j / (chips outside T)`, which adds to `prob[T + j]` and to
//! `j`'s probability of that place. Only sets smaller than the number of paid places
//! are visited.
//!
//! Two layouts of the sets: a dense table indexed by the bit mask (every subset of up to
//! [`DENSE_PLAYERS`] players, the cheaper when most places are paid), and one array per
//! size indexed by the set's rank in colexicographic order (up to [`SPARSE_PLAYERS`]
//! players, the cheaper when few places are paid: 3 paid of 50 players is 1,276 sets).

use crate::error::CoreError;
use std::sync::atomic::{AtomicBool, Ordering};

/// The most players of the dense table (2^22 sets, 32 MB).
pub const DENSE_PLAYERS: usize = 22;

/// The most players of the layered tables (sets are 64-bit masks).
pub const SPARSE_PLAYERS: usize = 64;

/// Sets visited between two looks at the cancellation flag.
const CHECK_EVERY: u64 = 1 << 14;

/// `C(n, k)`, saturating at `u64::MAX`.
fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        c = c * (n - i) as u128 / (i + 1) as u128;
        if c > u64::MAX as u128 {
            return u64::MAX;
        }
    }
    c as u64
}

/// The steps of the recursion for `players` players and `places` paid places (the
/// steps from each set smaller than `places` to the sets one larger), or `u64::MAX`
/// past [`SPARSE_PLAYERS`] players.
pub fn exact_cost(players: usize, places: usize) -> u64 {
    if players > SPARSE_PLAYERS {
        return u64::MAX;
    }
    (0..places.min(players)).fold(0u64, |sum, k| {
        sum.saturating_add(binomial(players, k).saturating_mul((players - k) as u64))
    })
}

/// Whether the dense table is the cheaper layout.
fn dense(players: usize, places: usize) -> bool {
    players <= DENSE_PLAYERS && (1u64 << players) <= exact_cost(players, places).saturating_mul(4)
}

/// Each player's probability of each of the first `count` places: row `i` of the
/// `players x count` row-major result is player `i`'s.
pub fn places(stacks: &[f64], count: usize, cancel: &AtomicBool) -> Result<Vec<f64>, CoreError> {
    super::check(stacks, &vec![0.0; count])?;
    let n = stacks.len();
    if n > SPARSE_PLAYERS {
        return Err(CoreError::invalid_argument(format!(
            "exact ICM takes at most {SPARSE_PLAYERS} players, not {n}"
        )));
    }
    let mut out = vec![0.0; n * count];
    if count == 0 {
        return Ok(out);
    }
    if dense(n, count) {
        super::dense::places(stacks, count, &mut out, cancel)?;
    } else {
        layered_places(stacks, count, &mut out, cancel)?;
    }
    Ok(out)
}

/// Each player's exact equity (see the module docs).
pub fn exact(stacks: &[f64], payouts: &[f64], cancel: &AtomicBool) -> Result<Vec<f64>, CoreError> {
    super::check(stacks, payouts)?;
    let paid = payouts.iter().rposition(|&p| p != 0.0).map_or(0, |k| k + 1);
    let table = places(stacks, paid, cancel)?;
    let mut equity: Vec<f64> = (0..stacks.len())
        .map(|i| {
            let row = &table[i * paid..(i + 1) * paid];
            row.iter().zip(payouts).map(|(p, pay)| p * pay).sum()
        })
        .collect();
    super::symmetrize(stacks, &mut equity);
    Ok(equity)
}

fn interrupted(visited: u64, cancel: &AtomicBool) -> bool {
    visited.is_multiple_of(CHECK_EVERY) && cancel.load(Ordering::Relaxed)
}

/// The next larger mask with as many bits (Gosper's hack); `x` is not 0.
fn next_mask(x: u128) -> u128 {
    let lowest = x & x.wrapping_neg();
    let ripple = x + lowest;
    (((ripple ^ x) >> 2) / lowest) | ripple
}

/// The recursion one size of set at a time, each size in an array indexed by the
/// colexicographic rank of the set: `rank({e_0 < e_1 < ...}) = sum C(e_i, i + 1)`, the
/// order of the masks as numbers.
fn layered_places(
    stacks: &[f64],
    m: usize,
    out: &mut [f64],
    cancel: &AtomicBool,
) -> Result<(), CoreError> {
    let n = stacks.len();
    let total: f64 = stacks.iter().sum();
    // c[e][i] = C(e, i) for the ranks.
    let c: Vec<Vec<usize>> = (0..=n)
        .map(|e| (0..=m + 1).map(|i| binomial(e, i) as usize).collect())
        .collect();
    let mut current = vec![1.0f64];
    let mut visited = 0u64;
    for k in 0..m {
        let mut next = vec![0.0f64; if k + 1 < m { c[n][k + 1] } else { 0 }];
        let mut mask: u128 = (1u128 << k) - 1;
        for &p in &current {
            visited += 1;
            if interrupted(visited, cancel) {
                return Err(CoreError::Interrupted);
            }
            let mut chips = 0.0;
            let mut high = 0; // sum of C(e, i + 2) over the members e (i: e's index)
            let mut i = 0;
            for e in 0..n {
                if mask >> e & 1 == 1 {
                    chips += stacks[e];
                    high += c[e][i + 2];
                    i += 1;
                }
            }
            let share = p / (total - chips);
            let (mut low, mut below) = (0, 0); // sum of C(e, i + 1) of members below j
            for (j, &stack) in stacks.iter().enumerate() {
                if mask >> j & 1 == 1 {
                    low += c[j][below + 1];
                    high -= c[j][below + 2];
                    below += 1;
                    continue;
                }
                let q = share * stack;
                out[j * m + k] += q;
                if k + 1 < m {
                    next[low + c[j][below + 1] + high] += q;
                }
            }
            if k > 0 {
                mask = next_mask(mask);
            }
        }
        current = next;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::tests::orders;
    use super::*;

    fn no() -> AtomicBool {
        AtomicBool::new(false)
    }

    fn close(a: &[f64], b: &[f64], tolerance: f64) {
        for (x, y) in a.iter().zip(b) {
            assert!((x - y).abs() <= tolerance, "{a:?} != {b:?}");
        }
    }

    #[test]
    fn matches_the_orders_on_small_fields() {
        let stacks = [5.0, 1.0, 7.0, 3.0, 2.0, 9.0];
        for paid in 0..=stacks.len() {
            let payouts: Vec<f64> = (0..paid).map(|k| 100.0 - 13.0 * k as f64).collect();
            let expected = orders(&stacks, &payouts);
            close(&exact(&stacks, &payouts, &no()).unwrap(), &expected, 1e-12);
            let p = places(&stacks, paid, &no()).unwrap();
            let mut layered = vec![0.0; stacks.len() * paid];
            if paid > 0 {
                layered_places(&stacks, paid, &mut layered, &no()).unwrap();
            }
            close(&p, &layered, 1e-15);
        }
    }

    /// The dense table (its blocks, leaves and high halves) against the layered one.
    #[test]
    fn dense_and_layered_agree() {
        for n in [1usize, 2, 3, 4, 8, 9, 11, 14, 17] {
            let stacks: Vec<f64> = (0..n).map(|i| ((i * 7919) % 613 + 1) as f64).collect();
            for paid in [1, 2, 3, n / 2, n - 1, n] {
                if paid == 0 {
                    continue;
                }
                let mut dense = vec![0.0; n * paid];
                let mut layered = vec![0.0; n * paid];
                super::super::dense::places(&stacks, paid, &mut dense, &no()).unwrap();
                layered_places(&stacks, paid, &mut layered, &no()).unwrap();
                close(&dense, &layered, 1e-14);
            }
        }
    }

    #[test]
    fn known_values() {
        // Two players: equity is the chip share of the difference plus the second prize.
        let e = exact(&[1.0, 3.0], &[10.0, 2.0], &no()).unwrap();
        close(&e, &[4.0, 8.0], 1e-15);
        // pokerkit's documented example: calculate_icm([70, 30], [50, 30, 20]).
        let e = exact(&[50.0, 30.0, 20.0], &[70.0, 30.0], &no()).unwrap();
        close(&e, &[45.178571428571, 32.25, 22.571428571429], 1e-9);
    }

    #[test]
    fn places_are_distributions() {
        let stacks: Vec<f64> = (1..=12).map(|i| (i * i % 17 + 1) as f64).collect();
        let n = stacks.len();
        let p = places(&stacks, n, &no()).unwrap();
        for i in 0..n {
            let row: f64 = p[i * n..(i + 1) * n].iter().sum();
            assert!((row - 1.0).abs() < 1e-12);
        }
        for k in 0..n {
            let column: f64 = (0..n).map(|i| p[i * n + k]).sum();
            assert!((column - 1.0).abs() < 1e-12);
        }
        // The first place goes by chips.
        let total: f64 = stacks.iter().sum();
        for i in 0..n {
            assert!((p[i * n] - stacks[i] / total).abs() < 1e-15);
        }
    }

    #[test]
    fn layered_reaches_large_fields_with_few_places() {
        let stacks: Vec<f64> = (0..50).map(|i| (1000 + 37 * i) as f64).collect();
        assert!(exact_cost(50, 3) < 100_000);
        let e = exact(&stacks, &[50.0, 30.0, 20.0], &no()).unwrap();
        assert!((e.iter().sum::<f64>() - 100.0).abs() < 1e-10);
        assert!(e.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(exact_cost(65, 1), u64::MAX);
        assert!(places(&vec![1.0; 65], 1, &no()).is_err());
    }

    #[test]
    fn twenty_players_all_paid() {
        let stacks: Vec<f64> = (1..=20).map(|i| (i * 7919 % 1000 + 1) as f64).collect();
        let payouts: Vec<f64> = (0..20).map(|k| (20 - k) as f64).collect();
        let e = exact(&stacks, &payouts, &no()).unwrap();
        assert!((e.iter().sum::<f64>() - 210.0).abs() < 1e-9);
    }

    #[test]
    fn cancels() {
        let stop = AtomicBool::new(true);
        let stacks = vec![1.0; 20];
        assert_eq!(places(&stacks, 20, &stop), Err(CoreError::Interrupted));
    }

    #[test]
    fn binomials() {
        assert_eq!(binomial(64, 32), 1_832_624_140_942_590_534);
        assert_eq!(binomial(5, 7), 0);
        assert_eq!(binomial(200, 100), u64::MAX);
        assert_eq!(exact_cost(20, 20), 20 * (1 << 19));
    }
}
