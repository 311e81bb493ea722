//! The story's spine applied by the projector: each [`SpineEvent`] checked by the rules'
//! [`Spine`](crate::game::spine::Spine) against the map and the sheet, and what the player sees
//! of it — a chapter's title as it is reached (from the second on), a revealed clock's tick, a person's change of
//! heart. A journey records its place on the map; a new place, and an item the plan names found,
//! move the story.

use super::shown::Shown;
use super::state::{capitalised, CampaignState, ProjectionError};
use super::story::StoryEntry;
use crate::game::spine::journey::map_side;
use crate::game::spine::plan::ChapterMark;
use crate::game::spine::{SpineEvent, World};

impl CampaignState {
    /// Applies a spine event of the turn under way and shows what the player may see of it.
    pub(super) fn apply_spine(
        &mut self,
        event: &SpineEvent,
        updates: &mut Vec<Shown>,
    ) -> Result<(), ProjectionError> {
        let turn = self.turn;
        // All or nothing: the map and the spine change together.
        let mut map = self.map.clone();
        let mut spine = self.spine.clone();
        let new_ground = map_side(event, &mut map, self.sheet.location())?;
        let world = World {
            map: &map,
            sheet: &self.sheet,
        };
        spine.apply(event, turn, world)?;
        if new_ground {
            spine.moved(turn);
            updates.push(Shown::Map);
        }
        self.map = map;
        self.spine = spine;
        if let Some(text) = self.spine_note(event) {
            updates.push(self.entry(text));
        }
        updates.push(Shown::Spine);
        Ok(())
    }

    /// The story entry a spine event shows, if the player may see it.
    fn spine_note(&self, event: &SpineEvent) -> Option<StoryEntry> {
        let plan = self.spine.plan.as_ref()?;
        let note = |text: String| Some(StoryEntry::RulesNote { text });
        match event {
            SpineEvent::ChapterEnded { chapter } => self.chapter_entry(usize::from(*chapter) + 1),
            SpineEvent::Revealed { threat } => {
                let (at, found) = plan.threat(threat.as_str())?;
                note(format!(
                    "A threat shows itself: {} ({} of {}).",
                    found.name, self.spine.clocks[at].filled, found.segments
                ))
            }
            SpineEvent::Ticked {
                threat,
                cause,
                filled,
            } => {
                let (at, found) = plan.threat(threat.as_str())?;
                if !self.spine.clocks[at].revealed {
                    return None;
                }
                let mut text = format!(
                    "{}: {filled} of {} (ticked by {}).",
                    found.name,
                    found.segments,
                    cause.describe()
                );
                if let Some(full) = self.spine.full_line(threat) {
                    text.push_str(&format!(" The clock is full: {full}."));
                }
                note(text)
            }
            SpineEvent::Swayed {
                person, from, to, ..
            } => note(format!(
                "{}: {} → {}.",
                capitalised(person.as_str()),
                from.name(),
                to.name()
            )),
            // The first chapter is reached with the plan: the story so far names it; the story
            // itself shows the chapters the hero reaches from there.
            SpineEvent::Planned { .. }
            | SpineEvent::Met { .. }
            | SpineEvent::Steered { .. }
            | SpineEvent::Travelled { .. } => None,
        }
    }

    /// The entry of chapter `at` reached (none past the last).
    fn chapter_entry(&self, at: usize) -> Option<StoryEntry> {
        let plan = self.spine.plan.as_ref()?;
        plan.chapters().get(at).map(|chapter| StoryEntry::Chapter {
            number: u32::try_from(at + 1).unwrap_or(u32::MAX),
            title: chapter.title.to_string(),
        })
    }

    /// Notes an item the plan names, newly carried, as the story moving in `turn`.
    pub(super) fn note_found(&mut self, held_before: usize) {
        if self.plan_items_held() > held_before {
            self.spine.moved(self.turn);
        }
    }

    /// How many of the items the plan's chapters name the hero carries.
    pub(super) fn plan_items_held(&self) -> usize {
        let Some(plan) = &self.spine.plan else {
            return 0;
        };
        let world = World {
            map: &self.map,
            sheet: &self.sheet,
        };
        plan.chapters()
            .iter()
            .filter(|chapter| matches!(chapter.mark, ChapterMark::Find { .. }))
            .filter(|chapter| self.spine.goal_met(&chapter.mark, world))
            .count()
    }
}
