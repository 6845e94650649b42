//! doubleholdem-core: cards, the hand evaluator, Double Hold'em resolution and batch
//! work, the hand state machine (`game`), the casino game (`casino`) and the equity
//! bot's Monte Carlo (`equity`), in pure Rust (no Python). The rules are those of
//! RULES.md; ids are cited.
#![deny(unsafe_code)]

pub mod batch;
pub mod cards;
pub mod casino;
pub mod classes;
pub mod double;
pub mod double_stats;
pub mod enumerate;
pub mod equity;
pub mod error;
pub mod eval;
pub mod game;
pub mod hand;
pub mod parallel;
#[doc(hidden)]
pub mod tablegen;

pub use cards::Card;
pub use error::CoreError;
pub use eval::{evaluate, Hand, HandValue};
