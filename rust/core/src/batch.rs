//! Evaluating many hands at once: rows of a C-contiguous `u8` array, split across the
//! current rayon pool. Input is validated in the same pass that evaluates it; the error
//! names the first bad row.

use crate::cards::check_cards;
use crate::error::CoreError;
use crate::eval::{vector::Table, Hand, HandValue};
use rayon::prelude::*;

#[cfg(target_arch = "x86_64")]
mod avx512;

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
    let kernel = Kernel::best();
    let chunk = match width {
        5 => Kernel::evaluate_chunk::<5>,
        6 => Kernel::evaluate_chunk::<6>,
        _ => Kernel::evaluate_chunk::<7>,
    };
    let chunk = |start: usize, out: &mut [HandValue]| {
        chunk(
            kernel,
            &cards[start * width..(start + out.len()) * width],
            out,
        )
    };
    rows_in_parallel(out, chunk).map_err(|row| {
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

/// A batch kernel: evaluates rows of `W` cards (`rows.len() == W * out.len()`) and
/// validates them in the same pass, returning the first row (within `rows`) that is
/// not `W` distinct cards 0..=51. Every kernel gives the same values and errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    /// Any CPU: one hand at a time, each card one 128-bit addition on x86-64.
    Portable,
    /// 16 hands at a time with AVX-512, chosen at run time.
    #[cfg(target_arch = "x86_64")]
    Avx512(avx512::Avx512),
}

impl Kernel {
    /// The fastest kernel this CPU runs.
    pub(crate) fn best() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx512) = avx512::Avx512::detect() {
            return Kernel::Avx512(avx512);
        }
        Kernel::Portable
    }

    /// Every kernel this CPU runs, the portable one first.
    #[cfg(test)]
    pub(crate) fn all() -> Vec<Kernel> {
        #[allow(unused_mut)]
        let mut kernels = vec![Kernel::Portable];
        #[cfg(target_arch = "x86_64")]
        kernels.extend(avx512::Avx512::detect().map(Kernel::Avx512));
        kernels
    }

    pub(crate) fn evaluate_chunk<const W: usize>(
        self,
        rows: &[u8],
        out: &mut [HandValue],
    ) -> Result<(), usize> {
        match self {
            Kernel::Portable => evaluate_chunk_portable::<W>(rows, out),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512(avx512) => avx512.evaluate_chunk::<W>(rows, out),
        }
    }
}

/// Evaluates first and validates in the same pass, branch-free: only a chunk that
/// holds a bad row is scanned again to find it.
fn evaluate_chunk_portable<const W: usize>(
    rows: &[u8],
    out: &mut [HandValue],
) -> Result<(), usize> {
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
    use crate::eval::{evaluate, tests::reference_value};
    use rand::{rngs::SmallRng, seq::SliceRandom, Rng, SeedableRng};

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

    /// Runs `kernel` on rows of `width` cards.
    fn run(kernel: Kernel, width: usize, rows: &[u8], out: &mut [HandValue]) -> Result<(), usize> {
        match width {
            5 => kernel.evaluate_chunk::<5>(rows, out),
            6 => kernel.evaluate_chunk::<6>(rows, out),
            7 => kernel.evaluate_chunk::<7>(rows, out),
            _ => unreachable!(),
        }
    }

    /// Checks that every kernel this CPU runs (the portable one always) gives each row
    /// of valid `rows` the value of [`evaluate`].
    fn check_all_kernels(width: usize, rows: &[u8]) {
        let expected: Vec<HandValue> = rows.chunks(width).map(|r| evaluate(r).unwrap()).collect();
        for kernel in Kernel::all() {
            let mut out = vec![0xffff; expected.len()];
            assert_eq!(run(kernel, width, rows, &mut out), Ok(()), "{kernel:?}");
            for (i, (got, want)) in out.iter().zip(&expected).enumerate() {
                let row = &rows[i * width..(i + 1) * width];
                assert_eq!(got, want, "{kernel:?}, row {i} {row:?}");
            }
        }
    }

    fn random_rows(rng: &mut SmallRng, width: usize, n: usize) -> Vec<u8> {
        let mut deck: Vec<u8> = (0..52).collect();
        (0..n)
            .flat_map(|_| {
                deck.shuffle(rng);
                deck[..width].to_vec()
            })
            .collect()
    }

    #[test]
    fn portable_kernel_is_always_there() {
        assert_eq!(Kernel::all()[0], Kernel::Portable);
        assert!(Kernel::all().contains(&Kernel::best()));
    }

    #[test]
    fn kernels_agree_on_random_hands_of_every_length() {
        let mut rng = SmallRng::seed_from_u64(10);
        for width in 5..=7 {
            for n in (0..=50).chain([63, 64, 65, 1000, 20_007]) {
                check_all_kernels(width, &random_rows(&mut rng, width, n));
            }
        }
    }

    #[test]
    fn kernels_agree_on_flushes() {
        let mut rng = SmallRng::seed_from_u64(11);
        let mut deck: Vec<u8> = (0..52).collect();
        let mut rows: [Vec<u8>; 3] = Default::default();
        for suit in 0..4u8 {
            let card = |rank: u8| 4 * rank + suit;
            for ranks in 0u16..1 << 13 {
                let suited: Vec<u8> = (0..13).filter(|r| ranks >> r & 1 == 1).map(card).collect();
                match suited.len() {
                    // Every flush of five, six and seven cards of one suit...
                    5..=7 => rows[suited.len() - 5].extend(&suited),
                    _ => continue,
                }
                // ...and with one or two other cards, of any suit.
                for width in suited.len() + 1..=7 {
                    deck.shuffle(&mut rng);
                    let others = deck.iter().filter(|c| !suited.contains(c));
                    rows[width - 5].extend(suited.iter().chain(others.take(width - suited.len())));
                }
            }
            // Every straight flush (the wheel too), alone, longer, or with pairs.
            for low in -1i8..=8 {
                let rank = |r: i8| r.rem_euclid(13) as u8;
                let straight: Vec<u8> = (low..low + 5).map(|r| card(rank(r))).collect();
                let suited = [low + 5, low + 6, low - 1, low - 2].map(|r| card(rank(r)));
                let paired = [low, low + 1].map(|r| 4 * rank(r) + (suit + 1) % 4);
                for extra in [[suited[0], suited[1]], paired, [suited[2], paired[0]]] {
                    let extra = extra.iter().filter(|c| !straight.contains(c));
                    let row: Vec<u8> = straight.iter().chain(extra).copied().collect();
                    for width in 5..=row.len() {
                        rows[width - 5].extend(&row[..width]);
                    }
                }
            }
        }
        for (width, rows) in (5..=7).zip(&rows) {
            check_all_kernels(width, rows);
            // The kernels hand flushes to the scalar path: check it against the reference too.
            let mut out = vec![0; rows.len() / width];
            run(Kernel::best(), width, rows, &mut out).unwrap();
            for (row, value) in rows.chunks(width).zip(&out).step_by(7) {
                assert_eq!(*value, reference_value(row), "{row:?}");
            }
        }
    }

    #[test]
    fn kernels_name_the_first_bad_row_in_every_lane() {
        let mut rng = SmallRng::seed_from_u64(12);
        for width in 5..=7 {
            let n = 16 * 3 + 5; // three full vectors and a tail
            let good = random_rows(&mut rng, width, n);
            for bad_row in 0..n {
                for bad_card in [None, Some(52), Some(63), Some(64), Some(128), Some(255)] {
                    let mut rows = good.clone();
                    let at = bad_row * width + rng.random_range(0..width);
                    rows[at] = bad_card.unwrap_or({
                        // A repeat of another card of the row.
                        let other = bad_row * width + (at - bad_row * width + 1) % width;
                        rows[other]
                    });
                    if bad_row + 1 < n && rng.random_bool(0.5) {
                        // A later bad row does not hide the first.
                        rows[(bad_row + 1) * width] = 52;
                    }
                    for kernel in Kernel::all() {
                        let mut out = vec![0; n];
                        let result = run(kernel, width, &rows, &mut out);
                        assert_eq!(result, Err(bad_row), "{kernel:?} {width} {bad_card:?}");
                    }
                    let mut out = vec![0; n];
                    let err = evaluate_rows(&rows, width, &mut out).unwrap_err();
                    let row = &rows[bad_row * width..(bad_row + 1) * width];
                    assert_eq!(err, check_cards(row).unwrap_err().in_row(bad_row));
                }
            }
        }
    }

    #[test]
    fn many_threads_agree_with_one() {
        let mut rng = SmallRng::seed_from_u64(13);
        let rows = random_rows(&mut rng, 7, 3 * ROWS_PER_TASK + 21);
        let mut one = vec![0; rows.len() / 7];
        let mut many = one.clone();
        crate::parallel::with_threads(Some(1), || evaluate_rows(&rows, 7, &mut one)).unwrap();
        crate::parallel::with_threads(Some(2), || evaluate_rows(&rows, 7, &mut many)).unwrap();
        assert_eq!(one, many);
        check_all_kernels(7, &rows);
    }
}
