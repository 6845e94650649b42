//! The 15-point Gauss-Kronrod rule with its embedded 7-point Gauss rule, over panels
//! (as QUADPACK's `qk15`): the Kronrod sum is the integral, the difference from the
//! Gauss sum its error estimate.

/// Abscissae of the 15-point Kronrod rule on [-1, 1] (the non-negative half, the
/// odd-indexed ones also those of the 7-point Gauss rule) and their weights.
const XGK: [f64; 8] = [
    0.991_455_371_120_812_6,
    0.949_107_912_342_758_5,
    0.864_864_423_359_769_1,
    0.741_531_185_599_394_4,
    0.586_087_235_467_691_1,
    0.405_845_151_377_397_2,
    0.207_784_955_007_898_5,
    0.0,
];
const WGK: [f64; 8] = [
    0.022_935_322_010_529_22,
    0.063_092_092_629_978_55,
    0.104_790_010_322_250_18,
    0.140_653_259_715_525_92,
    0.169_004_726_639_267_9,
    0.190_350_578_064_785_4,
    0.204_432_940_075_298_9,
    0.209_482_141_084_727_83,
];
/// Weights of the 7-point Gauss rule at `XGK[1]`, `XGK[3]`, `XGK[5]`, `XGK[7]`.
const WG: [f64; 4] = [
    0.129_484_966_168_869_7,
    0.279_705_391_489_276_7,
    0.381_830_050_505_118_9,
    0.417_959_183_673_469_4,
];

/// One panel's integral of each group's integrand and its error estimate.
pub(super) struct Panel {
    pub(super) from: f64,
    pub(super) to: f64,
    pub(super) depth: u32,
    pub(super) integral: Vec<f64>,
    /// The sum over players of the Kronrod-Gauss differences.
    pub(super) estimate: f64,
}

/// The Gauss-Kronrod rule over panels, with its scratch space.
pub(super) struct Rule {
    kronrod: Vec<f64>,
    gauss: Vec<f64>,
    values: Vec<f64>,
    pub(super) nodes: usize,
}

impl Rule {
    pub(super) fn new(groups: usize) -> Rule {
        Rule {
            kronrod: vec![0.0; groups],
            gauss: vec![0.0; groups],
            values: vec![0.0; groups],
            nodes: 0,
        }
    }

    /// The rule over `[from, to]` of `f(t, out)`, which writes each group's
    /// integrand at `t` into `out`; `counts` are the groups' sizes.
    pub(super) fn panel(
        &mut self,
        mut f: impl FnMut(f64, &mut [f64]),
        counts: &[usize],
        from: f64,
        to: f64,
        depth: u32,
    ) -> Panel {
        let (mid, half) = ((from + to) / 2.0, (to - from) / 2.0);
        self.kronrod.fill(0.0);
        self.gauss.fill(0.0);
        for (k, (&x, &wk)) in XGK.iter().zip(&WGK).enumerate() {
            let wg = if k % 2 == 1 { WG[k / 2] } else { 0.0 };
            let sides: &[f64] = if x == 0.0 { &[1.0] } else { &[1.0, -1.0] };
            for &side in sides {
                f(mid + side * half * x, &mut self.values);
                self.nodes += 1;
                for (g, v) in self.values.iter().enumerate() {
                    self.kronrod[g] += wk * v;
                    self.gauss[g] += wg * v;
                }
            }
        }
        let estimate = (0..counts.len())
            .map(|g| counts[g] as f64 * half * (self.kronrod[g] - self.gauss[g]).abs())
            .sum();
        Panel {
            from,
            to,
            depth,
            integral: self.kronrod.iter().map(|k| half * k).collect(),
            estimate,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_integrate_polynomials() {
        // Kronrod is exact to degree 22, Gauss to degree 13.
        for degree in 0..=22 {
            let (mut k, mut g) = (0.0, 0.0);
            for (i, (&x, &w)) in XGK.iter().zip(&WGK).enumerate() {
                let f = x.powi(degree) + if x == 0.0 { 0.0 } else { (-x).powi(degree) };
                k += w * f;
                if i % 2 == 1 {
                    g += WG[i / 2] * f;
                }
            }
            let truth = if degree % 2 == 1 {
                0.0
            } else {
                2.0 / (degree + 1) as f64
            };
            assert!((k - truth).abs() < 1e-15, "Kronrod, degree {degree}: {k}");
            if degree <= 13 {
                assert!((g - truth).abs() < 1e-15, "Gauss, degree {degree}: {g}");
            }
        }
    }

    #[test]
    fn a_smooth_integral_and_its_estimate() {
        let mut rule = Rule::new(1);
        let panel = rule.panel(|t, out| out[0] = t.exp(), &[1], 0.0, 1.0, 0);
        assert!((panel.integral[0] - (1f64.exp() - 1.0)).abs() < 1e-15);
        assert!(panel.estimate < 1e-12 && rule.nodes == 15);
    }
}
