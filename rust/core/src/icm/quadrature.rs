//! ICM for large fields: each equity as an integral over one real variable, computed
//! by Gauss-Kronrod quadrature with an error estimate.
//!
//! **The integral.** Give player j an exponential clock of rate `q_j = stack_j / total`
//! (see [`super::sample`]): the players finish in the order their clocks ring, which is
//! the Malmuth-Harville order. Player i, whose clock rings at time t (density
//! `q_i e^{-q_i t}`), takes place k + 1 when exactly k of the others rang before t;
//! each other j has rung with probability `b_j = 1 - e^{-q_j t}` and not with
//! `a_j = e^{-q_j t}`, independently. So with `w_k` the payout of place k + 1,
//!
//! ```text
//! equity_i = ∫_0^∞ q_i a_i(t) L_i(t) dt,   L_i(t) = Σ_k w_k [z^k] Π_{j≠i} (a_j + b_j z),
//! ```
//!
//! the payouts read off the distribution of the number of players ahead (a
//! Poisson-binomial distribution, the coefficients of the product).
//!
//! **One product for all players.** At each node `t` the full product
//! `P(z) = Π_j (a_j + b_j z)` is built once; player i's product is `P / (a_i + b_i z)`.
//! The division is stable in one direction: from the low coefficients up when
//! `b_i <= a_i` (ratio `x = b_i / a_i <= 1`), from the high ones down otherwise (ratio
//! `1/x < 1`), so errors shrink instead of growing. Written out, `L_i` is a polynomial
//! in `-x` (or `-1/x`) whose coefficients (`c`, `d` below) are correlations of the
//! payouts with `P`, the same for every player: each player costs one Horner
//! evaluation, run for several players at once.
//!
//! **A window of the product.** The count of players ahead is concentrated within a
//! few standard deviations of its mean: coefficients below [`TINY`] are dropped from
//! both ends as the product is built (a dropped mass of at most `2 n TINY` per node),
//! so a node costs `n` times the window's width, not `n^2`.
//!
//! **The quadrature.** When every place is paid, everyone is paid at least the last
//! payout: that is taken out first, so the integrand vanishes once all but one player
//! rang. `[0, T]` is cut into panels, each at most twice as long as the time before it
//! (every clock's `e^{-q t}` is smooth in `log t`) and over which the expected number
//! ahead moves by at most [`SPREAD`] of its standard deviations (the integrand is the
//! payouts smoothed over that distribution). `T` is where the payouts still to be won
//! are below `1e-16` of the pool. Each panel takes the 15-point Gauss-Kronrod rule.
//!
//! **The error estimate** ([`Estimate::error`]) is the sum over players of the
//! difference between the 15-point Kronrod and the embedded 7-point Gauss rules on each
//! panel (the usual, pessimistic estimate of the Kronrod rule's error, which is far
//! smaller), plus bounds of the tail beyond `T` and of the mass dropped from windows:
//! an estimate of the total absolute error over all players, in the payouts' unit.

use super::kronrod::{Panel, Rule};
use super::product::{backward, forward, Window};
use crate::error::CoreError;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// How finely `[0, T]` is cut.
#[derive(Clone, Copy, Debug)]
struct Settings {
    /// Standard deviations of the number of players ahead that a panel may cross.
    spread: f64,
    /// The first panel ends where the largest stack's clock has rung with
    /// probability `1 - e^{-first}`.
    first: f64,
    /// A panel is at most this times as long as the time before it.
    growth: f64,
}

const SETTINGS: Settings = Settings {
    spread: 4.0,
    first: 2.0,
    growth: 2.0,
};

/// The tail beyond the last panel is below this share of the sum of the payouts.
const TAIL: f64 = 1e-16;

/// The target of the error estimate, as a share of the sum of the payouts.
const TARGET: f64 = 1e-9;

/// How many times a panel may be halved.
const SPLITS: u32 = 20;

/// Players evaluated together (lanes of the Horner loops).
const LANES: usize = 8;

/// The result of [`quadrature`].
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Each player's equity.
    pub equity: Vec<f64>,
    /// The estimated total absolute error over all players (see the module docs).
    pub error: f64,
    /// The points at which the integrand was computed.
    pub nodes: usize,
}

/// The players grouped by stack: rates `q` in increasing order and how many share each.
pub(super) struct Groups {
    pub(super) q: Vec<f64>,
    pub(super) count: Vec<usize>,
}

impl Groups {
    pub(super) fn new(stacks: &[f64]) -> (Groups, Vec<usize>) {
        let total: f64 = stacks.iter().sum();
        let mut order: Vec<usize> = (0..stacks.len()).collect();
        order.sort_by(|&a, &b| stacks[a].total_cmp(&stacks[b]));
        let mut groups = Groups {
            q: Vec::new(),
            count: Vec::new(),
        };
        let mut of_player = vec![0; stacks.len()];
        let mut last = f64::NAN;
        for i in order {
            if stacks[i] != last {
                last = stacks[i];
                groups.q.push(stacks[i] / total);
                groups.count.push(0);
            }
            *groups.count.last_mut().expect("a group was pushed") += 1;
            of_player[i] = groups.q.len() - 1;
        }
        (groups, of_player)
    }

    /// The expected number of players whose clocks rang by `t`, its variance, and
    /// its rate of change.
    fn moments(&self, t: f64) -> (f64, f64, f64) {
        let (mut mean, mut variance, mut rate) = (0.0, 0.0, 0.0);
        for (&q, &c) in self.q.iter().zip(&self.count) {
            let (a, b) = ((-q * t).exp(), -(-q * t).exp_m1());
            mean += c as f64 * b;
            variance += c as f64 * a * b;
            rate += c as f64 * q * a;
        }
        (mean, variance, rate)
    }
}

/// `Σ_j coef_j z^j` for each lane's `z`.
#[inline(always)]
fn horner(coef: &[f64], z: &[f64; LANES]) -> [f64; LANES] {
    let mut acc = [0.0; LANES];
    for &c in coef.iter().rev() {
        for l in 0..LANES {
            acc[l] = acc[l] * z[l] + c;
        }
    }
    acc
}

/// How many terms of a series in powers of `x` (0 <= x <= 1) with bounded
/// coefficients leave out less than 1e-17 of the first.
fn terms(x: f64, len: usize) -> usize {
    if x <= 0.0 {
        return len.min(1);
    }
    if x >= 1.0 {
        return len;
    }
    let needed = (39.2 - (-x).ln_1p()) / -x.ln();
    if needed >= len as f64 {
        len
    } else {
        needed as usize + 1
    }
}

/// What [`Integrand::at`] needs, kept between nodes.
struct Integrand<'a> {
    groups: &'a Groups,
    w: &'a [f64],
    window: Window,
    a: Vec<f64>,
    b: Vec<f64>,
    x: Vec<f64>,
    c: Vec<f64>,
    d: Vec<f64>,
    /// The largest mass dropped from a window so far.
    dropped: f64,
}

impl<'a> Integrand<'a> {
    fn new(groups: &'a Groups, w: &'a [f64], n: usize) -> Self {
        let g = groups.q.len();
        Integrand {
            groups,
            w,
            window: Window::new(n),
            a: vec![0.0; g],
            b: vec![0.0; g],
            x: vec![0.0; g],
            c: Vec::new(),
            d: Vec::new(),
            dropped: 0.0,
        }
    }

    /// The clocks at `t` and the product's window: false when no paid place can be
    /// left (the integrand is 0).
    fn build(&mut self, t: f64, cap: bool) -> bool {
        for (g, &q) in self.groups.q.iter().enumerate() {
            let e = (-q * t).exp_m1();
            let a = if e < -0.5 { (-q * t).exp() } else { 1.0 + e };
            (self.a[g], self.b[g], self.x[g]) = (a, -e, -e / a);
        }
        // Backward players read the product up to `terms` above the last paid place.
        let paid = self.w.len();
        let top = match self.x.iter().find(|&&x| x > 1.0) {
            Some(&x) if cap => paid.saturating_add(terms(1.0 / x, usize::MAX)),
            _ => usize::MAX,
        };
        let alive = self
            .window
            .build(self.groups, &self.a, &self.b, top, paid + 1);
        self.dropped = self.dropped.max(self.window.dropped);
        alive
    }

    /// The integrand of one player of each group at `t`, into `out`.
    fn at(&mut self, t: f64, out: &mut [f64]) {
        if !self.build(t, true) {
            out.fill(0.0);
            return;
        }
        let groups = self.groups.q.len();
        let split = self.x.partition_point(|&x| x <= 1.0);
        // Only as many coefficients as the Horner sums below read.
        let most = |x: f64| terms(x, usize::MAX);
        let forward_terms = if split > 0 {
            most(self.x[split - 1])
        } else {
            0
        };
        let backward_terms = if split < groups {
            most(1.0 / self.x[split])
        } else {
            0
        };
        forward(&self.window, self.w, &mut self.c, forward_terms);
        backward(&self.window, self.w, &mut self.d, backward_terms);
        for start in (0..split).step_by(LANES) {
            let end = (start + LANES).min(split);
            let mut z = [0.0; LANES];
            for (l, g) in (start..end).enumerate() {
                z[l] = -self.x[g];
            }
            let len = terms(self.x[end - 1], self.c.len());
            let sums = horner(&self.c[..len], &z);
            for (l, g) in (start..end).enumerate() {
                out[g] = self.groups.q[g] * sums[l];
            }
        }
        for start in (split..groups).step_by(LANES) {
            let end = (start + LANES).min(groups);
            let mut z = [0.0; LANES];
            for (l, g) in (start..end).enumerate() {
                z[l] = -1.0 / self.x[g];
            }
            let len = terms(-z[0], self.d.len());
            let sums = horner(&self.d[..len], &z);
            for (l, g) in (start..end).enumerate() {
                out[g] = self.groups.q[g] * -z[l] * sums[l];
            }
        }
    }

    /// A bound of what the players could still win after `t`: each player's
    /// chance of not having rung, times the chance that a paid place is left, times
    /// the largest payout.
    fn tail(&mut self, t: f64, largest: f64) -> f64 {
        let alive = self.build(t, false);
        let left: f64 = self
            .a
            .iter()
            .zip(&self.groups.count)
            .map(|(a, &c)| a * c as f64)
            .sum();
        // Stopped early, the mass at or below the last paid place was all dropped.
        let chance = if alive {
            self.window.at_most(self.w.len())
        } else {
            self.window.dropped
        };
        left * chance.min(1.0) * largest
    }
}

/// The panels' ends: `[0, T]` cut as the module docs say.
fn panels(groups: &Groups, end: f64, set: Settings) -> Vec<f64> {
    let q_max = *groups.q.last().expect("at least one player");
    let mut cuts = vec![0.0, (set.first / q_max).min(set.spread).min(end)];
    while let Some(&t) = cuts.last().filter(|&&t| t < end) {
        let (_, variance, rate) = groups.moments(t);
        let step = (set.spread * variance.sqrt().max(1.0) / rate).min(set.growth * t);
        cuts.push(if t + step >= end * (1.0 - 1e-12) {
            end
        } else {
            t + step
        });
    }
    cuts
}

/// Each player's equity by the quadrature of the module docs, with an error estimate.
/// `done` counts thousandths of the panels; `cancel` stops the work.
pub fn quadrature(
    stacks: &[f64],
    payouts: &[f64],
    done: &AtomicUsize,
    cancel: &AtomicBool,
) -> Result<Estimate, CoreError> {
    integrate(stacks, payouts, SETTINGS, done, cancel)
}

fn integrate(
    stacks: &[f64],
    payouts: &[f64],
    set: Settings,
    done: &AtomicUsize,
    cancel: &AtomicBool,
) -> Result<Estimate, CoreError> {
    super::check(stacks, payouts)?;
    let n = stacks.len();
    // When every place is paid, everyone has the last payout.
    let base = if payouts.len() == n {
        payouts[n - 1]
    } else {
        0.0
    };
    let mut w: Vec<f64> = payouts.iter().map(|p| p - base).collect();
    w.truncate(w.iter().rposition(|&p| p != 0.0).map_or(0, |k| k + 1));
    if w.is_empty() {
        return Ok(Estimate {
            equity: vec![base; n],
            error: 0.0,
            nodes: 0,
        });
    }
    let (groups, of_player) = Groups::new(stacks);
    let largest = w.iter().fold(0.0f64, |m, p| m.max(p.abs()));
    let scale: f64 = w.iter().map(|p| p.abs()).sum();
    let mut integrand = Integrand::new(&groups, &w, n);
    // The end: from where the expected number ahead is at most the places paid,
    // double t until the tail is negligible, then halve the last step a few times
    // (the tail only shrinks as t grows).
    let q_max = groups.q.last().expect("at least one player");
    let mut end = (set.first / q_max).min(w.len() as f64);
    let mut tail = integrand.tail(end, largest);
    while tail > TAIL * scale {
        if cancel.load(Ordering::Relaxed) {
            return Err(CoreError::Interrupted);
        }
        end *= 2.0;
        tail = integrand.tail(end, largest);
    }
    let mut step: f64 = 0.5;
    for _ in 0..5 {
        step = step.sqrt();
        let nearer = integrand.tail(end * step, largest);
        if nearer <= TAIL * scale {
            (end, tail) = (end * step, nearer);
        }
    }
    let cuts = panels(&groups, end, set);
    let mut rule = Rule::new(groups.q.len());
    let mut done_panels: Vec<Panel> = Vec::with_capacity(cuts.len());
    for (index, ends) in cuts.windows(2).enumerate() {
        if cancel.load(Ordering::Relaxed) {
            return Err(CoreError::Interrupted);
        }
        done_panels.push(rule.panel(
            |t, out| integrand.at(t, out),
            &groups.count,
            ends[0],
            ends[1],
            0,
        ));
        done.store((index + 1) * 900 / (cuts.len() - 1), Ordering::Relaxed);
    }
    // While the estimate is above the target, halve the panel of the largest one.
    let mut estimate: f64 = done_panels.iter().map(|p| p.estimate).sum();
    while estimate > TARGET * scale {
        if cancel.load(Ordering::Relaxed) {
            return Err(CoreError::Interrupted);
        }
        let worst = (0..done_panels.len())
            .filter(|&k| done_panels[k].depth < SPLITS)
            .max_by(|&a, &b| done_panels[a].estimate.total_cmp(&done_panels[b].estimate));
        let Some(worst) = worst else { break };
        let old = done_panels.swap_remove(worst);
        let mid = (old.from + old.to) / 2.0;
        let left = rule.panel(
            |t, out| integrand.at(t, out),
            &groups.count,
            old.from,
            mid,
            old.depth + 1,
        );
        let right = rule.panel(
            |t, out| integrand.at(t, out),
            &groups.count,
            mid,
            old.to,
            old.depth + 1,
        );
        estimate += left.estimate + right.estimate - old.estimate;
        done_panels.push(left);
        done_panels.push(right);
    }
    let count = groups.q.len();
    let mut total = vec![0.0; count];
    let mut error = tail;
    for panel in &done_panels {
        for (sum, part) in total.iter_mut().zip(&panel.integral) {
            *sum += part;
        }
        error += panel.estimate;
    }
    let nodes = rule.nodes;
    // A dropped mass changes each player's integral by at most about 3 times it.
    error += 3.0 * n as f64 * integrand.dropped * largest;
    let equity = of_player.iter().map(|&g| base + total[g]).collect();
    Ok(Estimate {
        equity,
        error,
        nodes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(stacks: &[f64], payouts: &[f64]) -> Estimate {
        quadrature(
            stacks,
            payouts,
            &AtomicUsize::new(0),
            &AtomicBool::new(false),
        )
        .unwrap()
    }

    fn exact(stacks: &[f64], payouts: &[f64]) -> Vec<f64> {
        super::super::exact(stacks, payouts, &AtomicBool::new(false)).unwrap()
    }

    #[test]
    fn matches_exact_on_small_fields() {
        let mut seed = 1u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        for trial in 0..60 {
            let n = 2 + (next() % 15) as usize;
            let stacks: Vec<f64> = (0..n)
                .map(|_| match trial % 3 {
                    0 => (1 + next() % 100) as f64,
                    1 => (1 + next() % 1_000_000) as f64,
                    _ => (1u64 << (next() % 40)) as f64,
                })
                .collect();
            let paid = 1 + (next() as usize % n);
            let mut payouts: Vec<f64> = (0..paid).map(|_| (next() % 1000) as f64).collect();
            payouts.sort_by(|a, b| b.total_cmp(a));
            let pool: f64 = payouts.iter().sum::<f64>().max(1.0);
            let e = run(&stacks, &payouts);
            let x = exact(&stacks, &payouts);
            let worst = e
                .equity
                .iter()
                .zip(&x)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            assert!(
                worst <= 1e-12 * pool,
                "trial {trial}: {worst} of {pool}, {stacks:?} {payouts:?}"
            );
            assert!(
                e.error <= 1e-9 * pool,
                "trial {trial}: estimate {}",
                e.error
            );
        }
    }

    #[test]
    fn large_fields_sum_to_the_pool() {
        let n = 2000;
        let stacks: Vec<f64> = (0..n).map(|i| (1 + (i * 7919) % 5000) as f64).collect();
        let payouts: Vec<f64> = (0..300).map(|k| 1e6 / (k as f64 + 1.0)).collect();
        let pool: f64 = payouts.iter().sum();
        let e = run(&stacks, &payouts);
        let sum: f64 = e.equity.iter().sum();
        assert!((sum - pool).abs() < 1e-10 * pool, "{sum} vs {pool}");
        assert!(e.error < 1e-9 * pool, "{}", e.error);
    }

    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 33
    }

    /// Large fields against a run on panels four to eight times finer.
    #[test]
    fn finer_panels_agree() {
        let fine = Settings {
            spread: 0.5,
            first: 0.25,
            growth: 0.25,
        };
        let (done, no) = (AtomicUsize::new(0), AtomicBool::new(false));
        for (n, paid, kind) in [(1024usize, 100usize, 0), (1024, 10, 1), (300, 300, 2)] {
            let mut seed = 99u64;
            let stacks: Vec<f64> = (0..n)
                .map(|_| match kind {
                    0 => (1000 + lcg(&mut seed) % 100_000) as f64,
                    1 => (1u64 << (lcg(&mut seed) % 30)) as f64,
                    _ => (1 + lcg(&mut seed) % 10) as f64,
                })
                .collect();
            let payouts: Vec<f64> = (0..paid)
                .map(|k| (1e7 / (k as f64 + 1.0).powf(1.1)).round())
                .collect();
            let pool: f64 = payouts.iter().sum();
            let e = integrate(&stacks, &payouts, SETTINGS, &done, &no).unwrap();
            let f = integrate(&stacks, &payouts, fine, &done, &no).unwrap();
            assert!(f.nodes > 3 * e.nodes);
            let worst = e
                .equity
                .iter()
                .zip(&f.equity)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            assert!(worst < 1e-12 * pool, "{n} players, {paid} paid: {worst}");
            assert!(e.error < 1e-9 * pool && f.error < e.error);
        }
    }

    #[test]
    fn one_player_and_flat_payouts() {
        assert_eq!(run(&[5.0], &[7.0]).equity, vec![7.0]);
        assert_eq!(run(&[5.0, 1.0], &[3.0, 3.0]).equity, vec![3.0, 3.0]);
        assert_eq!(run(&[5.0, 1.0], &[]).equity, vec![0.0, 0.0]);
    }
}
