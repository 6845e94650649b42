//! All five board cards to come, counted by rank pattern instead of one by one.
//!
//! Without a flush a player's value depends on the ranks alone (EV-1): on the ranks of
//! their two hole cards and the multiset of the board's five ranks (6,175 multisets,
//! against 1.7 million boards). A flush needs five cards of one suit, so with two hole
//! cards (a Texas hand, or Hand 1 or Hand 2 of Double Hold'em, DH-3) at least three of
//! them on the board, and at most one suit has three of five. So the boards with rank
//! multiset R split into:
//! - for a suit s and a set S of at least three of R's ranks, the boards whose cards of
//!   suit s have exactly the ranks S: a player with enough cards of s has the flush of
//!   S and their s-cards (with seven cards, a flush excludes quads and a full house, so
//!   it is the value), everyone else their rank value; these boards number
//!   prod over S of (s-card of the rank free) x C(other free cards of the rank, count - 1)
//!   times prod over the rest of R of C(other free cards, count);
//! - all other boards with ranks R: every player has their rank value; they number
//!   prod over R of C(free cards of the rank, count), less the boards above.
//!
//! Sets S in a suit of which no hand holds enough cards (two for |S| = 3, one for
//! |S| = 4) make no flush: their boards stay with the rank values, uncounted above.

use super::{Counts, MAX_PLAYERS};
use crate::cards::Card;
use crate::eval::{flush_value, Hand, HandValue};
use std::sync::OnceLock;

/// One rank multiset of five board cards.
struct Pattern {
    /// How many board cards have each rank present: (rank, count).
    ranks: Vec<(u8, u8)>,
    /// The ranks as five cards of rotating suits (no suit three times), summed from
    /// [`Hand::ZERO`]: added to two hole cards, never a flush, so its value is the rank
    /// value.
    cards: Hand,
    /// The sets of at least three of the ranks present, as rank masks.
    flush_sets: Vec<u16>,
}

fn patterns() -> &'static [Pattern] {
    static PATTERNS: OnceLock<Vec<Pattern>> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        let mut out = Vec::with_capacity(6175);
        let mut counts = [0u8; 13];
        fn fill(rank: usize, left: u8, counts: &mut [u8; 13], out: &mut Vec<Pattern>) {
            if rank == 13 {
                if left == 0 {
                    out.push(pattern(counts));
                }
                return;
            }
            for c in 0..=left.min(4) {
                counts[rank] = c;
                fill(rank + 1, left - c, counts, out);
            }
            counts[rank] = 0;
        }
        fill(0, 5, &mut counts, &mut out);
        out
    })
}

fn pattern(counts: &[u8; 13]) -> Pattern {
    let ranks: Vec<(u8, u8)> = (0..13u8)
        .filter(|&r| counts[r as usize] > 0)
        .map(|r| (r, counts[r as usize]))
        .collect();
    let mut cards = Hand::ZERO;
    let mut suit = 0;
    for &(r, c) in &ranks {
        for _ in 0..c {
            cards = cards.add_card(r * 4 + suit % 4);
            suit += 1;
        }
    }
    let present: Vec<u16> = ranks.iter().map(|&(r, _)| 1 << r).collect();
    let flush_sets = (0u32..1 << present.len())
        .filter(|sel| sel.count_ones() >= 3)
        .map(|sel| {
            (0..present.len())
                .filter(|i| sel >> i & 1 == 1)
                .fold(0, |m, i| m | present[i])
        })
        .collect();
    Pattern {
        ranks,
        cards,
        flush_sets,
    }
}

/// `n` choose `k` for n, k <= 4.
const CHOOSE: [[u64; 5]; 5] = [
    [1, 0, 0, 0, 0],
    [1, 1, 0, 0, 0],
    [1, 2, 1, 0, 0],
    [1, 3, 3, 1, 0],
    [1, 4, 6, 4, 1],
];

/// A two-card hand of a player: its cards summed from [`Hand::EMPTY`], and per suit
/// the ranks it holds in that suit and how many.
#[derive(Clone, Copy)]
struct TwoCards {
    hand: Hand,
    suit_ranks: [u16; 4],
    suit_counts: [u8; 4],
}

impl TwoCards {
    fn new(a: Card, b: Card) -> TwoCards {
        let mut suit_ranks = [0u16; 4];
        let mut suit_counts = [0u8; 4];
        for c in [a, b] {
            suit_ranks[usize::from(c & 3)] |= 1 << (c >> 2);
            suit_counts[usize::from(c & 3)] += 1;
        }
        TwoCards {
            hand: Hand::EMPTY.add_card(a).add_card(b),
            suit_ranks,
            suit_counts,
        }
    }
}

/// Counts the showdowns over every five-card board of the cards in `free` (a bit set)
/// for players whose values are the best of their two-card hands: `hands[i]` (one
/// hand for Texas, Hand 1 and Hand 2 for Double Hold'em).
pub(crate) fn count(players: &[Vec<[Card; 2]>], free: u64, counts: &mut Counts) {
    let n = players.len();
    let per_player = players[0].len();
    let mut twos = [[TwoCards::new(0, 1); 2]; MAX_PLAYERS];
    for (i, hands) in players.iter().enumerate() {
        for (j, &[a, b]) in hands.iter().enumerate() {
            twos[i][j] = TwoCards::new(a, b);
        }
    }
    let mut free_of_rank = [0u8; 13];
    let mut others = [[0u8; 13]; 4];
    let mut has = [[0u8; 13]; 4];
    for r in 0..13 {
        let bits = (free >> (4 * r)) & 0xf;
        free_of_rank[r] = bits.count_ones() as u8;
        for s in 0..4 {
            has[s][r] = (bits >> s & 1) as u8;
            others[s][r] = free_of_rank[r] - has[s][r];
        }
    }
    // The least number of board cards of a suit that can make someone a flush.
    let flush_from: [u32; 4] = std::array::from_fn(|s| {
        let most = twos[..n]
            .iter()
            .flat_map(|hands| hands[..per_player].iter().map(move |t| t.suit_counts[s]))
            .max()
            .unwrap_or(0);
        5 - u32::from(most)
    });
    let mut rank_values = [0 as HandValue; MAX_PLAYERS];
    let mut values = [0 as HandValue; MAX_PLAYERS];
    for p in patterns() {
        let mut boards = 1u64;
        for &(r, c) in &p.ranks {
            boards *= CHOOSE[usize::from(free_of_rank[usize::from(r)])][usize::from(c)];
        }
        if boards == 0 {
            continue;
        }
        for i in 0..n {
            let mut best = 0;
            for t in &twos[i][..per_player] {
                best = best.max(t.hand.plus(p.cards).value());
            }
            rank_values[i] = best;
        }
        let mut flush_boards = 0u64;
        for s in 0..4 {
            for &set in &p.flush_sets {
                let size = set.count_ones();
                if size < flush_from[s] {
                    continue;
                }
                let mut ways = 1u64;
                for &(r, c) in &p.ranks {
                    let (r, c) = (usize::from(r), usize::from(c));
                    ways *= if set >> r & 1 == 1 {
                        u64::from(has[s][r]) * CHOOSE[usize::from(others[s][r])][c - 1]
                    } else {
                        CHOOSE[usize::from(others[s][r])][c]
                    };
                }
                if ways == 0 {
                    continue;
                }
                flush_boards += ways;
                for i in 0..n {
                    let mut best = rank_values[i];
                    for t in &twos[i][..per_player] {
                        if size + u32::from(t.suit_counts[s]) >= 5 {
                            best = best.max(flush_value(set | t.suit_ranks[s]));
                        }
                    }
                    values[i] = best;
                }
                tally(counts, &values[..n], ways);
            }
        }
        tally(counts, &rank_values[..n], boards - flush_boards);
    }
}

#[inline(always)]
fn tally(counts: &mut Counts, values: &[HandValue], times: u64) {
    if times == 0 {
        return;
    }
    if let [a, b] = *values {
        counts.heads_up(a, b, times);
    } else {
        counts.showdown(values, times);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn there_are_6175_patterns() {
        assert_eq!(super::patterns().len(), 6175);
    }
}
