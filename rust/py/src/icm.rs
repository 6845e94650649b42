//! The Independent Chip Model (doubleholdem-core `icm`): exact, quadrature and Monte
//! Carlo equities of tournament stacks.

use crate::checked;
use crate::supervise::supervised;
use doubleholdem_core::icm;
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize};

/// Steps of the exact recursion below which it runs on the calling thread.
const SMALL_EXACT: u64 = 1 << 20;

/// Players times places paid below which the quadrature runs on the calling thread.
const SMALL_QUADRATURE: usize = 1 << 16;

/// Runs `work` without the GIL: on this thread when it is short, else on a worker
/// thread with progress reports and Ctrl-C.
fn run<T: Send>(
    py: Python<'_>,
    short: bool,
    progress: Option<&Bound<'_, PyAny>>,
    total: usize,
    threads: Option<usize>,
    work: impl FnOnce(&AtomicUsize, &AtomicBool) -> Result<T, doubleholdem_core::CoreError> + Send,
) -> PyResult<T> {
    if short && progress.is_none() {
        let (done, cancel) = (AtomicUsize::new(0), AtomicBool::new(false));
        let result = py.detach(|| work(&done, &cancel));
        return checked(py, result);
    }
    supervised(py, progress, total, threads, work)
}

/// The steps of the exact recursion for `players` players and `places` places paid.
#[pyfunction]
fn icm_exact_cost(players: usize, places: usize) -> u64 {
    icm::exact_cost(players, places)
}

/// Each player's exact equity (Malmuth-Harville, in floating point).
#[pyfunction]
fn icm_exact(py: Python<'_>, stacks: Vec<f64>, payouts: Vec<f64>) -> PyResult<Vec<f64>> {
    let short = icm::exact_cost(stacks.len(), payouts.len()) < SMALL_EXACT;
    run(py, short, None, 0, None, |_, cancel| {
        icm::exact(&stacks, &payouts, cancel)
    })
}

/// Each player's probability of each of the first `places` places, row by row.
#[pyfunction]
fn icm_places(py: Python<'_>, stacks: Vec<f64>, places: usize) -> PyResult<Vec<f64>> {
    let short = icm::exact_cost(stacks.len(), places) < SMALL_EXACT;
    run(py, short, None, 0, None, |_, cancel| {
        icm::places(&stacks, places, cancel)
    })
}

/// Each player's equity by the quadrature, its error estimate and the nodes used.
#[pyfunction]
#[pyo3(signature = (stacks, payouts, progress=None))]
fn icm_quadrature(
    py: Python<'_>,
    stacks: Vec<f64>,
    payouts: Vec<f64>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Vec<f64>, f64, usize)> {
    let short = stacks.len().saturating_mul(payouts.len()) < SMALL_QUADRATURE;
    let estimate = run(py, short, progress, 1000, None, |done, cancel| {
        icm::quadrature(&stacks, &payouts, done, cancel)
    })?;
    Ok((estimate.equity, estimate.error, estimate.nodes))
}

/// Each player's Monte Carlo equity over `samples` finishing orders from `seed`, and
/// its standard error.
#[pyfunction]
#[pyo3(signature = (stacks, payouts, samples, seed, progress=None, threads=None))]
fn icm_sample(
    py: Python<'_>,
    stacks: Vec<f64>,
    payouts: Vec<f64>,
    samples: u64,
    seed: u64,
    progress: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Vec<f64>, Vec<f64>)> {
    let threads = crate::threads_arg(py, threads)?;
    let blocks = samples.div_ceil(icm::BLOCK) as usize;
    let sampled = supervised(py, progress, blocks, threads, |done, cancel| {
        icm::sample(&stacks, &payouts, samples, seed, done, cancel)
    })?;
    Ok((sampled.equity, sampled.stderr))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(icm_exact_cost, m)?)?;
    m.add_function(wrap_pyfunction!(icm_exact, m)?)?;
    m.add_function(wrap_pyfunction!(icm_places, m)?)?;
    m.add_function(wrap_pyfunction!(icm_quadrature, m)?)?;
    m.add_function(wrap_pyfunction!(icm_sample, m)?)?;
    Ok(())
}
