//! The settings of the casino game (RULES.md HU-1 to HU-11): which raises are allowed
//! when, when the dealer qualifies, and every pay table. Heads Up Hold'em is the
//! default; Ultimate Texas Hold'em is the same game with other settings (HU-11).

use crate::error::CoreError;
use crate::eval::HandValue;
use crate::hand::category;

/// Pay classes: the nine categories (0 = high card .. 8 = straight flush) and the
/// royal flush, which every table pays on its own.
pub const PAY_CLASSES: usize = 10;
/// The pay class of a royal flush.
pub const ROYAL: usize = 9;
/// The value of a royal flush (EV-1: the ace-high straight flush).
pub const ROYAL_VALUE: HandValue = 8 << 12 | 9;
/// The largest raise multiple a setting may allow.
pub const MAX_MULTIPLE: u32 = 8;

/// The pay class of a hand value: its category, or [`ROYAL`].
#[inline]
pub fn pay_class(value: HandValue) -> usize {
    if value == ROYAL_VALUE {
        ROYAL
    } else {
        category(value) as usize
    }
}

/// What one unit of a bet returns on top of itself: `to / per` (3:2 is `to = 3,
/// per = 2`); 0 is a push and -1 a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Payout {
    pub to: i32,
    pub per: u32,
}

impl Payout {
    pub const LOSE: Payout = Payout { to: -1, per: 1 };
    pub const PUSH: Payout = Payout { to: 0, per: 1 };

    /// A win of `to` for `per` (`to:per`).
    pub const fn pays(to: i32, per: u32) -> Payout {
        Payout { to, per }
    }

    /// The net result of a stake of `stake` (an integer amount): a fractional win is
    /// rounded down to the smallest unit, as casinos pay. Exact for every stake.
    pub fn on(self, stake: i64) -> i128 {
        (i128::from(stake) * i128::from(self.to)).div_euclid(i128::from(self.per))
    }

    /// The exact net result per unit of stake.
    pub fn as_f64(self) -> f64 {
        f64::from(self.to) / f64::from(self.per)
    }

    fn check(self, table: &str) -> Result<(), CoreError> {
        if self.per == 0 || self.to < -1 {
            return Err(CoreError::invalid_rules(format!(
                "{table}: {}:{} is not a payout (to >= -1, per >= 1)",
                self.to, self.per
            )));
        }
        Ok(())
    }
}

/// A pay table by pay class (index = category, [`ROYAL`] = royal flush).
pub type PayTable = [Payout; PAY_CLASSES];

const L: Payout = Payout::LOSE;
const P: Payout = Payout::PUSH;
const fn x(to: i32) -> Payout {
    Payout::pays(to, 1)
}

/// HU-7: the Odds bet on a win (and the Ultimate Texas Hold'em Blind bet).
pub const ODDS_TABLE: PayTable = [
    P,
    P,
    P,
    P,
    x(1),
    Payout::pays(3, 2),
    x(3),
    x(10),
    x(50),
    x(500),
];
/// HU-8: the Odds bet on a loss (bad beat).
pub const BAD_BEAT_TABLE: PayTable = [L, L, L, L, x(4), x(5), x(6), x(25), x(500), x(500)];
/// The Blind bet of Ultimate Texas Hold'em on a loss: no bad beat.
pub const NO_BAD_BEAT: PayTable = [L; PAY_CLASSES];
/// HU-9: Trips Plus.
pub const TRIPS_PLUS_TABLE: PayTable = [L, L, L, x(3), x(4), x(7), x(8), x(30), x(40), x(100)];
/// The Trips bet of Ultimate Texas Hold'em (the common table: 50, 40, 30, 8, 6, 5, 3).
pub const UTH_TRIPS_TABLE: PayTable = [L, L, L, x(3), x(5), x(6), x(8), x(30), x(40), x(50)];

/// HU-10: the Pocket Bonus pays on the player's two hole cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PocketBonusTable {
    pub aces: Payout,
    pub ace_face_suited: Payout,
    pub ace_face_offsuit: Payout,
    pub other_pair: Payout,
    pub other: Payout,
}

/// HU-10 defaults: 30, 20, 10, 4, lose.
pub const POCKET_BONUS_TABLE: PocketBonusTable = PocketBonusTable {
    aces: x(30),
    ace_face_suited: x(20),
    ace_face_offsuit: x(10),
    other_pair: x(4),
    other: L,
};

/// Everything that makes one casino hold'em game differ from another (HU-11).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Allowed Play multiples of the Ante before the flop (HU-2: 3; UTH: 4 or 3).
    pub preflop_raises: Vec<u32>,
    /// Allowed Play multiples on the flop after a check (HU-3: 2).
    pub flop_raises: Vec<u32>,
    /// Allowed Play multiples on the river after two checks; folding is the other
    /// option (HU-4: 1).
    pub river_raises: Vec<u32>,
    /// The dealer qualifies with this category or better (HU-5: 1 = a pair).
    pub qualifying_category: u8,
    /// The second bet (Odds; UTH: Blind) on a win (HU-7).
    pub odds_win: PayTable,
    /// The second bet on a loss (HU-8 bad beat; UTH: always loses).
    pub odds_loss: PayTable,
    /// The Trips Plus side bet (HU-9; UTH: Trips).
    pub trips: PayTable,
    /// The Pocket Bonus side bet (HU-10).
    pub pocket_bonus: PocketBonusTable,
}

impl Rules {
    /// Heads Up Hold'em with the RULES.md tables (HU-1 to HU-10).
    pub fn heads_up() -> Rules {
        Rules {
            preflop_raises: vec![3],
            flop_raises: vec![2],
            river_raises: vec![1],
            qualifying_category: 1,
            odds_win: ODDS_TABLE,
            odds_loss: BAD_BEAT_TABLE,
            trips: TRIPS_PLUS_TABLE,
            pocket_bonus: POCKET_BONUS_TABLE,
        }
    }

    /// Ultimate Texas Hold'em (HU-11): pre-flop 4x or 3x, the Blind pays the Odds
    /// table on a win and loses on a loss, Trips instead of Trips Plus.
    pub fn ultimate() -> Rules {
        Rules {
            preflop_raises: vec![4, 3],
            odds_loss: NO_BAD_BEAT,
            trips: UTH_TRIPS_TABLE,
            ..Rules::heads_up()
        }
    }

    /// Rejects settings the game cannot be played or analysed with.
    pub fn validate(&self) -> Result<(), CoreError> {
        for (street, raises) in [
            ("pre-flop", &self.preflop_raises),
            ("flop", &self.flop_raises),
            ("river", &self.river_raises),
        ] {
            if raises.is_empty() || raises.iter().any(|&m| m == 0 || m > MAX_MULTIPLE) {
                return Err(CoreError::invalid_rules(format!(
                    "{street} raises must be 1 to {MAX_MULTIPLE} times the Ante, got {raises:?}"
                )));
            }
        }
        if self.qualifying_category > 8 {
            return Err(CoreError::invalid_rules("the qualifying category is 0..8"));
        }
        let tables = [
            ("odds on a win", &self.odds_win),
            ("odds on a loss", &self.odds_loss),
            ("trips", &self.trips),
        ];
        for (name, table) in tables {
            table.iter().try_for_each(|p| p.check(name))?;
        }
        let b = &self.pocket_bonus;
        [
            b.aces,
            b.ace_face_suited,
            b.ace_face_offsuit,
            b.other_pair,
            b.other,
        ]
        .iter()
        .try_for_each(|p| p.check("pocket bonus"))
    }

    /// The least common denominator of the Ante/Odds/Play payouts: the analysis
    /// counts money in units of `1 / denominator` Ante so that every sum is exact.
    pub fn main_denominator(&self) -> i64 {
        self.odds_win
            .iter()
            .chain(&self.odds_loss)
            .fold(1, |d, p| lcm(d, i64::from(p.per)))
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::heads_up()
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn lcm(a: i64, b: i64) -> i64 {
    a / gcd(a, b) * b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_ultimate_differs_only_where_hu11_says() {
        let (hu, uth) = (Rules::heads_up(), Rules::ultimate());
        hu.validate().unwrap();
        uth.validate().unwrap();
        assert_eq!(hu.odds_win, uth.odds_win);
        assert_ne!(hu.odds_loss, uth.odds_loss);
        assert_eq!(uth.preflop_raises, vec![4, 3]);
        assert_eq!(hu.main_denominator(), 2);
    }

    #[test]
    fn payouts_round_down() {
        assert_eq!(Payout::pays(3, 2).on(5), 7);
        assert_eq!(Payout::LOSE.on(5), -5);
        assert_eq!(Payout::PUSH.on(5), 0);
    }

    #[test]
    fn bad_settings_are_rejected() {
        let mut r = Rules::heads_up();
        r.preflop_raises.clear();
        assert!(r.validate().is_err());
        let mut r = Rules::heads_up();
        r.odds_win[4] = Payout::pays(1, 0);
        assert!(r.validate().is_err());
        let mut r = Rules::heads_up();
        r.river_raises = vec![9];
        assert!(r.validate().is_err());
    }

    #[test]
    fn royal_flush_is_its_own_pay_class() {
        assert_eq!(pay_class(ROYAL_VALUE), ROYAL);
        assert_eq!(pay_class(8 << 12 | 8), 8);
        assert_eq!(pay_class(1 << 12), 1);
    }
}
