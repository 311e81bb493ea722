//! `write_plan`: at the opening, the narrator writes the story's hidden plan once — the goal,
//! 3 to 5 chapters, 2 to 4 threats with their clocks, up to 8 key people — and the rules check
//! it against their bounds (see [`crate::game::spine::plan`]).

use schemars::JsonSchema;
use serde::Deserialize;

use super::{ArgumentError, GameTool, ToolCommand};
use crate::game::spine::attitude::Attitude;
use crate::game::spine::plan::{Chapter, ChapterMark, KeyPerson, PlanDraft, StoryPlan, Threat};
use crate::game::text::{ItemName, JournalName, LocationName, PlanLine, PlanTitle};

/// Arguments of `write_plan`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WritePlan {
    /// The goal of the whole adventure.
    pub goal: PlanLine,
    /// 3 to 5, in order; each ends when the hero can reach a place, meet a person or find an
    /// item: exactly one of reach, meet, find, the others null; ifFailed: what happens if it fails.
    pub chapters: Vec<ChapterArgument>,
    /// 2 to 4, each a clock of 4 to 8 segments the game ticks: what fills it, what happens
    /// when full.
    pub threats: Vec<ThreatArgument>,
    /// Up to 8 key people: what they want, know, hide; their first attitude (hostile, wary,
    /// indifferent, friendly, devoted).
    #[serde(default)]
    pub people: Vec<PersonArgument>,
}

/// One chapter: its goal is checked by the rules through exactly one of reach, meet or find.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChapterArgument {
    /// Its title.
    pub title: PlanTitle,
    /// What the hero is after.
    pub goal: PlanLine,
    /// The place the hero must reach, or null.
    #[serde(default)]
    pub reach: Option<LocationName>,
    /// The person the hero must meet, or null.
    #[serde(default)]
    pub meet: Option<JournalName>,
    /// The item the hero must find, or null.
    #[serde(default)]
    pub find: Option<ItemName>,
    /// What happens if it fails.
    pub if_failed: PlanLine,
}

/// One threat and its clock.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ThreatArgument {
    /// Its name, e.g. "The flood".
    pub name: PlanTitle,
    /// Its clock's segments, 4 to 8.
    pub segments: u8,
    /// What fills it.
    pub fills: PlanLine,
    /// What happens when it is full.
    pub when_full: PlanLine,
}

/// One key person.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PersonArgument {
    /// Their name.
    pub name: JournalName,
    /// What they want.
    pub motive: PlanLine,
    /// What they know.
    pub knows: PlanLine,
    /// What they hide.
    pub secret: PlanLine,
    /// How they feel about the hero at first.
    pub attitude: Attitude,
}

impl GameTool for WritePlan {
    const NAME: &'static str = "write_plan";
    const DESCRIPTION: &'static str = "At the opening only, before the scene: the story's \
        hidden plan (never shown to the player).";

    fn into_command(self) -> Result<ToolCommand, ArgumentError> {
        let chapters = self
            .chapters
            .into_iter()
            .map(ChapterArgument::into_chapter)
            .collect::<Result<_, _>>()?;
        let draft = PlanDraft {
            goal: self.goal,
            chapters,
            threats: self.threats.into_iter().map(ThreatArgument::into_threat).collect(),
            people: self.people.into_iter().map(PersonArgument::into_person).collect(),
        };
        StoryPlan::try_from(draft)
            .map(ToolCommand::Plan)
            .map_err(ArgumentError::Plan)
    }
}

impl ChapterArgument {
    fn into_chapter(self) -> Result<Chapter, ArgumentError> {
        let mark = match (self.reach, self.meet, self.find) {
            (Some(place), None, None) => ChapterMark::Reach { place },
            (None, Some(person), None) => ChapterMark::Meet { person },
            (None, None, Some(item)) => ChapterMark::Find { item },
            _ => return Err(ArgumentError::Missing("each chapter exactly one of reach, meet or find")),
        };
        Ok(Chapter {
            title: self.title,
            goal: self.goal,
            mark,
            if_failed: self.if_failed,
        })
    }
}

impl ThreatArgument {
    fn into_threat(self) -> Threat {
        Threat {
            name: self.name,
            segments: self.segments,
            fills: self.fills,
            when_full: self.when_full,
        }
    }
}

impl PersonArgument {
    fn into_person(self) -> KeyPerson {
        KeyPerson {
            name: self.name,
            motive: self.motive,
            knows: self.knows,
            secret: self.secret,
            attitude: self.attitude,
        }
    }
}
