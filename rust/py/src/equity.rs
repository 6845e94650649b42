//! The equity bot's Monte Carlo share of the pot (doubleholdem-core `equity`).

use crate::checked;
use doubleholdem_core::equity as core;
use pyo3::prelude::*;

/// The share of the pot of `hole` (2 cards: Texas Hold'em, 3: Double Hold'em) with the
/// known `board` against `opponents` random hands, over `samples` random deals
/// reproducible from `seed`; `point` fixes the Double Hold'em point card (None: the
/// best). Runs without the GIL.
#[pyfunction]
#[pyo3(signature = (hole, board, opponents, samples, point, seed))]
fn equity(
    py: Python<'_>,
    hole: Vec<u8>,
    board: Vec<u8>,
    opponents: usize,
    samples: u32,
    point: Option<usize>,
    seed: u64,
) -> PyResult<f64> {
    let result = py.detach(|| core::equity(&hole, &board, opponents, samples, point, seed));
    checked(py, result)
}

/// `equity` for each of `points` (None: the best point), on the same deals.
#[pyfunction]
fn equities(
    py: Python<'_>,
    hole: Vec<u8>,
    board: Vec<u8>,
    opponents: usize,
    samples: u32,
    points: Vec<Option<usize>>,
    seed: u64,
) -> PyResult<Vec<f64>> {
    let result = py.detach(|| core::equities(&hole, &board, opponents, samples, &points, seed));
    checked(py, result)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(equity, m)?)?;
    m.add_function(wrap_pyfunction!(equities, m)?)?;
    showdown::register(m)?;
    Ok(())
}

/// Exact and Monte Carlo equities of hands and ranges (doubleholdem-core `showdown`).
mod showdown {
    use crate::checked;
    use crate::supervise::supervised;
    use doubleholdem_core::showdown::exact::{self, Plan};
    use doubleholdem_core::showdown::sample::{self, Budget};
    use doubleholdem_core::showdown::{Spec, Variant};
    use doubleholdem_core::{parallel, CoreError};
    use pyo3::prelude::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize};

    /// Enumerations estimated below this many evaluations run on the calling thread.
    const SMALL_JOB: u64 = 2_000_000;

    /// Each player's hands: the cards of all hands one after another, and a weight per
    /// hand.
    type Players = Vec<(Vec<u8>, Vec<u64>)>;

    fn spec(
        variant: &str,
        players: &Players,
        board: &[u8],
        dead: &[u8],
    ) -> Result<Spec, CoreError> {
        let variant = match variant {
            "texas" => Variant::Texas,
            "double" => Variant::Double,
            other => {
                return Err(CoreError::invalid_hand(format!(
                    "variant is texas or double, not {other:?}"
                )))
            }
        };
        let k = variant.hole_cards();
        let mut hands = Vec::with_capacity(players.len());
        for (i, (cards, weights)) in players.iter().enumerate() {
            if cards.len() != k * weights.len() {
                return Err(CoreError::invalid_hand(format!(
                    "player {}: {} cards for {} hands of {k}",
                    i + 1,
                    cards.len(),
                    weights.len()
                )));
            }
            hands.push(
                cards
                    .chunks_exact(k)
                    .zip(weights)
                    .map(|(hand, &w)| (hand.to_vec(), w))
                    .collect(),
            );
        }
        Spec::new(variant, &hands, board, dead)
    }

    /// The number of deals of hands and of showdowns an exact enumeration would count,
    /// each capped at `cap`.
    #[pyfunction]
    fn showdown_count(
        py: Python<'_>,
        variant: &str,
        players: Players,
        board: Vec<u8>,
        dead: Vec<u8>,
        cap: u64,
    ) -> PyResult<(u64, u64)> {
        let spec = checked(py, spec(variant, &players, &board, &dead))?;
        Ok(py.detach(|| (exact::deals(&spec, cap), exact::showdowns(&spec, cap))))
    }

    type ExactTally = (u64, u128, Vec<u128>, Vec<u128>, Vec<u128>, usize);

    /// The exact tally of units `start..stop` (all by default) of the enumeration:
    /// (showdowns, weight, win, tie, units, number of units). Progress and Ctrl-C as
    /// in the casino analysis.
    #[pyfunction]
    #[pyo3(signature = (variant, players, board, dead, start=None, stop=None, progress=None, threads=None))]
    #[allow(clippy::too_many_arguments)]
    fn showdown_exact(
        py: Python<'_>,
        variant: &str,
        players: Players,
        board: Vec<u8>,
        dead: Vec<u8>,
        start: Option<usize>,
        stop: Option<usize>,
        progress: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<ExactTally> {
        let threads = crate::threads_arg(py, threads)?;
        let spec = checked(py, spec(variant, &players, &board, &dead))?;
        let plan = checked(py, py.detach(|| Plan::new(spec)))?;
        let units = plan.units();
        let (start, stop) = (start.unwrap_or(0), stop.unwrap_or(units).min(units));
        let total = stop.saturating_sub(start);
        let tally = if progress.is_none() && plan.cost() < SMALL_JOB {
            // A few milliseconds at most: no worker thread to watch it, and on one
            // thread no hand-off to a pool either.
            let (done, cancel) = (AtomicUsize::new(0), AtomicBool::new(false));
            let result = py.detach(|| match threads {
                Some(1) => plan.run_here(start, stop, &done, &cancel),
                _ => parallel::with_threads(threads, || plan.run(start, stop, &done, &cancel)),
            });
            checked(py, result)?
        } else {
            supervised(py, progress, total, threads, |done, cancel| {
                plan.run(start, stop, done, cancel)
            })?
        };
        Ok((
            tally.showdowns,
            tally.weight,
            tally.win,
            tally.tie,
            tally.units,
            units,
        ))
    }

    type SampleTally = (u64, Vec<u64>, Vec<u64>, Vec<u128>, Vec<u128>);

    /// Monte Carlo: `samples` samples, or until every standard error is at most
    /// `stderr`; (samples, win, tie, units, squares of units). Progress in thousandths.
    #[pyfunction]
    #[pyo3(signature = (variant, players, board, dead, samples, stderr, seed, progress=None, threads=None))]
    #[allow(clippy::too_many_arguments)]
    fn showdown_sample(
        py: Python<'_>,
        variant: &str,
        players: Players,
        board: Vec<u8>,
        dead: Vec<u8>,
        samples: Option<u64>,
        stderr: Option<f64>,
        seed: u64,
        progress: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<SampleTally> {
        let threads = crate::threads_arg(py, threads)?;
        let spec = checked(py, spec(variant, &players, &board, &dead))?;
        let budget = match (samples, stderr) {
            (Some(n), None) => Budget::Samples(n),
            (None, Some(e)) => Budget::Stderr(e),
            _ => {
                return Err(crate::to_py(
                    py,
                    CoreError::invalid_hand("give samples or stderr, not both"),
                ))
            }
        };
        let r = supervised(py, progress, 1000, threads, |done, cancel| {
            sample::sample(&spec, budget, seed, done, cancel)
        })?;
        Ok((r.samples, r.win, r.tie, r.units, r.squares))
    }

    pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add_function(wrap_pyfunction!(showdown_count, m)?)?;
        m.add_function(wrap_pyfunction!(showdown_exact, m)?)?;
        m.add_function(wrap_pyfunction!(showdown_sample, m)?)?;
        Ok(())
    }
}
