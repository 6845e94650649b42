//! The hand evaluator (RULES.md EV-1): 5, 6 or 7 cards to a `u16` value, higher is
//! better, laid out as `category << 12 | rank within the category`.
//!
//! A [`Hand`] is an additive key: the sum of per-card rank keys (unique for every rank
//! multiset of 5 to 7 cards) plus a 4-bit counter per suit, and a bit mask of the cards
//! by suit. Non-flush hands go through a perfect hash of the rank-key sum into one
//! table; flushes (a suit counter reaching 5) look up the flush suit's ranks in another.
//! All tables together take about 260 KiB and are generated at compile time.

use crate::cards::{rank, suit, Card};
use crate::error::CoreError;
use crate::tablegen::{mix, OFFSET_SHIFT, RANK_KEYS};

mod tables {
    include!(concat!(env!("OUT_DIR"), "/tables.rs"));
}
pub(crate) use tables::{CATEGORY_STARTS, TIEBREAKS};
#[cfg(target_arch = "x86_64")]
pub(crate) use tables::{OFFSETS, VALUES};

/// The two tables of hand values in one block (`tables::VALUES`): the perfect hash's, then
/// the flushes', then one zero entry. The vector kernel reads an entry of either with
/// one gather (the flush index offset by `L`) of 4 bytes, which stay inside even at
/// the last entry.
#[repr(C)]
pub(crate) struct Values<const L: usize, const F: usize> {
    pub(crate) lookup: [u16; L],
    pub(crate) flush: [u16; F],
    #[allow(
        dead_code,
        reason = "read only as the upper half of the last entry's word"
    )]
    end: u16,
}

/// A hand value: `category << 12 | rank within the category`, higher is better.
pub type HandValue = u16;

const SUIT_SHIFT: u32 = 48;
/// Each suit counter starts at 3, so a fifth card of one suit sets its bit 3.
const SUIT_COUNTERS_START: u64 = 0x3333 << SUIT_SHIFT;
const FLUSH_BITS: u64 = 0x8888 << SUIT_SHIFT;
const _: () = assert!(crate::tablegen::MAX_RANK_KEY < 1 << crate::tablegen::KEY_BITS);

/// The rank key and suit counter of every byte: cards 0..=51, then "not a card" for
/// the rest, so that a batch validates its input in the same pass that evaluates it.
/// Keys and bits are two tables (not one of pairs) so each is indexed with no shift.
static CARD_KEYS: [u64; 256] = card_table(true);
/// The bit of every card (by suit, then rank); none for a byte that is not a card.
static CARD_BITS: [u64; 256] = card_table(false);

const fn card_table(keys: bool) -> [u64; 256] {
    let mut table = [0; 256];
    let mut card = 0;
    while card < 52 {
        let (r, s) = (rank(card as u8) as u32, suit(card as u8) as u32);
        table[card] = if keys {
            // Clubs count in the top nibble, so the flush suit is `leading_zeros / 4`.
            RANK_KEYS[r as usize] as u64 + (1u64 << (SUIT_SHIFT + 12 - 4 * s))
        } else {
            1 << (16 * s + r)
        };
        card += 1;
    }
    table
}

/// Cards added one at a time; cheap to copy, so enumerations extend it incrementally.
///
/// Both halves are sums, so one vector addition adds a card: `key` sums the rank keys
/// and suit counters, `mask` sums one bit per card (by suit, then rank). While the
/// cards are distinct the sum is their bit set; a repeated card carries into another
/// bit and lowers the bit count, which is how [`Hand::is_valid`] sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hand {
    key: u64,
    mask: u64,
}

impl Default for Hand {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl Hand {
    pub const EMPTY: Hand = Hand {
        key: SUIT_COUNTERS_START,
        mask: 0,
    };

    /// No cards and no suit-counter start: the neutral element of [`Hand::plus`], from
    /// which a set of cards is summed to be added to many hands at once.
    pub const ZERO: Hand = Hand { key: 0, mask: 0 };

    /// This hand with the cards summed from [`Hand::ZERO`] in `cards` added: the
    /// enumerations sum each board once and add it to every player's hole.
    #[inline(always)]
    #[must_use]
    pub fn plus(self, cards: Hand) -> Hand {
        Hand {
            key: self.key.wrapping_add(cards.key),
            mask: self.mask.wrapping_add(cards.mask),
        }
    }

    /// The hand with one more card. Any byte is accepted; [`Hand::is_valid`] tells
    /// whether all were distinct cards.
    #[inline(always)]
    #[must_use]
    pub fn add_card(self, card: Card) -> Hand {
        Hand {
            key: self.key.wrapping_add(CARD_KEYS[card as usize]),
            mask: self.mask.wrapping_add(CARD_BITS[card as usize]),
        }
    }

    /// The hand with every card of `cards` added.
    #[inline(always)]
    #[must_use]
    pub fn add_cards(self, cards: &[Card]) -> Hand {
        cards.iter().fold(self, |hand, &card| hand.add_card(card))
    }

    /// Whether exactly `n` cards were added, all of them distinct cards 0..=51.
    #[inline(always)]
    pub fn is_valid(self, n: u32) -> bool {
        self.card_count() == n
    }

    /// The number of distinct cards 0..=51 added, if none repeats. A byte that is not a
    /// card adds no bit and a repeated card carries, so the count falls short of the
    /// number of bytes added exactly when they were not all distinct cards: adding up
    /// the counts of a batch validates it with one addition per hand.
    #[inline(always)]
    pub fn card_count(self) -> u32 {
        self.mask.count_ones()
    }

    /// The value of the best five cards, for a hand of 5 to 7 distinct cards. Any
    /// other hand gives a meaningless value (never a panic): check it with
    /// [`Hand::is_valid`].
    #[inline(always)]
    pub fn value(self) -> HandValue {
        let flush = self.key & FLUSH_BITS;
        if flush != 0 {
            let shift = flush.leading_zeros() * 4;
            tables::FLUSH[(self.mask >> shift & 0x1fff) as usize]
        } else {
            // The rank keys fill the low 24 bits, and `mix` reads no others.
            let mixed = mix(self.key as u32);
            let index = mixed.wrapping_add(tables::OFFSETS[(mixed >> OFFSET_SHIFT) as usize]);
            tables::LOOKUP.get(index as usize).copied().unwrap_or(0)
        }
    }
}

/// Adding cards with one 128-bit addition each (both halves of a [`Hand`] at once), for
/// the batch loops: about 20% more hands per second than two 64-bit additions. The
/// functions are compiled for SSE2 (the x86-64 baseline); elsewhere they fall back to
/// [`Hand::add_cards`]. Call them from functions compiled for SSE2 too (see
/// [`crate::sse2!`]), so that they inline.
pub(crate) mod vector {
    use super::Hand;
    #[cfg(target_arch = "x86_64")]
    use std::arch::x86_64::{
        __m128i, _mm_add_epi64, _mm_cvtsi128_si64, _mm_set_epi64x, _mm_unpackhi_epi64,
    };

    /// (key, bit) of every byte as one vector.
    #[cfg(target_arch = "x86_64")]
    pub(crate) struct Table([__m128i; 256]);
    #[cfg(not(target_arch = "x86_64"))]
    pub(crate) struct Table;

    impl Table {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "sse2")]
        pub(crate) fn new() -> Table {
            use super::{CARD_BITS, CARD_KEYS};
            Table(std::array::from_fn(|c| {
                _mm_set_epi64x(CARD_BITS[c] as i64, CARD_KEYS[c] as i64)
            }))
        }

        #[cfg(not(target_arch = "x86_64"))]
        pub(crate) fn new() -> Table {
            Table
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "sse2")]
        #[inline]
        pub(crate) fn add_cards(&self, hand: Hand, cards: &[u8]) -> Hand {
            let start = _mm_set_epi64x(hand.mask as i64, hand.key as i64);
            let sum = cards
                .iter()
                .fold(start, |acc, &c| _mm_add_epi64(acc, self.0[c as usize]));
            Hand {
                key: _mm_cvtsi128_si64(sum) as u64,
                mask: _mm_cvtsi128_si64(_mm_unpackhi_epi64(sum, sum)) as u64,
            }
        }

        #[cfg(not(target_arch = "x86_64"))]
        #[inline(always)]
        pub(crate) fn add_cards(&self, hand: Hand, cards: &[u8]) -> Hand {
            hand.add_cards(cards)
        }
    }
}

/// Calls a function compiled with `#[cfg_attr(target_arch = "x86_64",
/// target_feature(enable = "sse2"))]`.
#[macro_export]
#[doc(hidden)]
macro_rules! sse2 {
    ($call:expr) => {{
        // SAFETY: the only unsafety of calling a `target_feature` function is running on
        // a CPU without the feature, and SSE2 is part of the x86-64 baseline: every CPU
        // that runs x86-64 code has it.
        #[allow(unsafe_code, unused_unsafe)]
        unsafe {
            $call
        }
    }};
}

/// The value of the best flush among the ranks of `ranks` (a 13-bit mask, 2 = bit 0,
/// at least five bits set): the hand of one suit holding those ranks.
#[inline(always)]
pub fn flush_value(ranks: u16) -> HandValue {
    tables::FLUSH[usize::from(ranks & 0x1fff)]
}

/// Value of 5, 6 or 7 distinct cards.
pub fn evaluate(cards: &[Card]) -> Result<HandValue, CoreError> {
    if !(5..=7).contains(&cards.len()) {
        return Err(CoreError::invalid_hand(format!(
            "a hand has 5, 6 or 7 cards, not {}",
            cards.len()
        )));
    }
    crate::cards::check_cards(cards)?;
    Ok(Hand::EMPTY.add_cards(cards).value())
}

/// Number of lookup-table bytes the evaluator reads (the L2 budget).
pub fn table_bytes() -> usize {
    std::mem::size_of_val(&tables::OFFSETS)
        + std::mem::size_of_val(&tables::VALUES)
        + std::mem::size_of_val(&CARD_KEYS)
        + std::mem::size_of_val(&CARD_BITS)
        + std::mem::size_of_val(&tables::CATEGORY_STARTS)
        + std::mem::size_of_val(&tables::TIEBREAKS)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::tablegen;

    /// Best of the five-card subsets, ranked by the slow reference in `tablegen`.
    pub(crate) fn reference_value(cards: &[Card]) -> HandValue {
        static CLASSES: std::sync::OnceLock<[Vec<u32>; 9]> = std::sync::OnceLock::new();
        let classes = CLASSES.get_or_init(tablegen::all_classes);
        let n = cards.len();
        (0u32..1 << n)
            .filter(|sel| sel.count_ones() == 5)
            .map(|sel| {
                let five: Vec<Card> = (0..n)
                    .filter(|i| sel >> i & 1 == 1)
                    .map(|i| cards[i])
                    .collect();
                let mut counts = [0u8; 13];
                five.iter().for_each(|&c| counts[rank(c) as usize] += 1);
                let class = if five.iter().all(|&c| suit(c) == suit(five[0])) {
                    tablegen::class_of_flush_five(five.iter().fold(0, |m, &c| m | 1 << rank(c)))
                } else {
                    tablegen::class_of_five(&counts)
                };
                tablegen::value_of(classes, class)
            })
            .max()
            .expect("at least five cards")
    }

    #[test]
    fn rank_keys_give_unique_sums() {
        let mut seen = std::collections::HashSet::new();
        for n in 5..=7 {
            tablegen::for_each_rank_multiset(n, &mut |counts| {
                assert!(seen.insert(tablegen::rank_key(counts)), "{counts:?}");
            });
        }
    }

    #[test]
    fn hash_is_minimal() {
        assert_eq!(tables::LOOKUP.len(), 73_775);
    }

    #[test]
    fn tables_fit_in_l2() {
        assert!(table_bytes() < 512 * 1024, "{} bytes", table_bytes());
    }

    #[test]
    fn matches_reference_on_random_hands() {
        use rand::{rngs::SmallRng, seq::SliceRandom, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(7);
        let mut deck: Vec<Card> = (0..52).collect();
        for i in 0..3000 {
            deck.shuffle(&mut rng);
            let n = 5 + i % 3;
            assert_eq!(
                evaluate(&deck[..n]).unwrap(),
                reference_value(&deck[..n]),
                "{:?}",
                &deck[..n]
            );
        }
    }

    #[test]
    fn known_hands() {
        // As Ks Qs Js Ts: the royal flush is the best value of all.
        assert_eq!(evaluate(&[51, 47, 43, 39, 35]).unwrap(), 8 << 12 | 9);
        // 5c 4d 3h 2s Ac: the wheel, lowest straight.
        assert_eq!(evaluate(&[12, 9, 6, 3, 48]).unwrap(), 4 << 12);
        // 7-5-4-3-2 offsuit: the lowest hand of all.
        assert_eq!(evaluate(&[20, 13, 8, 4, 3]).unwrap(), 0);
    }

    #[test]
    fn rejects_bad_hands() {
        assert!(matches!(
            evaluate(&[1, 2, 3, 4]),
            Err(CoreError::InvalidHand { .. })
        ));
        assert_eq!(
            evaluate(&[1, 2, 3, 4, 60]),
            Err(CoreError::InvalidCard { card: 60 })
        );
        assert_eq!(
            evaluate(&[1, 2, 3, 4, 4]),
            Err(CoreError::DuplicateCard { card: 4 })
        );
    }
}
