//! `HandCore`: the hand state machine of doubleholdem-core for `doubleholdem.game.Hand`,
//! which validates the settings and turns refusals into `IllegalAction`.

use doubleholdem_core::game::betting::{Legal, Limits, Structure};
use doubleholdem_core::game::pots::{self, Pot, PotResult, Rake};
use doubleholdem_core::game::{
    Action, Amount, Chips, Decision, Event, Game, PointChoice, Refusal, Rules, State,
};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString, PyTuple};

/// The fields of `doubleholdem.betting.LegalActions`, in order: (seat, can_fold,
/// can_check, call_amount, min_raise_to, max_raise_to, all_in_to, is_bet, bet, decision,
/// points).
type LegalTuple<'py> = (
    usize,
    bool,
    bool,
    Chips,
    Option<Chips>,
    Option<Chips>,
    Chips,
    bool,
    Chips,
    &'static str,
    Bound<'py, PyTuple>,
);

/// A refusal for Python: (what, message, action). `what` is "over", "turn", "rule",
/// "action" (not an action), "total" (a raise without a whole-number total) or "point".
type RefusalTuple = (&'static str, String, Option<&'static str>);

/// (options, hole cards of the seat to act, board, pot, players in the hand)
type ActorView<'py> = (
    LegalTuple<'py>,
    Bound<'py, PyTuple>,
    Bound<'py, PyTuple>,
    Chips,
    usize,
);

type RakeTuple = (Chips, Option<Chips>, bool);

/// (pot, amount, rake, eligible, winners, shares): `doubleholdem.pots.PotResult`.
type ResultTuple = (usize, Chips, Chips, Vec<usize>, Vec<usize>, Vec<Chips>);

#[pyclass(name = "HandCore", module = "doubleholdem._core")]
pub struct HandCore {
    game: Game,
}

fn structure(name: &str) -> PyResult<Structure> {
    match name {
        "fixed-limit" => Ok(Structure::FixedLimit),
        "pot-limit" => Ok(Structure::PotLimit),
        "no-limit" => Ok(Structure::NoLimit),
        _ => Err(PyValueError::new_err(format!("no structure {name:?}"))),
    }
}

fn rake_rule((basis_points, cap, no_flop_no_drop): RakeTuple) -> Rake {
    Rake {
        basis_points,
        cap,
        no_flop_no_drop,
    }
}

fn legal_tuple(py: Python<'_>, l: Legal) -> PyResult<LegalTuple<'_>> {
    let (decision, points): (_, &[u8]) = if l.point {
        ("point", &[0, 1, 2])
    } else {
        ("bet", &[])
    };
    Ok((
        l.seat,
        l.can_fold,
        l.can_check,
        l.call_amount,
        l.min_raise_to,
        l.max_raise_to,
        l.all_in_to,
        l.is_bet,
        l.bet,
        decision,
        PyTuple::new(py, points)?,
    ))
}

fn refusal_tuple(refusal: Refusal) -> RefusalTuple {
    match refusal {
        Refusal::HandOver => ("over", "the hand is over".into(), None),
        Refusal::Turn(message) => ("turn", message, None),
        Refusal::Rule { action, reason } => ("rule", reason, Some(action.name())),
        Refusal::NoTotal { action } => ("total", String::new(), Some(action.name())),
        Refusal::BadPoint => ("point", String::new(), None),
    }
}

fn answer(result: Result<(), Refusal>) -> Option<RefusalTuple> {
    result.err().map(refusal_tuple)
}

/// `None`, a whole number of chips (an int, not a bool), or anything else.
fn amount(value: Option<&Bound<'_, PyAny>>) -> Amount {
    match value {
        None => Amount::None,
        Some(v) if v.is_none() => Amount::None,
        Some(v) => match v.cast_exact::<PyInt>().map(|i| i.extract::<Chips>()) {
            Ok(Ok(chips)) => Amount::Chips(chips),
            _ => Amount::Other,
        },
    }
}

/// An `Action` or its name (`Action` is a `str` enum).
fn action(value: &Bound<'_, PyAny>) -> Option<Action> {
    let name = value.cast::<PyString>().ok()?;
    let name = name.to_cow().ok()?;
    Action::ALL.into_iter().find(|a| a.name() == name)
}

fn event_tuple<'py>(py: Python<'py>, seq: usize, e: &Event) -> PyResult<Bound<'py, PyTuple>> {
    (
        seq,
        e.kind.name(),
        e.seat,
        e.amount,
        e.to,
        PyTuple::new(py, &e.cards)?,
        e.all_in,
        e.pot,
        PyTuple::new(py, &e.seats)?,
        e.point,
        e.value,
        e.hand,
    )
        .into_pyobject(py)
}

fn result_tuple(r: &PotResult) -> ResultTuple {
    (
        r.pot,
        r.amount,
        r.rake,
        r.eligible.clone(),
        r.winners.clone(),
        r.shares.clone(),
    )
}

#[pymethods]
impl HandCore {
    /// Posts, deals `deck` in its order and waits for the first decision; or, given
    /// `state` (JSON from `state_json`), the hand saved there (ValueError if broken).
    #[new]
    #[pyo3(signature = (structure_name, double, stacks, blinds, button, limit_bets,
                        minimum_bet, ante, cap, rake, blind_seats, posts, deck, state=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        structure_name: &str,
        double: bool,
        stacks: Vec<Chips>,
        blinds: (Chips, Chips),
        button: usize,
        limit_bets: (Chips, Chips),
        minimum_bet: Chips,
        ante: (Chips, bool),
        cap: (Option<u32>, bool),
        rake: Option<RakeTuple>,
        blind_seats: Option<(Option<usize>, usize)>,
        posts: (Vec<Chips>, Vec<Chips>),
        deck: Vec<u8>,
        state: Option<&str>,
    ) -> PyResult<Self> {
        let rules = Rules {
            limits: Limits {
                structure: structure(structure_name)?,
                cap: cap.0,
                heads_up_uncapped: cap.1,
            },
            double,
            stacks,
            small_blind: blinds.0,
            big_blind: blinds.1,
            button,
            small_bet: limit_bets.0,
            big_bet: limit_bets.1,
            minimum_bet,
            ante: ante.0,
            big_blind_ante: ante.1,
            rake: rake.map(rake_rule),
            blind_seats,
            live_posts: posts.0,
            dead_posts: posts.1,
        };
        let game = match state {
            None => Game::new(rules, deck),
            Some(json) => serde_json::from_str::<State>(json)
                .map_err(|e| e.to_string())
                .and_then(|state| Game::restore(rules, state)),
        };
        Ok(HandCore {
            game: game.map_err(PyValueError::new_err)?,
        })
    }

    /// The whole changing state as JSON.
    fn state_json(&self) -> String {
        serde_json::to_string(&self.game.state).expect("the state serialises")
    }

    #[getter]
    fn actor(&self) -> Option<usize> {
        self.game.state.actor
    }

    #[getter]
    fn decision(&self) -> Option<&'static str> {
        self.game.state.decision.map(|d| match d {
            Decision::Bet => "bet",
            Decision::Point => "point",
        })
    }

    #[getter]
    fn street(&self) -> usize {
        self.game.state.street
    }

    #[getter]
    fn pot(&self) -> Chips {
        self.game.pot()
    }

    /// Chips the house took from the pots settled so far.
    #[getter]
    fn rake(&self) -> Chips {
        self.game.state.results.iter().map(|r| r.rake).sum()
    }

    #[getter]
    fn stacks(&self) -> Vec<Chips> {
        self.game.state.stacks.clone()
    }

    #[getter]
    fn bets(&self) -> Vec<Chips> {
        self.game.state.bets.clone()
    }

    #[getter]
    fn committed(&self) -> Vec<Chips> {
        self.game.state.committed.clone()
    }

    #[getter]
    fn in_hand(&self) -> Vec<bool> {
        self.game.state.in_hand.clone()
    }

    /// Players who have not folded.
    #[getter]
    fn live(&self) -> usize {
        self.game.state.live
    }

    #[getter]
    fn points(&self) -> Vec<Option<usize>> {
        self.game.state.points.clone()
    }

    #[getter]
    fn shown(&self) -> Vec<bool> {
        self.game.state.shown.clone()
    }

    #[getter]
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.game.state.board)
    }

    fn hole<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyTuple>> {
        let hole = self.game.state.holes.get(seat);
        let hole = hole.ok_or_else(|| PyIndexError::new_err(format!("no seat {seat}")))?;
        PyTuple::new(py, hole)
    }

    fn results(&self) -> Vec<ResultTuple> {
        self.game.state.results.iter().map(result_tuple).collect()
    }

    #[getter]
    fn event_count(&self) -> usize {
        self.game.state.events.len()
    }

    /// The events from number `start` on, as `Event` field tuples.
    fn events<'py>(&self, py: Python<'py>, start: usize) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        let events = &self.game.state.events;
        (start..events.len())
            .map(|seq| event_tuple(py, seq, &events[seq]))
            .collect()
    }

    /// (options, hole cards of the seat to act, board, pot, players in the hand), or
    /// `None` once the hand is over: what a decision needs, in one call.
    fn actor_view<'py>(&self, py: Python<'py>) -> PyResult<Option<ActorView<'py>>> {
        let (Some(legal), Some(actor)) = (self.game.legal(), self.game.state.actor) else {
            return Ok(None);
        };
        let s = &self.game.state;
        Ok(Some((
            legal_tuple(py, legal)?,
            PyTuple::new(py, &s.holes[actor])?,
            PyTuple::new(py, &s.board)?,
            self.game.pot(),
            s.live,
        )))
    }

    fn legal<'py>(&self, py: Python<'py>) -> PyResult<Option<LegalTuple<'py>>> {
        self.game.legal().map(|l| legal_tuple(py, l)).transpose()
    }

    /// A betting decision; `None` if applied, else the refusal (nothing changed).
    #[pyo3(signature = (action_name, amount_given=None, seat=None))]
    fn act(
        &mut self,
        action_name: &Bound<'_, PyAny>,
        amount_given: Option<&Bound<'_, PyAny>>,
        seat: Option<usize>,
    ) -> Option<RefusalTuple> {
        match action(action_name) {
            Some(a) => answer(self.game.act(a, amount(amount_given), seat)),
            None => Some(match self.game.expect(Decision::Bet, seat) {
                Ok(_) => ("action", String::new(), None),
                Err(refusal) => refusal_tuple(refusal),
            }),
        }
    }

    fn check_or_call(&mut self) -> Option<RefusalTuple> {
        answer(self.game.check_or_call())
    }

    fn bet_or_raise_to(&mut self, amount_given: &Bound<'_, PyAny>) -> Option<RefusalTuple> {
        answer(self.game.bet_or_raise_to(amount(Some(amount_given))))
    }

    /// A point card: an index (an int) or a card number given as `card`.
    #[pyo3(signature = (seat, index=None, card=None))]
    fn choose_point(
        &mut self,
        seat: usize,
        index: Option<&Bound<'_, PyAny>>,
        card: Option<u8>,
    ) -> Option<RefusalTuple> {
        let point = match (card, amount(index)) {
            (Some(card), _) => PointChoice::Card(card),
            (None, Amount::Chips(i)) if i >= 0 => PointChoice::Index(i as usize),
            _ => PointChoice::Other,
        };
        answer(self.game.choose_point(seat, point))
    }

    fn timeout(&mut self, seat: usize) -> Option<RefusalTuple> {
        answer(self.game.timeout(seat))
    }
}

fn pot_list(pots: Vec<(Chips, Vec<usize>)>) -> Vec<Pot> {
    pots.into_iter()
        .map(|(amount, eligible)| Pot { amount, eligible })
        .collect()
}

/// `doubleholdem.pots.side_pots`: (amount, eligible) per pot.
#[pyfunction]
fn side_pots(
    committed: Vec<Chips>,
    in_hand: Vec<bool>,
    all_in: Vec<bool>,
    dead: Chips,
) -> PyResult<Vec<(Chips, Vec<usize>)>> {
    if committed.is_empty() || in_hand.len() != committed.len() || all_in.len() != committed.len() {
        return Err(PyValueError::new_err(
            "committed, in_hand and all_in need one entry per seat",
        ));
    }
    checked_total(committed.iter().chain([&dead]))?;
    Ok(pots::side_pots(&committed, &in_hand, &all_in, dead)
        .into_iter()
        .map(|p| (p.amount, p.eligible))
        .collect())
}

/// `doubleholdem.pots.award`.
#[pyfunction]
fn award(
    pots_given: Vec<(Chips, Vec<usize>)>,
    values: Vec<Option<u32>>,
    button: usize,
    players: usize,
    rakes: Vec<Chips>,
) -> PyResult<Vec<ResultTuple>> {
    let pots = pot_list(pots_given);
    let eligible = pots.iter().flat_map(|p| p.eligible.iter().copied());
    check_seats(eligible.chain([button]), players)?;
    Ok(pots::award(&pots, &values, button, players, &rakes)
        .iter()
        .map(result_tuple)
        .collect())
}

/// `doubleholdem.pots.rake_amounts`.
#[pyfunction]
fn rake_amounts(
    pots_given: Vec<(Chips, Vec<usize>)>,
    rake: Option<RakeTuple>,
    flop_dealt: bool,
) -> Vec<Chips> {
    let pots = pot_list(pots_given);
    pots::rake_amounts(&pots, rake.map(rake_rule).as_ref(), flop_dealt)
}

/// `doubleholdem.pots.split`: (seat, chips) in clockwise order from the button.
#[pyfunction]
fn split(
    amount: Chips,
    winners: Vec<usize>,
    button: usize,
    players: usize,
) -> PyResult<Vec<(usize, Chips)>> {
    check_seats(winners.iter().copied().chain([button]), players)?;
    if winners.is_empty() {
        return Err(PyValueError::new_err(
            "a pot is split among at least one winner",
        ));
    }
    Ok(pots::split(amount, &winners, button, players))
}

/// Every seat number is one of `players` seats (2 to 10).
fn check_seats(seats: impl IntoIterator<Item = usize>, players: usize) -> PyResult<()> {
    if !(2..=10).contains(&players) {
        return Err(PyValueError::new_err(format!(
            "players must be 2 to 10, not {players}"
        )));
    }
    match seats.into_iter().find(|&seat| seat >= players) {
        Some(seat) => Err(PyValueError::new_err(format!(
            "seat {seat} is not one of the {players} seats"
        ))),
        None => Ok(()),
    }
}

/// The sum of `amounts`, if every chip count fits (below 2**63 together).
fn checked_total<'a>(amounts: impl IntoIterator<Item = &'a Chips>) -> PyResult<Chips> {
    amounts
        .into_iter()
        .try_fold(0 as Chips, |sum, &c| sum.checked_add(c).filter(|_| c >= 0))
        .ok_or_else(|| {
            PyValueError::new_err("chip amounts must not be negative and add up below 2**63")
        })
}

/// `doubleholdem.pots.uncalled_bet`.
#[pyfunction]
fn uncalled_bet(bets: Vec<Chips>) -> Option<(usize, Chips)> {
    pots::uncalled_bet(&bets)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<HandCore>()?;
    m.add_function(wrap_pyfunction!(side_pots, m)?)?;
    m.add_function(wrap_pyfunction!(award, m)?)?;
    m.add_function(wrap_pyfunction!(rake_amounts, m)?)?;
    m.add_function(wrap_pyfunction!(split, m)?)?;
    m.add_function(wrap_pyfunction!(uncalled_bet, m)?)?;
    Ok(())
}
