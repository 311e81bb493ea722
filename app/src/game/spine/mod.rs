//! The story's spine: a hidden plan ([`plan`]), threats whose clocks the rules tick ([`clock`]),
//! people whose attitude the rules track ([`attitude`]), a director that steers a story standing
//! still ([`director`]), and plans the rules build from a premise when the model cannot
//! ([`shapes`]); a journey's time and the plan's places on the map ([`journey`]).
//!
//! [`Spine`] is the state; it changes only by [`SpineEvent`]s, checked by [`Spine::apply`], which a
//! live turn and a replay of the log both go through. The turns since the story last moved are
//! counted from the turn of the last event that moved it (the plan made, a chapter ended, a clock
//! ticked, a person met or swayed, a steer, or, told by the campaign, a new place or an item the
//! plan names); a threat revealed shows the story, it does not move it.

pub mod attitude;
pub mod clock;
pub mod director;
pub mod journey;
pub mod plan;
pub mod shapes;

use serde::{Deserialize, Serialize};

use self::attitude::{Attitude, Person};
use self::clock::{Clock, TickCause};
use self::director::Steer;
use self::plan::{ChapterMark, StoryPlan};
use super::map::WorldMap;
use super::text::{JournalName, LocationName, PlanTitle};
use super::CharacterSheet;

/// The most hours one journey takes.
pub const MAX_TRAVEL_HOURS: u32 = 48;

/// The most people the spine remembers.
pub const MAX_PEOPLE: usize = 40;

/// The latest steer and the turn it was given in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GivenSteer {
    /// The turn.
    pub turn: u32,
    /// How many turns the story had stood still.
    pub idle: u32,
    /// The steer.
    pub steer: Steer,
}

/// The story's spine as it stands.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spine {
    /// The hidden plan, once made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<StoryPlan>,
    /// Whether the rules built it (the model could not).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_rules: bool,
    /// The chapter under way (as many as the plan has once the last has ended).
    #[serde(default)]
    pub chapter: usize,
    /// The threats' clocks, in the plan's order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clocks: Vec<Clock>,
    /// The people met, in the order met.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub people: Vec<Person>,
    /// The turn the story last moved.
    #[serde(default)]
    pub last_moved: u32,
    /// How many steers the director has given.
    #[serde(default)]
    pub steers: u32,
    /// The latest steer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steer: Option<GivenSteer>,
    /// Whether the player chose to read the game master's notes (the hidden plan).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub notes_shown: bool,
}

/// One change of the spine, as the log keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "spine", rename_all = "snake_case")]
pub enum SpineEvent {
    /// The plan was made.
    Planned {
        /// The plan.
        plan: StoryPlan,
        /// Whether the rules built it from the premise.
        #[serde(default)]
        by_rules: bool,
        /// Whether the rules put the places its chapters ask for on the map (a plan they built
        /// for a model without tools, whose map would stay empty otherwise).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        on_the_map: bool,
    },
    /// The story showed the player a threat: its clock is shown from now on.
    Revealed {
        /// The threat.
        threat: PlanTitle,
    },
    /// A threat's clock ticked.
    Ticked {
        /// The threat.
        threat: PlanTitle,
        /// What ticked it.
        cause: TickCause,
        /// Its filled segments after the tick.
        filled: u8,
    },
    /// The chapter under way ended, its goal met: the next one is reached.
    ChapterEnded {
        /// The chapter's number, from 0.
        chapter: u8,
    },
    /// The hero met a person.
    Met {
        /// Who.
        person: JournalName,
        /// How they feel about the hero at first.
        attitude: Attitude,
    },
    /// A social check moved a person's attitude.
    Swayed {
        /// Who.
        person: JournalName,
        /// Their attitude before.
        from: Attitude,
        /// Their attitude after.
        to: Attitude,
        /// What they now know of the hero.
        fact: String,
    },
    /// The director steered the next scene.
    Steered {
        /// The steer.
        steer: Steer,
        /// How many turns the story had stood still.
        idle: u32,
    },
    /// The hero travelled to a known place; the rules added the time it took.
    Travelled {
        /// Where to.
        to: LocationName,
        /// How many hours it took.
        hours: u32,
    },
}

/// Why a spine event was refused; the message is for the model or the file's bringer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpineError {
    /// An event that needs a plan, before one was made.
    #[error("the story has no plan yet")]
    NoPlan,
    /// A second plan.
    #[error("the story already has a plan")]
    PlannedTwice,
    /// A clock that does not exist.
    #[error("the plan has no threat called \"{0}\"")]
    UnknownThreat(String),
    /// A tick past a full clock, or one that does not add one segment.
    #[error("the clock of \"{0}\" cannot take that tick")]
    BadTick(String),
    /// A chapter ended that is not the one under way.
    #[error("chapter {0} is not the chapter under way")]
    NotTheChapter(u8),
    /// A chapter ended whose goal is not met.
    #[error("the chapter's goal is not met: the hero has yet to {0}")]
    GoalNotMet(String),
    /// A person who was not met, or met twice.
    #[error("\"{0}\" is not someone the hero can meet or has met")]
    Person(String),
    /// A change of attitude that does not start from the person's attitude.
    #[error("\"{0}\" is not {1}")]
    Attitude(String, &'static str),
    /// Too many people.
    #[error("the story already remembers {MAX_PEOPLE} people")]
    TooManyPeople,
}

/// What a chapter's goal is checked against besides the spine: the map and the sheet.
#[derive(Clone, Copy, Debug)]
pub struct World<'a> {
    /// The map.
    pub map: &'a WorldMap,
    /// The character sheet.
    pub sheet: &'a CharacterSheet,
}

impl Spine {
    /// Applies `event` of `turn`. A refused event changes nothing.
    pub fn apply(
        &mut self,
        event: &SpineEvent,
        turn: u32,
        world: World<'_>,
    ) -> Result<(), SpineError> {
        match event {
            SpineEvent::Planned { plan, by_rules, .. } => self.planned(plan, *by_rules)?,
            // Shown, not moved: a threat revealed is not yet a step of the story.
            SpineEvent::Revealed { threat } => {
                self.clock_of(threat)?.revealed = true;
                return Ok(());
            }
            SpineEvent::Ticked { threat, filled, .. } => {
                let clock = self.clock_of(threat)?;
                if clock.next() != Some(*filled) {
                    return Err(SpineError::BadTick(threat.to_string()));
                }
                clock.filled = *filled;
            }
            SpineEvent::ChapterEnded { chapter } => self.end_chapter(*chapter, world)?,
            SpineEvent::Met { person, attitude } => self.meet(person, *attitude)?,
            SpineEvent::Swayed {
                person,
                from,
                to,
                fact,
            } => {
                let met = self
                    .person_mut(person)
                    .ok_or_else(|| SpineError::Person(person.to_string()))?;
                if met.attitude != *from {
                    return Err(SpineError::Attitude(person.to_string(), from.name()));
                }
                met.attitude = *to;
                met.remember(fact.clone());
            }
            SpineEvent::Steered { steer, idle } => {
                self.steers += 1;
                self.steer = Some(GivenSteer {
                    turn,
                    idle: *idle,
                    steer: steer.clone(),
                });
            }
            // The campaign records the place on the map; a new place moves the story there.
            SpineEvent::Travelled { .. } => return Ok(()),
        }
        self.moved(turn);
        Ok(())
    }

    /// Notes that the story moved in `turn`.
    pub fn moved(&mut self, turn: u32) {
        self.last_moved = self.last_moved.max(turn);
    }

    fn planned(&mut self, plan: &StoryPlan, by_rules: bool) -> Result<(), SpineError> {
        if self.plan.is_some() {
            return Err(SpineError::PlannedTwice);
        }
        self.clocks = plan
            .threats()
            .iter()
            .map(|threat| Clock::new(threat.segments))
            .collect();
        self.plan = Some(plan.clone());
        self.by_rules = by_rules;
        self.chapter = 0;
        Ok(())
    }

    fn end_chapter(&mut self, chapter: u8, world: World<'_>) -> Result<(), SpineError> {
        let plan = self.plan.as_ref().ok_or(SpineError::NoPlan)?;
        let Some(under_way) = plan
            .chapters()
            .get(self.chapter)
            .filter(|_| usize::from(chapter) == self.chapter)
        else {
            return Err(SpineError::NotTheChapter(chapter));
        };
        if !self.goal_met(&under_way.mark, world) {
            return Err(SpineError::GoalNotMet(under_way.mark.describe()));
        }
        self.chapter += 1;
        Ok(())
    }

    fn meet(&mut self, person: &JournalName, attitude: Attitude) -> Result<(), SpineError> {
        if self.person(person).is_some() {
            return Err(SpineError::Person(person.to_string()));
        }
        if self.people.len() >= MAX_PEOPLE {
            return Err(SpineError::TooManyPeople);
        }
        self.people.push(Person {
            name: person.clone(),
            attitude,
            knows: Vec::new(),
        });
        Ok(())
    }

    /// Whether the hero has done what `mark` asks.
    pub fn goal_met(&self, mark: &ChapterMark, world: World<'_>) -> bool {
        match mark {
            ChapterMark::Reach { place } => {
                world.sheet.location().eq_ignore_case(place)
                    || world
                        .map
                        .places()
                        .iter()
                        .any(|p| p.visited && p.name.eq_ignore_case(place))
            }
            ChapterMark::Meet { person } => self.person(person).is_some(),
            ChapterMark::Find { item } => world.sheet.inventory().items().iter().any(|held| {
                attitude::names(item.as_str(), held.name().as_str())
                    || attitude::names(held.name().as_str(), item.as_str())
            }),
        }
    }

    /// The clock of `threat`.
    fn clock_of(&mut self, threat: &PlanTitle) -> Result<&mut Clock, SpineError> {
        let plan = self.plan.as_ref().ok_or(SpineError::NoPlan)?;
        let (at, _) = plan
            .threat(threat.as_str())
            .ok_or_else(|| SpineError::UnknownThreat(threat.to_string()))?;
        Ok(&mut self.clocks[at])
    }

    /// The person met called `name` (ignoring case).
    pub fn person(&self, name: &JournalName) -> Option<&Person> {
        self.people.iter().find(|p| p.name.eq_ignore_case(name))
    }

    fn person_mut(&mut self, name: &JournalName) -> Option<&mut Person> {
        self.people.iter_mut().find(|p| p.name.eq_ignore_case(name))
    }

    /// The person `words` name, with how they feel about the hero: one met, else a key person
    /// of the plan (with their first attitude).
    pub fn person_in(&self, words: &str) -> Option<(JournalName, Attitude)> {
        let met = self
            .people
            .iter()
            .find(|person| person.named_in(words))
            .map(|person| (person.name.clone(), person.attitude));
        met.or_else(|| {
            let plan = self.plan.as_ref()?;
            plan.people()
                .iter()
                .find(|person| attitude::names(person.name.as_str(), words))
                .map(|person| (person.name.clone(), person.attitude))
        })
    }

    /// The most pressing threat: the first revealed clock not yet full, else the first not full.
    pub fn pressing(&self) -> Option<usize> {
        let open = |clock: &&Clock| !clock.is_full();
        let first = |revealed: bool| {
            self.clocks
                .iter()
                .enumerate()
                .find(|(_, clock)| open(clock) && (clock.revealed || !revealed))
                .map(|(at, _)| at)
        };
        first(true).or_else(|| first(false))
    }

    /// The tick of threat `at` by `cause`, or `None` when its clock is full or there is none.
    pub fn tick(&self, at: usize, cause: TickCause) -> Option<SpineEvent> {
        let plan = self.plan.as_ref()?;
        let filled = self.clocks.get(at)?.next()?;
        Some(SpineEvent::Ticked {
            threat: plan.threats()[at].name.clone(),
            cause,
            filled,
        })
    }

    /// What a full clock's threat does now, for the narrator: `The flood gates open`.
    pub fn full_line(&self, threat: &PlanTitle) -> Option<String> {
        let plan = self.plan.as_ref()?;
        let (at, found) = plan.threat(threat.as_str())?;
        self.clocks[at]
            .is_full()
            .then(|| found.when_full.to_string())
    }
}

#[cfg(test)]
mod tests;
