//! Bindings of the casino game (RULES.md HU-1 to HU-11) and the Double Hold'em
//! statistics. Long work runs on a worker thread with the GIL released; the calling
//! thread wakes every 100 ms to report progress and to notice Ctrl-C, which sets the
//! work's cancellation flag and raises KeyboardInterrupt once the workers stopped.

use crate::supervise::supervised;
use crate::{checked, threads_arg, to_py};
use doubleholdem_core::casino::advise::{self, OptionEv};
use doubleholdem_core::casino::analysis::{self, Analysis, ACTIONS, BINS};
use doubleholdem_core::casino::rules::{PayTable, Payout, PocketBonusTable, Rules, PAY_CLASSES};
use doubleholdem_core::casino::settle::{settle, Showdown, Wagers, SHOWDOWNS};
use doubleholdem_core::casino::side_bets::{self, SideBet};
use doubleholdem_core::casino::simulate::{self, Strategy};
use doubleholdem_core::double_stats::{self as dh_stats, DoubleCounts};
use doubleholdem_core::CoreError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

/// The settings of a casino game, checked once (HU-11).
#[pyclass(frozen, name = "CasinoRules", module = "doubleholdem._core")]
pub struct PyRules {
    rules: Rules,
}

type Pays = Vec<(i32, u32)>;

fn pay_table(py: Python<'_>, name: &str, pays: Pays) -> PyResult<PayTable> {
    let n = pays.len();
    let table: Result<[(i32, u32); PAY_CLASSES], _> = pays.try_into();
    let table = table.map_err(|_| {
        to_py(
            py,
            CoreError::invalid_rules(format!("{name} has {PAY_CLASSES} lines, not {n}")),
        )
    })?;
    Ok(table.map(|(to, per)| Payout::pays(to, per)))
}

#[pymethods]
impl PyRules {
    #[new]
    #[pyo3(signature = (*, preflop_raises, flop_raises, river_raises, qualifying_category,
                        odds_win, odds_loss, trips, pocket_bonus))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        preflop_raises: Vec<u32>,
        flop_raises: Vec<u32>,
        river_raises: Vec<u32>,
        qualifying_category: u8,
        odds_win: Pays,
        odds_loss: Pays,
        trips: Pays,
        pocket_bonus: [(i32, u32); 5],
    ) -> PyResult<Self> {
        let [aces, ace_face_suited, ace_face_offsuit, other_pair, other] =
            pocket_bonus.map(|(to, per)| Payout::pays(to, per));
        let rules = Rules {
            preflop_raises,
            flop_raises,
            river_raises,
            qualifying_category,
            odds_win: pay_table(py, "the odds table", odds_win)?,
            odds_loss: pay_table(py, "the bad beat table", odds_loss)?,
            trips: pay_table(py, "the trips table", trips)?,
            pocket_bonus: PocketBonusTable {
                aces,
                ace_face_suited,
                ace_face_offsuit,
                other_pair,
                other,
            },
        };
        checked(py, rules.validate())?;
        Ok(PyRules { rules })
    }
}

#[pyfunction]
#[pyo3(signature = (rules, ante, trips, pocket_bonus, play, player, board, dealer))]
#[allow(clippy::too_many_arguments)]
fn casino_settle(
    py: Python<'_>,
    rules: &PyRules,
    ante: i64,
    trips: i64,
    pocket_bonus: i64,
    play: Option<u32>,
    player: [u8; 2],
    board: [u8; 5],
    dealer: [u8; 2],
) -> PyResult<(i128, i128, i128, i128, i128)> {
    let wagers = Wagers {
        ante,
        trips,
        pocket_bonus,
    };
    let s = checked(
        py,
        settle(&rules.rules, wagers, play, player, board, dealer),
    )?;
    Ok((s.ante, s.odds, s.play, s.trips, s.pocket_bonus))
}

fn options(evs: Vec<OptionEv>) -> Vec<(Option<u32>, f64)> {
    evs.into_iter().map(|o| (o.raise, o.ev)).collect()
}

#[pyfunction]
fn casino_river_options(
    py: Python<'_>,
    rules: &PyRules,
    player: [u8; 2],
    board: [u8; 5],
) -> PyResult<Vec<(Option<u32>, f64)>> {
    checked(py, advise::river_options(&rules.rules, player, board)).map(options)
}

#[pyfunction]
fn casino_flop_options(
    py: Python<'_>,
    rules: &PyRules,
    player: [u8; 2],
    flop: [u8; 3],
) -> PyResult<Vec<(Option<u32>, f64)>> {
    let result = py.detach(|| advise::flop_options(&rules.rules, player, flop));
    checked(py, result).map(options)
}

#[pyfunction]
fn casino_flop_chunks() -> usize {
    analysis::flop_chunks()
}

/// A chunk's tally (a list of integers) and flop decisions (bytes): plain Python
/// objects, so chunks pickle to other processes and numpy stays optional.
type ChunkResult<'py> = (Vec<u64>, Bound<'py, PyBytes>);

#[pyfunction]
#[pyo3(signature = (rules, start, stop, progress=None, threads=None))]
fn casino_analysis_chunk<'py>(
    py: Python<'py>,
    rules: &PyRules,
    start: usize,
    stop: usize,
    progress: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<ChunkResult<'py>> {
    let threads = threads_arg(py, threads)?;
    let total = stop.saturating_sub(start);
    let chunk = supervised(py, progress, total, threads, |done, cancel| {
        analysis::analyse_chunk(&rules.rules, start..stop, done, cancel)
    })?;
    Ok((chunk.tally, PyBytes::new(py, &chunk.flop_decisions)))
}

fn analysis_dict<'py>(py: Python<'py>, a: &Analysis) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("deals", a.deals)?;
    d.set_item("expected_value", a.expected_value)?;
    d.set_item("house_edge", a.house_edge())?;
    d.set_item("element_of_risk", a.element_of_risk())?;
    d.set_item("average_wager", a.average_wager)?;
    d.set_item("std_dev", a.std_dev)?;
    d.set_item("folds", a.folds)?;
    let frequencies: Vec<(u32, f64)> = (0..ACTIONS as u32)
        .map(|m| (m, a.frequency(m)))
        .filter(|&(m, f)| m == 0 || f > 0.0)
        .collect();
    d.set_item("frequencies", frequencies)?;
    let mut outcomes = Vec::new();
    for (m, row) in a.outcomes.iter().enumerate() {
        for (bin, &n) in row.iter().enumerate().filter(|(_, &n)| n > 0) {
            outcomes.push((m, bin / SHOWDOWNS, bin % SHOWDOWNS, n));
        }
    }
    d.set_item("outcomes", outcomes)?;
    let strategy: Vec<(String, f64, Vec<f64>, Option<u32>)> = (a.strategy.iter())
        .map(|s| (s.name.clone(), s.check_ev, s.raise_evs.clone(), s.best))
        .collect();
    d.set_item("strategy", strategy)?;
    Ok(d)
}

#[pyfunction]
fn casino_analysis_finish<'py>(
    py: Python<'py>,
    rules: &PyRules,
    tally: Vec<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let analysis = checked(py, analysis::finish(&rules.rules, &tally))?;
    analysis_dict(py, &analysis)
}

#[pyfunction]
fn casino_flop_decision(
    py: Python<'_>,
    flop_decisions: &[u8],
    player: [u8; 2],
    flop: [u8; 3],
) -> PyResult<u8> {
    let classes = doubleholdem_core::classes::triple_classes()
        .representatives
        .len();
    if flop_decisions.len() != classes * doubleholdem_core::classes::PAIRS {
        return Err(to_py(
            py,
            CoreError::invalid_rules("flop decisions come from a whole analysis"),
        ));
    }
    checked(
        py,
        doubleholdem_core::cards::check_cards(&[player[0], player[1], flop[0], flop[1], flop[2]]),
    )?;
    Ok(analysis::flop_decision(flop_decisions, player, flop))
}

/// The net result per unit of Ante of each outcome bin: (multiple, pay class,
/// showdown) -> units of 1/denominator, and the denominator.
#[pyfunction]
fn casino_outcome_units(rules: &PyRules, multiple: u32, pay_class: usize, showdown: usize) -> f64 {
    let r = &rules.rules;
    let den = r.main_denominator();
    let units = doubleholdem_core::casino::settle::showdown_units(
        r,
        den,
        multiple,
        pay_class.min(PAY_CLASSES - 1),
        Showdown::ALL[showdown.min(SHOWDOWNS - 1)],
    );
    units as f64 / den as f64
}

#[pyfunction]
#[pyo3(signature = (rules, preflop, flop, rounds, seed, progress=None, threads=None))]
#[allow(clippy::too_many_arguments)]
fn casino_simulate<'py>(
    py: Python<'py>,
    rules: &PyRules,
    preflop: Vec<Option<u32>>,
    flop: &[u8],
    rounds: u64,
    seed: u64,
    progress: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = threads_arg(py, threads)?;
    let strategy = Strategy {
        preflop,
        flop: flop.to_vec(),
    };
    let chunks = simulate::simulation_chunks(rounds) as usize;
    let sim = supervised(py, progress, chunks, threads, |done, cancel| {
        simulate::simulate(&rules.rules, &strategy, seed, rounds, done, cancel)
    })?;
    let d = PyDict::new(py);
    d.set_item("rounds", sim.rounds)?;
    d.set_item("mean", sim.mean())?;
    d.set_item("std_dev", sim.std_dev())?;
    let (low, high) = sim.confidence_95();
    d.set_item("ci95", (low, high))?;
    d.set_item("actions", sim.actions)?;
    Ok(d)
}

fn side_bet_dict<'py>(py: Python<'py>, bet: &SideBet) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("expected_value", bet.expected_value())?;
    d.set_item("house_edge", bet.house_edge())?;
    d.set_item("outcomes", bet.outcomes.clone())?;
    d.set_item("hands", bet.hands)?;
    Ok(d)
}

#[pyfunction]
fn casino_side_bets<'py>(py: Python<'py>, rules: &PyRules) -> PyResult<Bound<'py, PyDict>> {
    let (trips, pocket) = py.detach(|| {
        (
            side_bets::trips_plus(&rules.rules),
            side_bets::pocket_bonus(&rules.rules),
        )
    });
    let d = PyDict::new(py);
    d.set_item("trips_plus", side_bet_dict(py, &checked(py, trips)?)?)?;
    d.set_item("pocket_bonus", side_bet_dict(py, &checked(py, pocket)?)?)?;
    Ok(d)
}

fn counts_dict<'py>(py: Python<'py>, c: &DoubleCounts) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("auto", c.auto)?;
    d.set_item("best", c.best)?;
    d.set_item("point_best", c.point_best)?;
    d.set_item("auto_best", c.auto_best)?;
    d.set_item("deals", c.deals)?;
    Ok(d)
}

#[pyfunction]
fn double_counts<'py>(
    py: Python<'py>,
    hole: [u8; 3],
    board: Vec<u8>,
) -> PyResult<Bound<'py, PyDict>> {
    let counts = py.detach(|| dh_stats::double_counts(hole, &board));
    counts_dict(py, &checked(py, counts)?)
}

#[pyfunction]
#[pyo3(signature = (progress=None, threads=None))]
fn double_stats<'py>(
    py: Python<'py>,
    progress: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = threads_arg(py, threads)?;
    let total = doubleholdem_core::classes::triple_classes()
        .representatives
        .len();
    let stats = supervised(py, progress, total, threads, dh_stats::double_stats)?;
    let d = counts_dict(py, &stats.total)?;
    let classes = pyo3::types::PyList::empty(py);
    for class in &stats.classes {
        let entry = counts_dict(py, &class.counts)?;
        entry.set_item("hole", class.hole)?;
        entry.set_item("weight", class.weight)?;
        entry.set_item("auto_point", class.auto_point)?;
        classes.append(entry)?;
    }
    d.set_item("classes", classes)?;
    Ok(d)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRules>()?;
    m.add_function(wrap_pyfunction!(casino_settle, m)?)?;
    m.add_function(wrap_pyfunction!(casino_river_options, m)?)?;
    m.add_function(wrap_pyfunction!(casino_flop_options, m)?)?;
    m.add_function(wrap_pyfunction!(casino_flop_chunks, m)?)?;
    m.add_function(wrap_pyfunction!(casino_analysis_chunk, m)?)?;
    m.add_function(wrap_pyfunction!(casino_analysis_finish, m)?)?;
    m.add_function(wrap_pyfunction!(casino_outcome_units, m)?)?;
    m.add_function(wrap_pyfunction!(casino_flop_decision, m)?)?;
    m.add_function(wrap_pyfunction!(casino_simulate, m)?)?;
    m.add_function(wrap_pyfunction!(casino_side_bets, m)?)?;
    m.add_function(wrap_pyfunction!(double_counts, m)?)?;
    m.add_function(wrap_pyfunction!(double_stats, m)?)?;
    m.add("CASINO_TALLY_WORDS", analysis::TALLY_WORDS)?;
    m.add("CASINO_BINS", BINS)?;
    Ok(())
}
