//! Evaluating many hands at once: rows of a C-contiguous `u8` array, split across the
//! current rayon pool. Input is validated in the same pass that evaluates it; the error
//! names the first bad row.

use crate::cards::check_cards;
use crate::error::CoreError;
use crate::eval::{vector::Table, Hand, HandValue};
use rayon::prelude::*;

/// Rows per parallel task: large enough to amortise scheduling, small enough to balance.
pub const ROWS_PER_TASK: usize = 1 << 14;

/// Evaluates rows of `width` (5, 6 or 7) cards each: `cards.len() == out.len() * width`.
pub fn evaluate_rows(cards: &[u8], width: usize, out: &mut [HandValue]) -> Result<(), CoreError> {
    if !(5..=7).contains(&width) {
        return Err(CoreError::invalid_hand(format!(
            "hands have 5, 6 or 7 cards, not {width} (array shape (N, {width}))"
        )));
    }
    if cards.len() != out.len() * width {
        return Err(CoreError::invalid_hand(
            "output length does not match the number of rows",
        ));
    }
    let chunk = match width {
        5 => evaluate_chunk::<5>,
        6 => evaluate_chunk::<6>,
        _ => evaluate_chunk::<7>,
    };
    rows_in_parallel(out, |start, out| chunk(&cards[start * width..], out)).map_err(|row| {
        let error = check_cards(&cards[row * width..(row + 1) * width]);
        error
            .expect_err("the fast check found this row bad")
            .in_row(row)
    })
}

/// Runs `chunk(first_row, out)` over tasks of [`ROWS_PER_TASK`] rows of `out`; on
/// failure (`chunk` returns the bad row within its task) returns the first bad row.
pub(crate) fn rows_in_parallel<O: Send>(
    out: &mut [O],
    chunk: impl Fn(usize, &mut [O]) -> Result<(), usize> + Sync,
) -> Result<(), usize> {
    let first_bad = out
        .par_chunks_mut(ROWS_PER_TASK)
        .enumerate()
        .filter_map(|(task, out)| {
            let start = task * ROWS_PER_TASK;
            chunk(start, out).err().map(|row| start + row)
        })
        .min();
    first_bad.map_or(Ok(()), Err)
}

/// Evaluates first and validates in the same pass, branch-free: only a chunk that
/// holds a bad row is scanned again to find it.
fn evaluate_chunk<const W: usize>(rows: &[u8], out: &mut [HandValue]) -> Result<(), usize> {
    crate::sse2!(evaluate_chunk_vectorized::<W>(rows, out))
}

#[cfg_attr(target_arch = "x86_64", target_feature(enable = "sse2"))]
fn evaluate_chunk_vectorized<const W: usize>(
    rows: &[u8],
    out: &mut [HandValue],
) -> Result<(), usize> {
    let mut cards = 0;
    let table = Table::new();
    for (row, value) in rows.chunks_exact(W).zip(out.iter_mut()) {
        let hand = table.add_cards(Hand::EMPTY, row);
        cards += hand.card_count() as usize;
        *value = hand.value();
    }
    if cards == W * out.len() {
        return Ok(());
    }
    Err(rows
        .chunks_exact(W)
        .position(|row| check_cards(row).is_err())
        .expect("a row is invalid"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate;

    #[test]
    fn batch_matches_single_evaluation() {
        let rows: Vec<u8> = (0..7 * 50_000)
            .map(|i| ((i * 7 + i / 7 * 3) % 52) as u8)
            .collect();
        let hands: Vec<&[u8]> = rows.chunks(7).filter(|r| check_cards(r).is_ok()).collect();
        let flat: Vec<u8> = hands.concat();
        let mut out = vec![0; hands.len()];
        evaluate_rows(&flat, 7, &mut out).unwrap();
        for (hand, value) in hands.iter().zip(&out) {
            assert_eq!(evaluate(hand).unwrap(), *value);
        }
    }

    #[test]
    fn names_the_first_bad_row() {
        let mut rows: Vec<u8> = (0..40_000u32).flat_map(|_| [0u8, 1, 2, 3, 4]).collect();
        rows[5 * 30_000 + 2] = 52;
        rows[5 * 20_000 + 4] = 0;
        let mut out = vec![0; 40_000];
        let err = evaluate_rows(&rows, 5, &mut out).unwrap_err();
        assert_eq!(err, CoreError::DuplicateCard { card: 0 }.in_row(20_000));
        rows[5 * 20_000 + 4] = 4;
        let err = evaluate_rows(&rows, 5, &mut out).unwrap_err();
        assert_eq!(err, CoreError::InvalidCard { card: 52 }.in_row(30_000));
    }
}
