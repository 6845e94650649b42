//! Exact analysis of the casino game (RULES.md HU-1 to HU-8) under optimal play:
//! every deal of two player cards, a flop, turn and river and two dealer cards
//! (1,326 x 19,600 x 1,081 x 990 = 27,813,810,024,000 deals), choosing the option of
//! highest expected value at every decision.
//!
//! The work goes flop by flop, one flop per suit-isomorphism class (1,755 classes,
//! each weighted by its size). For each of the 1,176 turn-river pairs the board is
//! fixed: the 1,081 two-card hands left are evaluated once and sorted by value, and a
//! sweep over that order counts, for every player hand at once, the dealer hands it
//! beats, ties and loses to (dealer hands sharing a card with the player are taken out
//! by inclusion-exclusion with per-card counts) and how many of them qualify. Those
//! counts decide the river (raise or fold) and, summed over the turn-river pairs, the
//! flop (raise or check). Each flop adds its counts, by starting-hand class, to a
//! tally of integers: chunks of flops give tallies that add up exactly, in any order,
//! on any machine. The pre-flop decision is taken at the end from the tallies.

use super::rules::{pay_class, Rules, MAX_MULTIPLE, PAY_CLASSES};
use super::settle::{fold_units, showdown_units, Showdown, SHOWDOWNS};
use crate::cards::Card;
use crate::classes::{
    hand_class, hand_class_name, pair_index, pairs, rename, suit_permutations, triple_classes,
    triple_index, HAND_CLASSES, PAIRS,
};
use crate::error::CoreError;
use crate::eval::{Hand, HandValue};
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Outcome bins of a showdown: pay class of the player's hand x [`Showdown`].
pub const BINS: usize = PAY_CLASSES * SHOWDOWNS;
/// Play multiples 0..=MAX_MULTIPLE (0 is unused: a fold has its own counter).
pub const ACTIONS: usize = MAX_MULTIPLE as usize + 1;
/// Words of one starting-hand class in a tally: the showdown bins of every deal (for
/// a pre-flop raise), the bins by final Play multiple after a pre-flop check, and the
/// deals folded after a pre-flop check.
pub const CLASS_WORDS: usize = BINS + ACTIONS * BINS + 1;
/// Words of a whole tally.
pub const TALLY_WORDS: usize = HAND_CLASSES * CLASS_WORDS;
/// Number of chunks (flop classes) of the analysis.
pub fn flop_chunks() -> usize {
    triple_classes().representatives.len()
}

const DEALER_HANDS: u32 = 990;
const BOARD_HANDS: usize = 1081;

/// Payoffs in units of `1 / den` Ante for every Play multiple and outcome bin.
pub(crate) struct Units {
    pub den: i64,
    pub by_multiple: [[i64; BINS]; ACTIONS],
    pub fold: i64,
}

impl Units {
    pub fn new(rules: &Rules) -> Units {
        let den = rules.main_denominator();
        let mut by_multiple = [[0; BINS]; ACTIONS];
        for (m, row) in by_multiple.iter_mut().enumerate() {
            for (bin, units) in row.iter_mut().enumerate() {
                let showdown = Showdown::ALL[bin % SHOWDOWNS];
                *units = showdown_units(rules, den, m as u32, bin / SHOWDOWNS, showdown);
            }
        }
        Units {
            den,
            by_multiple,
            fold: fold_units(den),
        }
    }

    fn of<T: Copy + Into<i64>>(&self, multiple: u32, bins: &[T]) -> i64 {
        let row = &self.by_multiple[multiple as usize];
        bins.iter().zip(row).map(|(&n, &u)| n.into() * u).sum()
    }
}

/// For every two-card hand on one board: its value and its showdown counts against
/// every dealer hand that shares no card with it or the board.
pub(crate) struct BoardSweep {
    keys: Vec<u32>,
    spare: Vec<u32>,
    hands: Vec<[Card; 2]>,
}

impl BoardSweep {
    pub fn new() -> BoardSweep {
        BoardSweep {
            keys: Vec::with_capacity(BOARD_HANDS),
            spare: vec![0; BOARD_HANDS],
            hands: Vec::with_capacity(BOARD_HANDS),
        }
    }

    /// Calls `visit(hand, value, counts)` for each of the 1,081 hands left by `board`;
    /// `counts` is indexed by [`Showdown`] and adds up to 990.
    pub fn run(
        &mut self,
        board: &[Card; 5],
        qualifying: HandValue,
        mut visit: impl FnMut([Card; 2], HandValue, [u32; SHOWDOWNS]),
    ) {
        let unqualified = self.evaluate(board, qualifying);
        radix_sort_by_value(&mut self.keys, &mut self.spare);
        let (mut less, mut equal) = ([0u32; 52], [0u32; 52]);
        let mut less_total = 0;
        let mut start = 0;
        while start < self.keys.len() {
            let value = self.keys[start] >> 16;
            let end = start
                + self.keys[start..]
                    .iter()
                    .take_while(|&&k| k >> 16 == value)
                    .count();
            let group = &self.keys[start..end];
            for &key in group {
                let [a, b] = self.hands[(key & 0xffff) as usize];
                equal[a as usize] += 1;
                equal[b as usize] += 1;
            }
            for &key in group {
                let [a, b] = self.hands[(key & 0xffff) as usize];
                let (a, b) = (a as usize, b as usize);
                let beaten = less_total - less[a] - less[b];
                let tied = group.len() as u32 + 1 - equal[a] - equal[b];
                let qualifies = value as HandValue >= qualifying;
                // The hand itself is in the per-card counts twice and in the total once.
                let not_qualified = unqualified.total + u32::from(!qualifies)
                    - unqualified.by_card[a]
                    - unqualified.by_card[b];
                let counts = showdown_counts(qualifies, beaten, tied, not_qualified);
                visit([a as Card, b as Card], value as HandValue, counts);
            }
            for &key in group {
                let [a, b] = self.hands[(key & 0xffff) as usize];
                for c in [a as usize, b as usize] {
                    less[c] += 1;
                    equal[c] = 0;
                }
            }
            less_total += group.len() as u32;
            start = end;
        }
    }

    /// Evaluates every hand left on `board` into `keys` (value << 16 | index) and counts
    /// the hands that would not qualify, in all and by card.
    fn evaluate(&mut self, board: &[Card; 5], qualifying: HandValue) -> Unqualified {
        let used = board.iter().fold(0u64, |m, &c| m | 1 << c);
        let rest: Vec<Card> = (0..52).filter(|&c| used >> c & 1 == 0).collect();
        let board_hand = Hand::EMPTY.add_cards(board);
        self.keys.clear();
        self.hands.clear();
        let mut unqualified = Unqualified {
            total: 0,
            by_card: [0; 52],
        };
        for (i, &a) in rest.iter().enumerate() {
            let with_a = board_hand.add_card(a);
            for &b in &rest[i + 1..] {
                let value = with_a.add_card(b).value();
                if value < qualifying {
                    unqualified.total += 1;
                    unqualified.by_card[a as usize] += 1;
                    unqualified.by_card[b as usize] += 1;
                }
                self.keys
                    .push(u32::from(value) << 16 | self.hands.len() as u32);
                self.hands.push([a, b]);
            }
        }
        unqualified
    }
}

/// Sorts keys `value << 16 | index` by value (the upper 16 bits), in two stable
/// counting passes of 8 bits: about three times faster than a comparison sort here.
fn radix_sort_by_value(keys: &mut [u32], spare: &mut [u32]) {
    let spare = &mut spare[..keys.len()];
    for shift in [16, 24] {
        let mut starts = [0u32; 257];
        for &k in keys.iter() {
            starts[(k >> shift & 0xff) as usize + 1] += 1;
        }
        for i in 1..257 {
            starts[i] += starts[i - 1];
        }
        for &k in keys.iter() {
            let slot = &mut starts[(k >> shift & 0xff) as usize];
            spare[*slot as usize] = k;
            *slot += 1;
        }
        keys.copy_from_slice(spare);
    }
}

struct Unqualified {
    total: u32,
    by_card: [u32; 52],
}

/// Showdown counts of a hand that beats `beaten` of the 990 dealer hands and ties
/// `tied`, when `not_qualified` of the 990 do not qualify.
#[inline(always)]
fn showdown_counts(
    qualifies: bool,
    beaten: u32,
    tied: u32,
    not_qualified: u32,
) -> [u32; SHOWDOWNS] {
    let lost = DEALER_HANDS - beaten - tied;
    if qualifies {
        // Every dealer hand that does not qualify is beaten.
        [beaten - not_qualified, not_qualified, tied, lost, 0]
    } else {
        // Every dealer hand beaten or tied does not qualify either.
        let lost_unqualified = not_qualified - beaten - tied;
        [0, beaten, tied, lost - lost_unqualified, lost_unqualified]
    }
}

/// The optimal decisions on one flop for every player hand, and their EVs.
#[derive(Clone, Debug, PartialEq)]
pub struct FlopHand {
    pub hand: [Card; 2],
    /// EV of checking, then playing the river optimally, per unit of Ante.
    pub check_ev: f64,
    /// EV of each flop raise of [`Rules::flop_raises`], per unit of Ante.
    pub raise_evs: Vec<f64>,
}

/// Counts of one flop, per player hand, before any flop decision.
struct FlopCounts {
    /// Showdown bins of every deal (used when the player raises).
    all: Vec<[u32; BINS]>,
    /// Showdown bins by river option chosen (used when the player checks twice).
    river: Vec<[u32; BINS]>,
    /// Deals folded at the river.
    folds: Vec<u32>,
    river_options: usize,
}

impl FlopCounts {
    fn new(river_options: usize) -> FlopCounts {
        FlopCounts {
            all: vec![[0; BINS]; PAIRS],
            river: vec![[0; BINS]; PAIRS * river_options],
            folds: vec![0; PAIRS],
            river_options,
        }
    }

    fn clear(&mut self) {
        self.all.iter_mut().for_each(|b| *b = [0; BINS]);
        self.river.iter_mut().for_each(|b| *b = [0; BINS]);
        self.folds.iter_mut().for_each(|n| *n = 0);
    }

    /// Counts every turn and river after `flop`, deciding each river optimally.
    fn count(&mut self, rules: &Rules, units: &Units, flop: [Card; 3], sweep: &mut BoardSweep) {
        self.clear();
        let qualifying = HandValue::from(rules.qualifying_category) << 12;
        let rest: Vec<Card> = (0..52).filter(|c| !flop.contains(c)).collect();
        let fold_total = i64::from(DEALER_HANDS) * units.fold;
        for (i, &turn) in rest.iter().enumerate() {
            for &river in &rest[i + 1..] {
                let board = [flop[0], flop[1], flop[2], turn, river];
                sweep.run(&board, qualifying, |hand, value, counts| {
                    let h = pair_index(hand[0], hand[1]);
                    let base = pay_class(value) * SHOWDOWNS;
                    let bins = &mut self.all[h][base..base + SHOWDOWNS];
                    bins.iter_mut().zip(&counts).for_each(|(b, &n)| *b += n);
                    let mut best = (fold_total, None);
                    for (option, &m) in rules.river_raises.iter().enumerate() {
                        let row = &units.by_multiple[m as usize][base..base + SHOWDOWNS];
                        let ev: i64 = counts
                            .iter()
                            .zip(row)
                            .map(|(&n, &u)| i64::from(n) * u)
                            .sum();
                        if ev > best.0 {
                            best = (ev, Some(option));
                        }
                    }
                    match best.1 {
                        Some(option) => {
                            let bins = &mut self.river[h * self.river_options + option]
                                [base..base + SHOWDOWNS];
                            bins.iter_mut().zip(&counts).for_each(|(b, &n)| *b += n);
                        }
                        None => self.folds[h] += DEALER_HANDS,
                    }
                });
            }
        }
    }

    /// Units of checking the flop (then the best river play) for hand `h`.
    fn check_units(&self, rules: &Rules, units: &Units, h: usize) -> i64 {
        let river = &self.river[h * self.river_options..(h + 1) * self.river_options];
        let raised: i64 = river
            .iter()
            .zip(&rules.river_raises)
            .map(|(bins, &m)| units.of(m, bins))
            .sum();
        raised + i64::from(self.folds[h]) * units.fold
    }

    /// The best flop option for hand `h`: `Some(multiple)` to raise, `None` to check.
    fn flop_decision(&self, rules: &Rules, units: &Units, h: usize) -> Option<u32> {
        let mut best = (self.check_units(rules, units, h), None);
        for &m in &rules.flop_raises {
            let ev = units.of(m, &self.all[h]);
            if ev > best.0 {
                best = (ev, Some(m));
            }
        }
        best.1
    }

    /// Adds hand `h`'s counts, `weight` times, to its class in `tally`; returns the
    /// flop decision (0 = check).
    fn add_to(&self, rules: &Rules, units: &Units, h: usize, weight: u64, tally: &mut [u64]) -> u8 {
        let [a, b] = pairs()[h];
        let class = &mut tally[hand_class(a, b) * CLASS_WORDS..][..CLASS_WORDS];
        let (raise, rest) = class.split_at_mut(BINS);
        let (check, folds) = rest.split_at_mut(ACTIONS * BINS);
        add_weighted(raise, &self.all[h], weight);
        let decision = self.flop_decision(rules, units, h);
        match decision {
            Some(m) => add_weighted(
                &mut check[m as usize * BINS..][..BINS],
                &self.all[h],
                weight,
            ),
            None => {
                for (option, &m) in rules.river_raises.iter().enumerate() {
                    let bins = &self.river[h * self.river_options + option];
                    add_weighted(&mut check[m as usize * BINS..][..BINS], bins, weight);
                }
                folds[0] += weight * u64::from(self.folds[h]);
            }
        }
        decision.map_or(0, |m| m as u8)
    }
}

fn add_weighted(into: &mut [u64], bins: &[u32], weight: u64) {
    into.iter_mut()
        .zip(bins)
        .for_each(|(t, &n)| *t += weight * u64::from(n));
}

/// The EVs of every option on one flop for every player hand that does not hold a
/// flop card (exact; used by tests and to check single spots).
pub fn flop_table(rules: &Rules, flop: [Card; 3]) -> Result<Vec<FlopHand>, CoreError> {
    rules.validate()?;
    crate::cards::check_cards(&flop)?;
    let units = Units::new(rules);
    let mut counts = FlopCounts::new(rules.river_raises.len());
    counts.count(rules, &units, flop, &mut BoardSweep::new());
    let deals = (BOARD_HANDS as u32 * DEALER_HANDS) as f64 * units.den as f64;
    Ok(pairs()
        .iter()
        .enumerate()
        .filter(|(_, hand)| !hand.iter().any(|c| flop.contains(c)))
        .map(|(h, &hand)| FlopHand {
            hand,
            check_ev: counts.check_units(rules, &units, h) as f64 / deals,
            raise_evs: (rules.flop_raises.iter())
                .map(|&m| units.of(m, &counts.all[h]) as f64 / deals)
                .collect(),
        })
        .collect())
}

/// The optimal flop raise (0: check) of a pre-flop checker holding `player` on `flop`,
/// looked up in the flop decisions of a whole analysis (through the suit renaming
/// that turns `flop` into its class representative).
#[inline]
pub fn flop_decision(flop_decisions: &[u8], player: [Card; 2], flop: [Card; 3]) -> u8 {
    let (class, perm) = triple_classes().class_of[triple_index(flop)];
    let perm = &suit_permutations()[perm as usize];
    let hand = pair_index(rename(player[0], perm), rename(player[1], perm));
    flop_decisions[class as usize * PAIRS + hand]
}

/// The result of a chunk of flop classes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// [`TALLY_WORDS`] counters that add up across chunks.
    pub tally: Vec<u64>,
    /// For each flop class of the chunk and each two-card hand ([`pair_index`]): the
    /// optimal flop raise after a pre-flop check, 0 to check (0 also for hands that
    /// hold a flop card).
    pub flop_decisions: Vec<u8>,
}

/// Analyses the flop classes `classes` (a range of 0..[`flop_chunks`]), in parallel on
/// the current rayon pool. `done` counts finished flop classes; setting `cancel`
/// stops the work with [`CoreError::Interrupted`].
pub fn analyse_chunk(
    rules: &Rules,
    classes: Range<usize>,
    done: &AtomicUsize,
    cancel: &AtomicBool,
) -> Result<Chunk, CoreError> {
    rules.validate()?;
    let flops = triple_classes();
    if classes.end > flops.representatives.len() || classes.start > classes.end {
        return Err(CoreError::invalid_rules(format!(
            "flop classes {classes:?} are not within 0..{}",
            flops.representatives.len()
        )));
    }
    let units = Units::new(rules);
    let mut flop_decisions = vec![0u8; classes.len() * PAIRS];
    let tally = classes
        .clone()
        .into_par_iter()
        .zip(flop_decisions.par_chunks_mut(PAIRS))
        .fold(
            || {
                (
                    FlopCounts::new(rules.river_raises.len()),
                    BoardSweep::new(),
                    vec![0u64; TALLY_WORDS],
                )
            },
            |(mut counts, mut sweep, mut tally), (class, decisions)| {
                if !cancel.load(Ordering::Relaxed) {
                    let flop = flops.representatives[class];
                    counts.count(rules, &units, flop, &mut sweep);
                    for (h, hand) in pairs().iter().enumerate() {
                        if !hand.iter().any(|c| flop.contains(c)) {
                            let weight = flops.weights[class];
                            decisions[h] = counts.add_to(rules, &units, h, weight, &mut tally);
                        }
                    }
                    done.fetch_add(1, Ordering::Relaxed);
                }
                (counts, sweep, tally)
            },
        )
        .map(|(_, _, tally)| tally)
        .reduce(|| vec![0u64; TALLY_WORDS], add_tallies);
    if cancel.load(Ordering::Relaxed) {
        return Err(CoreError::Interrupted);
    }
    Ok(Chunk {
        tally,
        flop_decisions,
    })
}

/// Adds two tallies word by word.
pub fn add_tallies(mut a: Vec<u64>, b: Vec<u64>) -> Vec<u64> {
    a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
    a
}

/// The pre-flop decision of one starting-hand class.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassStrategy {
    pub class: usize,
    /// "AA", "AKs", "72o".
    pub name: String,
    /// EV of checking (then playing on optimally), per unit of Ante.
    pub check_ev: f64,
    /// EV of each pre-flop raise of [`Rules::preflop_raises`], per unit of Ante.
    pub raise_evs: Vec<f64>,
    /// The optimal option: `Some(multiple)` or `None` (check).
    pub best: Option<u32>,
}

/// The exact analysis: EV, risk and how often each outcome happens.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// Every deal: 27,813,810,024,000.
    pub deals: u64,
    /// Deals by final Play multiple (index 1..=8) and outcome bin (pay class x
    /// [`Showdown`]).
    pub outcomes: Vec<[u64; BINS]>,
    /// Deals folded at the river.
    pub folds: u64,
    /// The pre-flop strategy, one entry per starting-hand class (index = class).
    pub strategy: Vec<ClassStrategy>,
    /// Net result of Ante + Odds + Play per deal, per unit of Ante.
    pub expected_value: f64,
    /// Total amount wagered (Ante + Odds + Play) per deal, in units of Ante.
    pub average_wager: f64,
    /// Standard deviation of the net result per deal, in units of Ante.
    pub std_dev: f64,
}

impl Analysis {
    /// House edge per unit of Ante: the negated expected value.
    pub fn house_edge(&self) -> f64 {
        -self.expected_value
    }

    /// House edge per unit of total wager.
    pub fn element_of_risk(&self) -> f64 {
        self.house_edge() / self.average_wager
    }

    /// Share of deals ending with Play multiple `m` (0: folded).
    pub fn frequency(&self, multiple: u32) -> f64 {
        let n = match multiple {
            0 => self.folds,
            m => self.outcomes[m as usize].iter().sum(),
        };
        n as f64 / self.deals as f64
    }
}

/// The analysis of a whole tally (the sum of every chunk's).
pub fn finish(rules: &Rules, tally: &[u64]) -> Result<Analysis, CoreError> {
    rules.validate()?;
    if tally.len() != TALLY_WORDS {
        return Err(CoreError::invalid_rules(format!(
            "a tally has {TALLY_WORDS} words, not {}",
            tally.len()
        )));
    }
    let units = Units::new(rules);
    let mut outcomes = vec![[0u64; BINS]; ACTIONS];
    let mut folds = 0;
    let mut strategy = Vec::with_capacity(HAND_CLASSES);
    for (class, words) in tally.chunks_exact(CLASS_WORDS).enumerate() {
        let (raise, rest) = words.split_at(BINS);
        let (check, fold) = rest.split_at(ACTIONS * BINS);
        let deals: u64 = raise.iter().sum();
        let per_ante = |u: i128| u as f64 / units.den as f64 / deals.max(1) as f64;
        let check_units: i128 = (1..ACTIONS)
            .map(|m| wide_units(&units, m as u32, &check[m * BINS..][..BINS]))
            .sum::<i128>()
            + i128::from(fold[0]) * i128::from(units.fold);
        let mut best = (check_units, None);
        let raise_evs = rules
            .preflop_raises
            .iter()
            .map(|&m| {
                let u = wide_units(&units, m, raise);
                if u > best.0 {
                    best = (u, Some(m));
                }
                per_ante(u)
            })
            .collect();
        match best.1 {
            Some(m) => add_into(&mut outcomes[m as usize], raise),
            None => {
                for (m, row) in outcomes.iter_mut().enumerate().skip(1) {
                    add_into(row, &check[m * BINS..][..BINS]);
                }
                folds += fold[0];
            }
        }
        strategy.push(ClassStrategy {
            class,
            name: hand_class_name(class),
            check_ev: per_ante(check_units),
            raise_evs,
            best: best.1,
        });
    }
    Ok(summarise(&units, outcomes, folds, strategy))
}

fn wide_units(units: &Units, multiple: u32, bins: &[u64]) -> i128 {
    let row = &units.by_multiple[multiple as usize];
    bins.iter()
        .zip(row)
        .map(|(&n, &u)| i128::from(n) * i128::from(u))
        .sum()
}

fn add_into(into: &mut [u64; BINS], bins: &[u64]) {
    into.iter_mut().zip(bins).for_each(|(t, &n)| *t += n);
}

fn summarise(
    units: &Units,
    outcomes: Vec<[u64; BINS]>,
    folds: u64,
    strategy: Vec<ClassStrategy>,
) -> Analysis {
    let den = units.den as f64;
    let mut deals = folds;
    let (mut sum, mut squares) = (folds as f64 * units.fold as f64, 0.0);
    squares += folds as f64 * (units.fold as f64).powi(2);
    let mut wagered = 2.0 * folds as f64;
    for (m, row) in outcomes.iter().enumerate().skip(1) {
        for (bin, &n) in row.iter().enumerate() {
            let u = units.by_multiple[m][bin] as f64;
            deals += n;
            sum += n as f64 * u;
            squares += n as f64 * u * u;
            wagered += n as f64 * (2 + m) as f64;
        }
    }
    let d = deals.max(1) as f64;
    let mean = sum / den / d;
    let variance = squares / den / den / d - mean * mean;
    Analysis {
        deals,
        outcomes,
        folds,
        strategy,
        expected_value: mean,
        average_wager: wagered / d,
        std_dev: variance.max(0.0).sqrt(),
    }
}

/// The whole analysis on the current rayon pool, with the flop decisions of every
/// flop class (see [`Chunk::flop_decisions`]).
pub fn analyse(
    rules: &Rules,
    done: &AtomicUsize,
    cancel: &AtomicBool,
) -> Result<(Analysis, Vec<u8>), CoreError> {
    let chunk = analyse_chunk(rules, 0..flop_chunks(), done, cancel)?;
    Ok((finish(rules, &chunk.tally)?, chunk.flop_decisions))
}

#[cfg(test)]
mod tests {
    use super::super::advise::flop_options;
    use super::*;

    /// The sweep's counts equal a direct count against every dealer hand.
    #[test]
    fn sweep_counts_match_direct_counts() {
        let rules = Rules::heads_up();
        let qualifying = 1 << 12;
        for board in [
            [0u8, 5, 10, 30, 47],
            [48, 49, 50, 12, 13],
            [0, 4, 8, 12, 51],
        ] {
            let board_hand = Hand::EMPTY.add_cards(&board);
            let mut visited = 0;
            BoardSweep::new().run(&board, qualifying, |hand, value, counts| {
                visited += 1;
                let mut direct = [0u32; SHOWDOWNS];
                for [a, b] in pairs() {
                    let cards = [*a, *b];
                    if cards.iter().any(|c| board.contains(c) || hand.contains(c)) {
                        continue;
                    }
                    let dealer = board_hand.add_cards(&cards).value();
                    direct[Showdown::of(&rules, value, dealer) as usize] += 1;
                }
                assert_eq!(counts, direct, "{board:?} {hand:?}");
            });
            assert_eq!(visited, BOARD_HANDS);
        }
    }

    /// The flop EVs of the sweep equal the direct enumeration of `advise`.
    #[test]
    fn flop_table_matches_direct_enumeration() {
        for rules in [Rules::heads_up(), Rules::ultimate()] {
            let flop = [9, 22, 36];
            let table = flop_table(&rules, flop).unwrap();
            assert_eq!(table.len(), 1176);
            for entry in table.iter().step_by(97) {
                let direct = flop_options(&rules, entry.hand, flop).unwrap();
                assert!((direct[0].ev - entry.check_ev).abs() < 1e-12, "{entry:?}");
                assert!(
                    (direct[1].ev - entry.raise_evs[0]).abs() < 1e-12,
                    "{entry:?}"
                );
            }
        }
    }

    /// Chunks add up to the same tally in any split.
    #[test]
    fn chunks_add_up() {
        let rules = Rules::heads_up();
        let (done, cancel) = (AtomicUsize::new(0), AtomicBool::new(false));
        let whole = analyse_chunk(&rules, 100..104, &done, &cancel).unwrap();
        let a = analyse_chunk(&rules, 100..101, &done, &cancel).unwrap();
        let b = analyse_chunk(&rules, 101..104, &done, &cancel).unwrap();
        assert_eq!(add_tallies(b.tally, a.tally), whole.tally);
        assert_eq!(done.load(Ordering::Relaxed), 8);
        cancel.store(true, Ordering::Relaxed);
        let stopped = analyse_chunk(&rules, 0..4, &done, &cancel);
        assert_eq!(stopped, Err(CoreError::Interrupted));
    }
}
