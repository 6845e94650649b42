//! Exact equities: every deal of hands (one per suit class, see [`super::suits`]) and
//! every completion of the board.
//!
//! Two ways to walk the same sum, chosen by their cost:
//! - by deal: for each class of deals of hands, enumerate the boards with incremental
//!   rank-key sums (each board summed once and added to every player's hole);
//! - by board: for each completion of the board, evaluate every hand of every range
//!   once, then count each class of deals by looking its hands' values up. This pays
//!   when ranges are wide and few boards remain (a range against a range on the flop).
//!   Heads-up, a table of every pair of hands (see [`Pairs`]) counts every deal instead
//!   of the classes, with branch-free vector sums; the boards are then taken one per
//!   class under the suit renamings instead (the same symmetry, used on the other side).
//!
//! The work is a list of units (classes or boards); any split into ranges of units
//! gives tallies that add up to the whole, which is how big jobs are chunked.

use super::preflop;
use super::suits::{class_size, classes, count_deals, symmetries, Class, Perm};
use super::{share, value, Counts, Spec, Tally, Variant, MAX_PLAYERS, UNIT};
use crate::cards::Card;
use crate::error::CoreError;
use crate::eval::{Hand, HandValue};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// How the sum is walked: the units are classes of deals, or boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    ByDeal,
    ByBoard,
}

/// An exact enumeration, planned: the classes of deals and the way to walk them.
#[derive(Debug)]
pub struct Plan {
    spec: Spec,
    classes: Vec<Class>,
    mode: Mode,
    /// The completions of the board (by-board mode only).
    boards: Vec<Board>,
    /// The estimated number of evaluations and lookups of the whole enumeration.
    cost: u64,
    /// By board with two players: every deal, for the fast path.
    pairs: Option<Pairs>,
    /// Whether five cards to come are counted by rank pattern (always, but for the
    /// tests that check it against the boards one by one).
    by_pattern: bool,
    /// The suit renamings that leave the question as it is.
    perms: Vec<Perm>,
}

/// `n` choose `k`.
pub fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// The number of showdowns an exact enumeration counts (deals of hands times boards),
/// capped at `cap`: cheap to compute, to decide between enumeration and sampling.
pub fn showdowns(spec: &Spec, cap: u64) -> u64 {
    let left = 52 - u64::from(spec.known.count_ones());
    let held = (spec.variant.hole_cards() * spec.players.len()) as u64;
    let boards = choose(left - held, spec.missing() as u64);
    let deals = count_deals(spec, cap / boards.max(1) + 1);
    deals.saturating_mul(boards).min(cap)
}

/// The most deals of hands an enumeration takes (their classes are held in memory).
pub const MAX_DEALS: u64 = 20_000_000;

/// `n` with its thousands separated by commas, as people read it: `20,000,000`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut text = String::with_capacity(digits.len() * 4 / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

/// The number of deals of hands (one hand per player, no card twice), capped at `cap`.
pub fn deals(spec: &Spec, cap: u64) -> u64 {
    count_deals(spec, cap)
}

impl Plan {
    /// Plans the enumeration of `spec`; more than [`MAX_DEALS`] deals of hands is an
    /// error (sample instead).
    pub fn new(spec: Spec) -> Result<Plan, CoreError> {
        let deals = count_deals(&spec, MAX_DEALS + 1);
        if deals > MAX_DEALS {
            return Err(CoreError::invalid_hand(format!(
                "more than {} deals of hands to enumerate: ask for Monte Carlo \
                 (samples or stderr) instead",
                grouped(MAX_DEALS)
            )));
        }
        // Tallies are 128-bit: the weight of every deal times every board times a
        // share must fit, with room for the sums.
        let bound: f64 = spec
            .players
            .iter()
            .map(|p| p.iter().map(|c| c.weight).max().unwrap_or(1) as f64)
            .product::<f64>()
            * deals as f64
            * choose(52, spec.missing() as u64) as f64
            * UNIT as f64;
        if bound >= 2f64.powi(127) {
            return Err(CoreError::invalid_hand(
                "the weights are too fine for an exact enumeration of this many players: \
                 ask for Monte Carlo (samples or stderr) instead",
            ));
        }
        let perms = symmetries(&spec);
        let classes = classes(&spec, &perms);
        let n = spec.players.len() as u64;
        let left = 52 - u64::from(spec.known.count_ones());
        let held = spec.variant.hole_cards() as u64 * n;
        let missing = spec.missing() as u64;
        let evaluations = if spec.variant == Variant::Double {
            2
        } else {
            1
        };
        // Five cards to come are counted by rank pattern: about 50,000 steps a deal.
        let boards_per_deal = if missing == 5 {
            50_000
        } else {
            choose(left - held, missing)
        };
        let by_deal = classes.len() as u64 * boards_per_deal * n * evaluations;
        let hands: u64 = spec.players.iter().map(|p| p.len() as u64).sum();
        let all_boards = choose(left, missing);
        // A lookup and a comparison cost about a quarter of an evaluation.
        let by_board = all_boards * (hands * evaluations + classes.len() as u64 * n / 4);
        let cost = by_deal.min(by_board);
        let mode = if missing > 0 && by_board < by_deal {
            Mode::ByBoard
        } else {
            Mode::ByDeal
        };
        let mut plan = Plan {
            spec,
            classes,
            mode,
            boards: Vec::new(),
            cost,
            pairs: None,
            by_pattern: true,
            perms,
        };
        plan.walk(mode, true);
        Ok(plan)
    }

    /// Sets the way to walk the sum: `mode`, and whether two players by board are
    /// counted with the table of pairs when it applies.
    fn walk(&mut self, mode: Mode, pairs: bool) {
        self.mode = mode;
        self.boards.clear();
        self.pairs = None;
        if mode == Mode::ByDeal {
            return;
        }
        let spec = &self.spec;
        if pairs && spec.players.len() == 2 {
            self.pairs = Pairs::new(spec);
        }
        // The table counts every deal, so its boards go one per class under the suit
        // renamings; the classes of deals take every board.
        let perms = match self.pairs {
            Some(_) => &self.perms[..],
            None => &self.perms[..1], // the identity alone
        };
        let boards = &mut self.boards;
        for_each_board(&spec.deck(), spec.missing(), |cards, mask| {
            if let Some(times) = class_size(mask, perms) {
                boards.push(Board { cards, mask, times });
            }
        });
    }

    /// The estimated work of the whole enumeration, in evaluations (a few nanoseconds
    /// each): small jobs need no progress reports.
    pub fn cost(&self) -> u64 {
        self.cost
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The number of units of work: classes of deals, or boards.
    pub fn units(&self) -> usize {
        match self.mode {
            Mode::ByDeal => self.classes.len(),
            Mode::ByBoard => self.boards.len(),
        }
    }

    /// Tallies units `start..stop` on the current rayon pool, adding 1 to `done` per
    /// unit; stops with [`CoreError::Interrupted`] once `cancel` is set.
    pub fn run(
        &self,
        start: usize,
        stop: usize,
        done: &AtomicUsize,
        cancel: &AtomicBool,
    ) -> Result<Tally, CoreError> {
        let range = self.clamp(start, stop);
        let step = match self.mode {
            Mode::ByDeal => 1,
            Mode::ByBoard => 64,
        };
        let pieces: Vec<std::ops::Range<usize>> = range
            .clone()
            .step_by(step)
            .map(|a| a..(a + step).min(range.end))
            .collect();
        let n = self.spec.players.len();
        let work = |piece| self.tally(piece, done, cancel);
        pieces.into_par_iter().map(work).try_reduce(
            || Tally::new(n),
            |mut a, b| {
                a.add(&b);
                Ok(a)
            },
        )
    }

    /// [`Plan::run`] on the calling thread alone, with no hand-off to a thread pool:
    /// for small jobs on one thread. The tally is the same.
    pub fn run_here(
        &self,
        start: usize,
        stop: usize,
        done: &AtomicUsize,
        cancel: &AtomicBool,
    ) -> Result<Tally, CoreError> {
        self.tally(self.clamp(start, stop), done, cancel)
    }

    fn clamp(&self, start: usize, stop: usize) -> std::ops::Range<usize> {
        let stop = stop.min(self.units());
        start.min(stop)..stop
    }

    /// The tally of the units of `range`, one after another.
    fn tally(
        &self,
        range: std::ops::Range<usize>,
        done: &AtomicUsize,
        cancel: &AtomicBool,
    ) -> Result<Tally, CoreError> {
        let mut tally = Tally::new(self.spec.players.len());
        let t = &mut tally;
        match (self.mode, self.spec.variant == Variant::Double) {
            (Mode::ByDeal, false) => self.by_deal::<false>(range, t, done, cancel)?,
            (Mode::ByDeal, true) => self.by_deal::<true>(range, t, done, cancel)?,
            (Mode::ByBoard, false) => self.by_board::<false>(range, t, done, cancel)?,
            (Mode::ByBoard, true) => self.by_board::<true>(range, t, done, cancel)?,
        }
        Ok(tally)
    }

    fn bases(&self) -> Vec<Vec<[Hand; 2]>> {
        let board = self.spec.board_hand();
        self.spec
            .players
            .iter()
            .map(|range| {
                range
                    .iter()
                    .map(|c| c.bases(self.spec.variant, board))
                    .collect()
            })
            .collect()
    }

    fn by_deal<const DOUBLE: bool>(
        &self,
        range: std::ops::Range<usize>,
        tally: &mut Tally,
        done: &AtomicUsize,
        cancel: &AtomicBool,
    ) -> Result<(), CoreError> {
        let n = self.spec.players.len();
        let deck = self.spec.deck();
        let missing = self.spec.missing();
        for class in &self.classes[range] {
            if cancel.load(Ordering::Relaxed) {
                return Err(CoreError::Interrupted);
            }
            let mut bases = [[Hand::EMPTY; 2]; MAX_PLAYERS];
            for (i, base) in bases.iter_mut().enumerate().take(n) {
                let combo = &self.spec.players[i][class.hands[i] as usize];
                *base = combo.bases(self.spec.variant, self.spec.board_hand());
            }
            let rest: Vec<Card> = deck
                .iter()
                .copied()
                .filter(|&c| class.mask >> c & 1 == 0)
                .collect();
            let mut counts = Counts::ZERO;
            if missing == 5 && self.by_pattern {
                let hands: Vec<Vec<[Card; 2]>> = (0..n)
                    .map(|i| {
                        let [a, b, c] = self.spec.players[i][class.hands[i] as usize].cards;
                        if DOUBLE {
                            vec![[a, b], [a, c]]
                        } else {
                            vec![[a, b]]
                        }
                    })
                    .collect();
                let free = !(self.spec.known | class.mask) & ((1 << 52) - 1);
                preflop::count(&hands, free, &mut counts);
            } else if n == 2 {
                let (a, b) = (bases[0], bases[1]);
                for_each_board(&rest, missing, |extra, _| {
                    counts.heads_up(value::<DOUBLE>(&a, extra), value::<DOUBLE>(&b, extra), 1)
                });
            } else {
                let mut values = [0 as HandValue; MAX_PLAYERS];
                for_each_board(&rest, missing, |extra, _| {
                    for (v, base) in values.iter_mut().zip(&bases).take(n) {
                        *v = value::<DOUBLE>(base, extra);
                    }
                    counts.showdown(&values[..n], 1);
                });
            }
            counts.add_to(tally, class.weight, class.deals, n == 2);
            done.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }

    fn by_board<const DOUBLE: bool>(
        &self,
        range: std::ops::Range<usize>,
        tally: &mut Tally,
        done: &AtomicUsize,
        cancel: &AtomicBool,
    ) -> Result<(), CoreError> {
        if let Some(pairs) = &self.pairs {
            return self.by_pairs::<DOUBLE>(pairs, range, tally, done, cancel);
        }
        let n = self.spec.players.len();
        let bases = self.bases();
        let masks = self.masks();
        let mut values: Vec<Vec<HandValue>> = bases.iter().map(|b| vec![0; b.len()]).collect();
        let mut win = [0u128; MAX_PLAYERS];
        let mut tie = [0u128; MAX_PLAYERS];
        let mut units = [0u128; MAX_PLAYERS];
        let (mut showdowns, mut weight) = (0u64, 0u128);
        for board in &self.boards[range] {
            if cancel.load(Ordering::Relaxed) {
                return Err(CoreError::Interrupted);
            }
            debug_assert_eq!(board.times, 1, "the classes of deals take every board");
            for ((vals, bases), masks) in values.iter_mut().zip(&bases).zip(&masks) {
                for ((v, base), &mask) in vals.iter_mut().zip(bases).zip(masks) {
                    if mask & board.mask == 0 {
                        *v = value::<DOUBLE>(base, board.cards);
                    }
                }
            }
            for class in &self.classes {
                if class.mask & board.mask != 0 {
                    continue;
                }
                // The players with the best value, as bits.
                let (mut best, mut winners) = (0, 0u32);
                for (i, (vals, &hand)) in values.iter().zip(&class.hands).enumerate() {
                    let v = vals[hand as usize];
                    if v > best {
                        (best, winners) = (v, 1 << i);
                    } else if v == best {
                        winners |= 1 << i;
                    }
                }
                showdowns += class.deals;
                weight += class.weight;
                let tied = winners.count_ones() as usize;
                let share = class.weight * u128::from(share(tied));
                let outcome = if tied == 1 { &mut win } else { &mut tie };
                while winners != 0 {
                    let i = winners.trailing_zeros() as usize;
                    units[i] += share;
                    outcome[i] += class.weight;
                    winners &= winners - 1;
                }
            }
            done.fetch_add(1, Ordering::Relaxed);
        }
        tally.showdowns += showdowns;
        tally.weight += weight;
        for i in 0..n {
            tally.win[i] += win[i];
            tally.tie[i] += tie[i];
            tally.units[i] += units[i];
        }
        Ok(())
    }

    /// Each player's hands as bit sets.
    fn masks(&self) -> Vec<Vec<u64>> {
        let players = self.spec.players.iter();
        players
            .map(|r| r.iter().map(|c| c.mask).collect())
            .collect()
    }

    /// By board with two players, every deal from the table of pairs.
    fn by_pairs<const DOUBLE: bool>(
        &self,
        pairs: &Pairs,
        range: std::ops::Range<usize>,
        tally: &mut Tally,
        done: &AtomicUsize,
        cancel: &AtomicBool,
    ) -> Result<(), CoreError> {
        let bases = self.bases();
        let masks = self.masks();
        // The second player's values and whether each hand is live (all ones) or
        // shares a card with the board (zero), for the vector sums.
        let mut second = vec![0i32; pairs.width];
        let mut live = vec![0u32; pairs.width];
        let (mut win, mut loss, mut total, mut showdowns) = (0u128, 0u128, 0u128, 0u64);
        for board in &self.boards[range] {
            if cancel.load(Ordering::Relaxed) {
                return Err(CoreError::Interrupted);
            }
            for (((v, l), base), &mask) in second
                .iter_mut()
                .zip(&mut live)
                .zip(&bases[1])
                .zip(&masks[1])
            {
                *l = if mask & board.mask == 0 { u32::MAX } else { 0 };
                if *l != 0 {
                    *v = i32::from(value::<DOUBLE>(base, board.cards));
                }
            }
            let (mut w0, mut w1, mut sum, mut deals) = (0u64, 0u64, 0u64, 0u64);
            let rows = pairs.weight.chunks_exact(pairs.width);
            for ((base, &mask), weights) in bases[0].iter().zip(&masks[0]).zip(rows) {
                if mask & board.mask != 0 {
                    continue;
                }
                let a = i32::from(value::<DOUBLE>(base, board.cards));
                let row = Pairs::row(a, weights, &second, &live);
                w0 += u64::from(row[0]);
                w1 += u64::from(row[1]);
                sum += u64::from(row[2]);
                deals += u64::from(row[3]);
            }
            let times = u128::from(board.times);
            win += u128::from(w0) * times;
            loss += u128::from(w1) * times;
            total += u128::from(sum) * times;
            showdowns += deals * board.times;
            done.fetch_add(1, Ordering::Relaxed);
        }
        let tied = total - win - loss;
        let half = u128::from(UNIT / 2);
        tally.showdowns += showdowns;
        tally.weight += total;
        tally.win[0] += win;
        tally.win[1] += loss;
        tally.tie[0] += tied;
        tally.tie[1] += tied;
        tally.units[0] += win * u128::from(UNIT) + tied * half;
        tally.units[1] += loss * u128::from(UNIT) + tied * half;
        Ok(())
    }
}

/// A completion of the board (by-board mode): its cards summed from [`Hand::ZERO`]
/// and as a bit set, and the number of completions it stands for (its class under the
/// suit renamings, see [`super::suits::class_size`]).
#[derive(Clone, Copy, Debug)]
struct Board {
    cards: Hand,
    mask: u64,
    times: u64,
}

/// Every deal of two players as a table: row i, lane j is the first player's hand i
/// against the second's hand j, with the deal's weight (the product of the hands'
/// weights, at least 1), 0 if the hands share a card. A row's weights add up to less
/// than 2^32, so a board's row sums are 32-bit vector sums. Rows are padded with
/// weight 0 to a whole number of vectors.
#[derive(Debug)]
struct Pairs {
    /// Lanes per row: the second player's hands, padded.
    width: usize,
    weight: Vec<u32>,
}

impl Pairs {
    /// At most this many pairs (a table of 64 MiB); past it the classes are counted.
    const MAX: usize = 1 << 24;

    /// The table, or `None` if it is too large or a row's weights reach 2^32.
    fn new(spec: &Spec) -> Option<Pairs> {
        let [first, second] = &spec.players[..] else {
            return None;
        };
        let width = second.len().next_multiple_of(8);
        if first.len() * width > Self::MAX {
            return None;
        }
        let mut pairs = Pairs {
            width,
            weight: Vec::with_capacity(first.len() * width),
        };
        for a in first {
            let mut row = 0u64;
            for b in second {
                let weight = if a.mask & b.mask == 0 {
                    a.weight.checked_mul(b.weight)?
                } else {
                    0
                };
                row = row.checked_add(weight).filter(|&r| r < 1 << 32)?;
                pairs.weight.push(weight as u32);
            }
            pairs
                .weight
                .resize(pairs.weight.len().next_multiple_of(width), 0);
        }
        Some(pairs)
    }

    /// One row on one board, the first player's value `a` against the second's values
    /// (`live`: all ones for a hand clear of the board, else zero): the weights the
    /// first player wins and loses, all the live weight, and the live deals.
    #[inline(always)]
    fn row(a: i32, weights: &[u32], second: &[i32], live: &[u32]) -> [u32; 4] {
        let (mut win, mut loss, mut sum, mut count) = (0u32, 0u32, 0u32, 0u32);
        for ((&weight, &b), &live) in weights.iter().zip(second).zip(live) {
            let w = weight & live;
            win = win.wrapping_add(if a > b { w } else { 0 });
            loss = loss.wrapping_add(if b > a { w } else { 0 });
            sum = sum.wrapping_add(w);
            count = count.wrapping_add(u32::from(w != 0));
        }
        [win, loss, sum, count]
    }
}

/// Calls `f(cards, mask)` for every set of `k` cards of `deck` (k <= 5), the cards
/// summed from [`Hand::ZERO`] one card per loop level.
#[inline(always)]
pub(crate) fn for_each_board(deck: &[Card], k: usize, mut f: impl FnMut(Hand, u64)) {
    let z = Hand::ZERO;
    let from = |start: usize| deck.iter().enumerate().skip(start);
    let add = |(hand, mask): (Hand, u64), card: Card| (hand.add_card(card), mask | 1 << card);
    match k {
        0 => f(z, 0),
        1 => deck.iter().for_each(|&a| f(z.add_card(a), 1 << a)),
        2 => {
            for (i, &a) in from(0) {
                let ha = add((z, 0), a);
                for (_, &b) in from(i + 1) {
                    let (h, m) = add(ha, b);
                    f(h, m);
                }
            }
        }
        3 => {
            for (i, &a) in from(0) {
                let ha = add((z, 0), a);
                for (j, &b) in from(i + 1) {
                    let hb = add(ha, b);
                    for (_, &c) in from(j + 1) {
                        let (h, m) = add(hb, c);
                        f(h, m);
                    }
                }
            }
        }
        4 => {
            for (i, &a) in from(0) {
                let ha = add((z, 0), a);
                for (j, &b) in from(i + 1) {
                    let hb = add(ha, b);
                    for (l, &c) in from(j + 1) {
                        let hc = add(hb, c);
                        for (_, &d) in from(l + 1) {
                            let (h, m) = add(hc, d);
                            f(h, m);
                        }
                    }
                }
            }
        }
        _ => {
            for (i, &a) in from(0) {
                let ha = add((z, 0), a);
                for (j, &b) in from(i + 1) {
                    let hb = add(ha, b);
                    for (l, &c) in from(j + 1) {
                        let hc = add(hb, c);
                        for (o, &d) in from(l + 1) {
                            let hd = add(hc, d);
                            for (_, &e) in from(o + 1) {
                                let (h, m) = add(hd, e);
                                f(h, m);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The exact tally of a whole question on the current rayon pool.
pub fn tally(spec: Spec) -> Result<Tally, CoreError> {
    let plan = Plan::new(spec)?;
    plan.run(
        0,
        plan.units(),
        &AtomicUsize::new(0),
        &AtomicBool::new(false),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::eval::evaluate;

    fn texas(players: &[&[&str]], board: &str, dead: &str) -> Spec {
        let players: Vec<Vec<(Vec<u8>, u64)>> = players
            .iter()
            .map(|hands| hands.iter().map(|h| (parse_cards(h).unwrap(), 1)).collect())
            .collect();
        Spec::new(
            Variant::Texas,
            &players,
            &parse_cards(board).unwrap(),
            &parse_cards(dead).unwrap(),
        )
        .unwrap()
    }

    /// Every deal of hands and every board, one evaluation of seven cards at a time.
    fn brute_force(spec: &Spec) -> Tally {
        let n = spec.players.len();
        let mut tally = Tally::new(n);
        let mut deal = vec![0usize; n];
        loop {
            let combos: Vec<_> = (0..n).map(|i| spec.players[i][deal[i]]).collect();
            let used = combos.iter().fold(0u64, |m, c| m | c.mask);
            if combos.iter().map(|c| c.mask.count_ones()).sum::<u32>() == used.count_ones() {
                let weight: u128 = combos.iter().map(|c| u128::from(c.weight)).product();
                let deck: Vec<u8> = spec
                    .deck()
                    .into_iter()
                    .filter(|&c| used >> c & 1 == 0)
                    .collect();
                for_each_board(&deck, spec.missing(), |_, mask| {
                    let board: Vec<u8> = (0..52u8).filter(|&c| mask >> c & 1 == 1).collect();
                    let values: Vec<HandValue> = combos
                        .iter()
                        .map(|c| {
                            let seven = [&spec.board[..], &board, &c.cards[..2]].concat();
                            evaluate(&seven).unwrap()
                        })
                        .collect();
                    let mut counts = Counts::ZERO;
                    counts.showdown(&values, 1);
                    counts.add_to(&mut tally, weight, 1, false);
                });
            }
            let mut i = 0;
            loop {
                if i == n {
                    return tally;
                }
                deal[i] += 1;
                if deal[i] < spec.players[i].len() {
                    break;
                }
                deal[i] = 0;
                i += 1;
            }
        }
    }

    #[test]
    fn both_modes_equal_brute_force() {
        let kings = ["Kc Kd", "Kc Kh", "Kc Ks", "Kd Kh", "Kd Ks", "Kh Ks"];
        let suited = ["Ac Qc", "Ad Qd", "Ah Qh", "As Qs", "7c 6c"];
        for (players, board) in [
            (&[&kings[..], &suited[..]][..], "Qh 8h 2c 4d"),
            (&[&kings[..], &suited[..], &["9s 9c"][..]][..], "Qh 8h 2c"),
            (&[&["Ah Kh"][..], &["Qs Qd"][..]][..], "Jh Th 2c 3d"),
        ] {
            let spec = texas(players, board, "Ts");
            let expected = brute_force(&spec);
            for (mode, pairs) in [
                (Mode::ByDeal, false),
                (Mode::ByBoard, false),
                (Mode::ByBoard, true),
            ] {
                let mut plan = Plan::new(spec.clone()).unwrap();
                plan.walk(mode, pairs);
                let got = plan
                    .run(
                        0,
                        plan.units(),
                        &AtomicUsize::new(0),
                        &AtomicBool::new(false),
                    )
                    .unwrap();
                assert_eq!(got, expected, "{mode:?} {pairs} {board}");
            }
        }
    }

    fn double(players: &[&[&str]], board: &str, dead: &str) -> Spec {
        let players: Vec<Vec<(Vec<u8>, u64)>> = players
            .iter()
            .map(|hands| hands.iter().map(|h| (parse_cards(h).unwrap(), 2)).collect())
            .collect();
        let (board, dead) = (parse_cards(board).unwrap(), parse_cards(dead).unwrap());
        Spec::new(Variant::Double, &players, &board, &dead).unwrap()
    }

    /// Every renaming of the suits of `hand` (each once), as cards.
    fn renamings(hand: &[Card]) -> Vec<Vec<Card>> {
        let mut out: Vec<Vec<Card>> = Vec::new();
        for perm in super::super::suits::all_perms() {
            let mut h: Vec<Card> = hand
                .iter()
                .map(|&c| c & !3 | perm[usize::from(c & 3)])
                .collect();
            // Texas: the two cards in order; Double: the point card, then its partners.
            let from = if hand.len() == 2 { 0 } else { 1 };
            h[from..].sort_unstable();
            if !out.contains(&h) {
                out.push(h);
            }
        }
        out
    }

    #[test]
    fn the_table_of_pairs_on_board_classes_equals_the_classes() {
        // Ranges closed under renaming the suits, so that the boards have classes.
        use rand::{rngs::SmallRng, Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(7);
        let (mut tested, mut symmetric) = (0, 0);
        while tested < 40 {
            let variant = if rng.random_bool(0.25) {
                Variant::Double
            } else {
                Variant::Texas
            };
            let k = variant.hole_cards();
            let mut deck: Vec<Card> = (0..52).collect();
            let players: Vec<Vec<(Vec<Card>, u64)>> = (0..2)
                .map(|_| {
                    let mut hands = Vec::new();
                    for _ in 0..rng.random_range(1..4) {
                        let template: Vec<Card> = (0..k).map(|_| rng.random_range(0..52)).collect();
                        let weight = rng.random_range(1..4);
                        for h in renamings(&template) {
                            let distinct =
                                h.iter().all(|c| h.iter().filter(|&d| d == c).count() == 1);
                            let mask = |h: &Vec<Card>| h.iter().fold(0u64, |m, &c| m | 1 << c);
                            if distinct && !hands.iter().any(|(g, _)| mask(g) == mask(&h)) {
                                hands.push((h, weight));
                            }
                        }
                    }
                    hands
                })
                .collect();
            let known = rng.random_range(3..6);
            for i in 0..known {
                let j = rng.random_range(i..52);
                deck.swap(i, j);
            }
            let (board, dead) = deck[..known].split_at(known.clamp(3, 4));
            let Ok(spec) = Spec::new(variant, &players, board, dead) else {
                continue;
            };
            let mut plan = Plan::new(spec).unwrap();
            let (done, cancel) = (AtomicUsize::new(0), AtomicBool::new(false));
            let mut results = Vec::new();
            for (mode, pairs) in [
                (Mode::ByDeal, false),
                (Mode::ByBoard, false),
                (Mode::ByBoard, true),
            ] {
                plan.walk(mode, pairs);
                results.push(plan.run(0, plan.units(), &done, &cancel).unwrap());
            }
            assert!(plan.pairs.is_some());
            symmetric += usize::from(plan.boards.iter().any(|b| b.times > 1));
            assert_eq!(results[0], results[1], "{:?}", plan.spec);
            assert_eq!(results[0], results[2], "{:?}", plan.spec);
            tested += 1;
        }
        assert!(symmetric >= 10, "{symmetric} spots with classes of boards");
    }

    #[test]
    fn rank_patterns_equal_boards_one_by_one() {
        let specs = [
            texas(&[&["Ah Kh"], &["Qs Qd"]], "", ""),
            texas(&[&["Ah Kh"], &["Qs Qd"], &["7h 6h"]], "", "2h 3h"),
            texas(
                &[
                    &["Ac 2c", "Ah Kh"],
                    &["5c 4c"],
                    &["Td 9d", "Jh Th"],
                    &["8s 8c"],
                ],
                "",
                "Kc",
            ),
            double(&[&["Ah Kh 7c"], &["Qs Qd 2s"]], "", ""),
            double(&[&["Ah 5h 7h"], &["Qs Qd 2d"], &["9c 8c 3c"]], "", "Td"),
        ];
        for spec in specs {
            let mut plan = Plan::new(spec).unwrap();
            plan.mode = Mode::ByDeal;
            let (done, cancel) = (AtomicUsize::new(0), AtomicBool::new(false));
            let fast = plan.run(0, plan.units(), &done, &cancel).unwrap();
            plan.by_pattern = false;
            let slow = plan.run(0, plan.units(), &done, &cancel).unwrap();
            assert_eq!(fast, slow);
        }
    }

    #[test]
    fn chunks_add_up() {
        let spec = texas(
            &[&["Ah Kh", "As Ks"], &["Qs Qd", "Jc Tc"], &["7d 7c"]],
            "2h 5h 9s",
            "",
        );
        let plan = Plan::new(spec).unwrap();
        let (done, cancel) = (AtomicUsize::new(0), AtomicBool::new(false));
        let whole = plan.run(0, plan.units(), &done, &cancel).unwrap();
        let mut parts = plan.run(1, plan.units(), &done, &cancel).unwrap();
        parts.add(&plan.run(0, 1, &done, &cancel).unwrap());
        assert_eq!(parts, whole);
        let cancel = AtomicBool::new(true);
        assert_eq!(
            plan.run(0, plan.units(), &done, &cancel),
            Err(CoreError::Interrupted)
        );
    }

    #[test]
    fn aces_against_kings_preflop() {
        // AhAs vs KcKd: 1,712,304 boards; OMPEval (through pokerfast) gives 0.81255489679.
        let t = tally(texas(&[&["Ah As"], &["Kc Kd"]], "", "")).unwrap();
        assert_eq!(t.showdowns, 1_712_304);
        let equity = t.units[0] as f64 / (t.weight as f64 * UNIT as f64);
        assert!((equity - 0.812_554_896_794_027_3).abs() < 1e-12, "{equity}");
        assert_eq!(t.units[0] + t.units[1], t.weight * u128::from(UNIT));
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        let cases = [
            (0, "0"),
            (999, "999"),
            (1_000, "1,000"),
            (20_000_000, "20,000,000"),
        ];
        for (n, text) in cases {
            assert_eq!(grouped(n), text);
        }
        assert_eq!(grouped(u64::MAX), "18,446,744,073,709,551,615");
    }
}

#[cfg(test)]
mod speed {
    use super::*;
    use crate::cards::parse_cards;

    fn range(tokens: &[(&str, &str)]) -> Vec<(Vec<u8>, u64)> {
        // (ranks, "pair" | "suited") to hands.
        let mut out = Vec::new();
        for &(ranks, kind) in tokens {
            let r: Vec<u8> = ranks
                .bytes()
                .map(|c| b"23456789TJQKA".iter().position(|&x| x == c).unwrap() as u8)
                .collect();
            for a in 0..4u8 {
                for b in 0..4u8 {
                    let ok = if kind == "pair" { a < b } else { a == b };
                    if ok {
                        out.push((vec![r[0] * 4 + a, r[1] * 4 + b], 1));
                    }
                }
            }
        }
        out
    }

    #[test]
    #[ignore = "a timing, not a test: cargo test --release -- --ignored --nocapture"]
    fn flop_range_against_range() {
        let a = range(&[
            ("QQ", "pair"),
            ("KK", "pair"),
            ("AA", "pair"),
            ("AK", "suited"),
        ]);
        let b = range(&[
            ("JJ", "pair"),
            ("TT", "pair"),
            ("99", "pair"),
            ("88", "pair"),
            ("AQ", "suited"),
            ("AK", "suited"),
        ]);
        let board = parse_cards("Kh 8h 2c").unwrap();
        let spec = Spec::new(Variant::Texas, &[a, b], &board, &[]).unwrap();
        let (done, cancel) = (AtomicUsize::new(0), AtomicBool::new(false));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let mut best = f64::MAX;
        let mut plan_best = f64::MAX;
        for _ in 0..200 {
            let t = std::time::Instant::now();
            let plan = Plan::new(spec.clone()).unwrap();
            plan_best = plan_best.min(t.elapsed().as_secs_f64());
            pool.install(|| plan.run(0, plan.units(), &done, &cancel))
                .unwrap();
            best = best.min(t.elapsed().as_secs_f64());
        }
        let plan = Plan::new(spec).unwrap();
        println!(
            "flop: {:.0} us (plan {:.0} us), {} classes, {:?}",
            best * 1e6,
            plan_best * 1e6,
            plan.classes.len(),
            plan.mode
        );
    }
}
