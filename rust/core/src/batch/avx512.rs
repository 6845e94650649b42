//! The AVX-512 batch kernel: 16 hands per iteration, one per 32-bit lane, for CPUs with
//! AVX-512 F, BW, VBMI and VPOPCNTDQ (Ice Lake and later, Zen 4 and later).
//!
//! Per card of the 16 rows: one byte permute moves it into the lanes, register-resident
//! tables give its rank key and suit counter, and two shifts its bit for validation.
//! The hash and the final lookup are computed in vectors (two gathers). Flushes, rare,
//! are finished with the scalar [`Hand`], which gives the same values by construction;
//! the rows past the last multiple of 16 go to the portable kernel.

use crate::cards::check_cards;
use crate::eval::{Hand, HandValue, LOOKUP_PADDED, OFFSETS};
use crate::tablegen::{MIX_MULTIPLIER, OFFSET_SHIFT, RANK_KEYS};
use std::arch::x86_64::*;

/// Hands per iteration: one per 32-bit lane.
const LANES: usize = 16;

/// Proof that this CPU runs the kernel: only [`Avx512::detect`] makes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Avx512(());

impl Avx512 {
    pub(crate) fn detect() -> Option<Avx512> {
        let supported = is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512vbmi")
            && is_x86_feature_detected!("avx512vpopcntdq");
        supported.then_some(Avx512(()))
    }

    /// See [`evaluate_chunk`].
    pub(crate) fn evaluate_chunk<const W: usize>(
        self,
        rows: &[u8],
        out: &mut [HandValue],
    ) -> Result<(), usize> {
        // SAFETY: calling a `target_feature` function is sound when the CPU has the
        // features, which `detect` checked at run time before making `self`.
        #[allow(unsafe_code)]
        unsafe {
            evaluate_chunk::<W>(rows, out)
        }
    }
}

/// Evaluates rows of `W` cards (`rows.len() == W * out.len()`), validating them in the
/// same pass: `Err` gives the first row that is not `W` distinct cards 0..=51.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vpopcntdq")]
fn evaluate_chunk<const W: usize>(rows: &[u8], out: &mut [HandValue]) -> Result<(), usize> {
    const { assert!(5 <= W && W <= 7) };
    assert_eq!(rows.len(), W * out.len());
    let bytes = LANES * W; // 80 to 112: one full load, then a masked one
    let tail_mask: __mmask64 = (1 << (bytes - 64)) - 1;
    let lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    // Card `j` of row `i` is byte `W * i + j` of the two loaded vectors.
    let lane_start = _mm512_mullo_epi32(lane, _mm512_set1_epi32(W as i32));
    let rank_keys = _mm512_setr_epi32(
        RANK_KEYS[0] as i32,
        RANK_KEYS[1] as i32,
        RANK_KEYS[2] as i32,
        RANK_KEYS[3] as i32,
        RANK_KEYS[4] as i32,
        RANK_KEYS[5] as i32,
        RANK_KEYS[6] as i32,
        RANK_KEYS[7] as i32,
        RANK_KEYS[8] as i32,
        RANK_KEYS[9] as i32,
        RANK_KEYS[10] as i32,
        RANK_KEYS[11] as i32,
        RANK_KEYS[12] as i32,
        0,
        0,
        0,
    );
    // Indexed by `card % 16`, whose low two bits are the suit: a byte counter per suit.
    let suit_counters = _mm512_sllv_epi32(
        _mm512_set1_epi32(1),
        _mm512_slli_epi32(_mm512_and_si512(lane, _mm512_set1_epi32(3)), 3),
    );
    let one = _mm512_set1_epi32(1);
    // Each suit counter starts at 3, so a fifth card of one suit sets its bit 3.
    let counters_start = _mm512_set1_epi32(0x0303_0303);
    let flush_bits = _mm512_set1_epi32(0x0808_0808);
    let key_mask = _mm512_set1_epi32((1 << crate::tablegen::KEY_BITS) - 1);
    let multiplier = _mm512_set1_epi32(MIX_MULTIPLIER as i32);
    let last_index = _mm512_set1_epi32(LOOKUP_PADDED.values.len() as i32 - 1);

    let mut fewest_cards = _mm512_set1_epi32(W as i32);
    let mut largest_byte = _mm512_setzero_si512();
    let mut row_blocks = rows.chunks_exact(bytes);
    let mut out_blocks = out.chunks_exact_mut(LANES);
    for (block, values) in (&mut row_blocks).zip(&mut out_blocks) {
        // SAFETY: `block` holds `bytes` (80 to 112) bytes: the first load reads 64 of
        // them and the masked load only the `bytes - 64` after those (masked-out bytes
        // are not accessed). Unaligned loads are allowed.
        #[allow(unsafe_code)]
        let (low, high) = unsafe {
            (
                _mm512_loadu_si512(block.as_ptr().cast()),
                _mm512_maskz_loadu_epi8(tail_mask, block.as_ptr().add(64).cast()),
            )
        };
        largest_byte = _mm512_max_epu8(largest_byte, _mm512_max_epu8(low, high));
        let mut keys = _mm512_setzero_si512();
        let mut suits = counters_start;
        // Sums of `1 << card` over the cards below 32, and of `1 << card % 32` over all.
        let mut low_bits = _mm512_setzero_si512();
        let mut all_bits = _mm512_setzero_si512();
        for j in 0..W {
            let index = _mm512_add_epi32(lane_start, _mm512_set1_epi32(j as i32));
            // Byte 0 of each lane is the card, the other three zeros.
            let card = _mm512_maskz_permutex2var_epi8(0x1111_1111_1111_1111, low, index, high);
            let rank = _mm512_srli_epi32(card, 2);
            keys = _mm512_add_epi32(keys, _mm512_permutexvar_epi32(rank, rank_keys));
            suits = _mm512_add_epi32(suits, _mm512_permutexvar_epi32(card, suit_counters));
            low_bits = _mm512_add_epi32(low_bits, _mm512_sllv_epi32(one, card));
            all_bits = _mm512_add_epi32(all_bits, _mm512_rolv_epi32(one, card));
        }
        // Cards 32..=51 as bits 0..=19. Once every byte is known to be below 52 (checked
        // after the loop), a row is `W` distinct cards exactly when its bits number `W`:
        // a repeated card carries and loses a bit.
        let high_bits = _mm512_sub_epi32(all_bits, low_bits);
        let cards = _mm512_add_epi32(
            _mm512_popcnt_epi32(low_bits),
            _mm512_popcnt_epi32(high_bits),
        );
        fewest_cards = _mm512_min_epu32(fewest_cards, cards);

        // The perfect hash of `Hand::value`, in vectors.
        let mixed = _mm512_and_si512(_mm512_mullo_epi32(keys, multiplier), key_mask);
        let row = _mm512_srli_epi32(mixed, OFFSET_SHIFT);
        // SAFETY: `mixed` has 24 bits, so `row < 2^14 == OFFSETS.len()`: every lane
        // reads 4 bytes inside `OFFSETS`.
        #[allow(unsafe_code)]
        let offsets = unsafe { _mm512_i32gather_epi32::<4>(row, OFFSETS.as_ptr().cast()) };
        // A valid hand's index is in the table; any other is clamped into it.
        let index = _mm512_min_epu32(_mm512_add_epi32(mixed, offsets), last_index);
        // SAFETY: `index <= values.len() - 1`, and each lane reads the 4 bytes at
        // `2 * index`: at most up to the padding entry right after `values`, inside
        // `LOOKUP_PADDED` (`repr(C)`).
        #[allow(unsafe_code)]
        let words =
            unsafe { _mm512_i32gather_epi32::<2>(index, (&raw const LOOKUP_PADDED).cast()) };
        // The low 16 bits of each word are the entry.
        let found = _mm512_cvtepi32_epi16(words);
        // SAFETY: `values` holds 16 `u16`s, 32 bytes; unaligned stores are allowed.
        #[allow(unsafe_code)]
        unsafe {
            _mm256_storeu_si256(values.as_mut_ptr().cast(), found)
        };

        let mut flushes = _mm512_test_epi32_mask(suits, flush_bits);
        while flushes != 0 {
            let i = flushes.trailing_zeros() as usize;
            values[i] = Hand::EMPTY.add_cards(&block[W * i..W * (i + 1)]).value();
            flushes &= flushes - 1;
        }
    }
    let tail =
        super::evaluate_chunk_portable::<W>(row_blocks.remainder(), out_blocks.into_remainder());
    let valid = _mm512_reduce_min_epu32(fewest_cards) == W as u32
        && _mm512_cmpge_epu8_mask(largest_byte, _mm512_set1_epi8(52)) == 0;
    if valid && tail.is_ok() {
        return Ok(());
    }
    Err(rows
        .chunks_exact(W)
        .position(|row| check_cards(row).is_err())
        .expect("a row is invalid"))
}
