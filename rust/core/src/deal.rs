//! Random hands of distinct cards, many at once: row after row of `k` cards, each row
//! a uniformly random ordered choice of `k` of the 52 cards.
//!
//! Rows come in blocks of [`ROWS_PER_BLOCK`]; block `b` draws from its own generator
//! seeded from `(seed, b)`, so the rows depend on the seed alone, never on the number
//! of threads or the order in which blocks are dealt.

use crate::cards::{Card, SplitMix64};
use crate::error::CoreError;
use rayon::prelude::*;

/// Rows per seeded block.
pub const ROWS_PER_BLOCK: usize = 1 << 12;

/// Fills `out` (whole rows of `cards` cards, 1 to 52) with random hands from `seed`.
pub fn random_hands(cards: usize, seed: u64, out: &mut [Card]) -> Result<(), CoreError> {
    if !(1..=52).contains(&cards) {
        return Err(CoreError::invalid_hand(format!(
            "a hand of distinct cards has 1 to 52 cards, not {cards}"
        )));
    }
    if !out.len().is_multiple_of(cards) {
        return Err(CoreError::invalid_hand(format!(
            "{} cards are not whole rows of {cards}",
            out.len()
        )));
    }
    out.par_chunks_mut(ROWS_PER_BLOCK * cards)
        .enumerate()
        .for_each(|(block, rows)| deal_block(cards, seed, block as u64, rows));
    Ok(())
}

/// One block: each row is the first `cards` cards of a partial Fisher-Yates shuffle
/// of a deck kept from row to row (a partial shuffle of any order of the deck gives a
/// uniform ordered choice).
fn deal_block(cards: usize, seed: u64, block: u64, rows: &mut [Card]) {
    let mut rng = SplitMix64::new(
        SplitMix64::new(seed ^ block.wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64(),
    );
    let mut deck: [Card; 52] = std::array::from_fn(|i| i as Card);
    for row in rows.chunks_exact_mut(cards) {
        for (i, slot) in row.iter_mut().enumerate() {
            let j = i + rng.below((52 - i) as u64) as usize;
            deck.swap(i, j);
            *slot = deck[i];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deal(rows: usize, cards: usize, seed: u64) -> Vec<Card> {
        let mut out = vec![0; rows * cards];
        random_hands(cards, seed, &mut out).unwrap();
        out
    }

    #[test]
    fn rows_hold_distinct_cards_and_the_seed_decides() {
        let a = deal(3 * ROWS_PER_BLOCK + 5, 7, 11);
        for row in a.chunks_exact(7) {
            let mask = row.iter().fold(0u64, |m, &c| m | 1 << c);
            assert_eq!(mask.count_ones(), 7);
            assert!(row.iter().all(|&c| c < 52));
        }
        assert_eq!(a, deal(3 * ROWS_PER_BLOCK + 5, 7, 11));
        assert_ne!(a, deal(3 * ROWS_PER_BLOCK + 5, 7, 12));
        let one_thread =
            crate::parallel::with_threads(Some(1), || deal(3 * ROWS_PER_BLOCK + 5, 7, 11));
        assert_eq!(a, one_thread);
        assert_eq!(deal(52, 52, 1).len(), 52 * 52);
    }

    #[test]
    fn ordered_pairs_come_equally_often() {
        // 2,652 ordered pairs, 265,200 rows: chi-square within 6 standard deviations of
        // its mean (a fixed seed: the test is deterministic).
        let rows = 265_200;
        let mut counts = vec![0u32; 52 * 52];
        for row in deal(rows, 2, 5).chunks_exact(2) {
            counts[row[0] as usize * 52 + row[1] as usize] += 1;
        }
        let expected = rows as f64 / 2652.0;
        let chi2: f64 = (0..52 * 52)
            .filter(|i| i / 52 != i % 52)
            .map(|i| (f64::from(counts[i]) - expected).powi(2) / expected)
            .sum();
        let df = 2651.0_f64;
        assert!((chi2 - df).abs() < 6.0 * (2.0 * df).sqrt(), "{chi2}");
    }

    #[test]
    fn refuses_bad_sizes() {
        assert!(random_hands(0, 1, &mut []).is_err());
        assert!(random_hands(53, 1, &mut [0; 53]).is_err());
        assert!(random_hands(2, 1, &mut [0; 3]).is_err());
    }
}
