//! The Python binding of doubleholdem-core: module `doubleholdem._core`.
//! Converts arguments, releases the GIL around work, and maps every core error to the
//! matching exception of `doubleholdem.errors` in one place ([`to_py`]).

mod casino;
mod equity;
mod icm;
mod supervise;

use doubleholdem_core::{
    batch, deal, double, enumerate, eval, hand, parallel, CoreError, HandValue,
};
use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList};

/// The one boundary where core errors become Python exceptions.
fn to_py(py: Python<'_>, error: CoreError) -> PyErr {
    if let CoreError::InvalidArgument { reason } = error {
        return typed_error(py, "InvalidArgument", reason, None);
    }
    let message = error.to_string();
    let (row, inner) = match error {
        CoreError::InRow { row, error } => (Some(row), *error),
        other => (None, other),
    };
    let (class, card) = match inner {
        CoreError::InvalidCard { card } => ("InvalidCard", Some(card)),
        CoreError::DuplicateCard { card } => ("DuplicateCard", Some(card.into())),
        CoreError::InvalidValue { .. } => ("InvalidValue", None),
        CoreError::InvalidRules { .. } => ("InvalidRules", None),
        _ => ("InvalidHand", None),
    };
    let build = || -> PyResult<PyErr> {
        let kwargs = PyDict::new(py);
        kwargs.set_item("card", card)?;
        kwargs.set_item("row", row)?;
        let errors = py.import("doubleholdem.errors")?;
        let exception = errors.getattr(class)?.call((message,), Some(&kwargs))?;
        Ok(PyErr::from_value(exception))
    };
    build().unwrap_or_else(|e| e)
}

/// The exception `class` of `doubleholdem.errors` with `message` (and the `value` it
/// refuses, if given); a `ValueError` if that module cannot be imported.
fn typed_error(
    py: Python<'_>,
    class: &str,
    message: String,
    value: Option<&Bound<'_, PyAny>>,
) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let kwargs = PyDict::new(py);
        if let Some(value) = value {
            kwargs.set_item("value", value)?;
        }
        let errors = py.import("doubleholdem.errors")?;
        let exception = errors
            .getattr(class)?
            .call((message.clone(),), Some(&kwargs))?;
        Ok(PyErr::from_value(exception))
    };
    build().unwrap_or_else(|_| PyValueError::new_err(message.clone()))
}

/// A `threads=` argument: `None` (all cores) or a whole number from 1 to
/// `parallel::MAX_THREADS`; anything else is an `InvalidThreads` (a `TypeError` if it is not
/// an integer) naming the bound, raised before any work starts.
pub(crate) fn threads_arg(
    py: Python<'_>,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<usize>> {
    let Some(threads) = threads.filter(|t| !t.is_none()) else {
        return Ok(None);
    };
    if threads.is_instance_of::<PyBool>() || !threads.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "threads must be a whole number from 1 to {}, not {}",
            parallel::MAX_THREADS,
            threads.repr()?
        )));
    }
    let n = threads.extract::<i128>().unwrap_or(i128::MAX);
    let n = parallel::check_threads(n).map_err(|_| {
        let shown = threads.str().map_or_else(|_| "?".into(), |s| s.to_string());
        let shown = if shown.len() > 40 {
            format!("an integer of {} digits", shown.len())
        } else {
            shown
        };
        let message = format!(
            "threads must be a whole number from 1 to {}, not {shown}",
            parallel::MAX_THREADS
        );
        typed_error(py, "InvalidThreads", message, Some(threads))
    })?;
    Ok(Some(n))
}

type CoreResult<T> = Result<T, CoreError>;

fn checked<T>(py: Python<'_>, result: CoreResult<T>) -> PyResult<T> {
    result.map_err(|e| to_py(py, e))
}

fn contiguous<'a, T: numpy::Element, D: numpy::ndarray::Dimension>(
    py: Python<'_>,
    array: &'a numpy::PyReadonlyArray<'_, T, D>,
    name: &str,
) -> PyResult<&'a [T]> {
    array.as_slice().map_err(|_| {
        to_py(
            py,
            CoreError::invalid_hand(format!("{name} must be a C-contiguous array")),
        )
    })
}

#[pyfunction]
fn evaluate(py: Python<'_>, cards: Vec<u8>) -> PyResult<HandValue> {
    checked(py, eval::evaluate(&cards))
}

#[pyfunction]
fn best_five(py: Python<'_>, cards: Vec<u8>) -> PyResult<[u8; 5]> {
    checked(py, hand::best_five(&cards))
}

#[pyfunction]
fn describe(py: Python<'_>, value: HandValue) -> PyResult<String> {
    checked(py, hand::describe(value))
}

#[pyfunction]
fn shuffle(py: Python<'_>, mut cards: Vec<u8>, seed: u64) -> PyResult<Bound<'_, PyList>> {
    doubleholdem_core::cards::shuffle(&mut cards, seed);
    PyList::new(py, cards)
}

#[pyfunction]
fn before_fork() {
    parallel::before_fork();
}

#[pyfunction]
fn after_fork_in_parent() {
    parallel::after_fork_in_parent();
}

#[pyfunction]
fn after_fork_in_child() {
    parallel::after_fork_in_child();
}

/// Checks a `threads=` argument as every batch function does (for Python code that
/// checks before long work of its own).
#[pyfunction]
#[pyo3(signature = (threads=None))]
fn check_threads(py: Python<'_>, threads: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    threads_arg(py, threads)
}

/// How many thread pools of a chosen size are kept, and their threads in all.
#[pyfunction]
fn kept_pools() -> (usize, usize) {
    parallel::kept_pools()
}

#[pyfunction]
fn table_bytes() -> usize {
    eval::table_bytes()
}

#[pyfunction]
#[pyo3(signature = (k, threads=None))]
fn category_counts(
    py: Python<'_>,
    k: usize,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<([u64; 9], u64, usize, u64)> {
    let threads = threads_arg(py, threads)?;
    let counts = checked(
        py,
        py.detach(|| parallel::with_threads(threads, || enumerate::category_counts(k))),
    )?;
    Ok((
        counts.counts,
        counts.royal_flushes,
        counts.distinct_values,
        counts.total,
    ))
}

#[pyfunction]
#[pyo3(signature = (hands, threads=None))]
fn evaluate_batch<'py>(
    py: Python<'py>,
    hands: PyReadonlyArray2<'py, u8>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<HandValue>>> {
    let threads = threads_arg(py, threads)?;
    let [rows, width] = [hands.shape()[0], hands.shape()[1]];
    let cards = contiguous(py, &hands, "hands")?;
    let mut out = vec![0; rows];
    checked(
        py,
        py.detach(|| {
            parallel::with_threads(threads, || batch::evaluate_rows(cards, width, &mut out))
        }),
    )?;
    Ok(PyArray1::from_vec(py, out))
}

/// `n` rows of `cards` distinct random cards from `seed`, as a numpy (n, cards) uint8
/// array; the rows depend on the seed alone, not on `threads`.
#[pyfunction]
#[pyo3(signature = (n, cards, seed, threads=None))]
fn random_hands<'py>(
    py: Python<'py>,
    n: usize,
    cards: usize,
    seed: u64,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let threads = threads_arg(py, threads)?;
    let size = n
        .checked_mul(cards)
        .ok_or_else(|| PyMemoryError::new_err("too many cards"))?;
    let mut out = Vec::new();
    out.try_reserve_exact(size)
        .map_err(|_| PyMemoryError::new_err(format!("no memory for {n} hands of {cards} cards")))?;
    out.resize(size, 0);
    checked(
        py,
        py.detach(|| parallel::with_threads(threads, || deal::random_hands(cards, seed, &mut out))),
    )?;
    PyArray1::from_vec(py, out).reshape([n, cards])
}

#[pyfunction]
fn resolve(
    py: Python<'_>,
    hole: [u8; 3],
    point: usize,
    board: [u8; 5],
) -> PyResult<(HandValue, u8, [u8; 5])> {
    let r = checked(py, double::resolve(&hole, point, &board))?;
    Ok((r.value, r.hand, r.best_five))
}

#[pyfunction]
fn auto_point(py: Python<'_>, hole: [u8; 3]) -> PyResult<usize> {
    checked(py, double::auto_point(&hole))
}

#[pyfunction]
fn point_values(py: Python<'_>, hole: [u8; 3], board: [u8; 5]) -> PyResult<[HandValue; 3]> {
    checked(py, double::point_values(&hole, &board))
}

#[pyfunction]
#[pyo3(signature = (holes, points, boards, threads=None))]
fn resolve_batch<'py>(
    py: Python<'py>,
    holes: PyReadonlyArray2<'py, u8>,
    points: PyReadonlyArray1<'py, u8>,
    boards: PyReadonlyArray2<'py, u8>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<HandValue>>> {
    let threads = threads_arg(py, threads)?;
    if holes.shape()[1] != 3 || boards.shape()[1] != 5 {
        let shapes = format!("holes {:?}, boards {:?}", holes.shape(), boards.shape());
        return Err(to_py(
            py,
            CoreError::invalid_hand(format!(
                "holes must be (N, 3) and boards (N, 5): got {shapes}"
            )),
        ));
    }
    let (h, p, b) = (
        contiguous(py, &holes, "holes")?,
        contiguous(py, &points, "points")?,
        contiguous(py, &boards, "boards")?,
    );
    let mut out = vec![0; points.len()];
    checked(
        py,
        py.detach(|| parallel::with_threads(threads, || double::resolve_rows(h, p, b, &mut out))),
    )?;
    Ok(PyArray1::from_vec(py, out))
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(best_five, m)?)?;
    m.add_function(wrap_pyfunction!(describe, m)?)?;
    m.add_function(wrap_pyfunction!(table_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(shuffle, m)?)?;
    m.add_function(wrap_pyfunction!(before_fork, m)?)?;
    m.add_function(wrap_pyfunction!(after_fork_in_parent, m)?)?;
    m.add_function(wrap_pyfunction!(after_fork_in_child, m)?)?;
    m.add_function(wrap_pyfunction!(kept_pools, m)?)?;
    m.add_function(wrap_pyfunction!(check_threads, m)?)?;
    m.add("MAX_THREADS", parallel::MAX_THREADS)?;
    m.add_function(wrap_pyfunction!(category_counts, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate_batch, m)?)?;
    m.add_function(wrap_pyfunction!(random_hands, m)?)?;
    m.add_function(wrap_pyfunction!(resolve, m)?)?;
    m.add_function(wrap_pyfunction!(auto_point, m)?)?;
    m.add_function(wrap_pyfunction!(point_values, m)?)?;
    m.add_function(wrap_pyfunction!(resolve_batch, m)?)?;
    m.add("CATEGORY_NAMES", hand::CATEGORY_NAMES.to_vec())?;
    casino::register(m)?;
    equity::register(m)?;
    icm::register(m)?;
    Ok(())
}
