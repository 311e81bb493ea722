//! The hidden plan: where the story is going. The goal of the adventure, its chapters (each with
//! a goal the rules can check and what a failure costs), the threats with their clocks, and the
//! key people with what they want, know and hide. A plan is bounded and checked when it is made,
//! whoever made it (the model's tool, the rules' shapes, a file brought in).

use serde::{Deserialize, Serialize};

use super::attitude::Attitude;
use crate::game::text::{ItemName, JournalName, LocationName, PlanLine, PlanTitle};

/// The fewest and most chapters a plan has.
pub const CHAPTERS: std::ops::RangeInclusive<usize> = 3..=5;

/// The fewest and most threats a plan has.
pub const THREATS: std::ops::RangeInclusive<usize> = 2..=4;

/// The fewest and most segments a threat's clock has.
pub const SEGMENTS: std::ops::RangeInclusive<u8> = 4..=8;

/// The most key people a plan names.
pub const MAX_PEOPLE: usize = 8;

/// What the rules check before a chapter ends: the hero reached a place, met a person or holds an
/// item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ChapterMark {
    /// The hero has been to this place (on the map, or where they stand).
    Reach {
        /// The place.
        place: LocationName,
    },
    /// The hero has met this person.
    Meet {
        /// The person.
        person: JournalName,
    },
    /// The hero carries this item.
    Find {
        /// The item.
        item: ItemName,
    },
}

impl ChapterMark {
    /// In words: `reach the mill`.
    pub fn describe(&self) -> String {
        match self {
            Self::Reach { place } => format!("reach {place}"),
            Self::Meet { person } => format!("meet {person}"),
            Self::Find { item } => format!("find {item}"),
        }
    }
}

/// One chapter of the plan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chapter {
    /// Its title, shown to the player once reached.
    pub title: PlanTitle,
    /// What the hero is after in it.
    pub goal: PlanLine,
    /// What the rules check before it ends.
    pub mark: ChapterMark,
    /// What happens if it fails.
    pub if_failed: PlanLine,
}

/// A threat and its clock's shape.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Threat {
    /// Its name (`The flood`).
    pub name: PlanTitle,
    /// How many segments its clock has.
    pub segments: u8,
    /// What fills it.
    pub fills: PlanLine,
    /// What happens when it is full.
    pub when_full: PlanLine,
}

/// A key person of the plan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyPerson {
    /// Their name (`the ferryman`).
    pub name: JournalName,
    /// What they want.
    pub motive: PlanLine,
    /// What they know.
    pub knows: PlanLine,
    /// What they hide.
    pub secret: PlanLine,
    /// How they feel about the hero when first met.
    pub attitude: Attitude,
}

/// A plan as written, before the rules check it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanDraft {
    /// The goal of the adventure.
    pub goal: PlanLine,
    /// The chapters, in order.
    pub chapters: Vec<Chapter>,
    /// The threats.
    pub threats: Vec<Threat>,
    /// The key people.
    #[serde(default)]
    pub people: Vec<KeyPerson>,
}

/// A plan the rules accepted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "PlanDraft", into = "PlanDraft")]
pub struct StoryPlan(PlanDraft);

/// Why a plan was refused; the message is for the model (or for the player bringing a file).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// Too few or too many chapters.
    #[error("a plan has 3 to 5 chapters, not {0}")]
    Chapters(usize),
    /// Too few or too many threats.
    #[error("a plan has 2 to 4 threats, not {0}")]
    Threats(usize),
    /// A clock too short or too long.
    #[error("the clock of \"{0}\" must have 4 to 8 segments")]
    Segments(String),
    /// Too many people.
    #[error("a plan names at most {MAX_PEOPLE} people, not {0}")]
    People(usize),
    /// Two threats, chapters or people with one name.
    #[error("\"{0}\" is named twice")]
    Twice(String),
}

impl TryFrom<PlanDraft> for StoryPlan {
    type Error = PlanError;

    fn try_from(draft: PlanDraft) -> Result<Self, PlanError> {
        if !CHAPTERS.contains(&draft.chapters.len()) {
            return Err(PlanError::Chapters(draft.chapters.len()));
        }
        if !THREATS.contains(&draft.threats.len()) {
            return Err(PlanError::Threats(draft.threats.len()));
        }
        if draft.people.len() > MAX_PEOPLE {
            return Err(PlanError::People(draft.people.len()));
        }
        if let Some(threat) = draft
            .threats
            .iter()
            .find(|threat| !SEGMENTS.contains(&threat.segments))
        {
            return Err(PlanError::Segments(threat.name.to_string()));
        }
        let chapters = draft.chapters.iter().map(|c| c.title.as_str());
        let threats = draft.threats.iter().map(|t| t.name.as_str());
        let people = draft.people.iter().map(|p| p.name.as_str());
        for names in [
            chapters.collect::<Vec<_>>(),
            threats.collect(),
            people.collect(),
        ] {
            if let Some(name) = named_twice(&names) {
                return Err(PlanError::Twice(name.to_owned()));
            }
        }
        Ok(Self(draft))
    }
}

impl From<StoryPlan> for PlanDraft {
    fn from(plan: StoryPlan) -> Self {
        plan.0
    }
}

/// The first name in `names` that comes twice, ignoring case.
fn named_twice<'a>(names: &[&'a str]) -> Option<&'a str> {
    names.iter().enumerate().find_map(|(at, name)| {
        names[..at]
            .iter()
            .any(|earlier| earlier.eq_ignore_ascii_case(name))
            .then_some(*name)
    })
}

impl StoryPlan {
    /// The goal of the adventure.
    pub fn goal(&self) -> &PlanLine {
        &self.0.goal
    }

    /// The chapters, in order.
    pub fn chapters(&self) -> &[Chapter] {
        &self.0.chapters
    }

    /// The threats.
    pub fn threats(&self) -> &[Threat] {
        &self.0.threats
    }

    /// The key people.
    pub fn people(&self) -> &[KeyPerson] {
        &self.0.people
    }

    /// The threat called `name` (ignoring case), with its place in the plan.
    pub fn threat(&self, name: &str) -> Option<(usize, &Threat)> {
        self.threats()
            .iter()
            .enumerate()
            .find(|(_, threat)| threat.name.as_str().eq_ignore_ascii_case(name))
    }

    /// The plan for the model, compact: the goal, a line per chapter (when it ends, what happens
    /// if it fails), threat (its segments, what fills one, what happens when full) and person.
    pub fn compact(&self) -> String {
        let mut lines = vec![format!("Goal: {}", self.goal())];
        for (n, chapter) in self.chapters().iter().enumerate() {
            lines.push(format!(
                "Chapter {}: {} — {} (ends: {}; failed: {})",
                n + 1,
                chapter.title,
                chapter.goal,
                chapter.mark.describe(),
                chapter.if_failed
            ));
        }
        for threat in self.threats() {
            lines.push(format!(
                "Threat: {} ({} segments, +1 {}; full: {})",
                threat.name, threat.segments, threat.fills, threat.when_full
            ));
        }
        for person in self.people() {
            lines.push(format!(
                "Person: {} wants {}; knows {}; hides {}",
                person.name, person.motive, person.knows, person.secret
            ));
        }
        lines.join("\n")
    }
}
