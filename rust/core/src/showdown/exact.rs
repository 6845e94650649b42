//! Exact equities: every deal of hands (one per suit class, see [`super::suits`]) and
//! every completion of the board.
//!
//! Two ways to walk the same sum, chosen by their cost:
//! - by deal: for each class of deals of hands, enumerate the boards with incremental
//!   rank-key sums (each board summed once and added to every player's hole);
//! - by board: for each completion of the board, evaluate every hand of every range
//!   once, then count each class of deals by looking its hands' values up. This pays
//!   when ranges are wide and few boards remain (a range against a range on the flop).
//!
//! The work is a list of units (classes or boards); any split into ranges of units
//! gives tallies that add up to the whole, which is how big jobs are chunked.

use super::preflop;
use super::suits::{classes, count_deals, Class};
use super::{value, Counts, Spec, Tally, Variant, MAX_PLAYERS, UNIT};
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
    /// The completions of the board (by-board mode only): the cards as a hand summed
    /// from [`Hand::ZERO`], and as a bit set.
    boards: Vec<(Hand, u64)>,
    /// The estimated number of evaluations and lookups of the whole enumeration.
    cost: u64,
    /// By board with two players: the classes grouped for the fast path.
    heads_up: Option<HeadsUp>,
    /// Whether five cards to come are counted by rank pattern (always, but for the
    /// tests that check it against the boards one by one).
    by_pattern: bool,
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
                "more than {MAX_DEALS} deals of hands to enumerate: ask for Monte Carlo \
                 (samples or stderr) instead"
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
        let classes = classes(&spec);
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
        let boards = if mode == Mode::ByBoard {
            let mut boards = Vec::with_capacity(all_boards as usize);
            for_each_board(&spec.deck(), spec.missing(), |hand, mask| {
                boards.push((hand, mask))
            });
            boards
        } else {
            Vec::new()
        };
        let mut plan = Plan {
            spec,
            classes,
            mode,
            boards,
            cost,
            heads_up: None,
            by_pattern: true,
        };
        if mode == Mode::ByBoard && n == 2 {
            plan.heads_up = plan.heads_up_groups();
        }
        Ok(plan)
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
        let stop = stop.min(self.units());
        let start = start.min(stop);
        let n = self.spec.players.len();
        let double = self.spec.variant == Variant::Double;
        let work = |range: std::ops::Range<usize>| -> Result<Tally, CoreError> {
            let mut tally = Tally::new(n);
            match (self.mode, double) {
                (Mode::ByDeal, false) => self.by_deal::<false>(range, &mut tally, done, cancel)?,
                (Mode::ByDeal, true) => self.by_deal::<true>(range, &mut tally, done, cancel)?,
                (Mode::ByBoard, false) => {
                    self.by_board::<false>(range, &mut tally, done, cancel)?
                }
                (Mode::ByBoard, true) => self.by_board::<true>(range, &mut tally, done, cancel)?,
            }
            Ok(tally)
        };
        let step = match self.mode {
            Mode::ByDeal => 1,
            Mode::ByBoard => 64,
        };
        let pieces: Vec<std::ops::Range<usize>> = (start..stop)
            .step_by(step)
            .map(|a| a..(a + step).min(stop))
            .collect();
        pieces.into_par_iter().map(work).try_reduce(
            || Tally::new(n),
            |mut a, b| {
                a.add(&b);
                Ok(a)
            },
        )
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

    /// The classes grouped by the first player's hand, with weights and deal counts
    /// below 2^32 (so that a board's sums fit in 64 bits); `None` if one is larger.
    fn heads_up_groups(&self) -> Option<HeadsUp> {
        let mut order: Vec<&Class> = self.classes.iter().collect();
        order.sort_unstable_by_key(|c| (c.hands[0], c.hands[1]));
        let mut groups = HeadsUp::default();
        for c in order {
            let weight = u64::try_from(c.weight).ok().filter(|&w| w < 1 << 32)?;
            if groups.first.last() != Some(&c.hands[0]) {
                groups.first.push(c.hands[0]);
                groups.ends.push(0);
            }
            groups.second.push(c.hands[1]);
            groups.weight.push(weight);
            groups.deals.push(c.deals);
            *groups.ends.last_mut().expect("a group was pushed") = groups.second.len();
        }
        Some(groups)
    }

    fn by_board<const DOUBLE: bool>(
        &self,
        range: std::ops::Range<usize>,
        tally: &mut Tally,
        done: &AtomicUsize,
        cancel: &AtomicBool,
    ) -> Result<(), CoreError> {
        let n = self.spec.players.len();
        let bases = self.bases();
        let masks: Vec<Vec<u64>> = self
            .spec
            .players
            .iter()
            .map(|r| r.iter().map(|c| c.mask).collect())
            .collect();
        let mut values: Vec<Vec<HandValue>> = bases.iter().map(|b| vec![0; b.len()]).collect();
        let mut win = [0u128; MAX_PLAYERS];
        let mut tie = [0u128; MAX_PLAYERS];
        let mut units = [0u128; MAX_PLAYERS];
        let (mut showdowns, mut weight) = (0u64, 0u128);
        let heads_up = &self.heads_up;
        let mut second = vec![0u64; masks[1].len()];
        for &(extra, board_mask) in &self.boards[range] {
            if cancel.load(Ordering::Relaxed) {
                return Err(CoreError::Interrupted);
            }
            for ((vals, bases), masks) in values.iter_mut().zip(&bases).zip(&masks) {
                for ((v, base), &mask) in vals.iter_mut().zip(bases).zip(masks) {
                    if mask & board_mask == 0 {
                        *v = value::<DOUBLE>(base, extra);
                    }
                }
            }
            if let Some(groups) = heads_up {
                // Two players, small weights: branch-free sums in 64 bits per board. The
                // second player's value and whether the hand is live, in one word.
                for ((info, &v), &mask) in second.iter_mut().zip(&values[1]).zip(&masks[1]) {
                    *info = u64::from(v) | u64::from(mask & board_mask == 0) << 32;
                }
                let (mut w0, mut w1, mut deals, mut sum) = (0u64, 0u64, 0u64, 0u64);
                let mut start = 0;
                for (&h0, &end) in groups.first.iter().zip(&groups.ends) {
                    let range = start..end;
                    start = end;
                    if masks[0][h0 as usize] & board_mask != 0 {
                        continue;
                    }
                    let a = values[0][h0 as usize];
                    let hands = groups.second[range.clone()].iter();
                    let weights = groups.weight[range.clone()]
                        .iter()
                        .zip(&groups.deals[range]);
                    for (&h1, (&weight, &d)) in hands.zip(weights) {
                        let info = second[h1 as usize];
                        let (b, live) = (info as HandValue, info >> 32);
                        let w = weight * live;
                        w0 += w * u64::from(a > b);
                        w1 += w * u64::from(b > a);
                        deals += d * live;
                        sum += w;
                    }
                }
                let tied = sum - w0 - w1;
                showdowns += deals;
                weight += u128::from(sum);
                win[0] += u128::from(w0);
                win[1] += u128::from(w1);
                tie[0] += u128::from(tied);
                tie[1] += u128::from(tied);
                units[0] +=
                    u128::from(w0) * u128::from(UNIT) + u128::from(tied) * u128::from(UNIT / 2);
                units[1] +=
                    u128::from(w1) * u128::from(UNIT) + u128::from(tied) * u128::from(UNIT / 2);
                done.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            for class in &self.classes {
                if class.mask & board_mask != 0 {
                    continue;
                }
                let mut best = 0;
                let mut tied = 0u64;
                for (i, vals) in values.iter().enumerate() {
                    let v = vals[class.hands[i] as usize];
                    if v > best {
                        best = v;
                        tied = 1;
                    } else if v == best {
                        tied += 1;
                    }
                }
                showdowns += class.deals;
                weight += class.weight;
                let share = class.weight * u128::from(UNIT / tied);
                for (i, vals) in values.iter().enumerate() {
                    if vals[class.hands[i] as usize] == best {
                        units[i] += share;
                        if tied == 1 {
                            win[i] += class.weight;
                        } else {
                            tie[i] += class.weight;
                        }
                    }
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
}

/// Heads-up classes of deals grouped by the first player's hand: group g is the hand
/// `first[g]` against `second[ends[g - 1]..ends[g]]`, with the classes' weights (below
/// 2^32) and numbers of deals.
#[derive(Debug, Default)]
struct HeadsUp {
    first: Vec<u32>,
    ends: Vec<usize>,
    second: Vec<u32>,
    weight: Vec<u64>,
    deals: Vec<u64>,
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
            for mode in [Mode::ByDeal, Mode::ByBoard] {
                let mut plan = Plan::new(spec.clone()).unwrap();
                if plan.mode != mode {
                    plan.mode = mode;
                    plan.boards.clear();
                    for_each_board(&spec.deck(), spec.missing(), |h, m| {
                        plan.boards.push((h, m))
                    });
                }
                let got = plan
                    .run(
                        0,
                        plan.units(),
                        &AtomicUsize::new(0),
                        &AtomicBool::new(false),
                    )
                    .unwrap();
                assert_eq!(got, expected, "{mode:?} {board}");
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
