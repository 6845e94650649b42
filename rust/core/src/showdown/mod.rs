//! Equities of 2 to 10 players, each holding one hand or a weighted range of hands,
//! with a known board of 0, 3, 4 or 5 cards and dead cards: exact enumeration
//! ([`exact`]) and Monte Carlo with a standard error ([`sample`]).
//!
//! Texas Hold'em: a player's value is the best five of their two hole cards and the
//! board (EV-1). Double Hold'em: a hand is three hole cards with its point card first
//! (DH-2); the value is the better of Hand 1 and Hand 2 (DH-3, DH-4), so which partner
//! is dealt first does not matter here. Points are chosen by the caller (an index or
//! DH-6) before the hands reach this module.
//!
//! At a showdown the best value wins; a tie among k players gives each 1/k of the pot
//! (EV-1). Shares are counted in units of 1/[`UNIT`] so every k-way tie is a whole
//! number of units and the tallies are exact integers that add up in any order.

pub mod exact;
mod preflop;
pub mod sample;
mod suits;

use crate::cards::{check_cards, Card};
use crate::error::CoreError;
use crate::eval::{Hand, HandValue};

/// Ten players is the most a table seats (TH-1, DH-1).
pub const MAX_PLAYERS: usize = 10;

/// A share of the pot is counted in units of 1/2520 (the least common multiple of
/// 1..=10): a tie among k players gives each 2520 / k units, a whole number.
pub const UNIT: u64 = 2520;

/// `UNIT / k`, a share of a tie among k players (k from 1 to [`MAX_PLAYERS`]), looked
/// up: in the by-board loop over classes of deals a division costs more than the rest.
const SHARES: [u64; MAX_PLAYERS + 1] = {
    let mut shares = [0; MAX_PLAYERS + 1];
    let mut k = 1;
    while k <= MAX_PLAYERS {
        shares[k] = UNIT / k as u64;
        k += 1;
    }
    shares
};

/// The units of one share of a tie among `tied` players (1 to [`MAX_PLAYERS`]).
#[inline(always)]
pub(crate) fn share(tied: usize) -> u64 {
    SHARES[tied]
}

/// Texas Hold'em (two hole cards) or Double Hold'em (three, the point card first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Texas,
    Double,
}

impl Variant {
    /// Hole cards per player.
    pub fn hole_cards(self) -> usize {
        match self {
            Variant::Texas => 2,
            Variant::Double => 3,
        }
    }
}

/// One hand a player may hold, with its weight in the player's range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Combo {
    /// Texas: the two hole cards (the third is unused). Double: the point card, then
    /// its two partners.
    pub cards: [Card; 3],
    /// Relative weight (at least 1); a deal counts the product of its hands' weights.
    pub weight: u64,
    /// The cards as a bit set.
    pub mask: u64,
}

impl Combo {
    /// The hand's identity under relabelling: Texas, the two cards in order; Double,
    /// the point card and the two partners in order (Hand 1 and Hand 2 are symmetric
    /// in the value).
    fn key(&self, variant: Variant) -> u32 {
        let [a, b, c] = self.cards.map(u32::from);
        match variant {
            Variant::Texas => a.min(b) * 52 + a.max(b),
            Variant::Double => (a * 52 + b.min(c)) * 52 + b.max(c),
        }
    }

    /// The hands (one for Texas, Hand 1 and Hand 2 for Double) summed from
    /// [`Hand::EMPTY`] with `board`.
    fn bases(&self, variant: Variant, board: Hand) -> [Hand; 2] {
        let [a, b, c] = self.cards;
        match variant {
            Variant::Texas => {
                let hand = board.add_card(a).add_card(b);
                [hand, hand]
            }
            Variant::Double => {
                let with_point = board.add_card(a);
                [with_point.add_card(b), with_point.add_card(c)]
            }
        }
    }
}

/// The value of a player whose hands are `bases` once the cards of `extra` join them.
#[inline(always)]
pub(crate) fn value<const DOUBLE: bool>(bases: &[Hand; 2], extra: Hand) -> HandValue {
    let first = bases[0].plus(extra).value();
    if DOUBLE {
        first.max(bases[1].plus(extra).value())
    } else {
        first
    }
}

/// A checked question: the variant, each player's hands (none colliding with the board
/// or the dead cards, nor with a player's only hand), the board and the dead cards.
#[derive(Clone, Debug)]
pub struct Spec {
    pub variant: Variant,
    pub players: Vec<Vec<Combo>>,
    pub board: Vec<Card>,
    pub dead: Vec<Card>,
    /// Board and dead cards as a bit set.
    pub known: u64,
}

/// Text naming player `i` (0-based) for messages: "player 1" is the first.
fn player_name(i: usize) -> String {
    format!("player {}", i + 1)
}

impl Spec {
    /// Checks and builds a question. `players[i]` lists player i's hands as (cards,
    /// weight); each hand has [`Variant::hole_cards`] distinct cards. Hands that
    /// collide with the board, the dead cards or another player's only hand drop out;
    /// a player left with none is an error, as is a question with no possible deal.
    pub fn new(
        variant: Variant,
        players: &[Vec<(Vec<Card>, u64)>],
        board: &[Card],
        dead: &[Card],
    ) -> Result<Spec, CoreError> {
        if !(2..=MAX_PLAYERS).contains(&players.len()) {
            return Err(CoreError::invalid_hand(format!(
                "equity needs 2 to {MAX_PLAYERS} players, not {}",
                players.len()
            )));
        }
        if !matches!(board.len(), 0 | 3 | 4 | 5) {
            return Err(CoreError::invalid_hand(format!(
                "a board has 0, 3, 4 or 5 cards, not {}",
                board.len()
            )));
        }
        check_cards(&[board, dead].concat())?;
        let known = mask_of(board) | mask_of(dead);
        let k = variant.hole_cards();
        let mut ranges = Vec::with_capacity(players.len());
        for (i, hands) in players.iter().enumerate() {
            let mut combos = Vec::with_capacity(hands.len());
            for (cards, weight) in hands {
                if cards.len() != k {
                    return Err(CoreError::invalid_hand(format!(
                        "{}: a hand has {k} cards here, not {}",
                        player_name(i),
                        cards.len()
                    )));
                }
                check_cards(cards)?;
                if *weight == 0 {
                    return Err(CoreError::invalid_hand(format!(
                        "{}: a weight is at least 1",
                        player_name(i)
                    )));
                }
                let mut three = [0; 3];
                three[..k].copy_from_slice(cards);
                let combo = Combo {
                    cards: three,
                    weight: *weight,
                    mask: mask_of(cards),
                };
                if combo.mask & known == 0 {
                    combos.push(combo);
                }
            }
            if combos.is_empty() {
                return Err(CoreError::invalid_hand(format!(
                    "{}: no hand is left once the board and dead cards are taken out",
                    player_name(i)
                )));
            }
            ranges.push(combos);
        }
        let needed = 5 - board.len() + k * players.len();
        let left = 52 - known.count_ones() as usize;
        if needed > left {
            return Err(CoreError::invalid_hand(format!(
                "{} players and the rest of the board need {needed} cards, but only {left} \
                 are left in the deck",
                players.len()
            )));
        }
        remove_collisions_with_fixed_hands(&mut ranges)?;
        let spec = Spec {
            variant,
            players: ranges,
            board: board.to_vec(),
            dead: dead.to_vec(),
            known,
        };
        if !spec.has_deal() {
            return Err(CoreError::invalid_hand(
                "no deal is possible: every combination of the players' hands shares a card",
            ));
        }
        Ok(spec)
    }

    /// Whether some choice of one hand per player has no card twice.
    fn has_deal(&self) -> bool {
        fn search(players: &[Vec<Combo>], used: u64) -> bool {
            match players.split_first() {
                None => true,
                Some((first, rest)) => first
                    .iter()
                    .any(|c| c.mask & used == 0 && search(rest, used | c.mask)),
            }
        }
        search(&self.players, 0)
    }

    /// The board as a hand summed from [`Hand::EMPTY`].
    pub fn board_hand(&self) -> Hand {
        Hand::EMPTY.add_cards(&self.board)
    }

    /// Cards still to come on the board.
    pub fn missing(&self) -> usize {
        5 - self.board.len()
    }

    /// The cards neither on the board nor dead, in order.
    pub fn deck(&self) -> Vec<Card> {
        (0..52).filter(|&c| self.known >> c & 1 == 0).collect()
    }
}

fn mask_of(cards: &[Card]) -> u64 {
    cards.iter().fold(0, |m, &c| m | 1 << c)
}

/// A player with a single hand holds it for sure: other players' hands that share a
/// card with it are impossible. Repeats until nothing changes, since removing hands can
/// leave another player with one.
#[allow(clippy::needless_range_loop)] // reads player i's range while changing player j's
fn remove_collisions_with_fixed_hands(ranges: &mut [Vec<Combo>]) -> Result<(), CoreError> {
    loop {
        let mut changed = false;
        for i in 0..ranges.len() {
            if ranges[i].len() != 1 {
                continue;
            }
            let fixed = ranges[i][0];
            for j in 0..ranges.len() {
                if i == j {
                    continue;
                }
                let before = ranges[j].len();
                if before == 1 && ranges[j][0].mask & fixed.mask != 0 {
                    let card = (ranges[j][0].mask & fixed.mask).trailing_zeros() as u8;
                    return Err(CoreError::DuplicateCard { card });
                }
                ranges[j].retain(|c| c.mask & fixed.mask == 0);
                if ranges[j].is_empty() {
                    return Err(CoreError::invalid_hand(format!(
                        "{}: no hand is left once the cards of {}'s hand are taken out",
                        player_name(j),
                        player_name(i)
                    )));
                }
                changed |= ranges[j].len() != before;
            }
        }
        if !changed {
            return Ok(());
        }
    }
}

/// Integer tallies of showdowns; tallies of disjoint parts of the work add up, in any
/// order. Every count is weighted by the product of the hands' weights (times the size
/// of the suit class of the deal, see [`exact`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Showdowns counted, unweighted (each deal of hands and board once).
    pub showdowns: u64,
    /// Sum of the weights: the denominator of every fraction below.
    pub weight: u128,
    /// Per player: weight of the showdowns won alone.
    pub win: Vec<u128>,
    /// Per player: weight of the showdowns tied for the best value with others.
    pub tie: Vec<u128>,
    /// Per player: share of the pot, in units of 1/[`UNIT`] of a showdown's weight.
    pub units: Vec<u128>,
}

impl Tally {
    pub fn new(players: usize) -> Tally {
        Tally {
            showdowns: 0,
            weight: 0,
            win: vec![0; players],
            tie: vec![0; players],
            units: vec![0; players],
        }
    }

    /// Adds another part's tally.
    pub fn add(&mut self, other: &Tally) {
        self.showdowns += other.showdowns;
        self.weight += other.weight;
        for (a, b) in self.win.iter_mut().zip(&other.win) {
            *a += b;
        }
        for (a, b) in self.tie.iter_mut().zip(&other.tie) {
            *a += b;
        }
        for (a, b) in self.units.iter_mut().zip(&other.units) {
            *a += b;
        }
    }
}

/// Unweighted counts of the showdowns of one deal of hands, in fixed arrays.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Counts {
    pub showdowns: u64,
    pub win: [u64; MAX_PLAYERS],
    pub tie: [u64; MAX_PLAYERS],
    pub units: [u64; MAX_PLAYERS],
}

impl Counts {
    pub const ZERO: Counts = Counts {
        showdowns: 0,
        win: [0; MAX_PLAYERS],
        tie: [0; MAX_PLAYERS],
        units: [0; MAX_PLAYERS],
    };

    /// Counts one showdown of `values` `times` times.
    #[inline(always)]
    pub fn showdown(&mut self, values: &[HandValue], times: u64) {
        self.showdowns += times;
        let best = values.iter().copied().max().unwrap_or(0);
        let tied = values.iter().filter(|&&v| v == best).count();
        let share = UNIT / tied as u64 * times;
        for (i, &v) in values.iter().enumerate() {
            if v == best {
                self.units[i] += share;
                if tied == 1 {
                    self.win[i] += times;
                } else {
                    self.tie[i] += times;
                }
            }
        }
    }

    /// Counts one heads-up showdown `times` times.
    #[inline(always)]
    pub fn heads_up(&mut self, a: HandValue, b: HandValue, times: u64) {
        self.showdowns += times;
        if a > b {
            self.win[0] += times;
        } else if b > a {
            self.win[1] += times;
        } else {
            self.tie[0] += times;
            self.tie[1] += times;
        }
    }

    /// Into `tally`, with weight `weight`. Heads-up counts leave `units` to be
    /// derived here: a win is [`UNIT`] units, a tie half of it.
    /// `deals` is the number of deals of hands these counts stand for.
    pub fn add_to(&self, tally: &mut Tally, weight: u128, deals: u64, heads_up: bool) {
        tally.showdowns += self.showdowns * deals;
        tally.weight += weight * u128::from(self.showdowns);
        for i in 0..tally.win.len() {
            let units = if heads_up {
                self.win[i] * UNIT + self.tie[i] * (UNIT / 2)
            } else {
                self.units[i]
            };
            tally.win[i] += weight * u128::from(self.win[i]);
            tally.tie[i] += weight * u128::from(self.tie[i]);
            tally.units[i] += weight * u128::from(units);
        }
    }
}

/// A Texas Hold'em question for tests: each player's hands as text (weight 1 each) and
/// the board, nothing dead.
#[cfg(test)]
pub(crate) fn texas_spec(players: &[&[&str]], board: &str) -> Spec {
    use crate::cards::parse_cards;
    let players: Vec<Vec<(Vec<u8>, u64)>> = players
        .iter()
        .map(|hands| hands.iter().map(|h| (parse_cards(h).unwrap(), 1)).collect())
        .collect();
    Spec::new(Variant::Texas, &players, &parse_cards(board).unwrap(), &[]).unwrap()
}
