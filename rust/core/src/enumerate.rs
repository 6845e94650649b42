//! Exhaustive enumeration of all C(52, k) hands, incrementally: each level of the
//! loop nest extends the previous level's [`Hand`], so a seven-card hand costs one
//! addition and one lookup.

use crate::error::CoreError;
use crate::eval::Hand;
use rayon::prelude::*;

/// How many hands fall in each category, and how many distinct values occur.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CategoryCounts {
    /// Index = category (0 = high card .. 8 = straight flush).
    pub counts: [u64; 9],
    /// Of the straight flushes, how many are royal (ace-high).
    pub royal_flushes: u64,
    /// Number of distinct hand values.
    pub distinct_values: usize,
    /// All hands: C(52, k).
    pub total: u64,
}

const VALUES: usize = 9 << 12;

/// Enumerates every hand of `k` (5, 6 or 7) cards, in parallel over the first card.
pub fn category_counts(k: usize) -> Result<CategoryCounts, CoreError> {
    if !(5..=7).contains(&k) {
        return Err(CoreError::invalid_hand(format!(
            "hands have 5, 6 or 7 cards, not {k}"
        )));
    }
    let histogram = (0..52u8)
        .into_par_iter()
        .map(|first| {
            let mut histogram = vec![0u32; VALUES];
            extend(
                Hand::EMPTY.add_card(first),
                first + 1,
                k - 1,
                &mut histogram,
            );
            histogram
        })
        .reduce(
            || vec![0u32; VALUES],
            |mut a, b| {
                a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                a
            },
        );
    let mut counts = [0u64; 9];
    for (value, &n) in histogram.iter().enumerate() {
        counts[value >> 12] += u64::from(n);
    }
    Ok(CategoryCounts {
        counts,
        royal_flushes: histogram[8 << 12 | 9].into(),
        distinct_values: histogram.iter().filter(|&&n| n > 0).count(),
        total: counts.iter().sum(),
    })
}

fn extend(hand: Hand, from: u8, left: usize, histogram: &mut [u32]) {
    if left == 1 {
        for card in from..52 {
            histogram[hand.add_card(card).value() as usize] += 1;
        }
        return;
    }
    for card in from..=52 - left as u8 {
        extend(hand.add_card(card), card + 1, left - 1, histogram);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RULES.md EV-2: the five-card oracle.
    #[test]
    fn five_card_counts() {
        let c = category_counts(5).unwrap();
        assert_eq!(c.total, 2_598_960);
        assert_eq!(c.distinct_values, 7_462);
        assert_eq!(c.royal_flushes, 4);
        assert_eq!(
            c.counts,
            [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]
        );
    }

    /// RULES.md EV-2: the seven-card oracle (133,784,560 hands).
    #[test]
    fn seven_card_counts() {
        let c = category_counts(7).unwrap();
        assert_eq!(c.total, 133_784_560);
        assert_eq!(c.distinct_values, 4_824);
        assert_eq!(c.royal_flushes, 4_324);
        assert_eq!(
            c.counts,
            [
                23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184,
                224_848, 41_584
            ]
        );
    }

    #[test]
    fn six_card_total_and_bad_k() {
        assert_eq!(category_counts(6).unwrap().total, 20_358_520);
        assert!(category_counts(4).is_err());
    }
}
