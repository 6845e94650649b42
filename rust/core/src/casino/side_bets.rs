//! Exact expected values of the side bets: Trips Plus (HU-9) over all 133,784,560
//! seven-card hands, Pocket Bonus (HU-10) over all 1,326 two-card hands. Neither
//! depends on the dealer or on any decision (a fold still completes the board, HU-4).

use super::rules::{PayTable, Rules, ROYAL};
use super::settle::pocket_bonus_payout;
use crate::classes::pairs;
use crate::enumerate::category_counts;
use crate::error::CoreError;

/// A side bet's exact distribution: how many equally likely hands get each payout.
#[derive(Clone, Debug, PartialEq)]
pub struct SideBet {
    /// (net payout per unit of stake, number of hands).
    pub outcomes: Vec<(f64, u64)>,
    pub hands: u64,
}

impl SideBet {
    /// Net result per unit of stake.
    pub fn expected_value(&self) -> f64 {
        let total: f64 = self.outcomes.iter().map(|&(p, n)| p * n as f64).sum();
        total / self.hands as f64
    }

    /// House edge per unit of stake.
    pub fn house_edge(&self) -> f64 {
        -self.expected_value()
    }
}

/// Trips Plus from the seven-card pay-class counts (EV-2 distribution).
pub fn trips_plus(rules: &Rules) -> Result<SideBet, CoreError> {
    rules.validate()?;
    let counts = category_counts(7)?;
    let mut by_class = [0u64; 10];
    by_class[..9].copy_from_slice(&counts.counts);
    by_class[8] -= counts.royal_flushes;
    by_class[ROYAL] = counts.royal_flushes;
    Ok(from_class_counts(&rules.trips, &by_class))
}

/// A pay table applied to counts by pay class.
pub fn from_class_counts(table: &PayTable, by_class: &[u64; 10]) -> SideBet {
    SideBet {
        outcomes: table
            .iter()
            .zip(by_class)
            .map(|(p, &n)| (p.as_f64(), n))
            .collect(),
        hands: by_class.iter().sum(),
    }
}

/// Pocket Bonus over every two-card hand.
pub fn pocket_bonus(rules: &Rules) -> Result<SideBet, CoreError> {
    rules.validate()?;
    let mut outcomes: Vec<(f64, u64)> = Vec::new();
    for &hole in pairs() {
        let pay = pocket_bonus_payout(rules, hole).as_f64();
        match outcomes.iter_mut().find(|(p, _)| *p == pay) {
            Some((_, n)) => *n += 1,
            None => outcomes.push((pay, 1)),
        }
    }
    Ok(SideBet {
        outcomes,
        hands: pairs().len() as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// HU-10 by hand: 6 x 30 + 12 x 20 + 36 x 10 + 72 x 4 - 1,200 over 1,326.
    #[test]
    fn pocket_bonus_closed_form() {
        let bet = pocket_bonus(&Rules::heads_up()).unwrap();
        let closed = (6.0 * 30.0 + 12.0 * 20.0 + 36.0 * 10.0 + 72.0 * 4.0 - 1200.0) / 1326.0;
        assert!((bet.expected_value() - closed).abs() < 1e-15);
    }
}
