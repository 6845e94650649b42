//! The one error type of the core. The Python binding turns each variant into the
//! matching exception of `doubleholdem.errors` at a single boundary function.

use crate::cards::card_name;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoreError {
    /// An integer that is not a card (cards are 0..=51).
    InvalidCard { card: u32 },
    /// The same card twice where cards must be distinct.
    DuplicateCard { card: u8 },
    /// A wrong number of cards, a bad point index or a bad array shape.
    InvalidHand { reason: String },
    /// A number that is not a hand value produced by the evaluator.
    InvalidValue { value: u32 },
    /// An error in row `row` of a batch.
    InRow { row: usize, error: Box<CoreError> },
    /// Casino game settings that cannot be played (a bad pay table or raise).
    InvalidRules { reason: String },
    /// A long computation stopped because its cancellation flag was set.
    Interrupted,
    /// An argument outside its allowed range, such as a thread count (a `ValueError`).
    InvalidArgument { reason: String },
}

impl CoreError {
    pub fn invalid_hand(reason: impl Into<String>) -> Self {
        CoreError::InvalidHand {
            reason: reason.into(),
        }
    }

    pub fn invalid_rules(reason: impl Into<String>) -> Self {
        CoreError::InvalidRules {
            reason: reason.into(),
        }
    }

    pub fn invalid_argument(reason: impl Into<String>) -> Self {
        CoreError::InvalidArgument {
            reason: reason.into(),
        }
    }

    /// Attach the row of a batch in which this error happened.
    pub fn in_row(self, row: usize) -> Self {
        CoreError::InRow {
            row,
            error: Box::new(self),
        }
    }
}

impl fmt::Display for CoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoreError::InvalidCard { card } => {
                write!(f, "{card} is not a card: cards are integers 0..51")
            }
            CoreError::DuplicateCard { card } => {
                write!(f, "duplicate card {}", card_name(*card))
            }
            CoreError::InvalidHand { reason } => f.write_str(reason),
            CoreError::InvalidValue { value } => write!(f, "{value} is not a hand value"),
            CoreError::InRow { row, error } => write!(f, "row {row}: {error}"),
            CoreError::InvalidRules { reason } => f.write_str(reason),
            CoreError::Interrupted => f.write_str("interrupted"),
            CoreError::InvalidArgument { reason } => f.write_str(reason),
        }
    }
}

impl std::error::Error for CoreError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_duplicate_card_is_named_by_its_name_alone() {
        assert_eq!(
            CoreError::DuplicateCard { card: 44 }.to_string(),
            "duplicate card Kc"
        );
    }
}
