//! The director: the rules count the turns since the story last moved, and past a threshold the
//! next scene carries a one-line steer drawn from the plan, in turn: a key person not yet met
//! arrives, the most pressing threat shows itself, something points to the chapter's goal.

use serde::{Deserialize, Serialize};

use super::plan::StoryPlan;
use super::Spine;

/// How many turns in a row the story may stand still before the director steers.
pub const IDLE_THRESHOLD: u32 = 4;

/// A steer for the next scene.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Steer {
    /// The line the narrator is given.
    pub text: String,
    /// What it pushes: a person arrives, a threat shows, the goal is pointed to.
    pub kind: SteerKind,
}

/// What a steer pushes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SteerKind {
    /// A key person arrives.
    Arrives {
        /// Who.
        person: String,
    },
    /// A threat shows itself (and so is revealed).
    Threat {
        /// Which.
        threat: String,
    },
    /// Something points to the chapter's goal.
    Goal,
}

impl Spine {
    /// How many turns up to `turn` the story has not moved.
    pub fn idle_turns(&self, turn: u32) -> u32 {
        turn.saturating_sub(self.last_moved)
    }

    /// The steer the next scene gets when the story has stood still for the threshold, after
    /// `turn` (the latest turn played); `None` while it moves or without a plan.
    pub fn due_steer(&self, turn: u32) -> Option<Steer> {
        let plan = self.plan.as_ref()?;
        if self.idle_turns(turn) < IDLE_THRESHOLD {
            return None;
        }
        let options = [
            self.arrival(plan),
            self.threat_steer(plan),
            self.goal_steer(plan),
        ];
        let start = usize::try_from(self.steers).unwrap_or(0);
        (0..options.len())
            .map(|n| (start + n) % options.len())
            .find_map(|at| options[at].clone())
    }

    /// A key person not yet met arrives.
    fn arrival(&self, plan: &StoryPlan) -> Option<Steer> {
        let person = plan
            .people()
            .iter()
            .find(|p| self.person(&p.name).is_none())?;
        Some(Steer {
            text: format!("Now {} arrives, wanting {}.", person.name, person.motive),
            kind: SteerKind::Arrives {
                person: person.name.to_string(),
            },
        })
    }

    /// The most pressing threat shows itself.
    fn threat_steer(&self, plan: &StoryPlan) -> Option<Steer> {
        let at = self.pressing()?;
        let threat = &plan.threats()[at];
        Some(Steer {
            text: format!(
                "Now {} shows itself: a sign of {}.",
                threat.name, threat.fills
            ),
            kind: SteerKind::Threat {
                threat: threat.name.to_string(),
            },
        })
    }

    /// Something points to the chapter's goal.
    fn goal_steer(&self, plan: &StoryPlan) -> Option<Steer> {
        let chapter = plan.chapters().get(self.chapter)?;
        Some(Steer {
            text: format!(
                "Now something points the way: the chance to {} ({}).",
                chapter.mark.describe(),
                chapter.goal
            ),
            kind: SteerKind::Goal,
        })
    }
}
