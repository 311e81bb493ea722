//! The story's spine made into what the player may see ([`SpineView`]) and what the context
//! inspector shows of the director ([`DirectorView`]).

use crate::campaign::state::CampaignState;
use crate::game::spine::director::IDLE_THRESHOLD;
use crate::game::spine::Spine;
use crate::wire::view::{ClockView, DirectorView, PersonView, SpineView};

/// The story so far: chapters reached, revealed clocks, people met, and the plan when the player
/// asked to read the notes.
pub fn spine_view(spine: &Spine) -> SpineView {
    let Some(plan) = &spine.plan else {
        return SpineView {
            notes_shown: spine.notes_shown,
            ..SpineView::default()
        };
    };
    let reached = (spine.chapter + 1).min(plan.chapters().len());
    SpineView {
        chapters: plan.chapters()[..reached]
            .iter()
            .enumerate()
            .map(|(at, chapter)| format!("Chapter {}: {}", at + 1, chapter.title))
            .collect(),
        clocks: plan
            .threats()
            .iter()
            .zip(&spine.clocks)
            .filter(|(_, clock)| clock.revealed)
            .map(|(threat, clock)| ClockView {
                name: threat.name.to_string(),
                filled: clock.filled,
                segments: clock.segments,
                full: clock.is_full().then(|| threat.when_full.to_string()),
            })
            .collect(),
        people: spine
            .people
            .iter()
            .map(|person| PersonView {
                name: person.name.to_string(),
                attitude: person.attitude.name().to_owned(),
                knows: person.knows.clone(),
            })
            .collect(),
        notes_shown: spine.notes_shown,
        notes: if spine.notes_shown {
            plan.compact().lines().map(str::to_owned).collect()
        } else {
            Vec::new()
        },
    }
}

/// The director's count and steer after the latest turn of `state`.
pub fn director_view(state: &CampaignState) -> DirectorView {
    let spine = &state.spine;
    DirectorView {
        idle: spine.idle_turns(state.turn),
        threshold: IDLE_THRESHOLD,
        due: spine.due_steer(state.turn).map(|steer| steer.text),
        last: spine.steer.as_ref().map(|given| {
            format!(
                "Turn {}, after {} still turns: {}",
                given.turn, given.idle, given.steer.text
            )
        }),
    }
}
