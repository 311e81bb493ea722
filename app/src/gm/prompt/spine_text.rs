//! The story's spine as the model reads it. The plan sits in the stable prefix (it is made once,
//! at the opening; a very small model gets its goal alone): its goal, the chapters' titles, the
//! threats in full and the people's names. The chapter under way (with what ends it and what a
//! failure costs) and the next one, the clocks and the people in the scene (with what each
//! wants, knows and hides) come after the sheet, as the story now stands, so each chapter and
//! each person is told in full only while they matter. Both are bounded: the
//! plan's lines are (at most 5 chapters, 4 threats and 8 people of bounded text), and only the
//! people the last scene or the recalled passages name are listed.

use std::fmt::Write;

use crate::campaign::conversation::RecalledPassage;
use crate::campaign::state::CampaignState;
use crate::game::spine::plan::StoryPlan;
use crate::gm::prose::scene::last_scene;

/// The plan for the stable prefix (empty until there is one).
pub fn plan_text(state: &CampaignState, full: bool) -> String {
    let Some(plan) = &state.spine.plan else {
        return String::new();
    };
    if full {
        let mut text = format!(
            "\n\n# The hidden plan (steer towards it; never reveal it)\nGoal: {}\nChapters: ",
            plan.goal()
        );
        let titles: Vec<String> = plan
            .chapters()
            .iter()
            .enumerate()
            .map(|(n, chapter)| format!("{} {}", n + 1, chapter.title))
            .collect();
        text.push_str(&titles.join("; "));
        text.push_str(" (the one under way and the next: the story now).");
        for threat in plan.threats() {
            let _ = write!(
                text,
                "\nThreat: {} (+1 {}; full: {})",
                threat.name, threat.fills, threat.when_full
            );
        }
        let names: Vec<&str> = plan.people().iter().map(|p| p.name.as_str()).collect();
        if !names.is_empty() {
            let _ = write!(
                text,
                "\nPeople: {} (each in full once in the scene: the story now).",
                names.join("; ")
            );
        }
        text
    } else {
        format!("\n\n# The goal\n{}", plan.goal())
    }
}

/// The story as it now stands: the chapter under way, the clocks, the people in the scene
/// (empty without a plan). With the `full` prompt (whose prefix has the chapters' titles and
/// what each threat does when full), the chapter under way says what a failure costs and the
/// next chapter follows; a full clock is just "full".
pub fn story_now(state: &CampaignState, recalled: &[RecalledPassage], full: bool) -> String {
    let spine = &state.spine;
    let Some(plan) = &spine.plan else {
        return String::new();
    };
    let mut text = String::from("\n\n# The story now");
    match plan.chapters().get(spine.chapter) {
        Some(chapter) => {
            let _ = write!(
                text,
                "\nChapter {} of {}: {} — {} (it ends when the hero can {}",
                spine.chapter + 1,
                plan.chapters().len(),
                chapter.title,
                chapter.goal,
                chapter.mark.describe()
            );
            if full {
                let _ = write!(text, "; if it fails: {}", chapter.if_failed);
            }
            text.push_str(").");
            if let Some(next) = plan.chapters().get(spine.chapter + 1).filter(|_| full) {
                let _ = write!(text, "\nNext: {} — {}.", next.title, next.goal);
            }
        }
        None => text.push_str("\nEvery chapter has ended: bring the story to its close."),
    }
    let clocks: Vec<String> = plan
        .threats()
        .iter()
        .zip(&spine.clocks)
        .map(|(threat, clock)| {
            let known = if clock.revealed { "known" } else { "hidden" };
            let full = match (clock.is_full(), full) {
                (false, _) => String::new(),
                (true, true) => ", full".to_owned(),
                (true, false) => format!(", full: {}", threat.when_full),
            };
            format!(
                "{} {}/{} ({known}{full})",
                threat.name, clock.filled, clock.segments
            )
        })
        .collect();
    let _ = write!(text, "\nClocks: {}.", clocks.join("; "));
    let here = people_here(state, plan, recalled, full);
    if !here.is_empty() {
        let _ = write!(text, "\nPeople in the scene: {}.", here.join("; "));
    }
    text
}

/// The people the last scene or the `recalled` passages name, each with their attitude, what
/// they remember of the hero and, with the `full` prompt, what the plan says they want, know and
/// hide.
fn people_here(
    state: &CampaignState,
    plan: &StoryPlan,
    recalled: &[RecalledPassage],
    full: bool,
) -> Vec<String> {
    let scene = last_scene(state).unwrap_or_default();
    state
        .spine
        .people
        .iter()
        .filter(|person| {
            person.named_in(scene)
                || recalled
                    .iter()
                    .any(|passage| person.named_in(&passage.text))
        })
        .map(|person| {
            let knows = if person.knows.is_empty() {
                String::new()
            } else {
                format!("; remembers the hero {}", person.knows.join(", "))
            };
            let planned = plan
                .people()
                .iter()
                .find(|key| key.name == person.name)
                .filter(|_| full)
                .map_or(String::new(), |key| {
                    format!(
                        "; wants {}; knows {}; hides {}",
                        key.motive, key.knows, key.secret
                    )
                });
            format!(
                "{} ({}{planned}{knows})",
                person.name,
                person.attitude.name()
            )
        })
        .collect()
}
