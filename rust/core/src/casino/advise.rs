//! The exact expected value of each option at the flop and at the river, by direct
//! enumeration of the unseen cards (RULES.md HU-3, HU-4): every dealer hand at the
//! river (990), every turn, river and dealer hand at the flop (1,070,190 deals). EVs
//! are of the Ante, Odds and Play bets per unit of Ante (the side bets do not depend
//! on any decision).

use super::rules::{pay_class, Rules};
use super::settle::{fold_units, showdown_units, Showdown, SHOWDOWNS};
use crate::cards::{check_cards, Card};
use crate::error::CoreError;
use crate::eval::{Hand, HandValue};

/// One option at a decision: `Some(m)` raises m times the Ante, `None` checks (before
/// the river) or folds (at the river).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OptionEv {
    pub raise: Option<u32>,
    pub ev: f64,
}

/// Showdown counts of one player value against every dealer hand from `unseen`.
fn showdowns_against(
    rules: &Rules,
    board: Hand,
    player: HandValue,
    unseen: &[Card],
) -> [u64; SHOWDOWNS] {
    let mut counts = [0u64; SHOWDOWNS];
    for (i, &a) in unseen.iter().enumerate() {
        let with_a = board.add_card(a);
        for &b in &unseen[i + 1..] {
            let dealer = with_a.add_card(b).value();
            counts[Showdown::of(rules, player, dealer) as usize] += 1;
        }
    }
    counts
}

fn units_of(rules: &Rules, den: i64, multiple: u32, class: usize, counts: &[u64]) -> i64 {
    Showdown::ALL
        .iter()
        .map(|&s| counts[s as usize] as i64 * showdown_units(rules, den, multiple, class, s))
        .sum()
}

fn unseen_cards(known: &[Card]) -> Vec<Card> {
    (0..52).filter(|c| !known.contains(c)).collect()
}

/// The EV of folding and of each river raise, by enumerating the dealer's hands.
pub fn river_options(
    rules: &Rules,
    player: [Card; 2],
    board: [Card; 5],
) -> Result<Vec<OptionEv>, CoreError> {
    rules.validate()?;
    let known = [&player[..], &board].concat();
    check_cards(&known)?;
    let den = rules.main_denominator();
    let board_hand = Hand::EMPTY.add_cards(&board);
    let value = board_hand.add_cards(&player).value();
    let counts = showdowns_against(rules, board_hand, value, &unseen_cards(&known));
    let deals = counts.iter().sum::<u64>() as f64;
    let mut options = vec![OptionEv {
        raise: None,
        ev: fold_units(den) as f64 / den as f64,
    }];
    for &m in &rules.river_raises {
        let units = units_of(rules, den, m, pay_class(value), &counts);
        options.push(OptionEv {
            raise: Some(m),
            ev: units as f64 / den as f64 / deals,
        });
    }
    Ok(options)
}

/// The EV of checking (then playing the river optimally) and of each flop raise, by
/// enumerating turn, river and the dealer's hand.
pub fn flop_options(
    rules: &Rules,
    player: [Card; 2],
    flop: [Card; 3],
) -> Result<Vec<OptionEv>, CoreError> {
    rules.validate()?;
    let known = [&player[..], &flop].concat();
    check_cards(&known)?;
    let den = rules.main_denominator();
    let unseen = unseen_cards(&known);
    let mut raise_units = vec![0i64; rules.flop_raises.len()];
    let (mut check_units, mut deals) = (0i64, 0u64);
    let flop_hand = Hand::EMPTY.add_cards(&flop);
    for (i, &turn) in unseen.iter().enumerate() {
        for &river in &unseen[i + 1..] {
            let board = flop_hand.add_card(turn).add_card(river);
            let value = board.add_cards(&player).value();
            let rest: Vec<Card> = unseen
                .iter()
                .copied()
                .filter(|&c| c != turn && c != river)
                .collect();
            let counts = showdowns_against(rules, board, value, &rest);
            let n = counts.iter().sum::<u64>();
            deals += n;
            let class = pay_class(value);
            for (total, &m) in raise_units.iter_mut().zip(&rules.flop_raises) {
                *total += units_of(rules, den, m, class, &counts);
            }
            let best_river = rules
                .river_raises
                .iter()
                .map(|&m| units_of(rules, den, m, class, &counts))
                .fold(n as i64 * fold_units(den), i64::max);
            check_units += best_river;
        }
    }
    let per_ante = |units: i64| units as f64 / den as f64 / deals as f64;
    let mut options = vec![OptionEv {
        raise: None,
        ev: per_ante(check_units),
    }];
    for (&m, &units) in rules.flop_raises.iter().zip(&raise_units) {
        options.push(OptionEv {
            raise: Some(m),
            ev: per_ante(units),
        });
    }
    Ok(options)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn river_with_the_nuts_raises_and_with_air_folds() {
        let rules = Rules::heads_up();
        // As Ks on Qs Js Ts 2c 3d: a royal flush never loses.
        let nuts = river_options(&rules, [51, 47], [43, 39, 35, 0, 5]).unwrap();
        assert_eq!(nuts[0].ev, -2.0);
        assert!(nuts[1].ev > 400.0, "{nuts:?}");
        // 2c 3d on Ah Kh 9s 8s 7d (no pair, no draw): the raise loses more than the fold.
        let air = river_options(&rules, [0, 5], [50, 46, 31, 27, 21]).unwrap();
        assert!(air[1].ev < air[0].ev, "{air:?}");
    }

    #[test]
    fn flop_check_is_worth_at_least_folding() {
        let rules = Rules::heads_up();
        let options = flop_options(&rules, [0, 5], [50, 46, 31]).unwrap();
        assert!(options[0].ev >= -2.0 && options[0].ev > options[1].ev);
    }
}
