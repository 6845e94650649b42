//! Cards are integers 0..=51: `rank * 4 + suit`, rank 0..=12 for 2..A, suit 0..=3 for
//! clubs, diamonds, hearts, spades (ARCHITECTURE.md).

use crate::error::CoreError;

pub type Card = u8;

pub const RANK_CHARS: &[u8; 13] = b"23456789TJQKA";
pub const SUIT_CHARS: &[u8; 4] = b"cdhs";

#[inline]
pub const fn rank(card: Card) -> u8 {
    card >> 2
}

#[inline]
pub const fn suit(card: Card) -> u8 {
    card & 3
}

/// "As", "Td", ...; `?` for a number that is not a card.
pub fn card_name(card: Card) -> String {
    if card >= 52 {
        return "?".into();
    }
    let chars = [
        RANK_CHARS[rank(card) as usize],
        SUIT_CHARS[suit(card) as usize],
    ];
    String::from_utf8_lossy(&chars).into_owned()
}

/// One card from text: "As", "Td" (rank 2..9, T, J, Q, K, A; suit c, d, h, s).
pub fn parse_card(text: &str) -> Result<Card, CoreError> {
    let bad = || CoreError::invalid_hand(format!("{text:?} is not a card"));
    let &[r, s] = text.as_bytes() else {
        return Err(bad());
    };
    let rank = RANK_CHARS.iter().position(|&c| c == r).ok_or_else(bad)?;
    let suit = SUIT_CHARS.iter().position(|&c| c == s).ok_or_else(bad)?;
    Ok((rank * 4 + suit) as Card)
}

/// Distinct cards from whitespace-separated text: "As Kd Qh".
pub fn parse_cards(text: &str) -> Result<Vec<Card>, CoreError> {
    let cards = text
        .split_whitespace()
        .map(parse_card)
        .collect::<Result<Vec<_>, _>>()?;
    check_cards(&cards)?;
    Ok(cards)
}

/// Every card is 0..=51 and none repeats.
pub fn check_cards(cards: &[u8]) -> Result<(), CoreError> {
    let mut seen = 0u64;
    for &card in cards {
        if card >= 52 {
            return Err(CoreError::InvalidCard {
                card: u32::from(card),
            });
        }
        if seen >> card & 1 == 1 {
            return Err(CoreError::DuplicateCard { card });
        }
        seen |= 1 << card;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_encoding() {
        assert_eq!(card_name(0), "2c");
        assert_eq!(card_name(51), "As");
        assert_eq!(card_name(8 * 4 + 1), "Td");
        assert_eq!(card_name(52), "?");
    }

    #[test]
    fn parses_text() {
        assert_eq!(parse_cards("As Td 2c"), Ok(vec![51, 33, 0]));
        assert!(parse_cards("As Ax").is_err());
        assert!(parse_cards("As As").is_err());
        assert!(parse_card("10d").is_err());
    }

    #[test]
    fn check_rejects_range_and_duplicates() {
        assert_eq!(check_cards(&[0, 51]), Ok(()));
        assert_eq!(
            check_cards(&[0, 52]),
            Err(CoreError::InvalidCard { card: 52 })
        );
        assert_eq!(
            check_cards(&[7, 3, 7]),
            Err(CoreError::DuplicateCard { card: 7 })
        );
    }
}

/// Shuffles `cards` in place (Fisher-Yates), reproducibly from `seed`. For seeded,
/// repeatable deals; a strong shuffle needs a strong generator instead.
pub fn shuffle(cards: &mut [Card], seed: u64) {
    let mut rng = SplitMix64::new(seed);
    for i in (1..cards.len()).rev() {
        cards.swap(i, rng.below(i as u64 + 1) as usize);
    }
}

/// SplitMix64 numbers, and Lemire's unbiased reduction to a range: the generator of
/// [`shuffle`] and of the equity bot's deals. Fast and reproducible, not strong.
#[derive(Clone, Debug)]
pub(crate) struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub(crate) fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    #[inline(always)]
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..range` (`range` > 0), without bias: a 64 x 64-bit
    /// product is rejected when its low half falls below 2^64 mod `range`. That
    /// threshold is below `range`, so the division is only needed when the low half is.
    #[inline(always)]
    pub(crate) fn below(&mut self, range: u64) -> u64 {
        let mut wide = u128::from(self.next_u64()) * u128::from(range);
        if (wide as u64) < range {
            let threshold = range.wrapping_neg() % range;
            while (wide as u64) < threshold {
                wide = u128::from(self.next_u64()) * u128::from(range);
            }
        }
        (wide >> 64) as u64
    }

    /// Two independent uniform numbers in `0..a` and `0..b` (each below 2^32, above 0)
    /// from one 64-bit draw when possible: each half of it is used as in
    /// [`SplitMix64::below`] with 32-bit words, and a half that falls in the rejected
    /// zone is replaced by a fresh draw, so neither is biased.
    #[inline(always)]
    pub(crate) fn below_two(&mut self, a: u32, b: u32) -> (u32, u32) {
        let bits = self.next_u64();
        let lemire = |x: u32, range: u32| {
            let wide = u64::from(x) * u64::from(range);
            let low = wide as u32;
            (low >= range || low >= range.wrapping_neg() % range).then_some((wide >> 32) as u32)
        };
        let first = lemire(bits as u32, a).unwrap_or_else(|| self.below(a.into()) as u32);
        let second = lemire((bits >> 32) as u32, b).unwrap_or_else(|| self.below(b.into()) as u32);
        (first, second)
    }
}

#[cfg(test)]
mod shuffle_tests {
    use super::shuffle;

    #[test]
    fn a_shuffle_is_a_reproducible_permutation() {
        let mut a: Vec<u8> = (0..52).collect();
        let mut b = a.clone();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        assert_ne!(a, (0..52).collect::<Vec<u8>>());
        a.sort_unstable();
        assert_eq!(a, (0..52).collect::<Vec<u8>>());
    }

    #[test]
    fn every_card_reaches_every_place() {
        let mut seen = [[0u32; 52]; 52];
        for seed in 0..20_000 {
            let mut deck: Vec<u8> = (0..52).collect();
            shuffle(&mut deck, seed);
            for (place, &card) in deck.iter().enumerate() {
                seen[usize::from(card)][place] += 1;
            }
        }
        // 20,000 / 52 = 385 expected per cell; 5 standard deviations is about 97
        assert!(seen.iter().flatten().all(|&n| (288..=482).contains(&n)));
    }
}
