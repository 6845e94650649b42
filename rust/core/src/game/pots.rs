//! Pots: uncalled bets (TH-20), main and side pots (TH-21), rake (TH-31) and awarding
//! each pot with odd chips one each clockwise from the button (TH-23, TH-30).
//! Pure functions over slices, seats numbered clockwise from 0.

use super::betting::Chips;
use serde::{Deserialize, Serialize};

/// A pot and the seats that may win it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pot {
    pub amount: Chips,
    pub eligible: Vec<usize>,
}

/// How pot number `pot` (0 is the main pot) was settled: `amount` before rake, the
/// `rake` taken, the `winners` and what each won (`shares`, in the order of `winners`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PotResult {
    pub pot: usize,
    pub amount: Chips,
    pub rake: Chips,
    pub eligible: Vec<usize>,
    pub winners: Vec<usize>,
    pub shares: Vec<Chips>,
}

/// The house's cut (TH-31): `basis_points` of each pot rounded down, at most `cap` a
/// hand (main pot first), nothing without a flop when `no_flop_no_drop`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rake {
    pub basis_points: Chips,
    pub cap: Option<Chips>,
    pub no_flop_no_drop: bool,
}

/// The seat and amount of the part of the largest bet no other player matched (TH-20);
/// `None` if the two largest bets are equal.
pub fn uncalled_bet(bets: &[Chips]) -> Option<(usize, Chips)> {
    let top = *bets.iter().max()?;
    if bets.len() < 2 || bets.iter().filter(|&&b| b == top).count() > 1 {
        return None;
    }
    let second = bets.iter().copied().filter(|&b| b != top).max()?;
    let seat = bets.iter().position(|&b| b == top)?;
    Some((seat, top - second))
}

/// The main pot then the side pots (TH-21). `committed` is each seat's total in the
/// middle (folded seats too), `in_hand` who has not folded, `all_in` who has no chips
/// left, `dead` money that goes whole into the main pot (a big-blind ante, TH-19). Each
/// all-in level of a player still in the hand closes a pot; adjacent pots with the same
/// eligible players are merged.
pub fn side_pots(committed: &[Chips], in_hand: &[bool], all_in: &[bool], dead: Chips) -> Vec<Pot> {
    let n = committed.len();
    let top = committed.iter().copied().max().unwrap_or(0);
    let mut levels: Vec<Chips> = (0..n)
        .filter(|&s| in_hand[s] && all_in[s])
        .map(|s| committed[s])
        .chain([top])
        .collect();
    levels.sort_unstable();
    levels.dedup();
    let mut pots: Vec<Pot> = Vec::new();
    let mut previous = 0;
    for level in levels {
        let mut amount: Chips = committed
            .iter()
            .map(|&c| c.min(level) - c.min(previous))
            .sum();
        let eligible: Vec<usize> = (0..n)
            .filter(|&s| in_hand[s] && committed[s] >= level)
            .collect();
        if pots.is_empty() {
            amount += dead;
        }
        let first = pots.is_empty();
        match pots.last_mut() {
            // merge equal pots; chips above every live player's level (only folded
            // players reach it, which the return of uncalled bets prevents) join the last
            Some(last) if last.eligible == eligible || eligible.is_empty() => {
                last.amount += amount;
                last.eligible = eligible;
            }
            _ if amount != 0 || first => pots.push(Pot { amount, eligible }),
            _ => {}
        }
        previous = level;
    }
    pots
}

/// The house share of each pot (TH-31): a percentage rounded down, the hand's cap spent
/// on the main pot first, nothing before the flop with "no flop, no drop".
pub fn rake_amounts(pots: &[Pot], rake: Option<&Rake>, flop_dealt: bool) -> Vec<Chips> {
    let Some(rake) = rake.filter(|r| flop_dealt || !r.no_flop_no_drop) else {
        return vec![0; pots.len()];
    };
    let mut left = rake.cap;
    pots.iter()
        .map(|pot| {
            let share = i128::from(pot.amount) * i128::from(rake.basis_points) / 10_000;
            let mut amount = Chips::try_from(share).unwrap_or(Chips::MAX);
            if let Some(left) = left.as_mut() {
                amount = amount.min(*left);
                *left -= amount;
            }
            amount
        })
        .collect()
}

/// A pot shared by tied winners (TH-30): equal shares in whole chips, the chips that do
/// not divide one each to the winners clockwise from the first seat left of the button.
/// Returns (seat, chips) in that clockwise order.
pub fn split(
    amount: Chips,
    winners: &[usize],
    button: usize,
    players: usize,
) -> Vec<(usize, Chips)> {
    if let [winner] = winners {
        return vec![(*winner, amount)];
    }
    let mut order = winners.to_vec();
    order.sort_by_key(|&s| (s + 2 * players - button - 1) % players);
    let count = order.len() as Chips;
    let (share, odd) = (amount.div_euclid(count), amount.rem_euclid(count));
    order
        .into_iter()
        .enumerate()
        .map(|(i, seat)| (seat, share + Chips::from((i as Chips) < odd)))
        .collect()
}

/// Settles every pot separately, side pots first (TH-23): the best value among the
/// eligible seats that showed (`values[seat]`, higher wins) takes the pot after rake,
/// ties split by [`split`]. A pot none of whose eligible seats showed goes to its
/// eligible seats as if all tied (it cannot happen in a hand played by the rules).
pub fn award(
    pots: &[Pot],
    values: &[Option<u32>],
    button: usize,
    players: usize,
    rakes: &[Chips],
) -> Vec<PotResult> {
    let value = |s: usize| values.get(s).copied().flatten();
    (0..pots.len())
        .rev()
        .map(|index| {
            let pot = &pots[index];
            let rake = rakes.get(index).copied().unwrap_or(0);
            let shown: Vec<usize> = pot
                .eligible
                .iter()
                .copied()
                .filter(|&s| value(s).is_some())
                .collect();
            let contenders = if shown.is_empty() {
                pot.eligible.clone()
            } else {
                shown
            };
            let of = |s: usize| value(s).unwrap_or(0);
            let best = contenders.iter().map(|&s| of(s)).max().unwrap_or(0);
            let winners: Vec<usize> = contenders.into_iter().filter(|&s| of(s) == best).collect();
            let shares = split(pot.amount - rake, &winners, button, players);
            PotResult {
                pot: index,
                amount: pot.amount,
                rake,
                eligible: pot.eligible.clone(),
                winners: shares.iter().map(|&(s, _)| s).collect(),
                shares: shares.iter().map(|&(_, c)| c).collect(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uncalled_part_of_the_largest_bet_th20() {
        assert_eq!(uncalled_bet(&[0, 300, 100]), Some((1, 200)));
        assert_eq!(uncalled_bet(&[100, 100]), None);
        assert_eq!(uncalled_bet(&[50]), None);
    }

    #[test]
    fn side_pots_close_at_each_all_in_level_th21() {
        let pots = side_pots(
            &[100, 300, 300, 50],
            &[true, true, true, false],
            &[true, false, false, false],
            0,
        );
        let expected = [(350, vec![0, 1, 2]), (400, vec![1, 2])];
        assert_eq!(pots.len(), 2);
        for (pot, (amount, eligible)) in pots.iter().zip(expected) {
            assert_eq!((pot.amount, &pot.eligible), (amount, &eligible));
        }
    }

    #[test]
    fn odd_chips_go_clockwise_from_the_button_th30() {
        assert_eq!(split(10, &[0, 2, 3], 2, 4), vec![(3, 4), (0, 3), (2, 3)]);
    }
}
