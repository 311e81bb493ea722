//! The story's pace in one game: the runs of turns in which the story did not move, and the
//! scenes that repeat an earlier one. A turn moves the story by the scene's own facts (a new
//! place mapped, a new person in the journal, an item gained, a fight begun) — all a game had
//! before the story's spine — or, counting the spine, also by its steps (the plan made, a clock
//! ticked, a chapter ended, a person met or swayed, a journey, the director's steer).

use std::collections::BTreeSet;

use app::campaign::turn_event::{ToolEffect, TurnEvent};
use app::game::spine::SpineEvent;
use app::game::{JournalChange, JournalKind};
use app::gm::prose::ledger_check::RulesRecord;
use serde::{Deserialize, Serialize};

/// How alike two scenes' words must be (shared words over all their words) to count as one
/// repeating the other.
const REPEATED: f64 = 0.6;

/// The pace of one game (or of several, added up).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Pace {
    /// The length of each run of turns in which the story did not move, counting the spine.
    pub still_runs: Vec<u32>,
    /// The same by the scene's own facts alone (the game before the spine).
    pub scene_still_runs: Vec<u32>,
    /// Scenes whose words repeat an earlier scene of the same game.
    pub repeated_scenes: u32,
    #[serde(skip)]
    run: u32,
    #[serde(skip)]
    scene_run: u32,
    #[serde(skip)]
    seen: Vec<BTreeSet<String>>,
}

impl Pace {
    /// Counts one played turn's events.
    pub fn add_turn(&mut self, events: &[TurnEvent]) {
        let by_scene = scene_moves(events);
        let by_spine = by_scene || events.iter().any(spine_moves);
        step(&mut self.run, &mut self.still_runs, by_spine);
        step(&mut self.scene_run, &mut self.scene_still_runs, by_scene);
        for event in events {
            if let TurnEvent::Narration { text, .. } = event {
                let words = words(text);
                if self.seen.iter().any(|earlier| alike(earlier, &words)) {
                    self.repeated_scenes += 1;
                }
                self.seen.push(words);
            }
        }
    }

    /// Ends the game: a run still going counts.
    pub fn finish(&mut self) {
        step(&mut self.run, &mut self.still_runs, true);
        step(&mut self.scene_run, &mut self.scene_still_runs, true);
    }

    /// Adds `other`'s runs and repeats to these.
    pub fn add(&mut self, other: &Pace) {
        self.still_runs.extend(&other.still_runs);
        self.scene_still_runs.extend(&other.scene_still_runs);
        self.repeated_scenes += other.repeated_scenes;
    }
}

/// `runs` as "mean (longest)": turns the story stood still, per run.
pub fn runs_text(runs: &[u32]) -> String {
    let longest = runs.iter().max().copied().unwrap_or(0);
    let total: u32 = runs.iter().sum();
    let count = u32::try_from(runs.len()).unwrap_or(u32::MAX);
    if count == 0 {
        return "0.0 (0)".to_owned();
    }
    format!("{:.1} ({longest})", f64::from(total) / f64::from(count))
}

/// A turn that moved ends the run under way (a run of none is not counted); a still one adds
/// to it.
fn step(run: &mut u32, runs: &mut Vec<u32>, moved: bool) {
    if moved {
        if *run > 0 {
            runs.push(*run);
        }
        *run = 0;
    } else {
        *run += 1;
    }
}

/// Whether the turn's scene brought a new place, person or item, or a fight.
fn scene_moves(events: &[TurnEvent]) -> bool {
    let rules = RulesRecord::from_events(events);
    rules.fight_began
        || rules.items.iter().any(|item| item.is_gain())
        || events.iter().any(|event| match event {
            TurnEvent::ToolResult {
                effect: Some(ToolEffect::Mapped { .. }),
                ..
            } => true,
            TurnEvent::ToolResult {
                effect: Some(ToolEffect::Noted { change }),
                ..
            }
            | TurnEvent::Noticed { change } => is_person(change),
            _ => false,
        })
}

fn is_person(change: &JournalChange) -> bool {
    matches!(
        change,
        JournalChange::Note {
            kind: JournalKind::Person,
            ..
        } | JournalChange::Noticed {
            kind: JournalKind::Person,
            ..
        }
    )
}

/// Whether the event is a step of the story's spine (a threat revealed is not).
fn spine_moves(event: &TurnEvent) -> bool {
    let spine = match event {
        TurnEvent::Spine { change } => change,
        TurnEvent::ToolResult {
            effect: Some(ToolEffect::Spine { change }),
            ..
        } => change,
        _ => return false,
    };
    !matches!(spine, SpineEvent::Revealed { .. })
}

fn words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| word.len() > 2)
        .map(str::to_lowercase)
        .collect()
}

fn alike(a: &BTreeSet<String>, b: &BTreeSet<String>) -> bool {
    let all = a.union(b).count();
    all > 0 && a.intersection(b).count() as f64 / all as f64 >= REPEATED
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scene(text: &str) -> TurnEvent {
        TurnEvent::narration(text.to_owned())
    }

    #[test]
    fn runs_of_still_turns_and_repeated_scenes_are_counted() {
        let mut pace = Pace::default();
        let still = [scene("The rain falls on the quiet square.")];
        let again = [scene("The rain falls on the quiet square again.")];
        let other = [scene("A bell rings from the tower over the harbour.")];
        for turn in [&still[..], &again, &other] {
            pace.add_turn(turn);
        }
        pace.finish();
        assert_eq!(pace.still_runs, [3]);
        assert_eq!(pace.scene_still_runs, [3]);
        assert_eq!(pace.repeated_scenes, 1);
        assert_eq!(runs_text(&pace.still_runs), "3.0 (3)");
    }
}
