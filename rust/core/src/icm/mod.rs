//! The Independent Chip Model (Malmuth-Harville): each player's expected prize from the
//! chip stacks alone. First place goes to player i with probability `stack_i / total`;
//! given the first, the next place is drawn the same way among the others, and so on.
//!
//! Three methods, all over the same checked input ([`check`]):
//! - [`exact`]: the recursion over subsets of the players already placed, in `f64`
//!   (a few rounding errors of 1e-16 per step); [`places`] gives each player's
//!   probability of each place. Its cost is [`exact_cost`].
//! - [`quadrature`]: an integral over one real variable, for fields of thousands of
//!   players, with an error estimate (see its module).
//! - [`sample`]: Monte Carlo finishing orders, seeded, with standard errors.
//!
//! Stacks are positive and finite, payouts finite, and at most one payout per player
//! (place). Players with equal stacks get equal equity, bit for bit ([`symmetrize`]).
//! Rules about zero stacks and money (integer chips) belong to the Python layer.

mod dense;
mod exact;
mod kronrod;
mod product;
mod quadrature;
mod sample;

pub use exact::{exact, exact_cost, places, DENSE_PLAYERS, SPARSE_PLAYERS};
pub use quadrature::{quadrature, Estimate};
pub use sample::{sample, Sampled, BLOCK};

use crate::error::CoreError;

/// Checks the input every method takes: at least one player, every stack positive and
/// finite, every payout finite, no more payouts than players.
pub fn check(stacks: &[f64], payouts: &[f64]) -> Result<(), CoreError> {
    if stacks.is_empty() {
        return Err(CoreError::invalid_argument("ICM needs at least one player"));
    }
    if let Some((i, s)) = stacks
        .iter()
        .enumerate()
        .find(|(_, s)| !(s.is_finite() && **s > 0.0))
    {
        return Err(CoreError::invalid_argument(format!(
            "stack {} is {s}: stacks must be positive and finite",
            i + 1
        )));
    }
    if let Some((k, p)) = payouts.iter().enumerate().find(|(_, p)| !p.is_finite()) {
        return Err(CoreError::invalid_argument(format!(
            "payout {} is {p}: payouts must be finite",
            k + 1
        )));
    }
    if payouts.len() > stacks.len() {
        return Err(CoreError::invalid_argument(format!(
            "{} payouts for {} players: at most one payout per place",
            payouts.len(),
            stacks.len()
        )));
    }
    Ok(())
}

/// Gives players with equal stacks the mean of their values (the model is symmetric,
/// so this only removes rounding differences, or averages their Monte Carlo estimates).
pub fn symmetrize(stacks: &[f64], values: &mut [f64]) {
    let mut order: Vec<usize> = (0..stacks.len()).collect();
    order.sort_by(|&a, &b| stacks[a].total_cmp(&stacks[b]));
    for group in order.chunk_by(|&a, &b| stacks[a] == stacks[b]) {
        if group.len() > 1 {
            let mean = group.iter().map(|&i| values[i]).sum::<f64>() / group.len() as f64;
            for &i in group {
                values[i] = mean;
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Brute force: every finishing order of the paid places, by its probability.
    pub(crate) fn orders(stacks: &[f64], payouts: &[f64]) -> Vec<f64> {
        fn walk(stacks: &[f64], payouts: &[f64], left: &mut Vec<usize>, p: f64, out: &mut [f64]) {
            let Some((&pay, rest)) = payouts.split_first() else {
                return;
            };
            let total: f64 = left.iter().map(|&i| stacks[i]).sum();
            for k in 0..left.len() {
                let i = left.remove(k);
                let q = p * stacks[i] / total;
                out[i] += q * pay;
                walk(stacks, rest, left, q, out);
                left.insert(k, i);
            }
        }
        let mut out = vec![0.0; stacks.len()];
        walk(
            stacks,
            payouts,
            &mut (0..stacks.len()).collect(),
            1.0,
            &mut out,
        );
        out
    }

    #[test]
    fn check_refuses_bad_input() {
        assert!(check(&[], &[]).is_err());
        assert!(check(&[1.0, 0.0], &[1.0]).is_err());
        assert!(check(&[1.0, f64::NAN], &[1.0]).is_err());
        assert!(check(&[1.0, 2.0], &[f64::INFINITY]).is_err());
        assert!(check(&[1.0, 2.0], &[3.0, 2.0, 1.0]).is_err());
        assert!(check(&[1.0, 2.0], &[3.0, 2.0]).is_ok());
    }

    #[test]
    fn symmetrize_averages_equal_stacks() {
        let mut values = vec![1.0, 2.0, 3.0, 5.0];
        symmetrize(&[7.0, 3.0, 7.0, 3.0], &mut values);
        assert_eq!(values, vec![2.0, 3.5, 2.0, 3.5]);
    }
}
