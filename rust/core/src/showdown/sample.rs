//! Monte Carlo equities with their standard errors.
//!
//! A sample deals each player a hand from their range with probability proportional to
//! its weight (a deal in which two hands share a card is thrown away and dealt again,
//! so deals come with probability proportional to the product of their weights, as in
//! the exact enumeration), then the rest of the board uniformly from the cards left.
//!
//! A player whose range is every hand of some cards alike (`random`, see [`Full`]) is
//! dealt instead from the cards left, without replacement, after the other players:
//! ten `random` players never throw a deal away (drawn independently, ten Double
//! Hold'em holes share no card once in 23,000 deals). This is the same distribution:
//! whatever the other players hold, the full players can complete the deal in the same
//! number of ways (see [`Sampler::new`]), so only the others need the rejection.
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

/// A range holding every set of `k` cards of `cover` exactly `m` times, all of one
/// weight: a hand is the set of `k` cards dealt from what is left, then one of its `m`
/// orders (Double Hold'em's point card) at random.
struct Full {
    /// Per set of cards (by [`set_index`]), its `m` hands' indices in the range.
    by_set: Vec<u32>,
    m: u64,
}

/// `BINOMIAL[n][r]`: n choose r for n below 53, r up to 3.
const BINOMIAL: [[u32; 4]; 53] = {
    let mut table = [[0u32; 4]; 53];
    let mut n = 0;
    while n < 53 {
        table[n][0] = 1;
        let mut r = 1;
        while r < 4 && r <= n {
            table[n][r] = table[n - 1][r - 1] + if r < n { table[n - 1][r] } else { 0 };
            r += 1;
        }
        n += 1;
    }
    table
};

/// The index of a set of 2 or 3 distinct cards among all sets of that size
/// (combinatorial number system), in any order of the cards.
#[inline(always)]
fn set_index(cards: &[Card]) -> usize {
    let mut sorted = [0usize; 3];
    for (s, &c) in sorted.iter_mut().zip(cards) {
        *s = c as usize;
    }
    let sorted = &mut sorted[..cards.len()];
    sorted.sort_unstable();
    sorted
        .iter()
        .enumerate()
        .map(|(r, &c)| BINOMIAL[c][r + 1] as usize)
        .sum()
}

impl Full {
    /// The range as a full range of `k`-card hands, if it is one.
    fn of(combos: &[super::Combo], k: usize) -> Option<(Full, u64)> {
        let weight = combos[0].weight;
        if combos.iter().any(|c| c.weight != weight) {
            return None;
        }
        let cover = combos.iter().fold(0u64, |m, c| m | c.mask);
        let sets = BINOMIAL[cover.count_ones() as usize][k] as usize;
        if sets < 2 || !combos.len().is_multiple_of(sets) {
            return None;
        }
        let m = combos.len() / sets;
        let mut filled = vec![0usize; BINOMIAL[52][k] as usize];
        let mut by_set = vec![0u32; filled.len() * m];
        for (i, combo) in combos.iter().enumerate() {
            let s = set_index(&combo.cards[..k]);
            if filled[s] == m {
                return None;
            }
            by_set[s * m + filled[s]] = i as u32;
            filled[s] += 1;
        }
        // combos.len() = sets x m hands, no set more than m times: every set of the
        // cover appears exactly m times.
        Some((
            Full {
                by_set,
                m: m as u64,
            },
            cover,
        ))
    }
}

struct Sampler {
    ranges: Vec<Range>,
    /// Per player: dealt from the cards left (see [`Full`]), or drawn from the range.
    full: Vec<Option<Full>>,
    /// The players drawn from their ranges (with rejection among them), in order.
    drawn: Vec<usize>,
    /// With full players: the cards they and the board come from (the cover; no
    /// other card is left to deal).
    pool: Vec<Card>,
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
        let (full, pool) = Self::full_players(spec);
        let drawn = (0..spec.players.len())
            .filter(|&i| full[i].is_none())
            .collect();
        Sampler {
            ranges,
            full,
            drawn,
            pool,
            deck,
            fixed,
            free,
            missing: spec.missing(),
            double: spec.variant == Variant::Double,
        }
    }

    /// The players dealt from the cards left, and those cards: the players whose range
    /// is full over C, the deck less the cards of the players holding one hand. Every
    /// other hand lies within C or is a fixed hand outside it ([`super::Spec::new`]
    /// takes fixed cards out of every range), so whatever the others hold, as many
    /// cards of C are left and the full players complete the deal in as many ways: the
    /// others' deals keep their weights.
    fn full_players(spec: &Spec) -> (Vec<Option<Full>>, Vec<Card>) {
        let k = spec.variant.hole_cards();
        let none = || (spec.players.iter().map(|_| None).collect(), Vec::new());
        if spec.players.iter().all(|p| p.len() == 1) {
            return none();
        }
        let fixed = spec
            .players
            .iter()
            .filter(|p| p.len() == 1)
            .fold(0u64, |m, p| m | p[0].mask);
        let deck = spec.deck().iter().fold(0u64, |m, &c| m | 1 << c);
        let mut cover = None;
        let mut full = Vec::with_capacity(spec.players.len());
        for combos in &spec.players {
            match Full::of(combos, k) {
                Some((f, c)) if c == deck & !fixed && cover.is_none_or(|d| d == c) => {
                    cover = Some(c);
                    full.push(Some(f));
                }
                _ => full.push(None),
            }
        }
        let Some(cover) = cover else {
            return none();
        };
        let pool = (0..52).filter(|&c| cover >> c & 1 == 1).collect();
        (full, pool)
    }

    /// One deal with full players: the drawn players from their ranges (a deal among
    /// them sharing a card is thrown away), then the full players' cards and the rest
    /// of the board from the pool by a partial shuffle that skips the drawn players'
    /// cards. Returns the rest of the board.
    #[inline(always)]
    fn deal_full(
        &self,
        rng: &mut SplitMix64,
        pool: &mut [Card],
        chosen: &mut [usize; MAX_PLAYERS],
    ) -> Result<Hand, CoreError> {
        let k = if self.double { 3 } else { 2 };
        let mut rejections = 0;
        let used = 'deal: loop {
            let mut used = 0u64;
            for &i in &self.drawn {
                let range = &self.ranges[i];
                let hand = range.draw(rng);
                if range.masks[hand] & used != 0 {
                    rejections += 1;
                    if rejections > MAX_REJECTIONS {
                        return Err(rare_deals());
                    }
                    continue 'deal;
                }
                used |= range.masks[hand];
                chosen[i] = hand;
            }
            break used;
        };
        let len = pool.len() as u64;
        let mut next = 0usize;
        let mut take = |rng: &mut SplitMix64| loop {
            let r = next + rng.below(len - next as u64) as usize;
            let card = pool[r];
            if used >> card & 1 == 0 {
                pool.swap(next, r);
                next += 1;
                return card;
            }
        };
        let mut cards = [0 as Card; 3];
        for (i, full) in self.full.iter().enumerate() {
            if let Some(full) = full {
                for card in &mut cards[..k] {
                    *card = take(rng);
                }
                let set = set_index(&cards[..k]) * full.m as usize;
                let order = if full.m == 1 { 0 } else { rng.below(full.m) };
                chosen[i] = full.by_set[set + order as usize] as usize;
            }
        }
        let mut extra = Hand::ZERO;
        for _ in 0..self.missing {
            extra = extra.add_card(take(rng));
        }
        Ok(extra)
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
        let mut pool = self.pool.clone();
        for _ in 0..count {
            let mut extra = Hand::ZERO;
            if self.fixed {
                extra = self.deal_board(&mut rng, &mut free);
            } else if !pool.is_empty() {
                extra = self.deal_full(&mut rng, &mut pool, &mut chosen)?;
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
                                return Err(rare_deals());
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

fn rare_deals() -> CoreError {
    CoreError::invalid_hand(
        "the ranges almost never make a deal without a shared card: ask for the exact \
         equity instead",
    )
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

    /// Every hand of `k` cards in every order of its point card (`orders` 1: the
    /// lowest card first; 3: each card first), weight 1.
    fn every_hand(k: usize, orders: usize) -> Vec<(Vec<Card>, u64)> {
        let mut hands = Vec::new();
        for a in 0..52u8 {
            for b in a + 1..52 {
                if k == 2 {
                    hands.push((vec![a, b], 1));
                    continue;
                }
                for c in b + 1..52 {
                    let all = [vec![a, b, c], vec![b, a, c], vec![c, a, b]];
                    hands.extend(all.into_iter().take(orders).map(|h| (h, 1)));
                }
            }
        }
        hands
    }

    fn cards(text: &str) -> Vec<Card> {
        crate::cards::parse_cards(text).unwrap()
    }

    fn within_four_errors(s: &Spec, samples: u64) {
        let t = exact::tally(s.clone()).unwrap();
        let r = run(s, Budget::Samples(samples), 5);
        let mut contested = 0;
        for (i, (m, se)) in r.equities().iter().zip(r.stderrs()).enumerate() {
            let e = t.units[i] as f64 / (t.weight as f64 * UNIT as f64);
            contested += usize::from(e > 0.05);
            let off = (e - m).abs();
            assert!(
                off <= 4.0 * se,
                "player {i}: exact {e}, sampled {m} +- {se}"
            );
        }
        assert!(
            contested >= 2,
            "a weak test: {contested} players have a chance"
        );
    }

    #[test]
    fn full_ranges_are_dealt_from_the_cards_left_with_the_same_distribution() {
        // A river with many dead cards: 13 cards left, so the exact answer is quick.
        let board = cards("As Kd 8h 5c 2s");
        let dead = cards("2c 3c 4c 5d 6c 7c 8c 9c Tc Jc Qc Kc Ac 2d 3d 4d 6d 7d 8d 9d Td Jd Qd 3h 4h 6h 7h 8s 9s Ts Js Qs Ks 3s");
        let fixed = vec![(cards("Qh Jh"), 1)];
        let narrow = vec![
            (cards("Ah Kh"), 1),
            (cards("9h 5h"), 3),
            (cards("Th 6s"), 2),
        ];
        let players = vec![fixed, every_hand(2, 1), narrow, every_hand(2, 1)];
        let s = Spec::new(Variant::Texas, &players, &board, &dead).unwrap();
        let sampler = Sampler::new(&s);
        assert_eq!(sampler.drawn, [0, 2]);
        assert!(!sampler.pool.is_empty());
        within_four_errors(&s, 200_000);
    }

    #[test]
    fn double_full_ranges_in_one_or_three_orders() {
        let board = cards("As Kd 8h 5c 2s");
        let dead = cards("2c 3c 4c 5d 6c 7c 8c 9c Tc Jc Qc Kc Ac 2d 3d 4d 6d 7d 8d 9d Td Jd Qd 3h 4h 6h 7h 8s 9s Ts Js");
        let players = vec![
            every_hand(3, 1),
            every_hand(3, 3),
            vec![(cards("Qs Ks 3s"), 1)],
        ];
        let s = Spec::new(Variant::Double, &players, &board, &dead).unwrap();
        let sampler = Sampler::new(&s);
        assert_eq!(sampler.drawn, [2]);
        within_four_errors(&s, 200_000);
    }

    #[test]
    fn ten_random_double_holdem_players_throw_no_deal_away() {
        // Drawn independently, ten holes share no card once in about 23,000 deals:
        // one block took minutes. Dealt from the cards left, it takes milliseconds.
        let players = vec![every_hand(3, 1); 10];
        let s = Spec::new(Variant::Double, &players, &[], &[]).unwrap();
        let sampler = Sampler::new(&s);
        assert!(sampler.drawn.is_empty() && sampler.pool.len() == 52);
        let r = run(&s, Budget::Samples(2 * BLOCK), 1);
        let total: u128 = r.units.iter().sum();
        assert_eq!(total, u128::from(r.samples * UNIT));
        for e in r.equities() {
            assert!((e - 0.1).abs() < 0.02, "{e}");
        }
    }

    #[test]
    fn a_range_short_of_a_card_is_drawn() {
        let board = cards("As Kd 8h 5c 2s");
        let mut short = every_hand(2, 1);
        short.retain(|(h, _)| !h.contains(&cards("Ah")[0]));
        let players = vec![short, every_hand(2, 1)];
        let s = Spec::new(Variant::Texas, &players, &board, &[]).unwrap();
        assert_eq!(Sampler::new(&s).drawn, [0]);
    }

    #[test]
    fn set_indices_are_a_numbering() {
        let mut seen = vec![false; 22100];
        for a in 0..52u8 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    let i = set_index(&[c, a, b]);
                    assert!(!seen[i]);
                    seen[i] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(set_index(&[51, 50]), 1325);
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
