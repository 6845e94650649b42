//! The casino game Heads Up Hold'em (RULES.md HU-1 to HU-11) and its close relative
//! Ultimate Texas Hold'em: settings, settlement, exact analysis and simulation.

pub mod advise;
pub mod analysis;
pub mod rules;
pub mod settle;
pub mod side_bets;
pub mod simulate;

pub use rules::{Payout, PocketBonusTable, Rules};
pub use settle::{settle, Settlement, Showdown, Wagers};
