//! The product `Π_j (a_j + b_j z)` over the players, kept to the window of its
//! coefficients that matter, and the correlations of the payouts with it that every
//! player's integrand reads (see the quadrature's module docs).

use super::quadrature::Groups;

/// Coefficients of the product below this are dropped from its window.
const TINY: f64 = 1e-22;

/// Factors multiplied into the product at a time (one pass over the window each).
const AT_ONCE: usize = 4;

/// The window `[lo, hi]` of the coefficients of a product of `a + b z`, and the mass
/// dropped from it. Degree k is at `p[AT_ONCE + k]`, with room for zeros either side.
pub(super) struct Window {
    /// The CPU's fused multiply-add, when it has one (see [`Fused`]).
    fused: Option<Fused>,
    /// Each player's factor `(a, b)` at the node being built.
    factors: Vec<(f64, f64)>,
    p: Vec<f64>,
    spare: Vec<f64>,
    pub(super) lo: usize,
    pub(super) hi: usize,
    pub(super) dropped: f64,
}

impl Window {
    pub(super) fn new(n: usize) -> Window {
        Window {
            fused: Fused::detect(),
            factors: Vec::with_capacity(n),
            p: vec![0.0; n + 2 * AT_ONCE + 1],
            spare: vec![0.0; n + 2 * AT_ONCE + 1],
            lo: 0,
            hi: 0,
            dropped: 0.0,
        }
    }

    /// The coefficients, indexed by degree (valid in `[lo, hi]`).
    pub(super) fn coef(&self) -> &[f64] {
        &self.p[AT_ONCE..]
    }

    /// The product over all players at `t` (`a`, `b` per group), its coefficients
    /// above degree `cap` left out (they never change those below). Stops, returning
    /// false, once the window starts at `stop` or above (it never moves down).
    pub(super) fn build(
        &mut self,
        groups: &Groups,
        a: &[f64],
        b: &[f64],
        cap: usize,
        stop: usize,
    ) -> bool {
        self.p[AT_ONCE] = 1.0;
        (self.lo, self.hi, self.dropped) = (0, 0, 0.0);
        let mut factors = std::mem::take(&mut self.factors);
        factors.clear();
        for (g, &c) in groups.count.iter().enumerate() {
            factors.extend(std::iter::repeat_n((a[g], b[g]), c));
        }
        let mut alive = true;
        for chunk in factors.chunks(AT_ONCE) {
            // The product of the next few factors, as a polynomial.
            let mut poly = [0.0; AT_ONCE + 1];
            poly[0] = 1.0;
            for (degree, &(a, b)) in chunk.iter().enumerate() {
                for j in (1..=degree + 1).rev() {
                    poly[j] = a * poly[j] + b * poly[j - 1];
                }
                poly[0] *= a;
            }
            self.multiply(&poly, chunk.len(), cap);
            if self.lo >= stop {
                alive = false;
                break;
            }
        }
        self.factors = factors;
        alive
    }

    /// Multiplies by the polynomial `poly` of degree `degree`, then trims.
    fn multiply(&mut self, poly: &[f64; AT_ONCE + 1], degree: usize, cap: usize) {
        let (lo, hi) = (self.lo + AT_ONCE, self.hi + AT_ONCE);
        let top = (self.hi + degree).min(cap) + AT_ONCE;
        let (src, dst) = (&mut self.p, &mut self.spare);
        src[lo - AT_ONCE..lo].fill(0.0);
        src[hi + 1..=top].fill(0.0);
        let (dst, src) = (&mut dst[lo..=top], &src[lo - AT_ONCE..=top]);
        match self.fused {
            #[cfg(target_arch = "x86_64")]
            Some(fused) => fused.taps(poly, dst, src),
            _ => taps::<false>(poly, dst, src),
        }
        std::mem::swap(&mut self.p, &mut self.spare);
        self.hi = top - AT_ONCE;
        let p = &self.p[AT_ONCE..];
        while self.lo < self.hi && p[self.lo] < TINY {
            self.dropped += p[self.lo];
            self.lo += 1;
        }
        while self.hi > self.lo && p[self.hi] < TINY {
            self.dropped += p[self.hi];
            self.hi -= 1;
        }
    }

    /// `P(N <= k)`, counting the dropped mass in.
    pub(super) fn at_most(&self, k: usize) -> f64 {
        let top = self.hi.min(k);
        let kept: f64 = if top >= self.lo {
            self.coef()[self.lo..=top].iter().sum()
        } else {
            0.0
        };
        kept + self.dropped
    }
}

/// `dst[i] = Σ_j poly[j] src[i + AT_ONCE - j]`: the product's coefficients times the
/// next factors' (`src` is `AT_ONCE` longer than `dst`). Five shifted views of one
/// length make a loop without bounds checks that the compiler vectorises; `FUSED`
/// rounds each product and sum once (for a CPU with fused multiply-add).
#[inline(always)]
fn taps<const FUSED: bool>(poly: &[f64; AT_ONCE + 1], dst: &mut [f64], src: &[f64]) {
    let [c0, c1, c2, c3, c4] = *poly;
    let len = dst.len();
    let (s0, s1, s2) = (&src[..len], &src[1..][..len], &src[2..][..len]);
    let (s3, s4) = (&src[3..][..len], &src[4..][..len]);
    for i in 0..len {
        dst[i] = if FUSED {
            let sum = c3.mul_add(s1[i], c4 * s0[i]);
            c0.mul_add(s4[i], c1.mul_add(s3[i], c2.mul_add(s2[i], sum)))
        } else {
            c4 * s0[i] + c3 * s1[i] + c2 * s2[i] + c1 * s3[i] + c0 * s4[i]
        };
    }
}

/// Proof that this CPU has AVX2 and FMA: only [`Fused::detect`] makes one.
#[derive(Clone, Copy, Debug)]
pub(super) struct Fused(());

impl Fused {
    #[cfg(target_arch = "x86_64")]
    fn detect() -> Option<Fused> {
        let supported = is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma");
        supported.then_some(Fused(()))
    }

    #[cfg(not(target_arch = "x86_64"))]
    fn detect() -> Option<Fused> {
        None
    }

    /// [`taps`] in 256-bit vectors with fused multiply-adds.
    #[cfg(target_arch = "x86_64")]
    fn taps(self, poly: &[f64; AT_ONCE + 1], dst: &mut [f64], src: &[f64]) {
        // SAFETY: calling a `target_feature` function is sound when the CPU has the
        // features, which `detect` checked at run time before making `self`.
        #[allow(unsafe_code)]
        unsafe {
            taps_fused(poly, dst, src)
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn taps_fused(poly: &[f64; AT_ONCE + 1], dst: &mut [f64], src: &[f64]) {
    taps::<true>(poly, dst, src)
}

/// Forward coefficients: `c_j = Σ_r p_r w_{r+j}` over the window, so that
/// `a_i L_i = Σ_j (-x)^j c_j` with `x = b_i / a_i`; the first `most` of them.
pub(super) fn forward(win: &Window, w: &[f64], c: &mut Vec<f64>, most: usize) {
    c.clear();
    if w.is_empty() || win.lo >= w.len() {
        return;
    }
    let top = win.hi.min(w.len() - 1);
    c.resize((top - win.lo + 1).min(most), 0.0);
    let p = win.coef();
    for r in win.lo..=top {
        let pr = p[r];
        for (cj, wk) in c.iter_mut().zip(&w[r..=top]) {
            *cj += pr * wk;
        }
    }
}

/// Backward coefficients: `d_j = Σ_k w_k p_{k+1+j}`, so that
/// `b_i L_i = Σ_j (-1/x)^j d_j`; the first `most` of them.
pub(super) fn backward(win: &Window, w: &[f64], d: &mut Vec<f64>, most: usize) {
    d.clear();
    if win.hi == 0 || w.is_empty() {
        return;
    }
    let first = win.lo.saturating_sub(1);
    let last = (win.hi - 1).min(w.len() - 1);
    if first > last {
        return;
    }
    d.resize((win.hi - first).min(most), 0.0);
    for (k, &wk) in w.iter().enumerate().take(last + 1).skip(first) {
        for (dj, p) in d.iter_mut().zip(&win.coef()[k + 1..=win.hi]) {
            *dj += wk * p;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The vectorised fused kernel (where the CPU has one) against the plain one.
    #[test]
    fn fused_and_plain_taps_agree() {
        let src: Vec<f64> = (0..67).map(|i| ((i * 7919) % 101) as f64 / 101.0).collect();
        let poly = [0.3, 0.2, 0.25, 0.15, 0.1];
        let mut plain = vec![0.0; 63];
        taps::<false>(&poly, &mut plain, &src);
        let mut fused = vec![0.0; 63];
        match Fused::detect() {
            #[cfg(target_arch = "x86_64")]
            Some(f) => f.taps(&poly, &mut fused, &src),
            _ => taps::<true>(&poly, &mut fused, &src),
        }
        for (i, (p, f)) in plain.iter().zip(&fused).enumerate() {
            let direct: f64 = (0..5).map(|j| poly[4 - j] * src[i + j]).sum();
            assert!(
                (p - direct).abs() < 1e-15 && (f - direct).abs() < 1e-15,
                "{i}"
            );
        }
    }

    #[test]
    fn the_window_holds_the_distribution_of_the_count() {
        // Three players ahead with probability 1/2 and one with 1/4: (1 + z)^3 (3 + z) / 32.
        let groups = Groups::new(&[1.0, 1.0, 1.0, 2.0]).0;
        let mut win = Window::new(4);
        assert!(win.build(&groups, &[0.5, 0.75], &[0.5, 0.25], usize::MAX, usize::MAX));
        let expected = [
            0.125 * 0.75,
            0.125 * 2.5,
            0.125 * 3.0,
            0.125 * 1.5,
            0.125 * 0.25,
        ];
        for (k, e) in expected.iter().enumerate() {
            assert!((win.coef()[k] - e).abs() < 1e-15, "{k}");
        }
        assert!((win.at_most(1) - expected[0] - expected[1]).abs() < 1e-15);
        // Capped at degree 2, the lower coefficients are the same.
        assert!(win.build(&groups, &[0.5, 0.75], &[0.5, 0.25], 2, usize::MAX));
        assert_eq!(win.hi, 2);
        assert!((win.coef()[2] - expected[2]).abs() < 1e-15);
        // Stops once the window starts at 1 or above: never here (the count may be 0).
        assert!(win.build(&groups, &[0.5, 0.75], &[0.5, 0.25], usize::MAX, 1));
    }
}
