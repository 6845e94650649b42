//! Monte Carlo ICM: finishing orders drawn from the model, each player's mean prize and
//! its standard error.
//!
//! A finishing order is drawn by exponential clocks: player i's clock rings at
//! `E_i / stack_i` with `E_i` a standard exponential, and the players take the places
//! in the order their clocks ring. The first to ring is i with probability
//! `stack_i / total`, and, clocks having no memory, the next among the others likewise:
//! exactly the Malmuth-Harville order.
//!
//! Samples come in blocks of [`BLOCK`], block `b` from its own generator seeded from
//! `(seed, b)`; block sums are added in block order, so the result depends on the seed
//! alone, not on the number of threads.

use crate::cards::SplitMix64;
use crate::error::CoreError;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Samples per block.
pub const BLOCK: u64 = 1 << 12;

/// Each player's mean prize over the samples and its standard error.
#[derive(Clone, Debug, PartialEq)]
pub struct Sampled {
    pub equity: Vec<f64>,
    pub stderr: Vec<f64>,
    pub samples: u64,
}

/// Per player the sum of prizes and of their squares over some samples.
struct Sums {
    prize: Vec<f64>,
    square: Vec<f64>,
}

fn block(stacks: &[f64], payouts: &[f64], seed: u64, index: u64, samples: u64) -> Sums {
    let n = stacks.len();
    let mut rng = SplitMix64::new(
        SplitMix64::new(seed ^ index.wrapping_mul(0xA24B_AED4_963E_E407)).next_u64(),
    );
    let mut sums = Sums {
        prize: vec![0.0; n],
        square: vec![0.0; n],
    };
    let paid = payouts.len();
    let mut clocks: Vec<(f64, usize)> = vec![(0.0, 0); n];
    for _ in 0..samples {
        for (i, clock) in clocks.iter_mut().enumerate() {
            // A uniform number in (0, 1]: 53 random bits, never 0.
            let u = ((rng.next_u64() >> 11) + 1) as f64 * (1.0 / (1u64 << 53) as f64);
            *clock = (-u.ln() / stacks[i], i);
        }
        if paid < n {
            clocks.select_nth_unstable_by(paid, |a, b| a.0.total_cmp(&b.0));
        }
        let first = &mut clocks[..paid];
        first.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        for (&(_, i), &pay) in first.iter().zip(payouts) {
            sums.prize[i] += pay;
            sums.square[i] += pay * pay;
        }
    }
    sums
}

/// Each player's equity over `samples` finishing orders drawn from `seed` (see the
/// module docs), with its standard error. `done` counts blocks; `cancel` stops the work.
pub fn sample(
    stacks: &[f64],
    payouts: &[f64],
    samples: u64,
    seed: u64,
    done: &AtomicUsize,
    cancel: &AtomicBool,
) -> Result<Sampled, CoreError> {
    super::check(stacks, payouts)?;
    if samples < 2 {
        return Err(CoreError::invalid_argument(format!(
            "Monte Carlo ICM takes at least 2 samples (for a standard error), not {samples}"
        )));
    }
    let blocks = samples.div_ceil(BLOCK);
    let sums: Vec<Option<Sums>> = (0..blocks)
        .into_par_iter()
        .map(|b| {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            let count = BLOCK.min(samples - b * BLOCK);
            let sums = block(stacks, payouts, seed, b, count);
            done.fetch_add(1, Ordering::Relaxed);
            Some(sums)
        })
        .collect();
    let n = stacks.len();
    let (mut prize, mut square) = (vec![0.0; n], vec![0.0; n]);
    for sums in sums {
        let sums = sums.ok_or(CoreError::Interrupted)?;
        for i in 0..n {
            prize[i] += sums.prize[i];
            square[i] += sums.square[i];
        }
    }
    let count = samples as f64;
    let mut equity: Vec<f64> = prize.iter().map(|p| p / count).collect();
    let mut stderr: Vec<f64> = (0..n)
        .map(|i| {
            let variance =
                (square[i] / count - equity[i] * equity[i]).max(0.0) * count / (count - 1.0);
            (variance / count).sqrt()
        })
        .collect();
    // The mean over players with equal stacks has a standard error at most the mean of
    // theirs (the standard deviation of a sum is at most the sum of theirs).
    super::symmetrize(stacks, &mut equity);
    super::symmetrize(stacks, &mut stderr);
    Ok(Sampled {
        equity,
        stderr,
        samples,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(stacks: &[f64], payouts: &[f64], samples: u64, seed: u64) -> Sampled {
        let (done, cancel) = (AtomicUsize::new(0), AtomicBool::new(false));
        sample(stacks, payouts, samples, seed, &done, &cancel).unwrap()
    }

    #[test]
    fn within_its_standard_error_of_the_exact_values() {
        let stacks = [30.0, 10.0, 25.0, 5.0, 18.0, 12.0];
        let payouts = [50.0, 30.0, 20.0];
        let exact = super::super::tests::orders(&stacks, &payouts);
        let r = run(&stacks, &payouts, 200_000, 7);
        for (i, truth) in exact.iter().enumerate() {
            let z = (r.equity[i] - truth) / r.stderr[i];
            assert!(z.abs() < 5.0, "player {i}: z = {z}");
            assert!(r.stderr[i] > 0.0 && r.stderr[i] < 0.2);
        }
    }

    #[test]
    fn the_seed_alone_decides() {
        let stacks = [3.0, 1.0, 2.0];
        let a = run(&stacks, &[1.0], 10_000, 42);
        let b = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| run(&stacks, &[1.0], 10_000, 42));
        assert_eq!(a, b);
        assert_ne!(a, run(&stacks, &[1.0], 10_000, 43));
        assert_eq!(a.samples, 10_000);
    }

    #[test]
    fn refuses_one_sample_and_cancels() {
        let (done, cancel) = (AtomicUsize::new(0), AtomicBool::new(true));
        assert!(sample(&[1.0], &[1.0], 1, 0, &done, &cancel).is_err());
        assert_eq!(
            sample(&[1.0, 2.0], &[1.0], 100_000, 0, &done, &cancel),
            Err(CoreError::Interrupted)
        );
    }
}
