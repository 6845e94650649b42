//! One hand of Texas Hold'em or Double Hold'em, from the blinds to the last chip pushed:
//! the [`Game`] state machine (RULES.md TH-1 to TH-31, DH-1 to DH-9). The Python class
//! `doubleholdem.game.Hand` wraps it; settings are validated there (`GameConfig`).
//!
//! A hand posts antes and blinds, deals, and then waits for decisions: [`Game::legal`]
//! says who acts and what they may do, [`Game::act`], [`Game::choose_point`] and
//! [`Game::timeout`] answer. A refused decision changes nothing. Everything that happens
//! is appended to an ordered event log.

pub mod betting;
pub mod pots;

use crate::double;
use crate::eval::evaluate;
use crate::hand::best_five;
use betting::{Legal, Limits, Round, Seats, Structure};
use pots::{award, rake_amounts, side_pots, uncalled_bet, Pot, PotResult, Rake};
use serde::{Deserialize, Serialize};

pub use betting::Chips;

/// Board cards dealt on each street: pre-flop, flop, turn, river (TH-1).
const BOARD_CARDS: [usize; 4] = [0, 3, 1, 1];

/// The settings of one hand (a validated `GameConfig`).
#[derive(Clone, Debug)]
pub struct Rules {
    pub limits: Limits,
    /// Double Hold'em: three hole cards and a point card (DH-1).
    pub double: bool,
    pub stacks: Vec<Chips>,
    pub small_blind: Chips,
    pub big_blind: Chips,
    pub button: usize,
    /// Fixed-limit bets of the first two and the last two rounds (0 otherwise).
    pub small_bet: Chips,
    pub big_bet: Chips,
    /// The no/pot-limit minimum bet.
    pub minimum_bet: Chips,
    pub ante: Chips,
    /// TH-19: one ante for the table, from the big blind (else one from every player).
    pub big_blind_ante: bool,
    pub rake: Option<Rake>,
    /// (small, big) blind seats placed by a table (TH-38); `None`: by the button.
    pub blind_seats: Option<(Option<usize>, usize)>,
    /// A table's live and dead posts per seat (TH-36, TH-37); empty: none.
    pub live_posts: Vec<Chips>,
    pub dead_posts: Vec<Chips>,
}

impl Rules {
    pub fn players(&self) -> usize {
        self.stacks.len()
    }

    /// The seats and amounts make sense (the Python `GameConfig` checks them with
    /// friendlier messages; this keeps the core safe on its own).
    pub fn check(&self) -> Result<(), String> {
        let n = self.players();
        let seats_ok = self.button < n
            && self
                .blind_seats
                .is_none_or(|(small, big)| big < n && small.is_none_or(|s| s < n))
            && self.live_posts.len() <= n
            && self.dead_posts.len() <= n;
        let amounts = [
            self.small_blind,
            self.big_blind,
            self.small_bet,
            self.big_bet,
            self.minimum_bet,
            self.ante,
        ];
        let money_ok = self
            .stacks
            .iter()
            .chain(&self.live_posts)
            .chain(&self.dead_posts)
            .chain(&amounts)
            .all(|&c| c >= 0)
            && self
                .stacks
                .iter()
                .try_fold(0 as Chips, |sum, &c| sum.checked_add(c))
                .is_some();
        match (seats_ok, money_ok) {
            (true, true) => Ok(()),
            (false, _) => Err("a button, blind or post seat is not at the table".into()),
            _ => Err("chip amounts must be whole, not negative, and add up below 2**63".into()),
        }
    }

    pub fn hole_cards(&self) -> usize {
        if self.double {
            3
        } else {
            2
        }
    }
}

/// What an event is; see `doubleholdem.game.Event` for the fields each kind fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Ante,
    SmallBlind,
    BigBlind,
    Post,
    PostDead,
    Deal,
    Burn,
    Flop,
    Turn,
    River,
    Fold,
    Check,
    Call,
    Bet,
    Raise,
    Timeout,
    Point,
    Return,
    Show,
    Muck,
    Hand,
    Pot,
    Rake,
    Award,
    End,
}

impl Kind {
    pub fn name(self) -> &'static str {
        use Kind::*;
        match self {
            Ante => "ante",
            SmallBlind => "small_blind",
            BigBlind => "big_blind",
            Post => "post",
            PostDead => "post_dead",
            Deal => "deal",
            Burn => "burn",
            Flop => "flop",
            Turn => "turn",
            River => "river",
            Fold => "fold",
            Check => "check",
            Call => "call",
            Bet => "bet",
            Raise => "raise",
            Timeout => "timeout",
            Point => "point",
            Return => "return",
            Show => "show",
            Muck => "muck",
            Hand => "hand",
            Pot => "pot",
            Rake => "rake",
            Award => "award",
            End => "end",
        }
    }
}

/// One entry of the event log; fields that do not apply are `None` or empty.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub kind: Kind,
    pub seat: Option<usize>,
    pub amount: Option<Chips>,
    pub to: Option<Chips>,
    pub cards: Vec<u8>,
    pub all_in: bool,
    pub pot: Option<usize>,
    pub seats: Vec<usize>,
    pub point: Option<usize>,
    pub value: Option<u16>,
    pub hand: Option<u8>,
}

impl Event {
    fn new(kind: Kind, seat: Option<usize>) -> Event {
        Event {
            kind,
            seat,
            amount: None,
            to: None,
            cards: Vec::new(),
            all_in: false,
            pot: None,
            seats: Vec::new(),
            point: None,
            value: None,
            hand: None,
        }
    }
}

/// A betting decision (TH-4). `Bet` and `Raise` take the total the wager is raised *to*;
/// `AllIn` wagers the whole stack, whether that is a call for less, a call or a raise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Fold,
    Check,
    Call,
    Bet,
    Raise,
    AllIn,
}

impl Action {
    pub const ALL: [Action; 6] = [
        Action::Fold,
        Action::Check,
        Action::Call,
        Action::Bet,
        Action::Raise,
        Action::AllIn,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Action::Fold => "fold",
            Action::Check => "check",
            Action::Call => "call",
            Action::Bet => "bet",
            Action::Raise => "raise",
            Action::AllIn => "all_in",
        }
    }
}

/// The amount that came with a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amount {
    None,
    Chips(Chips),
    /// Something that is not a whole number of chips.
    Other,
}

/// A Double Hold'em point card as given: an index into the hole cards or a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointChoice {
    Index(usize),
    Card(u8),
    Other,
}

/// Why a decision was refused (nothing changed). The binding turns it into
/// `IllegalAction`, adding what only Python can spell (the repr of a bad argument).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    HandOver,
    /// Not this seat's turn, or the wrong kind of decision: the whole message.
    Turn(String),
    /// Against a betting rule: "seat {seat} cannot {action}: {reason}".
    Rule {
        action: Action,
        reason: String,
    },
    /// A raise without a whole-number total.
    NoTotal {
        action: Action,
    },
    /// A point that is not an index 0..2 or one of the seat's hole cards.
    BadPoint,
}

/// Whose decision is awaited, and which kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    Bet,
    Point,
}

/// The whole changing state of a hand (what a snapshot saves).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub deck: Vec<u8>,
    pub next_card: usize,
    pub stacks: Vec<Chips>,
    pub bets: Vec<Chips>,
    pub committed: Vec<Chips>,
    pub dead: Chips,
    pub in_hand: Vec<bool>,
    pub live: usize,
    pub holes: Vec<Vec<u8>>,
    pub points: Vec<Option<usize>>,
    pub needs_point: Vec<bool>,
    pub board: Vec<u8>,
    /// 0 pre-flop, 1 flop, 2 turn, 3 river, 4 over (also when won without a showdown).
    pub street: usize,
    pub shown: Vec<bool>,
    pub runout: bool,
    pub actor: Option<usize>,
    pub decision: Option<Decision>,
    pub betting_actor: Option<usize>,
    pub cursor: usize,
    pub round: Round,
    pub results: Vec<PotResult>,
    pub events: Vec<Event>,
}

impl State {
    fn seats(&self) -> Seats<'_> {
        Seats {
            bets: &self.bets,
            stacks: &self.stacks,
            in_hand: &self.in_hand,
        }
    }
}

/// One hand being played.
#[derive(Clone, Debug)]
pub struct Game {
    pub rules: Rules,
    pub state: State,
}

impl Game {
    /// Posts, deals from `deck` (in its order) and waits for the first decision. The
    /// deck must hold distinct cards, enough for every hole card and the board.
    pub fn new(rules: Rules, deck: Vec<u8>) -> Result<Game, String> {
        let n = rules.players();
        if !(2..=10).contains(&n) || deck.len() < n * rules.hole_cards() + 8 {
            return Err(format!(
                "the deck has {} cards, too few for {n} players",
                deck.len()
            ));
        }
        rules.check()?;
        crate::cards::check_cards(&deck).map_err(|e| e.to_string())?;
        let limits = rules.limits;
        let state = State {
            deck,
            next_card: 0,
            stacks: rules.stacks.clone(),
            bets: vec![0; n],
            committed: vec![0; n],
            dead: 0,
            in_hand: vec![true; n],
            live: n,
            holes: vec![Vec::new(); n],
            points: vec![None; n],
            needs_point: vec![false; n],
            board: Vec::new(),
            street: 0,
            shown: vec![false; n],
            runout: false,
            actor: None,
            decision: None,
            betting_actor: None,
            cursor: 0,
            round: Round::new(&limits, n, 0, 0, 0, 0),
            results: Vec::new(),
            events: Vec::with_capacity(48),
        };
        let mut game = Game { rules, state };
        game.post();
        game.deal_holes();
        game.state.round = game.open_round();
        game.proceed();
        Ok(game)
    }

    /// A hand saved as `state` under `rules`, after checking it is consistent.
    pub fn restore(rules: Rules, state: State) -> Result<Game, String> {
        rules.check()?;
        let n = rules.players();
        let s = &state;
        let per_seat = [
            s.stacks.len(),
            s.bets.len(),
            s.committed.len(),
            s.in_hand.len(),
            s.holes.len(),
            s.points.len(),
            s.needs_point.len(),
            s.shown.len(),
            s.round.acted.len(),
        ];
        let k = rules.hole_cards();
        let checks = [
            (
                per_seat.iter().all(|&len| len == n),
                "per-seat lists do not match the seats",
            ),
            (
                (n * k + 8..=52).contains(&s.deck.len()) && s.next_card <= s.deck.len(),
                "the deck does not fit the hand",
            ),
            (
                s.deck
                    .iter()
                    .chain(&s.board)
                    .chain(s.holes.iter().flatten())
                    .all(|&c| c < 52)
                    && s.holes.iter().all(|h| h.len() == k)
                    && s.points.iter().flatten().all(|&p| p < k),
                "cards out of range",
            ),
            (
                s.street <= 4 && (s.board.len() <= 5 && s.board.len() >= [0, 3, 4, 5, 0][s.street]),
                "the board does not fit the street",
            ),
            (
                !rules.double
                    || !(2..4).contains(&s.street)
                    || s.in_hand
                        .iter()
                        .zip(&s.points)
                        .all(|(&alive, point)| !alive || point.is_some()),
                "a player in the hand has no point card after the flop (DH-5)",
            ),
            (
                [s.actor, s.betting_actor]
                    .iter()
                    .flatten()
                    .all(|&seat| seat < n)
                    && s.cursor < n,
                "seats out of range",
            ),
        ];
        if let Some((_, problem)) = checks.iter().find(|(ok, _)| !ok) {
            return Err(problem.to_string());
        }
        let rake: Chips = s.results.iter().map(|r| r.rake).sum();
        let total: Chips = rules.stacks.iter().sum();
        let game = Game { rules, state };
        if game.state.stacks.iter().sum::<Chips>() + game.pot() + rake != total {
            return Err("the chips do not add up".into());
        }
        Ok(game)
    }

    pub fn players(&self) -> usize {
        self.rules.players()
    }

    /// Every chip in the middle, this round's bets included.
    pub fn pot(&self) -> Chips {
        self.state.committed.iter().sum::<Chips>() + self.state.dead
    }

    /// What the seat to act may do, `None` once the hand is over.
    pub fn legal(&self) -> Option<Legal> {
        let s = &self.state;
        let seat = s.actor?;
        Some(match s.decision? {
            Decision::Point => Legal::point_choice(seat, s.bets[seat], s.stacks[seat]),
            Decision::Bet => s
                .round
                .legal(&self.rules.limits, seat, s.seats(), self.pot()),
        })
    }

    // ------------------------------------------------------------------ decisions

    /// A betting decision of the seat to act (`seat`, if given, must be that seat).
    /// `amount` is the total to bet or raise to, or for a call, if given, the call amount.
    pub fn act(
        &mut self,
        action: Action,
        amount: Amount,
        seat: Option<usize>,
    ) -> Result<(), Refusal> {
        let legal = self.expect(Decision::Bet, seat)?;
        let (action, amount) = match action {
            Action::AllIn => all_in_as(&legal, amount)?,
            _ => (action, amount),
        };
        let actor = legal.seat;
        let rule = |ok: bool, reason: &str| {
            if ok {
                Ok(())
            } else {
                Err(Refusal::Rule {
                    action,
                    reason: reason.to_string(),
                })
            }
        };
        match action {
            Action::Fold => {
                rule(legal.can_fold, "there is nothing to call: check instead")?;
                rule(amount == Amount::None, "a fold takes no amount")?;
                self.fold(actor);
            }
            Action::Check => {
                rule(legal.can_check, "facing a wager: fold, call or raise")?;
                rule(amount == Amount::None, "a check takes no amount")?;
                let s = &mut self.state;
                s.round.record_call_or_check(actor);
                self.log(Event::new(Kind::Check, Some(actor)));
            }
            Action::Call => {
                let chips = legal.call_amount;
                rule(chips > 0, "there is nothing to call: check instead")?;
                let matches = matches!(amount, Amount::None) || amount == Amount::Chips(chips);
                rule(matches, &format!("a call is {chips}"))?;
                self.call(actor, chips);
            }
            Action::Bet | Action::Raise | Action::AllIn => self.raise(&legal, action, amount)?,
        }
        self.state.cursor = actor;
        self.proceed();
        Ok(())
    }

    /// Checks if nothing is owed, else calls.
    pub fn check_or_call(&mut self) -> Result<(), Refusal> {
        let legal = self.expect(Decision::Bet, None)?;
        let action = if legal.can_check {
            Action::Check
        } else {
            Action::Call
        };
        self.act(action, Amount::None, None)
    }

    /// Bets or raises to `amount`.
    pub fn bet_or_raise_to(&mut self, amount: Amount) -> Result<(), Refusal> {
        let legal = self.expect(Decision::Bet, None)?;
        let action = if legal.is_bet {
            Action::Bet
        } else {
            Action::Raise
        };
        self.act(action, amount, None)
    }

    /// Seat `seat` chooses its Double Hold'em point card (DH-2, DH-5), only at its turn
    /// on the flop, before it acts.
    pub fn choose_point(&mut self, seat: usize, point: PointChoice) -> Result<(), Refusal> {
        self.expect(Decision::Point, Some(seat))?;
        let hole = &self.state.holes[seat];
        let index = match point {
            PointChoice::Index(i) if i < hole.len() => i,
            PointChoice::Card(card) => hole
                .iter()
                .position(|&c| c == card)
                .ok_or(Refusal::BadPoint)?,
            _ => return Err(Refusal::BadPoint),
        };
        let card = hole[index];
        let s = &mut self.state;
        s.points[seat] = Some(index);
        s.needs_point[seat] = false;
        if Some(seat) != s.betting_actor {
            s.cursor = seat;
        }
        self.log(Event {
            cards: vec![card],
            point: Some(index),
            ..Event::new(Kind::Point, Some(seat))
        });
        self.proceed();
        Ok(())
    }

    /// Seat `seat` ran out of time: its point card is chosen by DH-6, a betting decision
    /// checks if free, else folds (TH-40).
    pub fn timeout(&mut self, seat: usize) -> Result<(), Refusal> {
        if self.state.actor != Some(seat) {
            return Err(Refusal::Turn(format!(
                "seat {seat} cannot time out: it is {}",
                self.turn_text()
            )));
        }
        self.log(Event::new(Kind::Timeout, Some(seat)));
        if self.state.decision == Some(Decision::Point) {
            let hole = &self.state.holes[seat];
            let point =
                double::auto_point(&[hole[0], hole[1], hole[2]]).map_err(|_| Refusal::BadPoint)?;
            self.choose_point(seat, PointChoice::Index(point))
        } else {
            let legal = self.legal().ok_or(Refusal::HandOver)?;
            let action = if legal.can_check {
                Action::Check
            } else {
                Action::Fold
            };
            self.act(action, Amount::None, Some(seat))
        }
    }

    /// The options of the seat to act, if it is `seat`'s turn for a `decision`.
    pub fn expect(&self, decision: Decision, seat: Option<usize>) -> Result<Legal, Refusal> {
        let legal = self.legal().ok_or(Refusal::HandOver)?;
        if let Some(seat) = seat.filter(|&s| s != legal.seat) {
            return Err(Refusal::Turn(format!(
                "seat {seat} cannot act: it is {}",
                self.turn_text()
            )));
        }
        if legal.point != (decision == Decision::Point) {
            let wanted = if legal.point {
                "choose a point card"
            } else {
                "act on the betting"
            };
            return Err(Refusal::Turn(format!(
                "seat {} must first {wanted}",
                legal.seat
            )));
        }
        Ok(legal)
    }

    /// "seat 2's turn to act", or "the end of the hand".
    pub fn turn_text(&self) -> String {
        match (self.state.actor, self.state.decision) {
            (Some(actor), Some(Decision::Point)) => {
                format!("seat {actor}'s turn to choose a point card")
            }
            (Some(actor), _) => format!("seat {actor}'s turn to act"),
            _ => "the end of the hand".to_string(),
        }
    }

    // ------------------------------------------------------------------ chips

    fn log(&mut self, event: Event) {
        self.state.events.push(event);
    }

    fn log_chips(&mut self, kind: Kind, seat: usize, amount: Chips) {
        let all_in = self.state.stacks[seat] == 0;
        self.log(Event {
            amount: Some(amount),
            all_in,
            ..Event::new(kind, Some(seat))
        });
    }

    fn wager(&mut self, seat: usize, chips: Chips) {
        let s = &mut self.state;
        s.stacks[seat] -= chips;
        s.bets[seat] += chips;
        s.committed[seat] += chips;
    }

    fn fold(&mut self, seat: usize) {
        self.state.in_hand[seat] = false;
        self.state.live -= 1;
        self.log(Event::new(Kind::Fold, Some(seat)));
    }

    fn call(&mut self, seat: usize, chips: Chips) {
        self.wager(seat, chips);
        self.state.round.record_call_or_check(seat);
        self.log_chips(Kind::Call, seat, chips);
    }

    fn raise(&mut self, legal: &Legal, action: Action, amount: Amount) -> Result<(), Refusal> {
        let range = || Refusal::Rule {
            action,
            reason: legal.raise_range_text(),
        };
        let (Some(low), Some(high)) = (legal.min_raise_to, legal.max_raise_to) else {
            return Err(range());
        };
        let to = match amount {
            Amount::Chips(to) => to,
            _ => return Err(Refusal::NoTotal { action }),
        };
        if !(low..=high).contains(&to) {
            return Err(range());
        }
        let seat = legal.seat;
        self.wager(seat, to - legal.bet);
        let all_in = self.state.stacks[seat] == 0;
        let live = self.state.live;
        self.state
            .round
            .record_raise(&self.rules.limits, seat, to, all_in, live);
        let kind = if legal.is_bet { Kind::Bet } else { Kind::Raise };
        self.log(Event {
            amount: Some(to - legal.bet),
            to: Some(to),
            all_in,
            ..Event::new(kind, Some(seat))
        });
        Ok(())
    }

    // ------------------------------------------------------------------ the hand's flow

    /// Every seat clockwise from `start` (included).
    fn clockwise(&self, start: usize) -> impl Iterator<Item = usize> {
        let n = self.players();
        (0..n).map(move |i| (start + i) % n)
    }

    fn blind_seats(&self) -> (Option<usize>, usize) {
        if let Some(seats) = self.rules.blind_seats {
            return seats; // placed by a table (TH-38)
        }
        let (button, n) = (self.rules.button, self.players());
        if n == 2 {
            (Some(button), (button + 1) % n) // TH-3: the button posts the small blind
        } else {
            (Some((button + 1) % n), (button + 2) % n)
        }
    }

    /// Antes (TH-19) then blinds (TH-2, TH-18); a short player posts what they have.
    fn post(&mut self) {
        let (small, big) = self.blind_seats();
        let ante = self.rules.ante;
        if ante > 0 {
            if self.rules.big_blind_ante {
                let chips = ante.min(self.state.stacks[big]);
                self.state.stacks[big] -= chips;
                self.state.dead += chips;
                self.log_chips(Kind::Ante, big, chips);
            } else {
                for seat in self.clockwise(self.rules.button + 1).collect::<Vec<_>>() {
                    let chips = ante.min(self.state.stacks[seat]);
                    self.state.stacks[seat] -= chips;
                    self.state.committed[seat] += chips;
                    self.log_chips(Kind::Ante, seat, chips);
                }
            }
        }
        let blinds = [
            (small, self.rules.small_blind, Kind::SmallBlind),
            (Some(big), self.rules.big_blind, Kind::BigBlind),
        ];
        for (seat, blind, kind) in blinds {
            let Some(seat) = seat else { continue };
            let chips = blind.min(self.state.stacks[seat]);
            if chips > 0 {
                self.wager(seat, chips);
                self.log_chips(kind, seat, chips);
            }
        }
        if !self.rules.live_posts.is_empty() || !self.rules.dead_posts.is_empty() {
            self.post_for_table();
        }
    }

    /// A table's extra posts, clockwise from the button: a live post (TH-36, TH-37) is a
    /// wager like a blind; a dead post (TH-37) goes whole into the main pot.
    fn post_for_table(&mut self) {
        for seat in self.clockwise(self.rules.button + 1).collect::<Vec<_>>() {
            let live = self.rules.live_posts.get(seat).copied().unwrap_or(0);
            let chips = live.min(self.state.stacks[seat]);
            if chips > 0 {
                self.wager(seat, chips);
                self.log_chips(Kind::Post, seat, chips);
            }
            let dead = self.rules.dead_posts.get(seat).copied().unwrap_or(0);
            let chips = dead.min(self.state.stacks[seat]);
            if chips > 0 {
                self.state.stacks[seat] -= chips;
                self.state.dead += chips;
                self.log_chips(Kind::PostDead, seat, chips);
            }
        }
    }

    fn draw(&mut self, count: usize) -> Vec<u8> {
        let start = self.state.next_card;
        self.state.next_card = start + count;
        self.state.deck[start..start + count].to_vec()
    }

    /// One card at a time, clockwise from the seat left of the button (TH-1).
    fn deal_holes(&mut self) {
        let order: Vec<usize> = self.clockwise(self.rules.button + 1).collect();
        let (n, rounds) = (order.len(), self.rules.hole_cards());
        let start = self.state.next_card;
        for (i, &seat) in order.iter().enumerate() {
            let cards: Vec<u8> = (0..rounds)
                .map(|r| self.state.deck[start + i + r * n])
                .collect();
            self.state.holes[seat] = cards.clone();
            self.log(Event {
                cards,
                ..Event::new(Kind::Deal, Some(seat))
            });
        }
        self.state.next_card = start + rounds * n;
    }

    fn open_round(&mut self) -> Round {
        let rules = &self.rules;
        let limit = rules.limits.structure == Structure::FixedLimit;
        let bet_size = match (limit, self.state.street < 2) {
            (false, _) => 0,
            (true, true) => rules.small_bet,
            (true, false) => rules.big_bet,
        };
        let (level, bets_made) = if self.state.street == 0 {
            self.state.cursor = self.blind_seats().1;
            (rules.big_blind, 1)
        } else {
            self.state.cursor = rules.button;
            (0, 0)
        };
        Round::new(
            &rules.limits,
            self.players(),
            level,
            rules.minimum_bet,
            bet_size,
            bets_made,
        )
    }

    /// Moves on until a decision is needed or the hand is over.
    fn proceed(&mut self) {
        loop {
            if self.state.live == 1 {
                self.win_uncontested();
                return;
            }
            if self.next_decision() {
                return;
            }
            self.close_round();
            if self.state.street == 3 {
                self.showdown();
                return;
            }
            self.state.street += 1;
            self.deal_board();
            self.state.round = self.open_round();
        }
    }

    fn next_decision(&mut self) -> bool {
        let s = &mut self.state;
        let actor = s.round.next_actor(s.cursor, s.seats());
        s.betting_actor = actor;
        if s.street == 1 && s.needs_point.contains(&true) {
            // DH-5: each player chooses at their turn, all-in players included
            let n = s.stacks.len();
            let mut seat = s.cursor;
            for _ in 0..n {
                seat = (seat + 1) % n;
                if s.needs_point[seat] {
                    (s.actor, s.decision) = (Some(seat), Some(Decision::Point));
                    return true;
                }
                if Some(seat) == actor {
                    break;
                }
            }
        }
        match actor {
            Some(actor) => {
                (s.actor, s.decision) = (Some(actor), Some(Decision::Bet));
                true
            }
            None => false,
        }
    }

    fn return_uncalled(&mut self) {
        if let Some((seat, chips)) = uncalled_bet(&self.state.bets) {
            self.state.stacks[seat] += chips;
            self.state.committed[seat] -= chips;
            self.log(Event {
                amount: Some(chips),
                ..Event::new(Kind::Return, Some(seat))
            });
        }
    }

    fn close_round(&mut self) {
        self.return_uncalled();
        let s = &mut self.state;
        s.bets.fill(0);
        let with_chips = (0..s.stacks.len())
            .filter(|&i| s.in_hand[i] && s.stacks[i] > 0)
            .count();
        if !s.runout && with_chips <= 1 {
            s.runout = true; // TH-22: every hand is turned face up
            for seat in self.showdown_order() {
                self.show(seat);
            }
        }
    }

    fn deal_board(&mut self) {
        let burn = self.draw(1);
        self.log(Event {
            cards: burn,
            ..Event::new(Kind::Burn, None)
        });
        let street = self.state.street;
        let cards = self.draw(BOARD_CARDS[street]);
        self.state.board.extend_from_slice(&cards);
        let kind = [Kind::Flop, Kind::Turn, Kind::River][street - 1];
        self.log(Event {
            cards,
            ..Event::new(kind, None)
        });
        if street == 1 && self.rules.double {
            self.state.needs_point = self.state.in_hand.clone();
        }
    }

    // ------------------------------------------------------------------ the end

    /// TH-22: the last bettor or raiser of the final round first, else the first player
    /// left of the button; then clockwise.
    fn showdown_order(&self) -> Vec<usize> {
        let start = match self.state.round.last_aggressor {
            Some(aggressor) if !self.state.runout => aggressor,
            _ => self.rules.button + 1,
        };
        self.clockwise(start)
            .filter(|&s| self.state.in_hand[s])
            .collect()
    }

    fn show(&mut self, seat: usize) {
        self.state.shown[seat] = true;
        self.log(Event {
            cards: self.state.holes[seat].clone(),
            point: self.state.points[seat],
            ..Event::new(Kind::Show, Some(seat))
        });
    }

    /// The seat's hand value, which Double Hold'em hand plays, and its best five cards.
    fn value(&self, seat: usize) -> (u16, Option<u8>, Vec<u8>) {
        let (hole, board) = (&self.state.holes[seat], &self.state.board);
        if self.rules.double {
            let point =
                self.state.points[seat].expect("DH-5: every player at showdown chose a point card");
            let hole = [hole[0], hole[1], hole[2]];
            let board = [board[0], board[1], board[2], board[3], board[4]];
            let r = double::resolve(&hole, point, &board).expect("a deal of distinct cards");
            return (r.value, Some(r.hand), r.best_five.to_vec());
        }
        let cards: Vec<u8> = hole.iter().chain(board).copied().collect();
        let value = evaluate(&cards).expect("a deal of distinct cards");
        (
            value,
            None,
            best_five(&cards).expect("seven cards").to_vec(),
        )
    }

    fn showdown(&mut self) {
        self.state.street = 4;
        let n = self.players();
        let s = &self.state;
        let all_in: Vec<bool> = s.stacks.iter().map(|&c| c == 0).collect();
        let pots = side_pots(&s.committed, &s.in_hand, &all_in, s.dead);
        let mut values: Vec<Option<u32>> = vec![None; n];
        for seat in self.showdown_order() {
            let (value, which, five) = self.value(seat);
            if self.state.shown[seat] || can_win(seat, value.into(), &values, &pots) {
                if !self.state.shown[seat] {
                    self.show(seat);
                }
                values[seat] = Some(value.into());
                self.log(Event {
                    cards: five,
                    value: Some(value),
                    hand: which,
                    ..Event::new(Kind::Hand, Some(seat))
                });
            } else {
                self.log(Event::new(Kind::Muck, Some(seat)));
            }
        }
        let rakes = rake_amounts(&pots, self.rules.rake.as_ref(), true);
        self.settle(award(&pots, &values, self.rules.button, n, &rakes));
    }

    /// TH-5: the last player in the hand wins every pot without showing.
    fn win_uncontested(&mut self) {
        self.return_uncalled();
        let winner = self
            .state
            .in_hand
            .iter()
            .position(|&i| i)
            .expect("one player left");
        let pot = Pot {
            amount: self.pot(),
            eligible: vec![winner],
        };
        let flop_dealt = self.state.board.len() >= 3;
        let rake = rake_amounts(
            std::slice::from_ref(&pot),
            self.rules.rake.as_ref(),
            flop_dealt,
        )[0];
        self.state.street = 4;
        let winners = vec![winner];
        let shares = vec![pot.amount - rake];
        self.settle(vec![PotResult {
            pot: 0,
            amount: pot.amount,
            rake,
            eligible: winners.clone(),
            winners,
            shares,
        }]);
    }

    fn settle(&mut self, results: Vec<PotResult>) {
        for result in &results {
            self.log(Event {
                pot: Some(result.pot),
                amount: Some(result.amount),
                seats: result.eligible.clone(),
                ..Event::new(Kind::Pot, None)
            });
            if result.rake > 0 {
                self.log(Event {
                    pot: Some(result.pot),
                    amount: Some(result.rake),
                    ..Event::new(Kind::Rake, None)
                });
            }
            for (&seat, &share) in result.winners.iter().zip(&result.shares) {
                self.state.stacks[seat] += share;
                self.log(Event {
                    pot: Some(result.pot),
                    amount: Some(share),
                    ..Event::new(Kind::Award, Some(seat))
                });
            }
        }
        let s = &mut self.state;
        s.bets.fill(0);
        s.committed.fill(0);
        s.dead = 0;
        s.results = results;
        (s.actor, s.decision, s.betting_actor) = (None, None, None);
        self.log(Event::new(Kind::End, None));
    }
}

/// A hand that cannot win or tie any pot it is in may be mucked (TH-22).
fn can_win(seat: usize, value: u32, shown: &[Option<u32>], pots: &[Pot]) -> bool {
    pots.iter()
        .filter(|pot| pot.eligible.contains(&seat))
        .any(|pot| {
            let best = pot.eligible.iter().filter_map(|&s| shown[s]).max();
            best.is_none_or(|best| value >= best)
        })
}

fn all_in_as(legal: &Legal, amount: Amount) -> Result<(Action, Amount), Refusal> {
    let refuse = |reason: String| Refusal::Rule {
        action: Action::AllIn,
        reason,
    };
    if amount != Amount::None {
        return Err(refuse("an all-in takes no amount".into()));
    }
    if legal.stack() > 0 && legal.call_amount == legal.stack() {
        return Ok((Action::Call, Amount::None));
    }
    if legal.max_raise_to != Some(legal.all_in_to) {
        return Err(refuse(legal.raise_range_text()));
    }
    let action = if legal.is_bet {
        Action::Bet
    } else {
        Action::Raise
    };
    Ok((action, Amount::Chips(legal.all_in_to)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    fn rules(structure: Structure, double: bool, stacks: Vec<Chips>) -> Rules {
        Rules {
            limits: Limits {
                structure,
                cap: Some(4),
                heads_up_uncapped: true,
            },
            double,
            stacks,
            small_blind: 50,
            big_blind: 100,
            button: 0,
            small_bet: 100,
            big_bet: 200,
            minimum_bet: 100,
            ante: 0,
            big_blind_ante: false,
            rake: None,
            blind_seats: None,
            live_posts: Vec::new(),
            dead_posts: Vec::new(),
        }
    }

    fn deck(rng: &mut SmallRng) -> Vec<u8> {
        let mut cards: Vec<u8> = (0..52).collect();
        crate::cards::shuffle(&mut cards, rng.random());
        cards
    }

    /// A random legal decision; returns false once the hand is over.
    fn play_one(game: &mut Game, rng: &mut SmallRng) -> bool {
        let Some(legal) = game.legal() else {
            return false;
        };
        let result = if legal.point {
            game.choose_point(legal.seat, PointChoice::Index(rng.random_range(0..3)))
        } else {
            match (
                rng.random_range(0..4),
                legal.min_raise_to,
                legal.max_raise_to,
            ) {
                (0, _, _) if legal.can_fold => game.act(Action::Fold, Amount::None, None),
                (1, Some(low), Some(high)) => {
                    let to = rng.random_range(low..=high);
                    game.act(Action::Raise, Amount::Chips(to), None)
                }
                _ => game.check_or_call(),
            }
        };
        assert_eq!(result, Ok(()), "a legal decision is accepted");
        true
    }

    #[test]
    fn random_hands_conserve_chips_and_always_end() {
        let mut rng = SmallRng::seed_from_u64(1);
        for round in 0..2_000 {
            let n = rng.random_range(2..=10);
            let stacks: Vec<Chips> = (0..n).map(|_| rng.random_range(1..5_000)).collect();
            let structure = [
                Structure::NoLimit,
                Structure::PotLimit,
                Structure::FixedLimit,
            ][round % 3];
            let total: Chips = stacks.iter().sum();
            let mut game =
                Game::new(rules(structure, round % 2 == 0, stacks), deck(&mut rng)).unwrap();
            let mut decisions = 0;
            while play_one(&mut game, &mut rng) {
                decisions += 1;
                assert!(decisions < 500, "a hand ends");
                assert!(game.state.stacks.iter().all(|&s| s >= 0));
                assert_eq!(game.state.stacks.iter().sum::<Chips>() + game.pot(), total);
            }
            assert_eq!(
                game.state.stacks.iter().sum::<Chips>(),
                total,
                "every pot is awarded"
            );
            assert_eq!(game.state.events.last().map(|e| e.kind), Some(Kind::End));
        }
    }

    #[test]
    fn a_refused_decision_changes_nothing() {
        let mut rng = SmallRng::seed_from_u64(2);
        let mut game = Game::new(
            rules(Structure::NoLimit, true, vec![1_000; 3]),
            deck(&mut rng),
        )
        .unwrap();
        let before = game.state.clone();
        assert_eq!(
            game.act(Action::Check, Amount::None, None).unwrap_err(),
            Refusal::Rule {
                action: Action::Check,
                reason: "facing a wager: fold, call or raise".into(),
            }
        );
        assert_eq!(
            game.act(Action::Raise, Amount::Chips(150), None)
                .unwrap_err(),
            Refusal::Rule {
                action: Action::Raise,
                reason: "bets and raises go to 200..1000".into(),
            }
        );
        assert!(matches!(
            game.act(Action::Call, Amount::None, Some(2)),
            Err(Refusal::Turn(_))
        ));
        assert_eq!(
            game.choose_point(0, PointChoice::Index(0)).unwrap_err(),
            Refusal::Turn("seat 0 must first act on the betting".into())
        );
        assert_eq!(game.state, before);
    }

    #[test]
    fn each_double_holdem_player_chooses_a_point_at_their_turn_on_the_flop_dh5() {
        let mut rng = SmallRng::seed_from_u64(3);
        let mut game = Game::new(
            rules(Structure::FixedLimit, true, vec![1_000; 3]),
            deck(&mut rng),
        )
        .unwrap();
        while game.state.street == 0 {
            game.check_or_call().unwrap();
        }
        for seat in [1, 2, 0] {
            let legal = game.legal().unwrap();
            assert!(legal.point && legal.seat == seat);
            game.choose_point(seat, PointChoice::Index(2)).unwrap();
            game.check_or_call().unwrap();
        }
        assert_eq!(game.state.street, 2);
        assert_eq!(game.state.points, vec![Some(2); 3]);
    }
}
