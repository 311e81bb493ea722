//! A threat's progress clock: segments that fill one at a time. A clock fills and triggers
//! once: the tick that fills it says so, and a full clock takes no more ticks.

use serde::{Deserialize, Serialize};

/// What ticked a clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum TickCause {
    /// A failed roll whose stakes named the threat.
    Failure {
        /// What the failure was.
        roll: String,
    },
    /// Time passed: a rest, travel, waiting.
    Time {
        /// How (`a long rest`, `travel to the mill`).
        how: String,
    },
    /// The director, when the story stood still too long.
    Pacing,
}

impl TickCause {
    /// In words, after "ticked by": `a failed Stealth roll`.
    pub fn describe(&self) -> String {
        match self {
            Self::Failure { roll } => format!("a failed {roll}"),
            Self::Time { how } => how.clone(),
            Self::Pacing => "the story standing still".to_owned(),
        }
    }
}

/// A clock's state: how many of its segments are filled, and whether the story has shown the
/// player its threat.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// Filled segments.
    pub filled: u8,
    /// All its segments.
    pub segments: u8,
    /// Whether the player knows of the threat.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub revealed: bool,
}

impl Clock {
    /// An empty clock of `segments`.
    pub fn new(segments: u8) -> Self {
        Self {
            filled: 0,
            segments,
            revealed: false,
        }
    }

    /// Whether every segment is filled.
    pub fn is_full(&self) -> bool {
        self.filled >= self.segments
    }

    /// The segments filled after one more tick, or `None` when it is already full.
    pub fn next(&self) -> Option<u8> {
        (!self.is_full()).then_some(self.filled + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_fills_one_segment_at_a_time_and_triggers_once() {
        let mut clock = Clock::new(4);
        let mut fills = Vec::new();
        while let Some(filled) = clock.next() {
            clock.filled = filled;
            fills.push((filled, clock.is_full()));
        }
        assert_eq!(fills, [(1, false), (2, false), (3, false), (4, true)]);
        assert_eq!(clock.next(), None, "a full clock takes no more ticks");
    }
}
