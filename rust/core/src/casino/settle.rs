//! Settlement of one round (RULES.md HU-6 to HU-10): the Ante, the Odds (Blind) and
//! the Play bets against the dealer, and the two side bets on the player's cards alone.

use super::rules::{pay_class, Payout, Rules};
use crate::cards::{check_cards, rank, suit, Card};
use crate::error::CoreError;
use crate::eval::{Hand, HandValue};

/// How a showdown ends for the player (HU-5, HU-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Showdown {
    WinQualified = 0,
    WinUnqualified = 1,
    Tie = 2,
    LoseQualified = 3,
    LoseUnqualified = 4,
}

/// Number of [`Showdown`] outcomes.
pub const SHOWDOWNS: usize = 5;

impl Showdown {
    pub const ALL: [Showdown; SHOWDOWNS] = [
        Showdown::WinQualified,
        Showdown::WinUnqualified,
        Showdown::Tie,
        Showdown::LoseQualified,
        Showdown::LoseUnqualified,
    ];

    /// The outcome of the player's value against the dealer's (HU-5).
    pub fn of(rules: &Rules, player: HandValue, dealer: HandValue) -> Showdown {
        let qualified = dealer >> 12 >= HandValue::from(rules.qualifying_category);
        match (player.cmp(&dealer), qualified) {
            (std::cmp::Ordering::Greater, true) => Showdown::WinQualified,
            (std::cmp::Ordering::Greater, false) => Showdown::WinUnqualified,
            (std::cmp::Ordering::Equal, _) => Showdown::Tie,
            (std::cmp::Ordering::Less, true) => Showdown::LoseQualified,
            (std::cmp::Ordering::Less, false) => Showdown::LoseUnqualified,
        }
    }

    /// +1 for a win, 0 for a tie, -1 for a loss: what the Play bet does (HU-6).
    pub fn sign(self) -> i64 {
        match self {
            Showdown::WinQualified | Showdown::WinUnqualified => 1,
            Showdown::Tie => 0,
            _ => -1,
        }
    }

    /// What the Ante does: wins or loses only against a qualified dealer (HU-6).
    pub fn ante_sign(self) -> i64 {
        match self {
            Showdown::WinQualified => 1,
            Showdown::LoseQualified => -1,
            _ => 0,
        }
    }

    /// The Odds payout for a player hand of pay class `class` (HU-7, HU-8).
    pub fn odds_payout(self, rules: &Rules, class: usize) -> Payout {
        match self.sign() {
            1 => rules.odds_win[class],
            0 => Payout::PUSH,
            _ => rules.odds_loss[class],
        }
    }
}

/// The net result of Ante + Odds + Play per unit of Ante, in units of `1/den` Ante
/// (`den` a multiple of every Odds denominator, [`Rules::main_denominator`]): exact.
pub fn showdown_units(
    rules: &Rules,
    den: i64,
    multiple: u32,
    class: usize,
    showdown: Showdown,
) -> i64 {
    let odds = showdown.odds_payout(rules, class);
    let odds_units = den * i64::from(odds.to) / i64::from(odds.per);
    den * (showdown.ante_sign() + showdown.sign() * i64::from(multiple)) + odds_units
}

/// The net result of Ante + Odds after a fold, in units of `1/den` Ante (HU-4).
pub fn fold_units(den: i64) -> i64 {
    -2 * den
}

/// What the player put on the table. The Odds bet always equals the Ante (HU-1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wagers {
    pub ante: i64,
    pub trips: i64,
    pub pocket_bonus: i64,
}

/// Net result of each bet (positive: won, negative: lost), in money units. Exact for
/// every wager an `i64` holds: a stake below 2**63 times a payout `to` below 2**31 or
/// a Play multiple below 2**32 stays far below 2**127.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settlement {
    pub ante: i128,
    pub odds: i128,
    pub play: i128,
    pub trips: i128,
    pub pocket_bonus: i128,
}

impl Settlement {
    /// The player's net result of the round.
    pub fn total(&self) -> i128 {
        self.ante + self.odds + self.play + self.trips + self.pocket_bonus
    }
}

/// The Pocket Bonus payout of two hole cards (HU-10).
pub fn pocket_bonus_payout(rules: &Rules, hole: [Card; 2]) -> Payout {
    let table = &rules.pocket_bonus;
    let (high, low) = (
        rank(hole[0]).max(rank(hole[1])),
        rank(hole[0]).min(rank(hole[1])),
    );
    const ACE: u8 = 12;
    match (high, low) {
        (ACE, ACE) => table.aces,
        (ACE, 9..=11) if suit(hole[0]) == suit(hole[1]) => table.ace_face_suited,
        (ACE, 9..=11) => table.ace_face_offsuit,
        _ if high == low => table.other_pair,
        _ => table.other,
    }
}

/// The Trips Plus payout of the player's best five of seven (HU-9).
pub fn trips_payout(rules: &Rules, player: HandValue) -> Payout {
    rules.trips[pay_class(player)]
}

/// Settles a round: `play` is the Play multiple of the Ante, or `None` after a fold
/// (HU-4: Ante and Odds lose, the side bets are still settled on the full board).
pub fn settle(
    rules: &Rules,
    wagers: Wagers,
    play: Option<u32>,
    player: [Card; 2],
    board: [Card; 5],
    dealer: [Card; 2],
) -> Result<Settlement, CoreError> {
    check_cards(&[&player[..], &board, &dealer].concat())?;
    if wagers.ante < 0 || wagers.trips < 0 || wagers.pocket_bonus < 0 {
        return Err(CoreError::invalid_rules("wagers cannot be negative"));
    }
    let board_hand = Hand::EMPTY.add_cards(&board);
    let player_value = board_hand.add_cards(&player).value();
    let side = |stake: i64, payout: Payout| payout.on(stake);
    let ante = i128::from(wagers.ante);
    let mut result = Settlement {
        trips: side(wagers.trips, trips_payout(rules, player_value)),
        pocket_bonus: side(wagers.pocket_bonus, pocket_bonus_payout(rules, player)),
        ..Settlement::default()
    };
    let Some(multiple) = play else {
        result.ante = -ante;
        result.odds = -ante;
        return Ok(result);
    };
    let dealer_value = board_hand.add_cards(&dealer).value();
    let showdown = Showdown::of(rules, player_value, dealer_value);
    result.ante = i128::from(showdown.ante_sign()) * ante;
    result.odds = side(
        wagers.ante,
        showdown.odds_payout(rules, pay_class(player_value)),
    );
    result.play = i128::from(showdown.sign()) * ante * i128::from(multiple);
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::casino::rules::ROYAL;

    fn cards(text: &str) -> Vec<Card> {
        crate::cards::parse_cards(text).unwrap()
    }

    fn two(text: &str) -> [Card; 2] {
        cards(text).try_into().unwrap()
    }

    fn five(text: &str) -> [Card; 5] {
        cards(text).try_into().unwrap()
    }

    const WAGERS: Wagers = Wagers {
        ante: 10,
        trips: 0,
        pocket_bonus: 0,
    };

    fn hu(player: &str, board: &str, dealer: &str, play: Option<u32>) -> Settlement {
        let rules = Rules::heads_up();
        settle(&rules, WAGERS, play, two(player), five(board), two(dealer)).unwrap()
    }

    fn abc(s: Settlement) -> (i128, i128, i128) {
        (s.ante, s.odds, s.play)
    }

    /// HU-6 row 1: player wins, dealer qualifies (a straight pays 1:1 on the Odds).
    #[test]
    fn win_against_qualified_dealer() {
        let s = hu("9c Th", "Jd Qs Kc 2h 2d", "Ac 3c", Some(3));
        assert_eq!(abc(s), (10, 10, 30));
        let s = hu("Ac Ah", "Jd Qs Kc 2h 2d", "5c 3c", Some(1));
        assert_eq!(abc(s), (10, 0, 10), "two pair: the Odds pushes");
    }

    /// HU-6 row 2: player wins, dealer does not qualify: the Ante pushes.
    #[test]
    fn win_against_unqualified_dealer() {
        let s = hu("Ac 9h", "Jd Qs Kc 2h 4d", "5c 3s", Some(2));
        assert_eq!(abc(s), (0, 0, 20));
    }

    /// HU-6 row 3: a tie pushes everything.
    #[test]
    fn tie_pushes() {
        let s = hu("2c 3h", "As Ks Qs Js Ts", "4d 5d", Some(3));
        assert_eq!(abc(s), (0, 0, 0));
    }

    /// HU-6 row 4: the dealer beats the player's straight or better: bad beat (HU-8).
    #[test]
    fn bad_beat() {
        let s = hu("9c Th", "Jd Qs Kc 2h 2d", "2c 2s", Some(3));
        assert_eq!(abc(s), (-10, 40, -30));
    }

    /// HU-6 row 5: the dealer wins otherwise; the Ante pushes if the dealer did not
    /// qualify (a higher high card).
    #[test]
    fn plain_losses() {
        let s = hu("9c 8h", "Jd Qs Kc 2h 2d", "Ac 3c", Some(1));
        assert_eq!(abc(s), (-10, -10, -10));
        let s = hu("9c 8h", "Jd Qs Kc 2h 4d", "Ac 3c", Some(1));
        assert_eq!(abc(s), (0, -10, -10));
    }

    /// HU-6 row 6 and HU-4: a fold loses Ante and Odds; side bets still settle.
    #[test]
    fn fold_keeps_side_bets_in_action() {
        let rules = Rules::heads_up();
        let wagers = Wagers {
            ante: 10,
            trips: 5,
            pocket_bonus: 5,
        };
        let s = settle(
            &rules,
            wagers,
            None,
            two("Ac Ah"),
            five("Ad 2c 7h 9s Js"),
            two("Kc Kd"),
        )
        .unwrap();
        assert_eq!(
            (s.ante, s.odds, s.play, s.trips, s.pocket_bonus),
            (-10, -10, 0, 15, 150)
        );
        assert_eq!(s.total(), 145);
    }

    /// HU-7 and HU-8, every line: a winning (or losing) hand of each class.
    #[test]
    fn every_odds_and_bad_beat_line() {
        let rules = Rules::heads_up();
        let wins = [0, 0, 0, 0, 10, 15, 30, 100, 500, 5000];
        let losses = [-10, -10, -10, -10, 40, 50, 60, 250, 5000, 5000];
        for class in 0..10 {
            for (showdown, want) in [
                (Showdown::WinQualified, wins[class]),
                (Showdown::LoseQualified, losses[class]),
                (Showdown::Tie, 0),
            ] {
                let got = showdown.odds_payout(&rules, class).on(10);
                assert_eq!(got, want, "class {class} {showdown:?}");
            }
        }
        assert_eq!(ROYAL, 9);
    }

    /// HU-9, every line, on real seven-card hands.
    #[test]
    fn every_trips_plus_line() {
        let rules = Rules::heads_up();
        let hands = [
            ("As Ks", "Qs Js Ts 2c 3d", 100),
            ("9s Ks", "Qs Js Ts 2c 3d", 40),
            ("9s 9d", "9c 9h Ts 2c 3d", 30),
            ("9s 9d", "9c Th Ts 2c 3d", 8),
            ("9s 2s", "Ks Jh Ts 4s 3d", 7),
            ("9s 8d", "7c 6h Ts 2c 3d", 4),
            ("9s 9d", "9c Jh Ts 2c 3d", 3),
            ("9s 9d", "Jc Jh Ts 2c 3d", -1),
            ("9s 9d", "Kc Jh Ts 2c 3d", -1),
            ("9s 8d", "Kc Jh 4s 2c 3d", -1),
        ];
        for (player, board, want) in hands {
            let value = Hand::EMPTY
                .add_cards(&cards(&format!("{player} {board}")))
                .value();
            assert_eq!(trips_payout(&rules, value).on(1), want, "{player} {board}");
        }
    }

    /// HU-10, every line.
    #[test]
    fn every_pocket_bonus_line() {
        let rules = Rules::heads_up();
        for (hole, want) in [
            ("Ac As", 30),
            ("Ah Kh", 20),
            ("Jd Ad", 20),
            ("Ah Qs", 10),
            ("Jc Ad", 10),
            ("2c 2d", 4),
            ("Kc Kd", 4),
            ("Ah Th", -1),
            ("Kh Qh", -1),
        ] {
            assert_eq!(pocket_bonus_payout(&rules, two(hole)).on(1), want, "{hole}");
        }
    }

    /// Units used by the analysis agree with money settlement.
    #[test]
    fn units_agree_with_settlement() {
        let rules = Rules::heads_up();
        let den = rules.main_denominator();
        let s = hu("9c 2c", "Jc Qc Kd 2h 5c", "Ks 3d", Some(2));
        let units = showdown_units(&rules, den, 2, 5, Showdown::WinQualified);
        assert_eq!(
            i128::from(units * 10),
            (s.ante + s.odds + s.play) * i128::from(den)
        );
    }

    /// Wagers near 2**63 settle exactly, with the right sign (issue 12).
    #[test]
    fn huge_wagers_settle_exactly() {
        let rules = Rules::heads_up();
        let wagers = Wagers {
            ante: 1 << 62,
            trips: i64::MAX,
            pocket_bonus: 1 << 59,
        };
        let s = settle(
            &rules,
            wagers,
            Some(3),
            two("As Ad"),
            five("Ah 7c 2d 9s Jh"),
            two("Kc Kd"),
        )
        .unwrap();
        let ante = 1i128 << 62;
        assert_eq!((s.ante, s.odds, s.play), (ante, 0, 3 * ante));
        assert_eq!(s.trips, 3 * i128::from(i64::MAX));
        assert_eq!(s.pocket_bonus, 30 << 59);
    }

    #[test]
    fn rejects_negative_wagers_and_duplicates() {
        let rules = Rules::heads_up();
        let bad = Wagers { ante: -1, ..WAGERS };
        let deal = (two("Ac Ah"), five("Ad 2c 7h 9s Js"), two("Kc Kd"));
        assert!(settle(&rules, bad, Some(1), deal.0, deal.1, deal.2).is_err());
        let dup = two("Ad Kd");
        assert!(settle(&rules, WAGERS, Some(1), dup, deal.1, deal.2).is_err());
    }
}
