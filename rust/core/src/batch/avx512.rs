//! The AVX-512 batch kernel: 16 hands per iteration, one per 32-bit lane, for CPUs with
//! AVX-512 F, BW, DQ, VBMI and BITALG (Ice Lake and later, Zen 4 and later).
//!
//! It computes what [`Hand::value`] does, in vectors. Each byte of 16 rows becomes a
//! code (one byte permute for 64 bytes); per card, one byte permute moves the codes
//! into the lanes, a register-resident table gives the rank key, and a rotation the
//! card's bit by suit then rank (as in [`Hand`]'s mask), summed into two halves. The
//! bits validate the rows (counted) and give the flushes (a suit with five or more);
//! the hash and the two table lookups are gathers. Rows past the last multiple of 16
//! go to the portable kernel.

use crate::cards::check_cards;
use crate::eval::{HandValue, OFFSETS, VALUES};
use crate::tablegen::{MIX_MULTIPLIER, OFFSET_SHIFT, RANK_KEYS};
use std::arch::x86_64::*;

/// Hands per iteration: one per 32-bit lane.
const LANES: usize = 16;

// A flush's index is its 13-bit rank mask, so every one is inside the flush table.
const _: () = assert!(VALUES.flush.len() == 1 << 13);

/// Proof that this CPU runs the kernel: only [`Avx512::detect`] makes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Avx512(());

impl Avx512 {
    pub(crate) fn detect() -> Option<Avx512> {
        let supported = is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512dq")
            && is_x86_feature_detected!("avx512vbmi")
            && is_x86_feature_detected!("avx512bitalg");
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

/// The code of each byte, by its low six bits: the rank in bits 0..=3, then the suit's
/// low bit in bit 4 and its high bit in bit 7. Bytes 52..=63 (and every byte above 63,
/// which aliases one below) are not cards: the range check rejects them.
static CODES: [u8; 64] = {
    let mut codes = [0; 64];
    let mut card = 0;
    while card < 52 {
        let (rank, suit) = (card as u8 >> 2, card as u8 & 3);
        codes[card] = rank | (suit & 1) << 4 | (suit >> 1) << 7;
        card += 1;
    }
    codes
};

/// Evaluates rows of `W` cards (`rows.len() == W * out.len()`), validating them in the
/// same pass: `Err` gives the first row that is not `W` distinct cards 0..=51.
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vbmi,avx512bitalg")]
fn evaluate_chunk<const W: usize>(rows: &[u8], out: &mut [HandValue]) -> Result<(), usize> {
    const { assert!(5 <= W && W <= 7) };
    assert_eq!(rows.len(), W * out.len());
    let bytes = LANES * W; // 80 to 112: one full load, then a masked one
    let tail_mask: __mmask64 = (1 << (bytes - 64)) - 1;
    // SAFETY: `CODES` is 64 bytes; unaligned loads are allowed.
    #[allow(unsafe_code)]
    let codes = unsafe { _mm512_loadu_si512(CODES.as_ptr().cast()) };
    // Card `j` of row `i` is byte `W * i + j` of the block; the byte permute puts it in
    // bytes 0 and 3 of lane `i` (bit 31 is then the code's bit 7).
    let lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let first_cards = _mm512_mullo_epi32(lane, _mm512_set1_epi32(W as i32 * 0x0100_0001));
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
    let one = _mm512_set1_epi32(1);
    let key_mask = _mm512_set1_epi32((1 << crate::tablegen::KEY_BITS) - 1);
    let multiplier = _mm512_set1_epi32(MIX_MULTIPLIER as i32);
    let lookup_len = _mm512_set1_epi32(VALUES.lookup.len() as i32);
    let last_index = _mm512_sub_epi32(lookup_len, one);
    let five = _mm512_set1_epi16(5);
    let ones = _mm512_set1_epi16(1);
    let rank_mask = _mm512_set1_epi32(0x1fff);

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
        let (low, high) = (
            _mm512_permutexvar_epi8(low, codes),
            _mm512_permutexvar_epi8(high, codes),
        );
        let mut keys = _mm512_setzero_si512();
        // The sum of each card's bit, `1 << rank` shifted by 16 if the suit is odd, over
        // all cards (bits 0..=31), and over the suits 2 and 3 only.
        let mut all_bits = _mm512_setzero_si512();
        let mut high_suits = _mm512_setzero_si512();
        for j in 0..W {
            let index = _mm512_add_epi32(first_cards, _mm512_set1_epi32(j as i32 * 0x0100_0001));
            // Only bytes 0 and 3 of a lane are the code: the table permute reads bits
            // 0..=3 (the rank), the rotation bits 0..=4, and the mask bit 31.
            let code = _mm512_permutex2var_epi8(low, index, high);
            keys = _mm512_add_epi32(keys, _mm512_permutexvar_epi32(code, rank_keys));
            let bit = _mm512_rolv_epi32(one, code);
            all_bits = _mm512_add_epi32(all_bits, bit);
            high_suits =
                _mm512_mask_add_epi32(high_suits, _mm512_movepi32_mask(code), high_suits, bit);
        }
        // Each 16-bit half of the two sums is the rank mask of one suit, as in `Hand`'s
        // mask. Once every byte is known to be below 52 (checked after the loop), a row
        // is `W` distinct cards exactly when its bits number `W`: a repeated card
        // carries and loses a bit (and carries stay inside the half).
        let low_suits = _mm512_sub_epi32(all_bits, high_suits);
        let (low_counts, high_counts) = (
            _mm512_popcnt_epi16(low_suits),
            _mm512_popcnt_epi16(high_suits),
        );
        let cards = _mm512_madd_epi16(_mm512_add_epi16(low_counts, high_counts), ones);
        fewest_cards = _mm512_min_epu32(fewest_cards, cards);
        // The flush suit's ranks (at most one suit has five of seven cards), else 0.
        let flush = _mm512_maskz_mov_epi16(_mm512_cmpge_epu16_mask(low_counts, five), low_suits);
        let flush = _mm512_mask_mov_epi16(
            flush,
            _mm512_cmpge_epu16_mask(high_counts, five),
            high_suits,
        );
        // (flush | flush >> 16) & 0x1fff: the suit's half, wherever it is.
        let flush = _mm512_ternarylogic_epi32(flush, _mm512_srli_epi32(flush, 16), rank_mask, 0xa8);
        let flushes = _mm512_test_epi32_mask(flush, flush);

        // The perfect hash of `Hand::value`.
        let mixed = _mm512_and_si512(_mm512_mullo_epi32(keys, multiplier), key_mask);
        let row = _mm512_srli_epi32(mixed, OFFSET_SHIFT);
        // SAFETY: `mixed` has 24 bits, so `row < 2^14 == OFFSETS.len()`: every lane
        // reads 4 bytes inside `OFFSETS`.
        #[allow(unsafe_code)]
        let offsets = unsafe { _mm512_i32gather_epi32::<4>(row, OFFSETS.as_ptr().cast()) };
        // A valid hand's index is in the table; any other is clamped into it.
        let index = _mm512_min_epu32(_mm512_add_epi32(mixed, offsets), last_index);
        // Flushes read the flush table instead, right after.
        let index = _mm512_mask_add_epi32(index, flushes, flush, lookup_len);
        // SAFETY: each lane reads the 4 bytes at `2 * index` of `VALUES` (`repr(C)`),
        // and `index <= lookup.len() + 0x1fff == lookup.len() + flush.len() - 1`: at
        // most up to the zero entry that ends it.
        #[allow(unsafe_code)]
        let words = unsafe { _mm512_i32gather_epi32::<2>(index, (&raw const VALUES).cast()) };
        // The low 16 bits of each word are the entry.
        let found = _mm512_cvtepi32_epi16(words);
        // SAFETY: `values` holds 16 `u16`s, 32 bytes; unaligned stores are allowed.
        #[allow(unsafe_code)]
        unsafe {
            _mm256_storeu_si256(values.as_mut_ptr().cast(), found)
        };
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
