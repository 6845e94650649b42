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
    Ok(())
}
