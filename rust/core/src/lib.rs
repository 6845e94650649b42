//! doubleholdem-core: hand values in pure Rust (no Python). Cards, the hand evaluator,
//! Double Hold'em resolution and batch work, enumerations, the casino game's exact
//! analysis (`casino`), the equity Monte Carlo (`equity`) and tournament chip values
//! (`icm`). The rules of play
//! (betting, pots, odd chips, the hand state machine) are the Python package's. The
//! rules are those of RULES.md; ids are cited.
#![deny(unsafe_code)]

pub mod batch;
pub mod cards;
pub mod casino;
pub mod classes;
pub mod deal;
pub mod double;
pub mod double_stats;
pub mod enumerate;
pub mod equity;
pub mod error;
pub mod eval;
pub mod hand;
pub mod icm;
pub mod parallel;
pub mod showdown;
#[doc(hidden)]
pub mod tablegen;

pub use cards::Card;
pub use error::CoreError;
pub use eval::{evaluate, Hand, HandValue};
