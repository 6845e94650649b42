//! What a hand value means: its category, its words, and the five cards that make it.

use crate::cards::{check_cards, rank, suit, Card};
use crate::error::CoreError;
use crate::eval::{evaluate, HandValue, CATEGORY_STARTS, TIEBREAKS};

/// Category names, index = category (RULES.md EV-1).
pub const CATEGORY_NAMES: [&str; 9] = [
    "High Card",
    "Pair",
    "Two Pair",
    "Three of a Kind",
    "Straight",
    "Flush",
    "Full House",
    "Four of a Kind",
    "Straight Flush",
];

/// How many ranks each category's tiebreak lists.
const TIEBREAK_LEN: [usize; 9] = [5, 4, 3, 3, 1, 5, 2, 2, 1];

const RANK_WORDS: [&str; 13] = [
    "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen",
    "King", "Ace",
];

fn plural(rank: u8) -> String {
    match rank {
        4 => "Sixes".into(),
        r => format!("{}s", RANK_WORDS[r as usize]),
    }
}

/// The category of a value (0 = high card .. 8 = straight flush).
#[inline]
pub fn category(value: HandValue) -> u8 {
    (value >> 12) as u8
}

/// The deciding ranks of a value, most significant first; an error if the evaluator
/// never produces `value`.
pub fn deciding_ranks(value: HandValue) -> Result<Vec<u8>, CoreError> {
    let (cat, index) = (category(value) as usize, value & 0xfff);
    if cat > 8 || index >= CATEGORY_STARTS[cat + 1] - CATEGORY_STARTS[cat] {
        return Err(CoreError::InvalidValue {
            value: value.into(),
        });
    }
    let tiebreak = TIEBREAKS[(CATEGORY_STARTS[cat] + index) as usize];
    let n = TIEBREAK_LEN[cat];
    Ok((0..n)
        .rev()
        .map(|i| (tiebreak >> (4 * i) & 0xf) as u8)
        .collect())
}

/// The value in words: "Full House, Kings full of Sevens".
pub fn describe(value: HandValue) -> Result<String, CoreError> {
    let r = deciding_ranks(value)?;
    let word = |i: usize| RANK_WORDS[r[i] as usize];
    let list = |from: usize| {
        r[from..]
            .iter()
            .map(|&x| RANK_WORDS[x as usize])
            .collect::<Vec<_>>()
    };
    let name = CATEGORY_NAMES[category(value) as usize];
    Ok(match category(value) {
        8 if r[0] == 12 => "Royal Flush".into(),
        8 | 4 => format!("{name}, {} high", word(0)),
        7 => format!("{name}, {}, {} kicker", plural(r[0]), word(1)),
        6 => format!("{name}, {} full of {}", plural(r[0]), plural(r[1])),
        5 | 0 => format!("{name}, {}", list(0).join("-")),
        3 => format!("{name}, {}, kickers {}", plural(r[0]), list(1).join(", ")),
        2 => format!(
            "{name}, {} and {}, {} kicker",
            plural(r[0]),
            plural(r[1]),
            word(2)
        ),
        _ => format!("{name}, {}, kickers {}", plural(r[0]), list(1).join(", ")),
    })
}

/// The five cards (of 5 to 7) that make the hand's value, in reading order: the
/// largest group first, higher ranks first, and a wheel as 5-4-3-2-A.
pub fn best_five(cards: &[Card]) -> Result<[Card; 5], CoreError> {
    let value = evaluate(cards)?;
    let n = cards.len();
    let mut five = (0u32..1 << n)
        .filter(|sel| sel.count_ones() == 5)
        .map(|sel| {
            let mut five = [0u8; 5];
            let picked = (0..n).filter(|i| sel >> i & 1 == 1).map(|i| cards[i]);
            five.iter_mut().zip(picked).for_each(|(slot, c)| *slot = c);
            five
        })
        .find(|five| evaluate(five) == Ok(value))
        .expect("some five cards make the value");
    let is_wheel = matches!(category(value), 4 | 8) && deciding_ranks(value)?[0] == 3;
    let order_rank = |c: Card| {
        if is_wheel && rank(c) == 12 {
            -1
        } else {
            i16::from(rank(c))
        }
    };
    let count = |c: Card| five.iter().filter(|&&d| rank(d) == rank(c)).count();
    let keyed: Vec<(usize, i16, u8, Card)> = five
        .iter()
        .map(|&c| (count(c), order_rank(c), suit(c), c))
        .collect();
    let mut keyed = keyed;
    keyed.sort_by(|a, b| b.cmp(a));
    five.iter_mut().zip(keyed).for_each(|(slot, k)| *slot = k.3);
    check_cards(&five)?;
    Ok(five)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(text: &str) -> Vec<Card> {
        crate::cards::parse_cards(text).unwrap()
    }

    fn words(text: &str) -> String {
        describe(evaluate(&cards(text)).unwrap()).unwrap()
    }

    #[test]
    fn describes_every_category() {
        assert_eq!(words("As Ks Qs Js Ts 2c 3d"), "Royal Flush");
        assert_eq!(words("5h 4h 3h 2h Ah"), "Straight Flush, Five high");
        assert_eq!(
            words("Kc Kd Kh Ks 7h 7s 2c"),
            "Four of a Kind, Kings, Seven kicker"
        );
        assert_eq!(
            words("Kc Kd Ks 7h 7s 2c 6d"),
            "Full House, Kings full of Sevens"
        );
        assert_eq!(words("Ah Kh 9h 7h 4h"), "Flush, Ace-King-Nine-Seven-Four");
        assert_eq!(words("6c 5d 4h 3s 2c"), "Straight, Six high");
        assert_eq!(
            words("7c 7d 7h As Kc"),
            "Three of a Kind, Sevens, kickers Ace, King"
        );
        assert_eq!(
            words("Ac Ad Kh Ks Qc"),
            "Two Pair, Aces and Kings, Queen kicker"
        );
        assert_eq!(
            words("6c 6d Kh Qs Jc"),
            "Pair, Sixes, kickers King, Queen, Jack"
        );
        assert_eq!(
            words("Ac Kd 9h 7s 4c"),
            "High Card, Ace-King-Nine-Seven-Four"
        );
    }

    #[test]
    fn best_five_reads_naturally() {
        assert_eq!(
            best_five(&cards("2c 7s Kd 7h Kc 3d Ks")).unwrap().to_vec(),
            cards("Ks Kd Kc 7s 7h")
        );
        assert_eq!(
            best_five(&cards("Ad 2c 3h 4s 5c Kd 9h")).unwrap().to_vec(),
            cards("5c 4s 3h 2c Ad")
        );
    }

    #[test]
    fn rejects_values_the_evaluator_never_makes() {
        assert!(describe(9 << 12).is_err());
        assert!(describe(8 << 12 | 10).is_err());
        assert!(describe(8 << 12 | 9).is_ok());
    }
}
