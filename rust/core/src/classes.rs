//! Suit isomorphism: cards that differ only by a renaming of the suits play the same.
//! The 1,326 two-card hands fall into 169 starting-hand classes (pairs, suited,
//! offsuit); the 22,100 three-card sets (flops, Double Hold'em holes) into 1,755.
//! Exact enumerations visit one representative per class and weight it by the size
//! of its class.

use crate::cards::{rank, suit, Card, RANK_CHARS};
use std::sync::OnceLock;

/// Two-card hands.
pub const PAIRS: usize = 1326;
/// Starting-hand classes of two cards.
pub const HAND_CLASSES: usize = 169;
/// Three-card sets.
pub const TRIPLES: usize = 22_100;

/// The 24 renamings of the four suits, each as `new_suit = perm[old_suit]`.
pub fn suit_permutations() -> &'static [[u8; 4]; 24] {
    static PERMS: OnceLock<[[u8; 4]; 24]> = OnceLock::new();
    PERMS.get_or_init(|| {
        let mut perms = [[0u8; 4]; 24];
        let mut n = 0;
        for a in 0..4u8 {
            for b in (0..4).filter(|&b| b != a) {
                for c in (0..4).filter(|&c| c != a && c != b) {
                    perms[n] = [a, b, c, 6 - a - b - c];
                    n += 1;
                }
            }
        }
        perms
    })
}

/// A card with its suit renamed.
#[inline]
pub fn rename(card: Card, perm: &[u8; 4]) -> Card {
    card & !3 | perm[suit(card) as usize]
}

/// The index 0..1326 of the two-card hand {a, b} (colex order).
#[inline]
pub fn pair_index(a: Card, b: Card) -> usize {
    let (lo, hi) = (a.min(b) as usize, a.max(b) as usize);
    hi * (hi - 1) / 2 + lo
}

/// Every two-card hand, ascending cards, in [`pair_index`] order.
pub fn pairs() -> &'static [[Card; 2]; PAIRS] {
    static ALL: OnceLock<[[Card; 2]; PAIRS]> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all = [[0u8; 2]; PAIRS];
        for hi in 1..52u8 {
            for lo in 0..hi {
                all[pair_index(lo, hi)] = [lo, hi];
            }
        }
        all
    })
}

/// The starting-hand class 0..169 of two cards, laid out as the usual 13x13 grid
/// (row and column by rank, ace first): pairs on the diagonal, suited hands above it
/// (row = higher rank), offsuit hands below it (row = lower rank).
#[inline]
pub fn hand_class(a: Card, b: Card) -> usize {
    let (hi, lo) = (rank(a).max(rank(b)), rank(a).min(rank(b)));
    let (row, col) = (12 - hi as usize, 12 - lo as usize);
    if suit(a) == suit(b) || hi == lo {
        row * 13 + col
    } else {
        col * 13 + row
    }
}

/// "AA", "AKs", "AKo" for a class.
pub fn hand_class_name(class: usize) -> String {
    let (row, col) = (class / 13, class % 13);
    let name = |r: usize| RANK_CHARS[12 - r] as char;
    match row.cmp(&col) {
        std::cmp::Ordering::Equal => format!("{}{}", name(row), name(row)),
        std::cmp::Ordering::Less => format!("{}{}s", name(row), name(col)),
        std::cmp::Ordering::Greater => format!("{}{}o", name(col), name(row)),
    }
}

/// How many two-card hands a class holds: 6 pairs, 4 suited, 12 offsuit.
pub fn hand_class_size(class: usize) -> u64 {
    match (class / 13).cmp(&(class % 13)) {
        std::cmp::Ordering::Equal => 6,
        std::cmp::Ordering::Less => 4,
        std::cmp::Ordering::Greater => 12,
    }
}

/// A representative two-card hand of a class.
pub fn hand_class_example(class: usize) -> [Card; 2] {
    let (row, col) = (class / 13, class % 13);
    let card = |r: usize, s: u8| ((12 - r) as u8) << 2 | s;
    match row.cmp(&col) {
        std::cmp::Ordering::Equal => [card(row, 0), card(row, 1)],
        std::cmp::Ordering::Less => [card(row, 0), card(col, 0)],
        std::cmp::Ordering::Greater => [card(col, 0), card(row, 1)],
    }
}

/// The index 0..22100 of the three-card set {a, b, c} (colex order).
#[inline]
pub fn triple_index(cards: [Card; 3]) -> usize {
    let mut s = cards.map(usize::from);
    s.sort_unstable();
    s[0] + s[1] * (s[1] - 1) / 2 + s[2] * (s[2] - 1) * (s[2] - 2) / 6
}

/// The 1,755 classes of three-card sets under suit renaming.
pub struct TripleClasses {
    /// One representative per class (ascending cards), in a fixed order.
    pub representatives: Vec<[Card; 3]>,
    /// How many sets each class holds (they add up to 22,100).
    pub weights: Vec<u64>,
    /// For each set ([`triple_index`]): its class and a suit renaming (index into
    /// [`suit_permutations`]) that turns it into the representative.
    pub class_of: Vec<(u16, u8)>,
}

fn sorted(mut cards: [Card; 3]) -> [Card; 3] {
    cards.sort_unstable();
    cards
}

/// The smallest renaming of a set (its canonical form) and the renaming that makes it.
fn canonical(cards: [Card; 3]) -> ([Card; 3], u8) {
    suit_permutations()
        .iter()
        .enumerate()
        .map(|(i, perm)| (sorted(cards.map(|c| rename(c, perm))), i as u8))
        .min()
        .expect("24 renamings")
}

/// The classes of three-card sets, computed once.
pub fn triple_classes() -> &'static TripleClasses {
    static CLASSES: OnceLock<TripleClasses> = OnceLock::new();
    CLASSES.get_or_init(|| {
        let mut reps: Vec<[Card; 3]> = Vec::new();
        let mut found = std::collections::HashMap::new();
        let mut class_of = vec![(0u16, 0u8); TRIPLES];
        let mut weights: Vec<u64> = Vec::new();
        for c in 2..52u8 {
            for b in 1..c {
                for a in 0..b {
                    let (rep, perm) = canonical([a, b, c]);
                    let class = *found.entry(rep).or_insert_with(|| {
                        reps.push(rep);
                        weights.push(0);
                        reps.len() - 1
                    });
                    weights[class] += 1;
                    class_of[triple_index([a, b, c])] = (class as u16, perm);
                }
            }
        }
        TripleClasses {
            representatives: reps,
            weights,
            class_of,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starting_hand_classes() {
        let mut sizes = [0u64; HAND_CLASSES];
        for (i, &[a, b]) in pairs().iter().enumerate() {
            assert_eq!(pair_index(a, b), i);
            assert_eq!(pair_index(b, a), i);
            sizes[hand_class(a, b)] += 1;
        }
        for (class, &size) in sizes.iter().enumerate() {
            assert_eq!(size, hand_class_size(class), "{}", hand_class_name(class));
            let [a, b] = hand_class_example(class);
            assert_eq!(hand_class(a, b), class);
        }
        assert_eq!(hand_class_name(0), "AA");
        assert_eq!(hand_class_name(1), "AKs");
        assert_eq!(hand_class_name(13), "AKo");
        assert_eq!(hand_class_name(168), "22");
    }

    #[test]
    fn triple_classes_cover_every_set() {
        let t = triple_classes();
        assert_eq!(t.representatives.len(), 1_755);
        assert_eq!(t.weights.iter().sum::<u64>(), TRIPLES as u64);
        let perms = suit_permutations();
        for c in 2..52u8 {
            for b in 1..c {
                for a in 0..b {
                    let (class, perm) = t.class_of[triple_index([a, b, c])];
                    let renamed = sorted([a, b, c].map(|x| rename(x, &perms[perm as usize])));
                    assert_eq!(renamed, t.representatives[class as usize]);
                }
            }
        }
    }
}
