//! Monte Carlo share of the pot against random hands, for the equity bot: over
//! `samples` random deals of the unknown cards (the opponents' hole cards and the rest
//! of the board), a win counts 1 and a tie with k others 1/(k+1).
//!
//! Texas Hold'em (two hole cards): every player's value is the best five of seven
//! (EV-1). Double Hold'em (three hole cards, DH-3, DH-4): with a point card given, the
//! player's value is the better of Hand 1 and Hand 2 for that point; without one it is
//! the best over the three points, which is the best of the three two-card Hold'em
//! hands of the hole (each pair shares a point card with one of the others). Opponents
//! always get their best point.
//!
//! Each deal draws only the cards it needs, by a partial Fisher-Yates shuffle of the
//! remaining deck, from the generator of the seeded shuffle ([`SplitMix64`]): the
//! estimate is reproducible from the seed.

use crate::cards::{check_cards, Card, SplitMix64};
use crate::double::partners;
use crate::error::CoreError;
use crate::eval::{Hand, HandValue};

/// At most nine opponents: ten players is the most a table seats (TH-1, DH-1).
pub const MAX_OPPONENTS: usize = 9;

/// A share is counted in units of 1/2520 (the least common multiple of 1..=10), so a
/// tie among up to ten players adds a whole number of units and the sum is exact.
const UNIT: u64 = 2520;

/// How the player's value is made from their hole cards and a board.
#[derive(Clone, Copy, Debug)]
enum Player {
    /// Texas Hold'em: both hole cards with the board.
    Texas([Card; 2]),
    /// Double Hold'em with this point card: the better of Hand 1 and Hand 2 (DH-3, DH-4).
    Point([Card; 3], usize),
    /// Double Hold'em, best point: the best of the three two-card hands.
    Best([Card; 3]),
}

impl Player {
    #[inline(always)]
    fn value(self, board: Hand) -> HandValue {
        match self {
            Player::Texas([a, b]) => board.add_card(a).add_card(b).value(),
            Player::Point(hole, point) => {
                let (a, b) = partners(point);
                let with_point = board.add_card(hole[point]);
                let hand1 = with_point.add_card(hole[a]).value();
                hand1.max(with_point.add_card(hole[b]).value())
            }
            Player::Best(hole) => best_of_three(board, &hole),
        }
    }
}

/// The best of the three two-card Hold'em hands of three hole cards: the value of the
/// best point card (DH-3, DH-4).
#[inline(always)]
fn best_of_three(board: Hand, hole: &[Card]) -> HandValue {
    let first = board.add_card(hole[0]);
    let second = board.add_card(hole[1]);
    let v01 = first.add_card(hole[1]).value();
    let v02 = first.add_card(hole[2]).value();
    let v12 = second.add_card(hole[2]).value();
    v01.max(v02).max(v12)
}

/// The estimated share of the pot of the player with `hole` (2 cards: Texas Hold'em, 3:
/// Double Hold'em) and the known `board` (0, 3, 4 or 5 cards) against `opponents`
/// random hands (1..=9), over `samples` random deals reproducible from `seed`. `point`
/// (Double Hold'em only, 0..=2) fixes the player's point card; `None` takes the best.
pub fn equity(
    hole: &[Card],
    board: &[Card],
    opponents: usize,
    samples: u32,
    point: Option<usize>,
    seed: u64,
) -> Result<f64, CoreError> {
    Ok(equities(hole, board, opponents, samples, &[point], seed)?[0])
}

/// [`equity`] for each of `points`, on the same deals (common random numbers: the
/// shares compare the point cards, not the luck of their samples). The share for
/// `points[i]` equals `equity(.., points[i], seed)`.
pub fn equities(
    hole: &[Card],
    board: &[Card],
    opponents: usize,
    samples: u32,
    points: &[Option<usize>],
    seed: u64,
) -> Result<Vec<f64>, CoreError> {
    let players = points
        .iter()
        .map(|&point| check(hole, board, opponents, samples, point))
        .collect::<Result<Vec<Player>, CoreError>>()?;
    let known_board = Hand::EMPTY.add_cards(board);
    let known = hole
        .iter()
        .chain(board)
        .fold(0u64, |seen, &c| seen | 1 << c);
    let mut deck = [0 as Card; 52];
    let mut left = 0;
    for card in (0..52).filter(|&c| known >> c & 1 == 0) {
        deck[left] = card;
        left += 1;
    }
    let missing = 5 - board.len();
    let need = missing + opponents * hole.len();
    let mut rng = SplitMix64::new(seed);
    let mut units = vec![0u64; players.len()];
    let mut theirs = [0 as HandValue; MAX_OPPONENTS];
    for _ in 0..samples {
        for i in 0..need {
            let j = i + rng.below((left - i) as u64) as usize;
            deck.swap(i, j);
        }
        let (rest_of_board, others) = deck[..need].split_at(missing);
        let full_board = known_board.add_cards(rest_of_board);
        if let [player] = players[..] {
            units[0] += share_units(player.value(full_board), full_board, others, hole.len());
            continue;
        }
        for (value, hand) in theirs.iter_mut().zip(others.chunks_exact(hole.len())) {
            *value = opponent_value(full_board, hand);
        }
        let theirs = &theirs[..opponents];
        for (player, units) in players.iter().zip(&mut units) {
            let mine = player.value(full_board);
            if theirs.iter().all(|&v| v <= mine) {
                *units += UNIT / (theirs.iter().filter(|&&v| v == mine).count() as u64 + 1);
            }
        }
    }
    let total = f64::from(samples) * UNIT as f64;
    Ok(units.into_iter().map(|u| u as f64 / total).collect())
}

/// An opponent's value: the best seven cards, or in Double Hold'em the best point.
#[inline(always)]
fn opponent_value(board: Hand, hand: &[Card]) -> HandValue {
    if hand.len() == 2 {
        board.add_card(hand[0]).add_card(hand[1]).value()
    } else {
        best_of_three(board, hand)
    }
}

/// The player's share of one deal in units of 1/[`UNIT`]: 0 if an opponent is better,
/// else one share of those tied.
#[inline(always)]
fn share_units(mine: HandValue, board: Hand, others: &[Card], k: usize) -> u64 {
    let mut tied = 0;
    for hand in others.chunks_exact(k) {
        let theirs = opponent_value(board, hand);
        if theirs > mine {
            return 0;
        }
        tied += u64::from(theirs == mine);
    }
    UNIT / (tied + 1)
}

/// Checks the input; the player's way of making a value.
fn check(
    hole: &[Card],
    board: &[Card],
    opponents: usize,
    samples: u32,
    point: Option<usize>,
) -> Result<Player, CoreError> {
    if !(2..=3).contains(&hole.len()) {
        return Err(CoreError::invalid_hand(format!(
            "hole has 2 cards (Texas Hold'em) or 3 (Double Hold'em), not {}",
            hole.len()
        )));
    }
    if !matches!(board.len(), 0 | 3 | 4 | 5) {
        return Err(CoreError::invalid_hand(format!(
            "board has 0, 3, 4 or 5 cards, not {}",
            board.len()
        )));
    }
    check_cards(&[hole, board].concat())?;
    let player = match (hole, point) {
        (&[a, b], None) => Player::Texas([a, b]),
        (&[_, _], Some(point)) => {
            return Err(CoreError::invalid_hand(format!(
                "point {point} given with 2 hole cards: a point card is for Double \
                 Hold'em (3 hole cards) only; Texas Hold'em takes no point"
            )))
        }
        (&[a, b, c], None) => Player::Best([a, b, c]),
        (&[a, b, c], Some(point @ 0..=2)) => Player::Point([a, b, c], point),
        (_, Some(point)) => {
            return Err(CoreError::invalid_hand(format!(
                "point {point} is not an index into the three hole cards (0, 1 or 2)"
            )))
        }
        _ => unreachable!("the hole has 2 or 3 cards"),
    };
    if !(1..=MAX_OPPONENTS).contains(&opponents) {
        return Err(CoreError::invalid_hand(format!(
            "opponents must be 1 to {MAX_OPPONENTS}, not {opponents}"
        )));
    }
    let need = 5 - board.len() + opponents * hole.len();
    let left = 52 - hole.len() - board.len();
    if need > left {
        return Err(CoreError::invalid_hand(format!(
            "{opponents} opponents and the rest of the board need {need} cards, \
             but only {left} are left in the deck"
        )));
    }
    if samples == 0 {
        return Err(CoreError::invalid_hand("samples must be at least 1"));
    }
    Ok(player)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{parse_cards, shuffle};
    use crate::eval::evaluate;

    fn cards(text: &str) -> Vec<Card> {
        parse_cards(text).unwrap()
    }

    fn invalid_hand(result: Result<f64, CoreError>) -> String {
        match result {
            Err(CoreError::InvalidHand { reason }) => reason,
            other => panic!("expected InvalidHand, got {other:?}"),
        }
    }

    #[test]
    fn equities_on_shared_deals_equal_each_equity() {
        let hole = parse_cards("Ah Kd 7c").unwrap();
        let board = parse_cards("Ks 8h 2c").unwrap();
        let points = [Some(0), Some(1), Some(2), None];
        let shares = equities(&hole, &board, 3, 2_000, &points, 11).unwrap();
        for (point, share) in points.into_iter().zip(shares) {
            assert_eq!(equity(&hole, &board, 3, 2_000, point, 11).unwrap(), share);
        }
    }

    #[test]
    fn royal_flush_on_the_board_splits_among_everyone() {
        // EV-1: nobody can beat the board, so every deal is an (opponents + 1)-way tie.
        let board = cards("As Ks Qs Js Ts");
        for opponents in 1..=MAX_OPPONENTS {
            let expected = 1.0 / (opponents as f64 + 1.0);
            let texas = equity(&cards("2c 3d"), &board, opponents, 50, None, 1).unwrap();
            assert_eq!(texas, expected);
            for point in [None, Some(0), Some(2)] {
                let double = equity(&cards("2c 3d 4h"), &board, opponents, 50, point, 2);
                assert_eq!(double.unwrap(), expected);
            }
        }
    }

    #[test]
    fn the_nuts_on_the_river_win_everything() {
        let board = cards("Qs Js Ts 2c 3d");
        assert_eq!(equity(&cards("As Ks"), &board, 9, 500, None, 3), Ok(1.0));
        // DH-3, DH-4: point As makes Hand 1 = As Ks, the royal flush.
        let hole = cards("As Ks 2h");
        assert_eq!(equity(&hole, &board, 9, 500, Some(0), 4), Ok(1.0));
        assert_eq!(equity(&hole, &board, 9, 500, None, 4), Ok(1.0));
        // Point 2h pairs the deuce with the ace, then with the king: never the royal.
        let weak = equity(&hole, &board, 3, 2000, Some(2), 4).unwrap();
        assert!(weak < 0.9, "{weak}");
    }

    #[test]
    fn aces_against_one_random_hand() {
        // AA wins about 85.2% against a random hand preflop; the standard error of
        // 20,000 samples is about 0.0025.
        let share = equity(&cards("Ac Ad"), &[], 1, 20_000, None, 5).unwrap();
        assert!((share - 0.852).abs() < 0.012, "{share}");
    }

    #[test]
    fn matches_exact_enumeration_on_the_river() {
        // Texas, one opponent: every opponent hand of the 45 unseen cards, EV-1.
        let hole = cards("Kh Qh");
        let board = cards("Ks 7h 2d 9c Ah");
        let mine = evaluate(&[&hole[..], &board[..]].concat()).unwrap();
        let unseen: Vec<Card> = (0..52)
            .filter(|c| !hole.contains(c) && !board.contains(c))
            .collect();
        let (mut total, mut count) = (0.0, 0.0);
        for (i, &a) in unseen.iter().enumerate() {
            for &b in &unseen[i + 1..] {
                let theirs = evaluate(&[&board[..], &[a, b]].concat()).unwrap();
                total += match mine.cmp(&theirs) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                };
                count += 1.0;
            }
        }
        let exact = total / count;
        let samples = 100_000;
        let share = equity(&hole, &board, 1, samples, None, 6).unwrap();
        let error = (exact * (1.0 - exact) / f64::from(samples)).sqrt();
        assert!(
            (share - exact).abs() < 4.0 * error + 1e-9,
            "{share} vs {exact}"
        );
    }

    #[test]
    fn best_of_three_pairs_is_the_best_point() {
        // DH-3, DH-4: the best over the three point cards of the better of Hand 1 and
        // Hand 2 is the best of the three two-card hands.
        let mut deck: Vec<Card> = (0..52).collect();
        for seed in 0..2000 {
            shuffle(&mut deck, seed);
            let hole: [Card; 3] = deck[..3].try_into().unwrap();
            let board: [Card; 5] = deck[3..8].try_into().unwrap();
            let by_point = crate::double::point_values(&hole, &board).unwrap();
            let best = best_of_three(Hand::EMPTY.add_cards(&board), &hole);
            assert_eq!(best, *by_point.iter().max().unwrap());
        }
    }

    #[test]
    fn equal_seeds_give_equal_estimates() {
        let (hole, board) = (cards("Ah Kd 7c"), cards("Qs 7d 2c"));
        let a = equity(&hole, &board, 4, 300, None, 42).unwrap();
        assert_eq!(equity(&hole, &board, 4, 300, None, 42).unwrap(), a);
        let others: Vec<f64> = (43..48)
            .map(|seed| equity(&hole, &board, 4, 300, None, seed).unwrap())
            .collect();
        assert!(others.iter().any(|&b| b != a));
    }

    #[test]
    fn the_best_point_is_at_least_any_fixed_point() {
        // On the same deals (same seed), the best of the three two-card hands is never
        // worse than any single point card's value, so its share is never smaller.
        let (hole, board) = (cards("9h 9d 4c"), cards("Ts 8s 2h 5d"));
        let best = equity(&hole, &board, 2, 2000, None, 9).unwrap();
        for point in 0..3 {
            assert!(best >= equity(&hole, &board, 2, 2000, Some(point), 9).unwrap());
        }
    }

    #[test]
    fn rejects_bad_input() {
        let hole = cards("As Kd");
        let board = cards("2c 3c 4c");
        assert_eq!(
            equity(&[51, 60], &board, 1, 10, None, 0),
            Err(CoreError::InvalidCard { card: 60 })
        );
        assert_eq!(
            equity(&hole, &[51, 2, 3], 1, 10, None, 0),
            Err(CoreError::DuplicateCard { card: 51 })
        );
        assert!(invalid_hand(equity(&[51], &board, 1, 10, None, 0)).contains("not 1"));
        assert!(
            invalid_hand(equity(&cards("As Kd Qh Jc"), &board, 1, 10, None, 0)).contains("not 4")
        );
        assert!(invalid_hand(equity(&hole, &board[..2], 1, 10, None, 0)).contains("board"));
        assert!(invalid_hand(equity(&hole, &board, 1, 10, Some(0), 0)).contains("point 0"));
        let hole3 = cards("As Kd Qh");
        assert!(invalid_hand(equity(&hole3, &board, 1, 10, Some(3), 0)).contains("point 3"));
        assert!(invalid_hand(equity(&hole3, &board, 0, 10, None, 0)).contains("opponents"));
        assert!(invalid_hand(equity(&hole3, &board, 10, 10, None, 0)).contains("not 10"));
        assert!(invalid_hand(equity(&hole3, &board, 1, 0, None, 0)).contains("samples"));
        // Nine Double Hold'em opponents need 2 + 27 of the 46 unseen cards: allowed.
        assert!(equity(&hole3, &board, 9, 10, None, 0).is_ok());
    }
}
