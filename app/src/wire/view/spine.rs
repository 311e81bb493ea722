//! The story's spine as the player may see it: the chapters reached, the clocks of the threats
//! the story has revealed, the people met and how they feel, and — only when the player asks to
//! read the game master's notes — the hidden plan. The director's count and steer are for the
//! context inspector.

use serde::{Deserialize, Serialize};

/// The story so far: what the player has seen of the plan.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpineView {
    /// The chapters reached, in order: `Chapter 1: A cold trail`.
    pub chapters: Vec<String>,
    /// The clocks of the threats revealed.
    pub clocks: Vec<ClockView>,
    /// The people met.
    pub people: Vec<PersonView>,
    /// Whether the player chose to read the game master's notes.
    pub notes_shown: bool,
    /// The hidden plan, a line each, when the notes are shown (empty otherwise).
    pub notes: Vec<String>,
}

/// A revealed threat's clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockView {
    /// The threat.
    pub name: String,
    /// Filled segments.
    pub filled: u8,
    /// All segments.
    pub segments: u8,
    /// What happened when it filled, once it is full.
    pub full: Option<String>,
}

/// A person met.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PersonView {
    /// Their name.
    pub name: String,
    /// How they feel about the hero: `wary`.
    pub attitude: String,
    /// What they know of the hero.
    pub knows: Vec<String>,
}

/// The director, for the context inspector: how long the story has stood still and the steer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DirectorView {
    /// Turns since the story last moved.
    pub idle: u32,
    /// How many still turns bring a steer.
    pub threshold: u32,
    /// The steer the next scene gets, if one is due.
    pub due: Option<String>,
    /// The latest steer given: `Turn 6, after 4 still turns: Now the witness arrives…`.
    pub last: Option<String>,
}
