//! Monte Carlo equities with their standard errors.
//!
//! A sample deals each player a hand from their range with probability proportional to
//! its weight (a deal in which two hands share a card is thrown away and dealt again,
//! so deals come with probability proportional to the product of their weights, as in
//! the exact enumeration), then the rest of the board uniformly from the cards left.
//!
//! Samples come in blocks of [`BLOCK`]; block `b` draws from its own generator seeded
//! from `(seed, b)`, so the result depends on the seed alone, not on the number of
//! threads or how blocks are shared out.

use super::{value, Spec, Variant, MAX_PLAYERS, UNIT};
use crate::cards::{Card, SplitMix64};
use crate::error::CoreError;
use crate::eval::{Hand, HandValue};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Samples per block.
pub const BLOCK: u64 = 1 << 13;

/// The most samples a run takes (about 6.9e10).
pub const MAX_SAMPLES: u64 = 1 << 36;

/// Deals thrown away in a row before the ranges are declared unable to make a deal.
const MAX_REJECTIONS: u32 = 1_000_000;

/// When to stop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// After exactly this many samples.
    Samples(u64),
    /// Once every player's standard error is at most this (or at [`MAX_SAMPLES`]).
    Stderr(f64),
}

/// Integer tallies of samples; tallies of blocks add up in any order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Samples {
    pub samples: u64,
    /// Per player: samples won alone, and tied for the best with others.
    pub win: Vec<u64>,
    pub tie: Vec<u64>,
    /// Per player: the sum of the shares in units of 1/[`UNIT`], and of their squares
    /// (for the standard error).
    pub units: Vec<u128>,
    pub squares: Vec<u128>,
}

impl Samples {
    pub fn new(players: usize) -> Samples {
        Samples {
            samples: 0,
            win: vec![0; players],
            tie: vec![0; players],
            units: vec![0; players],
            squares: vec![0; players],
        }
    }

    /// Heads-up counts: a share is a whole pot (a win) or half of it (a tie).
    fn heads_up(samples: u64, win: [u64; 2], tied: u64) -> Samples {
        let (unit, half) = (u128::from(UNIT), u128::from(UNIT / 2));
        let share = |w: u64| u128::from(w) * unit + u128::from(tied) * half;
        let square = |w: u64| u128::from(w) * unit * unit + u128::from(tied) * half * half;
        Samples {
            samples,
            win: win.to_vec(),
            tie: vec![tied, tied],
            units: win.iter().map(|&w| share(w)).collect(),
            squares: win.iter().map(|&w| square(w)).collect(),
        }
    }

    pub fn add(&mut self, other: &Samples) {
        self.samples += other.samples;
        for i in 0..self.win.len() {
            self.win[i] += other.win[i];
            self.tie[i] += other.tie[i];
            self.units[i] += other.units[i];
            self.squares[i] += other.squares[i];
        }
    }

    /// Each player's estimated share of the pot.
    pub fn equities(&self) -> Vec<f64> {
        let n = self.samples.max(1) as f64 * UNIT as f64;
        self.units.iter().map(|&u| u as f64 / n).collect()
    }

    /// Each player's standard error of the share: the sample standard deviation of
    /// one sample's share over the square root of the number of samples.
    pub fn stderrs(&self) -> Vec<f64> {
        let n = self.samples as f64;
        if self.samples < 2 {
            return vec![f64::INFINITY; self.units.len()];
        }
        self.units
            .iter()
            .zip(&self.squares)
            .map(|(&sum, &squares)| {
                let (sum, squares) = (sum as f64, squares as f64);
                let variance = ((squares - sum * sum / n) / (n - 1.0)).max(0.0);
                (variance / n).sqrt() / UNIT as f64
            })
            .collect()
    }
}

/// How each player's hand is drawn.
struct Range {
    /// Cumulative weights (empty when all weights are equal: a uniform index).
    cumulative: Vec<u64>,
    masks: Vec<u64>,
    bases: Vec<[Hand; 2]>,
}

impl Range {
    #[inline(always)]
    fn draw(&self, rng: &mut SplitMix64) -> usize {
        let n = self.masks.len();
        if n == 1 {
            0
        } else if self.cumulative.is_empty() {
            rng.below(n as u64) as usize
        } else {
            let total = *self.cumulative.last().expect("a range has hands");
            let x = rng.below(total);
            self.cumulative.partition_point(|&c| c <= x)
        }
    }
}

struct Sampler {
    ranges: Vec<Range>,
    deck: Vec<Card>,
    /// Whether every player has a single hand, and the cards nobody holds then.
    fixed: bool,
    free: Vec<Card>,
    missing: usize,
    double: bool,
}

impl Sampler {
    fn new(spec: &Spec) -> Sampler {
        let board = spec.board_hand();
        let ranges = spec
            .players
            .iter()
            .map(|combos| {
                let uniform = combos.iter().all(|c| c.weight == combos[0].weight);
                let cumulative = if uniform {
                    Vec::new()
                } else {
                    combos
                        .iter()
                        .scan(0u64, |total, c| {
                            *total += c.weight;
                            Some(*total)
                        })
                        .collect()
                };
                Range {
                    cumulative,
                    masks: combos.iter().map(|c| c.mask).collect(),
                    bases: combos
                        .iter()
                        .map(|c| c.bases(spec.variant, board))
                        .collect(),
                }
            })
            .collect();
        let fixed = spec.players.iter().all(|p| p.len() == 1);
        let held = spec.players.iter().fold(0, |m, p| m | p[0].mask);
        let deck = spec.deck();
        let free = deck
            .iter()
            .copied()
            .filter(|&c| !fixed || held >> c & 1 == 0)
            .collect();
        Sampler {
            ranges,
            deck,
            fixed,
            free,
            missing: spec.missing(),
            double: spec.variant == Variant::Double,
        }
    }

    fn block(&self, seed: u64, index: u64, count: u64) -> Result<Samples, CoreError> {
        if self.double {
            self.block_of::<true>(seed, index, count)
        } else {
            self.block_of::<false>(seed, index, count)
        }
    }

    fn block_of<const DOUBLE: bool>(
        &self,
        seed: u64,
        index: u64,
        count: u64,
    ) -> Result<Samples, CoreError> {
        let n = self.ranges.len();
        let mut rng = SplitMix64::new(
            SplitMix64::new(seed ^ index.wrapping_mul(0xA24B_AED4_963E_E407)).next_u64(),
        );
        let mut win = [0u64; MAX_PLAYERS];
        let mut tie = [0u64; MAX_PLAYERS];
        let mut units = [0u64; MAX_PLAYERS];
        let mut squares = [0u64; MAX_PLAYERS];
        let mut chosen = [0usize; MAX_PLAYERS];
        let mut values = [0 as HandValue; MAX_PLAYERS];
        let deck_len = self.deck.len() as u64;
        // With one hand per player, the board comes from a partial shuffle of the
        // cards nobody holds: no draw is ever thrown away.
        let mut free = self.free.clone();
        if self.fixed && n == 2 {
            let [w0, w1, t] = self.fixed_heads_up::<DOUBLE>(&mut rng, &mut free, count);
            return Ok(Samples::heads_up(count, [w0, w1], t));
        }
        for _ in 0..count {
            let mut extra = Hand::ZERO;
            if self.fixed {
                extra = self.deal_board(&mut rng, &mut free);
            } else {
                let mut rejections = 0;
                let mut used;
                'deal: loop {
                    used = 0u64;
                    for (range, chosen) in self.ranges.iter().zip(chosen.iter_mut()) {
                        let i = range.draw(&mut rng);
                        if range.masks[i] & used != 0 {
                            rejections += 1;
                            if rejections > MAX_REJECTIONS {
                                return Err(CoreError::invalid_hand(
                                    "the ranges almost never make a deal without a shared \
                                     card: ask for the exact equity instead",
                                ));
                            }
                            continue 'deal;
                        }
                        used |= range.masks[i];
                        *chosen = i;
                    }
                    break;
                }
                for _ in 0..self.missing {
                    let card = loop {
                        let card = self.deck[rng.below(deck_len) as usize];
                        if used >> card & 1 == 0 {
                            break card;
                        }
                    };
                    used |= 1 << card;
                    extra = extra.add_card(card);
                }
            }
            if n == 2 {
                let a = value::<DOUBLE>(&self.ranges[0].bases[chosen[0]], extra);
                let b = value::<DOUBLE>(&self.ranges[1].bases[chosen[1]], extra);
                win[0] += u64::from(a > b);
                win[1] += u64::from(b > a);
                tie[0] += u64::from(a == b);
                continue;
            }
            for i in 0..n {
                values[i] = value::<DOUBLE>(&self.ranges[i].bases[chosen[i]], extra);
            }
            let best = values[..n].iter().copied().max().unwrap_or(0);
            let tied = values[..n].iter().filter(|&&v| v == best).count() as u64;
            let share = UNIT / tied;
            for i in 0..n {
                if values[i] == best {
                    units[i] += share;
                    squares[i] += share * share;
                    if tied == 1 {
                        win[i] += 1;
                    } else {
                        tie[i] += 1;
                    }
                }
            }
        }
        if n == 2 {
            return Ok(Samples::heads_up(count, [win[0], win[1]], tie[0]));
        }
        Ok(Samples {
            samples: count,
            win: win[..n].to_vec(),
            tie: tie[..n].to_vec(),
            units: units[..n].iter().map(|&u| u128::from(u)).collect(),
            squares: squares[..n].iter().map(|&u| u128::from(u)).collect(),
        })
    }

    /// The rest of the board for `count` samples from a partial shuffle of `free`.
    #[inline(always)]
    fn deal_board(&self, rng: &mut SplitMix64, free: &mut [Card]) -> Hand {
        let free_len = free.len() as u32;
        let mut extra = Hand::ZERO;
        let mut i = 0;
        while i + 1 < self.missing {
            let left = free_len - i as u32;
            let (j, k) = rng.below_two(left, left - 1);
            free.swap(i, i + j as usize);
            free.swap(i + 1, i + 1 + k as usize);
            extra = extra.add_card(free[i]).add_card(free[i + 1]);
            i += 2;
        }
        if i < self.missing {
            let j = i + rng.below(u64::from(free_len) - i as u64) as usize;
            free.swap(i, j);
            extra = extra.add_card(free[i]);
        }
        extra
    }

    /// Two players with one hand each: (won by the first, by the second, tied). Boards
    /// are dealt 64 at a time, then evaluated in a loop free of the generator's chain,
    /// so the table lookups of consecutive samples overlap.
    fn fixed_heads_up<const DOUBLE: bool>(
        &self,
        rng: &mut SplitMix64,
        free: &mut [Card],
        count: u64,
    ) -> [u64; 3] {
        let (a, b) = (self.ranges[0].bases[0], self.ranges[1].bases[0]);
        let mut boards = [Hand::ZERO; 64];
        let [mut w0, mut w1, mut tied] = [0u64; 3];
        let mut left = count;
        while left > 0 {
            let batch = left.min(64) as usize;
            for board in &mut boards[..batch] {
                *board = self.deal_board(rng, free);
            }
            for &board in &boards[..batch] {
                let (x, y) = (value::<DOUBLE>(&a, board), value::<DOUBLE>(&b, board));
                w0 += u64::from(x > y);
                w1 += u64::from(y > x);
                tied += u64::from(x == y);
            }
            left -= batch as u64;
        }
        [w0, w1, tied]
    }

    /// Blocks `first..last` of a run of `total` samples, in parallel.
    fn blocks(
        &self,
        seed: u64,
        first: u64,
        last: u64,
        total: u64,
        progress: &(dyn Fn() + Sync),
        cancel: &AtomicBool,
    ) -> Result<Samples, CoreError> {
        let n = self.ranges.len();
        (first..last)
            .into_par_iter()
            .map(|b| {
                if cancel.load(Ordering::Relaxed) {
                    return Err(CoreError::Interrupted);
                }
                let count = BLOCK.min(total - b * BLOCK);
                let result = self.block(seed, b, count);
                progress();
                result
            })
            .try_reduce(
                || Samples::new(n),
                |mut a, b| {
                    a.add(&b);
                    Ok(a)
                },
            )
    }
}

/// Samples `spec` within `budget`, reproducibly from `seed`, on the current rayon pool.
/// `done` counts progress in thousandths of the samples planned so far; once `cancel`
/// is set the run stops with [`CoreError::Interrupted`].
pub fn sample(
    spec: &Spec,
    budget: Budget,
    seed: u64,
    done: &AtomicUsize,
    cancel: &AtomicBool,
) -> Result<Samples, CoreError> {
    let sampler = Sampler::new(spec);
    let blocks_done = AtomicUsize::new(0);
    let blocks_done = &blocks_done;
    let report = |planned: u64| {
        move || {
            let b = blocks_done.fetch_add(1, Ordering::Relaxed) as u64 + 1;
            let permille = (b * BLOCK * 1000 / planned.max(1)).min(1000);
            done.store(permille as usize, Ordering::Relaxed);
        }
    };
    match budget {
        Budget::Samples(total) => {
            if total == 0 || total > MAX_SAMPLES {
                return Err(CoreError::invalid_hand(format!(
                    "samples must be 1 to {MAX_SAMPLES}, not {total}"
                )));
            }
            let blocks = total.div_ceil(BLOCK);
            sampler.blocks(seed, 0, blocks, total, &report(total), cancel)
        }
        Budget::Stderr(target) => {
            if !(target > 0.0 && target.is_finite()) {
                return Err(CoreError::invalid_hand(format!(
                    "the standard error to stop at must be above 0, not {target}"
                )));
            }
            let mut result = Samples::new(spec.players.len());
            let mut blocks = 0u64;
            let mut planned = 16 * BLOCK;
            loop {
                let next = planned.div_ceil(BLOCK).max(blocks + 1);
                let part =
                    sampler.blocks(seed, blocks, next, u64::MAX, &report(next * BLOCK), cancel)?;
                result.add(&part);
                blocks = next;
                let worst = result.stderrs().into_iter().fold(0.0, f64::max);
                if worst <= target || result.samples >= MAX_SAMPLES {
                    done.store(1000, Ordering::Relaxed);
                    return Ok(result);
                }
                // The error falls as one over the square root of the samples: aim a
                // little past the estimate, growing at most eightfold a round.
                let n = result.samples as f64;
                let needed = n * (worst / target).powi(2) * 1.05;
                planned = (needed.min(8.0 * n).min(MAX_SAMPLES as f64)) as u64;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::showdown::exact;
    use crate::showdown::texas_spec as spec;

    fn run(spec: &Spec, budget: Budget, seed: u64) -> Samples {
        sample(
            spec,
            budget,
            seed,
            &AtomicUsize::new(0),
            &AtomicBool::new(false),
        )
        .unwrap()
    }

    #[test]
    fn within_four_standard_errors_of_exact() {
        let s = spec(
            &[&["Ah Kh", "Qc Qd"], &["Js Tc", "8d 8c"], &["5h 4h"]],
            "Kd 9s 2h",
        );
        let t = exact::tally(s.clone()).unwrap();
        let exact: Vec<f64> = t
            .units
            .iter()
            .map(|&u| u as f64 / (t.weight as f64 * UNIT as f64))
            .collect();
        let r = run(&s, Budget::Samples(200_000), 3);
        for ((e, m), se) in exact.iter().zip(r.equities()).zip(r.stderrs()) {
            assert!((e - m).abs() < 4.0 * se, "{e} {m} {se}");
        }
        let total: u128 = r.units.iter().sum();
        assert_eq!(total, u128::from(r.samples * UNIT));
    }

    #[test]
    fn the_seed_alone_decides() {
        let s = spec(&[&["Ah Kh"], &["Qs Qd"]], "");
        let a = run(&s, Budget::Samples(50_000), 9);
        assert_eq!(a, run(&s, Budget::Samples(50_000), 9));
        assert_ne!(a, run(&s, Budget::Samples(50_000), 10));
        assert_eq!(a.samples, 50_000);
        let r = run(&s, Budget::Stderr(0.002), 1);
        assert!(r.stderrs().iter().all(|&e| e <= 0.002));
    }

    #[test]
    fn refuses_bad_budgets() {
        let s = spec(&[&["Ah Kh"], &["Qs Qd"]], "");
        let (d, c) = (AtomicUsize::new(0), AtomicBool::new(false));
        assert!(sample(&s, Budget::Samples(0), 1, &d, &c).is_err());
        assert!(sample(&s, Budget::Stderr(0.0), 1, &d, &c).is_err());
        assert!(sample(&s, Budget::Stderr(f64::NAN), 1, &d, &c).is_err());
    }
}

#[cfg(test)]
mod two_draws {
    use crate::cards::SplitMix64;

    #[test]
    fn both_halves_are_uniform() {
        // 47 and 46 values (a partial shuffle's first steps): every value about equally
        // often, within 5 standard deviations.
        let mut rng = SplitMix64::new(3);
        let (mut first, mut second) = ([0u32; 47], [0u32; 46]);
        let n = 470_000;
        for _ in 0..n {
            let (a, b) = rng.below_two(47, 46);
            first[a as usize] += 1;
            second[b as usize] += 1;
        }
        let check = |counts: &[u32]| {
            let expected = f64::from(n) / counts.len() as f64;
            let sd = expected.sqrt();
            assert!(counts
                .iter()
                .all(|&c| (f64::from(c) - expected).abs() < 5.0 * sd));
        };
        check(&first);
        check(&second);
    }
}
