//! One betting round: who must act, what each player may do, and how a wager changes the
//! round (RULES.md TH-4, TH-5, TH-10 to TH-18).
//!
//! The round keeps the amount to match (`level`), the last *full* bet or raise and which
//! players have acted since. That is all the incomplete all-in rules need:
//!
//! - no/pot limit (TH-15, TH-17): a raise must add at least the last full bet or raise;
//!   an all-in that adds less is not a full raise and does not reopen the betting for a
//!   player who already acted, unless several short all-ins together make the amount
//!   that player faces at least a full raise;
//! - fixed limit (TH-14): an all-in of half a bet or more counts as a full bet or raise
//!   (and towards the cap); a smaller one reopens nothing, and a player who may still
//!   raise completes it to a full bet;
//! - the cap (TH-12) and its heads-up exception (TH-13).

use serde::{Deserialize, Serialize};

/// Money: integers in the smallest unit.
pub type Chips = i64;

/// The betting structure (TH-10, TH-15, TH-16).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Structure {
    FixedLimit,
    PotLimit,
    NoLimit,
}

/// What the player to act may do now. `min_raise_to`..=`max_raise_to` is the range of
/// totals a bet or raise may make the player's wager in this round (`None`: no bet or
/// raise allowed); `point` is true when the player must first choose a Double Hold'em
/// point card (DH-5), and then every betting option is off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Legal {
    pub seat: usize,
    pub point: bool,
    pub can_fold: bool,
    pub can_check: bool,
    pub call_amount: Chips,
    pub min_raise_to: Option<Chips>,
    pub max_raise_to: Option<Chips>,
    pub all_in_to: Chips,
    pub is_bet: bool,
    pub bet: Chips,
}

impl Legal {
    /// The options of a player who must choose a point card (DH-5).
    pub fn point_choice(seat: usize, bet: Chips, stack: Chips) -> Legal {
        Legal {
            seat,
            point: true,
            can_fold: false,
            can_check: false,
            call_amount: 0,
            min_raise_to: None,
            max_raise_to: None,
            all_in_to: bet + stack,
            is_bet: false,
            bet,
        }
    }

    /// The chips the player has behind.
    pub fn stack(&self) -> Chips {
        self.all_in_to - self.bet
    }

    /// How the allowed bets and raises read in a refusal.
    pub fn raise_range_text(&self) -> String {
        match (self.min_raise_to, self.max_raise_to) {
            (Some(low), Some(high)) if low == high => {
                format!("the only bet or raise is to {low}")
            }
            (Some(low), Some(high)) => format!("bets and raises go to {low}..{high}"),
            _ => "no bet or raise is allowed now".to_string(),
        }
    }
}

/// The rules of a round that do not change during it.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub structure: Structure,
    /// The fixed-limit cap on bets and raises per round (TH-12), if any.
    pub cap: Option<u32>,
    /// TH-13: no cap when only two players are in the hand.
    pub heads_up_uncapped: bool,
}

/// What a round reads of the hand, per seat: this round's wagers, the chips behind and
/// who has not folded.
#[derive(Clone, Copy, Debug)]
pub struct Seats<'a> {
    pub bets: &'a [Chips],
    pub stacks: &'a [Chips],
    pub in_hand: &'a [bool],
}

/// The state of one betting round; the hand owns the bets, stacks and who is in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// The amount to match (pre-flop the full big blind even if its poster was short).
    pub level: Chips,
    /// The level made by the last full bet or raise.
    pub full_level: Chips,
    /// The size of the last full bet or raise (no/pot limit).
    pub full_raise: Chips,
    /// The fixed-limit bet of this round.
    pub bet_size: Chips,
    /// The bet and full raises so far (pre-flop the big blind counts as the bet, TH-12).
    pub bets_made: u32,
    pub capped: bool,
    /// The level each seat last acted at (`None`: not yet this round).
    pub acted: Vec<Option<Chips>>,
    pub last_aggressor: Option<usize>,
}

impl Round {
    /// A round for `players` seats; `min_bet` is the no/pot-limit minimum bet.
    pub fn new(
        limits: &Limits,
        players: usize,
        level: Chips,
        min_bet: Chips,
        bet_size: Chips,
        bets_made: u32,
    ) -> Round {
        let limit = limits.structure == Structure::FixedLimit;
        Round {
            level,
            full_level: level,
            full_raise: if limit { bet_size } else { min_bet },
            bet_size,
            bets_made,
            capped: false,
            acted: vec![None; players],
            last_aggressor: None,
        }
    }

    /// The first seat clockwise after `after` that must act, or `None` when the round is
    /// over (TH-5).
    pub fn next_actor(&self, after: usize, seats: Seats<'_>) -> Option<usize> {
        let Seats {
            bets,
            stacks,
            in_hand,
        } = seats;
        let n = stacks.len();
        let mut first = None;
        let mut able = 0;
        let mut last_able = 0;
        let mut seat = after;
        for _ in 0..n {
            seat = if seat + 1 < n { seat + 1 } else { 0 };
            if in_hand[seat] && stacks[seat] > 0 {
                able += 1;
                last_able = seat;
                if first.is_none() && (self.acted[seat].is_none() || bets[seat] < self.level) {
                    first = Some(seat);
                }
            }
        }
        if able == 1 && bets[last_able] >= self.level {
            return None;
        }
        first
    }

    /// The options of `seat`; `pot` is every chip already in the middle, this round's
    /// bets included (for the pot-limit maximum, TH-16).
    pub fn legal(&self, limits: &Limits, seat: usize, seats: Seats<'_>, pot: Chips) -> Legal {
        let (bet, stack) = (seats.bets[seat], seats.stacks[seat]);
        let to_call = (self.level - bet).max(0);
        let (min_raise_to, max_raise_to) = match self.raise_range(limits, seat, seats, pot, to_call)
        {
            Some((low, high)) => (Some(low), Some(high)),
            None => (None, None),
        };
        Legal {
            seat,
            point: false,
            can_fold: to_call > 0,
            can_check: to_call == 0,
            call_amount: to_call.min(stack),
            min_raise_to,
            max_raise_to,
            all_in_to: bet + stack,
            is_bet: self.level == 0,
            bet,
        }
    }

    fn raise_range(
        &self,
        limits: &Limits,
        seat: usize,
        seats: Seats<'_>,
        pot: Chips,
        to_call: Chips,
    ) -> Option<(Chips, Chips)> {
        let (bets, stacks) = (seats.bets, seats.stacks);
        let stack = stacks[seat];
        if stack <= to_call || !self.may_raise(limits, seat, seats) {
            return None;
        }
        let all_in_to = bets[seat] + stack;
        let level = self.level;
        match limits.structure {
            Structure::FixedLimit => {
                let mut target = self.full_level + self.bet_size;
                if target <= level {
                    target = level + self.bet_size;
                }
                let amount = target.min(all_in_to);
                Some((amount, amount))
            }
            Structure::NoLimit => Some(((level + self.full_raise).min(all_in_to), all_in_to)),
            Structure::PotLimit => {
                let low = (level + self.full_raise).min(all_in_to);
                let high = (level + pot + to_call).min(all_in_to);
                Some((low, high.max(low)))
            }
        }
    }

    fn may_raise(&self, limits: &Limits, seat: usize, seats: Seats<'_>) -> bool {
        let Seats {
            bets,
            stacks,
            in_hand,
        } = seats;
        let level = self.level;
        let answerable =
            (0..bets.len()).any(|s| in_hand[s] && s != seat && stacks[s] + bets[s] > level);
        if !answerable {
            return false; // nobody could answer the raise
        }
        let limit = limits.structure == Structure::FixedLimit;
        // no full bet or raise since this player acted (TH-14, TH-17); in no/pot limit
        // several short all-ins together may still reopen the betting
        if let Some(acted) = self.acted[seat] {
            if self.full_level <= acted && (limit || level - acted < self.full_raise) {
                return false;
            }
        }
        if let (true, Some(cap)) = (limit, limits.cap) {
            if self.capped {
                return false;
            }
            let heads_up = limits.heads_up_uncapped && in_hand.iter().filter(|&&i| i).count() == 2;
            if self.bets_made >= cap && !heads_up {
                return false;
            }
        }
        true
    }

    /// The player matched the level (or went all-in trying), or checked.
    pub fn record_call_or_check(&mut self, seat: usize) {
        self.acted[seat] = Some(self.level);
    }

    /// The player's wager became `to` (more than the level): a bet or raise.
    pub fn record_raise(
        &mut self,
        limits: &Limits,
        seat: usize,
        to: Chips,
        all_in: bool,
        players_in_hand: usize,
    ) {
        let increment = to - self.level;
        let limit = limits.structure == Structure::FixedLimit;
        let full = !all_in
            || if limit {
                2 * increment >= self.bet_size
            } else {
                increment >= self.full_raise
            };
        if full {
            self.full_level = to;
            if !limit {
                self.full_raise = increment;
            }
            self.bets_made += 1;
            if let (true, Some(cap)) = (limit, limits.cap) {
                if self.bets_made >= cap && !(limits.heads_up_uncapped && players_in_hand == 2) {
                    self.capped = true;
                }
            }
        }
        self.level = to;
        self.acted[seat] = Some(to);
        self.last_aggressor = Some(seat);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seats<'a>(bets: &'a [Chips], stacks: &'a [Chips], in_hand: &'a [bool]) -> Seats<'a> {
        Seats {
            bets,
            stacks,
            in_hand,
        }
    }

    const NO_LIMIT: Limits = Limits {
        structure: Structure::NoLimit,
        cap: None,
        heads_up_uncapped: true,
    };

    #[test]
    fn an_opening_bet_ranges_from_the_minimum_to_all_in() {
        let round = Round::new(&NO_LIMIT, 3, 0, 100, 0, 0);
        let legal = round.legal(&NO_LIMIT, 0, seats(&[0; 3], &[1000; 3], &[true; 3]), 300);
        assert!(legal.can_check && !legal.can_fold && legal.is_bet);
        assert_eq!(
            (legal.min_raise_to, legal.max_raise_to),
            (Some(100), Some(1000))
        );
    }

    #[test]
    fn a_short_all_in_does_not_reopen_the_betting_th17() {
        let mut round = Round::new(&NO_LIMIT, 3, 0, 100, 0, 0);
        let mut bets = [0, 0, 0];
        bets[0] = 100;
        round.record_raise(&NO_LIMIT, 0, 100, false, 3);
        round.record_call_or_check(1);
        bets[1] = 100;
        bets[2] = 150; // all-in for 50 more: not a full raise
        round.record_raise(&NO_LIMIT, 2, 150, true, 3);
        let stacks = [900, 900, 0];
        let legal = round.legal(&NO_LIMIT, 0, seats(&bets, &stacks, &[true; 3]), 350);
        assert_eq!(legal.call_amount, 50);
        assert_eq!(legal.min_raise_to, None);
    }
}
