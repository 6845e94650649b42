//! Suit isomorphism. Renaming the suits (RULES.md: suits never rank, EV-1) maps every
//! deal to one with the same values. The renamings that leave the board, the dead
//! cards and every player's range (with its weights) as they are form a group; deals
//! of hands that one of them maps onto each other have equal tallies over all boards,
//! so one deal per class is enumerated and counted as many times as its class has
//! members.

use super::{Combo, Spec, MAX_PLAYERS};
use crate::cards::Card;

/// A renaming of the suits: suit s becomes `perm[s]`.
pub(crate) type Perm = [u8; 4];

pub(crate) fn all_perms() -> Vec<Perm> {
    let mut perms = Vec::with_capacity(24);
    for a in 0..4u8 {
        for b in (0..4).filter(|&b| b != a) {
            for c in (0..4).filter(|&c| c != a && c != b) {
                perms.push([a, b, c, 6 - a - b - c]);
            }
        }
    }
    perms
}

#[inline]
fn rename(card: Card, perm: &Perm) -> Card {
    card & !3 | perm[usize::from(card & 3)]
}

fn rename_combo(combo: &Combo, perm: &Perm) -> Combo {
    let cards = combo.cards.map(|c| rename(c, perm));
    Combo {
        cards,
        weight: combo.weight,
        mask: combo.mask,
    }
}

fn rename_bits(mask: u64, perm: &Perm) -> u64 {
    let (mut rest, mut out) = (mask, 0);
    while rest != 0 {
        out |= 1 << rename(rest.trailing_zeros() as Card, perm);
        rest &= rest - 1;
    }
    out
}

/// The renamings that leave the question as it is (the identity first).
pub(crate) fn symmetries(spec: &Spec) -> Vec<Perm> {
    let sorted = |combos: &mut dyn Iterator<Item = Combo>| {
        let mut keys: Vec<(u32, u64)> = combos.map(|c| (c.key(spec.variant), c.weight)).collect();
        keys.sort_unstable();
        keys
    };
    let originals: Vec<Vec<(u32, u64)>> = spec
        .players
        .iter()
        .map(|p| sorted(&mut p.iter().copied()))
        .collect();
    let board = super::mask_of(&spec.board);
    let dead = super::mask_of(&spec.dead);
    all_perms()
        .into_iter()
        .filter(|perm| {
            rename_bits(board, perm) == board
                && rename_bits(dead, perm) == dead
                && spec.players.iter().zip(&originals).all(|(p, keys)| {
                    p.len() == keys.len()
                        && sorted(&mut p.iter().map(|c| rename_combo(c, perm))) == *keys
                })
        })
        .collect()
}

/// One deal of hands standing for its class: each player's hand (an index into the
/// player's range), the cards held, and the weight of the class (the product of the
/// hands' weights times the number of deals in the class).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Class {
    pub hands: [u32; MAX_PLAYERS],
    pub mask: u64,
    pub weight: u128,
    /// The number of deals in the class.
    pub deals: u64,
}

/// Every deal of hands with no card twice, one per class under `perms` (the
/// [`symmetries`] of `spec`).
pub(crate) fn classes(spec: &Spec, perms: &[Perm]) -> Vec<Class> {
    // For each renaming, each player's hand index -> the index of its image.
    let images: Vec<Vec<Vec<u32>>> = perms[1..]
        .iter()
        .map(|perm| {
            spec.players
                .iter()
                .map(|range| {
                    let index: std::collections::HashMap<u32, u32> = range
                        .iter()
                        .enumerate()
                        .map(|(i, c)| (c.key(spec.variant), i as u32))
                        .collect();
                    range
                        .iter()
                        .map(|c| index[&rename_combo(c, perm).key(spec.variant)])
                        .collect()
                })
                .collect()
        })
        .collect();
    let group = perms.len() as u128;
    let mut out = Vec::new();
    let mut hands = [0u32; MAX_PLAYERS];
    let n = spec.players.len();
    let mut visit = |hands: &[u32; MAX_PLAYERS], mask: u64, weight: u128| {
        // Canonical: no renaming gives a smaller sequence of hand indices.
        let mut fixed = 1u128;
        for image in &images {
            let mut order = std::cmp::Ordering::Equal;
            for (i, map) in image.iter().enumerate().take(n) {
                order = map[hands[i] as usize].cmp(&hands[i]);
                if order.is_ne() {
                    break;
                }
            }
            match order {
                std::cmp::Ordering::Less => return,
                std::cmp::Ordering::Equal => fixed += 1,
                std::cmp::Ordering::Greater => {}
            }
        }
        out.push(Class {
            hands: *hands,
            mask,
            weight: weight * (group / fixed),
            deals: (group / fixed) as u64,
        });
    };
    fn deal(
        spec: &Spec,
        player: usize,
        hands: &mut [u32; MAX_PLAYERS],
        used: u64,
        weight: u128,
        visit: &mut dyn FnMut(&[u32; MAX_PLAYERS], u64, u128),
    ) {
        if player == spec.players.len() {
            visit(hands, used, weight);
            return;
        }
        for (i, combo) in spec.players[player].iter().enumerate() {
            if combo.mask & used == 0 {
                hands[player] = i as u32;
                deal(
                    spec,
                    player + 1,
                    hands,
                    used | combo.mask,
                    weight * u128::from(combo.weight),
                    visit,
                );
            }
        }
    }
    deal(spec, 0, &mut hands, 0, 1, &mut visit);
    out
}

/// For a set of cards (a bit set) mapped into the sets of its kind by the renamings
/// `perms` (a group, such as [`symmetries`]): the number of sets in its class if it
/// is the smallest of them, else `None`. Summing over the smallest sets, each times
/// its class's size, counts every set once.
pub(crate) fn class_size(set: u64, perms: &[Perm]) -> Option<u64> {
    let mut images = [0u64; 24];
    let mut size = 0;
    for perm in perms {
        let image = rename_bits(set, perm);
        if image < set {
            return None;
        }
        if !images[..size].contains(&image) {
            images[size] = image;
            size += 1;
        }
    }
    Some(size as u64)
}

/// The number of deals of hands with no card twice (before classes), capped at `cap`.
pub(crate) fn count_deals(spec: &Spec, cap: u64) -> u64 {
    fn count(players: &[Vec<Combo>], used: u64, cap: u64) -> u64 {
        match players.split_first() {
            None => 1,
            Some((first, rest)) => {
                let mut total = 0u64;
                for c in first.iter().filter(|c| c.mask & used == 0) {
                    total = total.saturating_add(count(rest, used | c.mask, cap - total.min(cap)));
                    if total >= cap {
                        return cap;
                    }
                }
                total
            }
        }
    }
    count(&spec.players, 0, cap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::showdown::texas_spec as spec;

    #[test]
    fn fixed_hands_keep_the_renamings_that_fix_them() {
        // AhKh vs QsQd: clubs and hearts stay; spades and diamonds may swap.
        assert_eq!(symmetries(&spec(&[&["Ah Kh"], &["Qs Qd"]], "")).len(), 2);
        // With no card known at all every renaming fits.
        let pairs = ["Ac Ad", "Ac Ah", "Ac As", "Ad Ah", "Ad As", "Ah As"];
        assert_eq!(symmetries(&spec(&[&pairs, &pairs], "")).len(), 24);
        assert_eq!(symmetries(&spec(&[&pairs, &pairs], "2c 3c 4d")).len(), 2);
    }

    #[test]
    fn classes_weigh_up_to_every_deal() {
        let pairs = ["Ac Ad", "Ac Ah", "Ac As", "Ad Ah", "Ad As", "Ah As"];
        let kings = ["Kc Kd", "Kc Kh", "Kc Ks", "Kd Kh", "Kd Ks", "Kh Ks"];
        let s = spec(&[&pairs, &kings], "");
        let classes = classes(&s, &symmetries(&s));
        assert!(classes.len() < 36);
        assert_eq!(classes.iter().map(|c| c.weight).sum::<u128>(), 36);
        assert_eq!(count_deals(&s, 1000), 36);
        let s = spec(&[&pairs, &pairs], "");
        assert_eq!(classes_weight(&s), 6);
        assert_eq!(count_deals(&s, 1000), 6);
    }

    fn classes_weight(s: &Spec) -> u128 {
        classes(s, &symmetries(s)).iter().map(|c| c.weight).sum()
    }
}
