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
