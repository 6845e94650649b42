//! Monte Carlo play of the casino game with a given strategy: the pre-flop decision of
//! each starting-hand class and the flop decision of each (flop class, hand), both from
//! the exact analysis; the river is decided exactly on the spot (990 dealer hands).
//! Rounds run in seeded chunks of [`ROUNDS_PER_CHUNK`]: the totals depend only on the
//! seed and the number of rounds, never on threads or the order chunks finish in.

use super::analysis::Units;
use super::rules::{pay_class, Rules};
use super::settle::{Showdown, SHOWDOWNS};
use crate::cards::Card;
use crate::classes::{hand_class, triple_classes, HAND_CLASSES, PAIRS};
use crate::error::CoreError;
use crate::eval::{Hand, HandValue};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Rounds per seeded chunk.
pub const ROUNDS_PER_CHUNK: u64 = 1 << 16;

/// A complete strategy: what the exact analysis decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strategy {
    /// Per starting-hand class: the pre-flop raise multiple, or `None` to check.
    pub preflop: Vec<Option<u32>>,
    /// Per flop class and hand ([`crate::casino::analysis::Chunk::flop_decisions`]).
    pub flop: Vec<u8>,
}

impl Strategy {
    fn check(&self, rules: &Rules) -> Result<(), CoreError> {
        let flops = triple_classes().representatives.len();
        let allowed = |m: u32, raises: &[u32]| m == 0 || raises.contains(&m);
        if self.preflop.len() != HAND_CLASSES
            || self.flop.len() != flops * PAIRS
            || !self
                .preflop
                .iter()
                .flatten()
                .all(|&m| allowed(m, &rules.preflop_raises))
            || !self
                .flop
                .iter()
                .all(|&m| allowed(m.into(), &rules.flop_raises))
        {
            return Err(CoreError::invalid_rules(
                "a strategy has a pre-flop decision for each of 169 classes and a flop \
                 decision for each of 1,755 flop classes x 1,326 hands, all allowed by the rules",
            ));
        }
        Ok(())
    }
}

/// Sums over simulated rounds, of the Ante + Odds + Play result in units of
/// `1 / denominator` Ante.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Simulation {
    pub rounds: u64,
    pub denominator: i64,
    pub sum: i128,
    pub sum_of_squares: i128,
    /// Rounds by final Play multiple (index 0: folded).
    pub actions: Vec<u64>,
}

impl Simulation {
    fn add(mut self, other: Simulation) -> Simulation {
        self.rounds += other.rounds;
        self.sum += other.sum;
        self.sum_of_squares += other.sum_of_squares;
        self.actions
            .iter_mut()
            .zip(&other.actions)
            .for_each(|(a, b)| *a += b);
        self
    }

    /// Mean result per round, per unit of Ante.
    pub fn mean(&self) -> f64 {
        self.sum as f64 / self.denominator as f64 / self.rounds as f64
    }

    /// Standard deviation of one round's result, per unit of Ante.
    pub fn std_dev(&self) -> f64 {
        let d = self.denominator as f64;
        let n = self.rounds as f64;
        let mean = self.sum as f64 / d / n;
        let square = self.sum_of_squares as f64 / d / d / n;
        ((square - mean * mean) * n / (n - 1.0)).max(0.0).sqrt()
    }

    /// The 95% confidence interval of the mean (normal approximation).
    pub fn confidence_95(&self) -> (f64, f64) {
        let half = 1.959_963_984_540_054 * self.std_dev() / (self.rounds as f64).sqrt();
        (self.mean() - half, self.mean() + half)
    }
}

/// xoshiro256++ seeded through SplitMix64: small, fast and the same everywhere.
struct Rng([u64; 4]);

impl Rng {
    fn new(seed: u64, stream: u64) -> Rng {
        let mut x = seed ^ stream.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut next = || {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        Rng([next(), next(), next(), next()])
    }

    fn next(&mut self) -> u64 {
        let s = &mut self.0;
        let result = (s[0].wrapping_add(s[3])).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Uniform in 0..n (Lemire's multiply-and-reject).
    fn below(&mut self, n: u64) -> u64 {
        let threshold = n.wrapping_neg() % n;
        loop {
            let product = u128::from(self.next()) * u128::from(n);
            if (product as u64) >= threshold {
                return (product >> 64) as u64;
            }
        }
    }

    /// The first `N` cards of a uniformly shuffled deck.
    fn deal<const N: usize>(&mut self) -> [Card; N] {
        let mut deck: [Card; 52] = std::array::from_fn(|i| i as Card);
        for i in 0..N {
            let j = i + self.below((52 - i) as u64) as usize;
            deck.swap(i, j);
        }
        std::array::from_fn(|i| deck[i])
    }
}

/// One round: returns (Play multiple or 0 for a fold, result in units).
fn play_round(rules: &Rules, units: &Units, strategy: &Strategy, cards: [Card; 9]) -> (u32, i64) {
    let player = [cards[0], cards[1]];
    let dealer = [cards[2], cards[3]];
    let board = [cards[4], cards[5], cards[6], cards[7], cards[8]];
    let board_hand = Hand::EMPTY.add_cards(&board);
    let player_value = board_hand.add_cards(&player).value();
    let multiple = strategy.preflop[hand_class(player[0], player[1])]
        .or_else(|| flop_decision(strategy, player, [board[0], board[1], board[2]]))
        .or_else(|| river_decision(rules, units, player, board, player_value));
    let Some(m) = multiple else {
        return (0, units.fold);
    };
    let dealer_value = board_hand.add_cards(&dealer).value();
    let showdown = Showdown::of(rules, player_value, dealer_value);
    let bin = pay_class(player_value) * SHOWDOWNS + showdown as usize;
    (m, units.by_multiple[m as usize][bin])
}

fn flop_decision(strategy: &Strategy, player: [Card; 2], flop: [Card; 3]) -> Option<u32> {
    match super::analysis::flop_decision(&strategy.flop, player, flop) {
        0 => None,
        m => Some(m.into()),
    }
}

/// The best river option against every dealer hand the player cannot see.
fn river_decision(
    rules: &Rules,
    units: &Units,
    player: [Card; 2],
    board_cards: [Card; 5],
    value: HandValue,
) -> Option<u32> {
    let board = Hand::EMPTY.add_cards(&board_cards);
    let seen = |c: Card| player.contains(&c) || board_cards.contains(&c);
    let unseen: Vec<Card> = (0..52).filter(|&c| !seen(c)).collect();
    let mut counts = [0i64; SHOWDOWNS];
    for (i, &a) in unseen.iter().enumerate() {
        let with_a = board.add_card(a);
        for &b in &unseen[i + 1..] {
            counts[Showdown::of(rules, value, with_a.add_card(b).value()) as usize] += 1;
        }
    }
    let base = pay_class(value) * SHOWDOWNS;
    let mut best = (990 * units.fold, None);
    for &m in &rules.river_raises {
        let row = &units.by_multiple[m as usize][base..base + SHOWDOWNS];
        let ev: i64 = counts.iter().zip(row).map(|(n, u)| n * u).sum();
        if ev > best.0 {
            best = (ev, Some(m));
        }
    }
    best.1
}

/// Plays chunk `chunk` of the simulation seeded `seed`: `rounds` rounds.
pub fn simulate_chunk(
    rules: &Rules,
    strategy: &Strategy,
    seed: u64,
    chunk: u64,
    rounds: u64,
) -> Simulation {
    let units = Units::new(rules);
    let mut rng = Rng::new(seed, chunk);
    let mut result = Simulation {
        denominator: units.den,
        actions: vec![0; super::rules::MAX_MULTIPLE as usize + 1],
        ..Simulation::default()
    };
    for _ in 0..rounds {
        let (m, units) = play_round(rules, &units, strategy, rng.deal::<9>());
        result.rounds += 1;
        result.sum += i128::from(units);
        result.sum_of_squares += i128::from(units) * i128::from(units);
        result.actions[m as usize] += 1;
    }
    result
}

/// Plays `rounds` rounds in parallel chunks; `done` counts finished chunks, `cancel`
/// stops the work with [`CoreError::Interrupted`].
pub fn simulate(
    rules: &Rules,
    strategy: &Strategy,
    seed: u64,
    rounds: u64,
    done: &AtomicUsize,
    cancel: &AtomicBool,
) -> Result<Simulation, CoreError> {
    rules.validate()?;
    strategy.check(rules)?;
    let chunks = rounds.div_ceil(ROUNDS_PER_CHUNK);
    let result = (0..chunks)
        .into_par_iter()
        .map(|chunk| {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            let n = ROUNDS_PER_CHUNK.min(rounds - chunk * ROUNDS_PER_CHUNK);
            let part = simulate_chunk(rules, strategy, seed, chunk, n);
            done.fetch_add(1, Ordering::Relaxed);
            Some(part)
        })
        .collect::<Option<Vec<Simulation>>>()
        .ok_or(CoreError::Interrupted)?;
    Ok(result
        .into_iter()
        .reduce(Simulation::add)
        .unwrap_or(Simulation {
            denominator: Units::new(rules).den,
            actions: vec![0; super::rules::MAX_MULTIPLE as usize + 1],
            ..Simulation::default()
        }))
}

/// Number of chunks a simulation of `rounds` rounds runs in.
pub fn simulation_chunks(rounds: u64) -> u64 {
    rounds.div_ceil(ROUNDS_PER_CHUNK)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deals_are_distinct_and_uniform_enough() {
        let mut rng = Rng::new(1, 0);
        let mut seen = [0u32; 52];
        for _ in 0..52_000 {
            let cards = rng.deal::<9>();
            crate::cards::check_cards(&cards).unwrap();
            seen[cards[0] as usize] += 1;
        }
        assert!(seen.iter().all(|&n| (850..1150).contains(&n)), "{seen:?}");
    }

    #[test]
    fn always_raising_matches_a_direct_settlement() {
        let rules = Rules::heads_up();
        let strategy = Strategy {
            preflop: vec![Some(3); HAND_CLASSES],
            flop: vec![0; triple_classes().representatives.len() * PAIRS],
        };
        let a = simulate_chunk(&rules, &strategy, 9, 0, 2000);
        assert_eq!(a.actions[3], 2000);
        let mut rng = Rng::new(9, 0);
        let wagers = crate::casino::Wagers {
            ante: 2,
            ..Default::default()
        };
        let direct: i128 = (0..2000)
            .map(|_| {
                let c = rng.deal::<9>();
                let (player, dealer) = ([c[0], c[1]], [c[2], c[3]]);
                let board = [c[4], c[5], c[6], c[7], c[8]];
                let s = crate::casino::settle(&rules, wagers, Some(3), player, board, dealer);
                s.unwrap().total()
            })
            .sum();
        assert_eq!(a.sum, direct, "an Ante of 2 is 2 units of 1/2");
        assert_eq!(a, simulate_chunk(&rules, &strategy, 9, 0, 2000));
        assert_ne!(a.sum, simulate_chunk(&rules, &strategy, 9, 1, 2000).sum);
    }
}
