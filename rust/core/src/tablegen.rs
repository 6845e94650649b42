//! Slow, obviously-correct hand ranking, used twice: by `build.rs` to generate the
//! evaluator's lookup tables at compile time, and by the tests as the reference.
//!
//! A hand's *class* is its category (0 = high card .. 8 = straight flush, RULES.md EV-1)
//! and a *tiebreak*: the ranks that decide within the category, most significant first,
//! packed four bits each. Classes compare as (category, tiebreak) tuples.

/// Rank keys (2 .. A): every multiset of 5, 6 or 7 ranks (each rank at most four times)
/// has a distinct sum. Found greedily: each key is the smallest value above the previous
/// one that keeps all sums distinct (checked by `rank_keys_give_unique_sums`).
pub const RANK_KEYS: [u32; 13] = [
    1, 4, 16, 67, 295, 1334, 5734, 23800, 60883, 208450, 509982, 1304151, 2967844,
];

/// The perfect hash: `mixed = key * MIX_MULTIPLIER mod 2^24` (a bijection, as the
/// multiplier is odd), then `index = mixed + OFFSETS[mixed >> OFFSET_SHIFT]`. This
/// multiplier and row width pack the 73,775 keys of 5 to 7 cards into exactly 73,775
/// slots (found by trying odd multipliers below 400 for each row width).
pub const MIX_MULTIPLIER: u32 = 61;
pub const OFFSET_SHIFT: u32 = 10;
pub const KEY_BITS: u32 = 24;

/// The mixed key that the hash rows are taken from.
#[inline(always)]
pub fn mix(key: u32) -> u32 {
    key.wrapping_mul(MIX_MULTIPLIER) & ((1 << KEY_BITS) - 1)
}

/// Largest rank key sum (four aces and three kings).
pub const MAX_RANK_KEY: u32 = 4 * RANK_KEYS[12] + 3 * RANK_KEYS[11];

/// The wheel, A-2-3-4-5, as a rank mask.
const WHEEL: u16 = 0b1_0000_0000_1111;

/// The top rank of the straight in a rank mask, if any (the wheel counts as 5-high).
pub fn straight_top(mask: u16) -> Option<u8> {
    (4..13u8)
        .rev()
        .find(|&top| (mask >> (top - 4)) & 0b11111 == 0b11111)
        .or(if mask & WHEEL == WHEEL { Some(3) } else { None })
}

fn pack(ranks: &[u8]) -> u32 {
    ranks.iter().fold(0, |acc, &r| acc << 4 | u32::from(r))
}

/// Class of exactly five ranks (`counts` sums to 5), not a flush.
pub fn class_of_five(counts: &[u8; 13]) -> (u8, u32) {
    let mut groups: Vec<(u8, u8)> = (0..13u8)
        .rev()
        .filter(|&r| counts[r as usize] > 0)
        .map(|r| (counts[r as usize], r))
        .collect();
    groups.sort_by(|a, b| b.cmp(a));
    let ranks: Vec<u8> = groups.iter().map(|&(_, r)| r).collect();
    let shape: Vec<u8> = groups.iter().map(|&(c, _)| c).collect();
    let category = match shape.as_slice() {
        [4, 1] => 7,
        [3, 2] => 6,
        [3, 1, 1] => 3,
        [2, 2, 1] => 2,
        [2, 1, 1, 1] => 1,
        [1, 1, 1, 1, 1] => {
            let mask = ranks.iter().fold(0u16, |m, &r| m | 1 << r);
            if let Some(top) = straight_top(mask) {
                return (4, u32::from(top));
            }
            0
        }
        _ => panic!("class_of_five needs exactly five cards"),
    };
    (category, pack(&ranks))
}

/// Class of a five-card flush given as a rank mask with five bits set.
pub fn class_of_flush_five(mask: u16) -> (u8, u32) {
    debug_assert_eq!(mask.count_ones(), 5);
    match straight_top(mask) {
        Some(top) => (8, u32::from(top)),
        None => {
            let ranks: Vec<u8> = (0..13u8).rev().filter(|&r| mask >> r & 1 == 1).collect();
            (5, pack(&ranks))
        }
    }
}

/// Best class of a multiset of 5 to 7 ranks, no flush: the maximum over its five-card
/// sub-multisets (brute force, so obviously right).
pub fn best_class_of_ranks(counts: &[u8; 13]) -> (u8, u32) {
    let mut best = (0, 0);
    let mut sub = [0u8; 13];
    fn walk(r: usize, left: u8, counts: &[u8; 13], sub: &mut [u8; 13], best: &mut (u8, u32)) {
        if left == 0 {
            *best = (*best).max(class_of_five(sub));
            return;
        }
        if r == 13 {
            return;
        }
        for take in (0..=counts[r].min(left)).rev() {
            sub[r] = take;
            walk(r + 1, left - take, counts, sub, best);
        }
        sub[r] = 0;
    }
    walk(0, 5, counts, &mut sub, &mut best);
    best
}

/// Best class of a flush given as a rank mask with five to seven bits set.
pub fn best_class_of_flush(mask: u16) -> (u8, u32) {
    let mut best = (0, 0);
    for sub in 0u16..(1 << 13) {
        if sub & !mask == 0 && sub.count_ones() == 5 {
            best = best.max(class_of_flush_five(sub));
        }
    }
    best
}

/// Every distinct five-card class, sorted from worst to best within each category:
/// `classes[category]` lists the tiebreaks. 7,462 in all (RULES.md EV-2).
pub fn all_classes() -> [Vec<u32>; 9] {
    let mut classes: [Vec<u32>; 9] = Default::default();
    for_each_rank_multiset(5, &mut |counts| {
        let (c, t) = class_of_five(counts);
        classes[c as usize].push(t);
    });
    for mask in 0u16..(1 << 13) {
        if mask.count_ones() == 5 {
            let (c, t) = class_of_flush_five(mask);
            classes[c as usize].push(t);
        }
    }
    for list in classes.iter_mut() {
        list.sort_unstable();
        list.dedup();
    }
    classes
}

/// Calls `f` with every multiset of exactly `n` ranks, each rank at most four times.
pub fn for_each_rank_multiset(n: u8, f: &mut dyn FnMut(&[u8; 13])) {
    fn walk(r: usize, left: u8, counts: &mut [u8; 13], f: &mut dyn FnMut(&[u8; 13])) {
        if r == 13 {
            if left == 0 {
                f(counts);
            }
            return;
        }
        for take in 0..=left.min(4) {
            counts[r] = take;
            walk(r + 1, left - take, counts, f);
        }
        counts[r] = 0;
    }
    walk(0, n, &mut [0; 13], f);
}

/// Sum of rank keys of a multiset.
pub fn rank_key(counts: &[u8; 13]) -> u32 {
    counts
        .iter()
        .zip(RANK_KEYS)
        .map(|(&c, k)| u32::from(c) * k)
        .sum()
}

/// The hand value of a class: `category << 12 | position of the tiebreak in its category`.
pub fn value_of(classes: &[Vec<u32>; 9], (category, tiebreak): (u8, u32)) -> u16 {
    let index = classes[category as usize]
        .binary_search(&tiebreak)
        .expect("every class is listed");
    u16::from(category) << 12 | index as u16
}

/// The perfect hash from rank-key sums to a compact table: returns the row offsets
/// (`index = mix(key).wrapping_add(offsets[mix(key) >> OFFSET_SHIFT])`) and the table
/// length.
/// First fit, fullest rows first, each row's first key at the first free slot or later
/// (Czech, Havas and Majewski, "Perfect hashing", 1997, section 5.2).
pub fn perfect_hash(keys: &[u32]) -> (Vec<u32>, usize) {
    // One row for every 24-bit key, so that even an invalid hand's key has a row.
    let rows = 1 << (KEY_BITS - OFFSET_SHIFT);
    let mut by_row: Vec<Vec<i64>> = vec![Vec::new(); rows];
    for k in keys.iter().map(|&k| mix(k)) {
        by_row[(k >> OFFSET_SHIFT) as usize].push(i64::from(k & ((1 << OFFSET_SHIFT) - 1)));
    }
    let mut order: Vec<usize> = (0..rows).filter(|&r| !by_row[r].is_empty()).collect();
    order.sort_by_key(|&r| std::cmp::Reverse(by_row[r].len()));
    let mut used = vec![false; keys.len() * 4];
    let mut first_free = 0usize;
    let mut offsets = vec![0u32; rows];
    for row in order {
        let cols = &mut by_row[row];
        cols.sort_unstable();
        let fits = |shift: i64| cols.iter().all(|&c| !used[(c + shift) as usize]);
        let shift = (first_free as i64 - cols[0]..)
            .find(|&s| fits(s))
            .expect("room is left");
        for &c in cols.iter() {
            used[(c + shift) as usize] = true;
        }
        while used[first_free] {
            first_free += 1;
        }
        offsets[row] = (shift - ((row as i64) << OFFSET_SHIFT)) as u32;
    }
    let len = used.iter().rposition(|&u| u).map_or(0, |last| last + 1);
    (offsets, len)
}
