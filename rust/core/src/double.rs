//! Double Hold'em (RULES.md DH-2 to DH-6): three hole cards, one chosen as the point
//! card; Hand 1 pairs it with the first other card in dealing order, Hand 2 with the
//! second; the better of the two Hold'em hands plays and the other is ignored.

use crate::batch::rows_in_parallel;
use crate::cards::{check_cards, rank, suit, Card};
use crate::error::CoreError;
use crate::eval::{vector::Table, Hand, HandValue};
use crate::hand::best_five;

/// The outcome of one player's hand (DH-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolution {
    /// The player's value: the better of Hand 1 and Hand 2.
    pub value: HandValue,
    /// Which hand plays: 1 or 2 (equal values report 1).
    pub hand: u8,
    /// The five cards that make `value`.
    pub best_five: [Card; 5],
}

/// The two non-point cards, in dealing order (DH-3).
#[inline(always)]
pub fn partners(point: usize) -> (usize, usize) {
    // Branch-free (0 -> (1, 2), 1 -> (0, 2), 2 -> (0, 1)): batches mix points at random.
    (usize::from(point == 0), 2 - usize::from(point == 2))
}

fn check_point(point: usize) -> Result<(), CoreError> {
    if point > 2 {
        return Err(CoreError::invalid_hand(format!(
            "point {point} is not an index into the three hole cards (0, 1 or 2)"
        )));
    }
    Ok(())
}

fn check_deal(hole: &[Card; 3], board: &[Card; 5]) -> Result<(), CoreError> {
    let mut all = [0u8; 8];
    all[..3].copy_from_slice(hole);
    all[3..].copy_from_slice(board);
    check_cards(&all)
}

/// The values of Hand 1 and Hand 2 for point card `point` (DH-3, DH-4).
#[inline(always)]
fn hand_values(hole: &[Card; 3], point: usize, board: Hand) -> (HandValue, HandValue) {
    let (a, b) = partners(point);
    let with_point = board.add_card(hole[point]);
    (
        with_point.add_card(hole[a]).value(),
        with_point.add_card(hole[b]).value(),
    )
}

/// Resolves one player's hand: their value, which hand plays and its best five cards.
pub fn resolve(hole: &[Card; 3], point: usize, board: &[Card; 5]) -> Result<Resolution, CoreError> {
    check_point(point)?;
    check_deal(hole, board)?;
    let (v1, v2) = hand_values(hole, point, Hand::EMPTY.add_cards(board));
    let (hand, partner) = if v1 >= v2 {
        (1, partners(point).0)
    } else {
        (2, partners(point).1)
    };
    let mut seven = [0u8; 7];
    seven[..5].copy_from_slice(board);
    seven[5] = hole[point];
    seven[6] = hole[partner];
    Ok(Resolution {
        value: v1.max(v2),
        hand,
        best_five: best_five(&seven)?,
    })
}

/// The player's value for each of the three possible point cards.
pub fn point_values(hole: &[Card; 3], board: &[Card; 5]) -> Result<[HandValue; 3], CoreError> {
    check_deal(hole, board)?;
    let board = Hand::EMPTY.add_cards(board);
    Ok([0, 1, 2].map(|p| {
        let (v1, v2) = hand_values(hole, p, board);
        v1.max(v2)
    }))
}

/// The automatic point card (DH-6): the highest rank; between two of the highest rank
/// the one whose suit matches the third card, else the higher suit; of three of a kind
/// the highest suit. Suit order clubs < diamonds < hearts < spades.
pub fn auto_point(hole: &[Card; 3]) -> Result<usize, CoreError> {
    check_cards(hole)?;
    let top = hole.iter().map(|&c| rank(c)).max().expect("three cards");
    let highest: Vec<usize> = (0..3).filter(|&i| rank(hole[i]) == top).collect();
    let higher_suit = |x: usize, y: usize| if suit(hole[x]) > suit(hole[y]) { x } else { y };
    Ok(match highest[..] {
        [only] => only, // (a)
        [x, y] => {
            let third = 3 - x - y;
            if suit(hole[x]) == suit(hole[third]) {
                x // (b)
            } else if suit(hole[y]) == suit(hole[third]) {
                y // (b)
            } else {
                higher_suit(x, y) // (c)
            }
        }
        _ => higher_suit(higher_suit(0, 1), 2), // (d)
    })
}

/// Resolves many players: `holes` is N rows of 3 cards, `points` N indices 0..=2,
/// `boards` N rows of 5 cards; writes each player's value into `out` (length N).
pub fn resolve_rows(
    holes: &[u8],
    points: &[u8],
    boards: &[u8],
    out: &mut [HandValue],
) -> Result<(), CoreError> {
    let n = out.len();
    if holes.len() != 3 * n || points.len() != n || boards.len() != 5 * n {
        return Err(CoreError::invalid_hand(format!(
            "holes (N, 3), points (N,) and boards (N, 5) must agree on N: got {} holes, {} points, {} boards",
            holes.len() / 3,
            points.len(),
            boards.len() / 5
        )));
    }
    rows_in_parallel(out, |start, out| {
        resolve_chunk(
            &holes[3 * start..],
            &points[start..],
            &boards[5 * start..],
            out,
        )
    })
    .map_err(|i| {
        let error = row_error(holes, points, boards, i);
        error.expect("the fast check found this row bad").in_row(i)
    })
}

/// Why player `i` of a batch is bad, if they are: a point that is not 0..=2, or hole
/// and board cards that are not distinct cards.
fn row_error(holes: &[u8], points: &[u8], boards: &[u8], i: usize) -> Option<CoreError> {
    let cards = [&holes[3 * i..3 * i + 3], &boards[5 * i..5 * i + 5]].concat();
    check_point(points[i].into())
        .and_then(|()| check_cards(&cards))
        .err()
}

fn resolve_chunk(
    holes: &[u8],
    points: &[u8],
    boards: &[u8],
    out: &mut [HandValue],
) -> Result<(), usize> {
    crate::sse2!(resolve_chunk_vectorized(holes, points, boards, out))
}

#[cfg_attr(target_arch = "x86_64", target_feature(enable = "sse2"))]
fn resolve_chunk_vectorized(
    holes: &[u8],
    points: &[u8],
    boards: &[u8],
    out: &mut [HandValue],
) -> Result<(), usize> {
    let table = Table::new();
    let mut invalid = 0;
    let rows = holes
        .chunks_exact(3)
        .zip(points)
        .zip(boards.chunks_exact(5));
    for (((hole, &point), board), value) in rows.zip(out.iter_mut()) {
        let (a, b) = partners(point as usize);
        let with_point = table.add_cards(Hand::EMPTY, board);
        let with_point = table.add_cards(with_point, &[hole[usize::from(point).min(2)]]);
        let hand1 = table.add_cards(with_point, &[hole[a]]);
        let hand2 = table.add_cards(with_point, &[hole[b]]);
        // Two valid 7-card hands leave one possible repeat: the two partners.
        invalid |= (hand1.card_count() ^ 7)
            | (hand2.card_count() ^ 7)
            | u32::from(hole[a] == hole[b])
            | u32::from(point > 2);
        *value = hand1.value().max(hand2.value());
    }
    if invalid == 0 {
        return Ok(());
    }
    Err((0..out.len())
        .find(|&i| row_error(holes, points, boards, i).is_some())
        .expect("a row is invalid"))
}
