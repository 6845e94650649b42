//! Exact Double Hold'em statistics (RULES.md DH-3, DH-4, DH-6) over every deal of three
//! hole cards and a board: C(52,3) x C(49,5) = 42,142,136,400 deals. For each deal, the
//! player's category when the point card is chosen automatically (DH-6) and when it is
//! the best choice in hindsight, and which point choices are best.
//!
//! Hole cards are visited one per suit class (1,755 classes, weighted by size); the
//! value depends only on the set of hole cards (the better of the two hands plays and
//! DH-6 looks at ranks and suits only), so dealing order does not matter. Each board
//! is built incrementally, and the three two-card hands of the hole are carried down
//! the loop nest: a deal costs three additions and three lookups.

use crate::cards::{check_cards, Card};
use crate::classes::triple_classes;
use crate::double::auto_point;
use crate::error::CoreError;
use crate::eval::Hand;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Every deal: C(52,3) x C(49,5).
pub const ALL_DEALS: u64 = 42_142_136_400;

/// Counts over a set of deals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DoubleCounts {
    /// Deals by the player's category with the automatic point card (DH-6).
    pub auto: [u64; 9],
    /// Deals by the player's category with the best point card in hindsight.
    pub best: [u64; 9],
    /// Deals in which point card 0, 1, 2 (of the hole as given) is a best choice
    /// (when several are equally good, each of them counts).
    pub point_best: [u64; 3],
    /// Deals in which the automatic point card is a best choice.
    pub auto_best: u64,
    pub deals: u64,
}

impl DoubleCounts {
    fn add_scaled(&mut self, other: &DoubleCounts, weight: u64) {
        let add =
            |a: &mut [u64], b: &[u64]| a.iter_mut().zip(b).for_each(|(x, y)| *x += y * weight);
        add(&mut self.auto, &other.auto);
        add(&mut self.best, &other.best);
        add(&mut self.point_best, &other.point_best);
        self.auto_best += other.auto_best * weight;
        self.deals += other.deals * weight;
    }
}

/// One suit class of three hole cards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoleClass {
    /// A representative (ascending cards).
    pub hole: [Card; 3],
    /// How many three-card holes the class holds.
    pub weight: u64,
    /// The DH-6 point card of the representative.
    pub auto_point: usize,
    /// Counts over every deal whose hole is in this class (weighted), with
    /// `point_best` by position in the representative.
    pub counts: DoubleCounts,
}

/// The whole statistics: totals and one entry per hole class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DoubleStats {
    pub total: DoubleCounts,
    pub classes: Vec<HoleClass>,
}

/// Counts every board that completes `board` (0 to 5 cards) for the hole `hole`.
pub fn double_counts(hole: [Card; 3], board: &[Card]) -> Result<DoubleCounts, CoreError> {
    if board.len() > 5 {
        return Err(CoreError::invalid_hand(format!(
            "a board has at most 5 cards, not {}",
            board.len()
        )));
    }
    check_cards(&[&hole[..], board].concat())?;
    let auto = auto_point(&hole)?;
    let rest: Vec<Card> = (0..52)
        .filter(|c| !hole.contains(c) && !board.contains(c))
        .collect();
    let pairs = [[hole[0], hole[1]], [hole[0], hole[2]], [hole[1], hole[2]]];
    let start = pairs.map(|p| Hand::EMPTY.add_cards(&p).add_cards(board));
    let mut counts = DoubleCounts::default();
    extend(&rest, 5 - board.len(), start, auto, &mut counts);
    Ok(counts)
}

/// Adds each remaining card in turn to the three two-card hands (01, 02, 12).
fn extend(rest: &[Card], left: usize, hands: [Hand; 3], auto: usize, counts: &mut DoubleCounts) {
    if left == 0 {
        record(hands.map(Hand::value), auto, counts);
        return;
    }
    for (i, &card) in rest[..=rest.len() - left].iter().enumerate() {
        let next = hands.map(|h| h.add_card(card));
        if left == 1 {
            record(next.map(Hand::value), auto, counts);
        } else {
            extend(&rest[i + 1..], left - 1, next, auto, counts);
        }
    }
}

/// Values of the two-card hands 01, 02, 12 → which point cards are best (DH-3, DH-4).
#[inline(always)]
fn record(v: [u16; 3], auto: usize, counts: &mut DoubleCounts) {
    // Point p pairs with the other two cards: point 0 uses hands 01 and 02, and so on.
    let points = [v[0].max(v[1]), v[0].max(v[2]), v[1].max(v[2])];
    let best = points[0].max(points[1]).max(points[2]);
    counts.auto[(points[auto] >> 12) as usize] += 1;
    counts.best[(best >> 12) as usize] += 1;
    for (n, &p) in counts.point_best.iter_mut().zip(&points) {
        *n += u64::from(p == best);
    }
    counts.auto_best += u64::from(points[auto] == best);
    counts.deals += 1;
}

/// The statistics over all 42,142,136,400 deals, in parallel on the current rayon pool;
/// `done` counts finished hole classes (of 1,755), `cancel` stops the work.
pub fn double_stats(done: &AtomicUsize, cancel: &AtomicBool) -> Result<DoubleStats, CoreError> {
    let holes = triple_classes();
    let classes = (0..holes.representatives.len())
        .into_par_iter()
        .map(|class| {
            if cancel.load(Ordering::Relaxed) {
                return Err(CoreError::Interrupted);
            }
            let hole = holes.representatives[class];
            let weight = holes.weights[class];
            let mut counts = DoubleCounts::default();
            counts.add_scaled(&double_counts(hole, &[])?, weight);
            done.fetch_add(1, Ordering::Relaxed);
            Ok(HoleClass {
                hole,
                weight,
                auto_point: auto_point(&hole)?,
                counts,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut total = DoubleCounts::default();
    classes.iter().for_each(|c| total.add_scaled(&c.counts, 1));
    Ok(DoubleStats { total, classes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::double::point_values;

    /// A fixed hole and flop: the loop nest agrees with `point_values` deal by deal.
    #[test]
    fn agrees_with_point_values_on_a_fixed_flop() {
        let hole = [51, 50, 20]; // As Ah 7c
        let flop = [49, 21, 0]; // Ad 7d 2c
        let counts = double_counts(hole, &flop).unwrap();
        let mut direct = DoubleCounts::default();
        let auto = auto_point(&hole).unwrap();
        let rest: Vec<Card> = (0..52)
            .filter(|c| !hole.contains(c) && !flop.contains(c))
            .collect();
        for (i, &turn) in rest.iter().enumerate() {
            for &river in &rest[i + 1..] {
                let board = [flop[0], flop[1], flop[2], turn, river];
                let values = point_values(&hole, &board).unwrap();
                let best = *values.iter().max().unwrap();
                direct.auto[(values[auto] >> 12) as usize] += 1;
                direct.best[(best >> 12) as usize] += 1;
                for (n, &v) in direct.point_best.iter_mut().zip(&values) {
                    *n += u64::from(v == best);
                }
                direct.auto_best += u64::from(values[auto] == best);
                direct.deals += 1;
            }
        }
        assert_eq!(counts, direct);
        assert_eq!(counts.deals, 1035);
    }

    #[test]
    fn rejects_bad_input() {
        assert!(double_counts([0, 1, 2], &[3, 4, 5, 6, 7, 8]).is_err());
        assert!(double_counts([0, 1, 1], &[]).is_err());
    }
}
