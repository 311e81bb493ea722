//! The story log: what the player reads, paged (the latest page first, older ones on demand),
//! with a way to branch a new campaign from any scene.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_navigate;

use super::dice::{analysis_view, dice_view};
use super::outcome_table::{pending_table_view, rolled_table_view};
use super::state::use_play;
use crate::api::{branch_campaign, earlier_story};
use crate::campaign::picture::{PictureId, PictureKind};
use crate::game::Natural;
use crate::wire::view::{Roller, StoryDie, StoryEntry, Verdict};

/// The story log: an "earlier" link while older entries are not loaded, the loaded entries,
/// then the scene being written.
#[component]
pub fn StoryLog() -> impl IntoView {
    let state = use_play();
    let loading = RwSignal::new(false);
    let failed = RwSignal::new(None::<String>);
    let earlier = move |_| {
        if loading.get_untracked() {
            return;
        }
        loading.set(true);
        spawn_local(async move {
            let before = state.story_start.get_untracked();
            match earlier_story(state.id.get_value(), before).await {
                Ok(page) if state.story_start.get_untracked() == before => {
                    state.story.update(|story| {
                        story.splice(0..0, page.entries);
                    });
                    state.story_start.set(page.start);
                    failed.set(None);
                }
                Ok(_) => {}
                Err(error) => failed.set(Some(error.to_string())),
            }
            loading.set(false);
        });
    };
    view! {
        <div class="story-log" data-testid="story">
            {move || {
                (state.story_start.get() > 0)
                    .then(|| {
                        view! {
                            <button class="earlier" disabled=move || loading.get() on:click=earlier>
                                {move || if loading.get() { "Loading earlier scenes…" } else { "Earlier in the story" }}
                            </button>
                        }
                    })
            }}
            {move || failed.get().map(|message| view! { <p class="error" role="alert">{message}</p> })}
            {move || state.story.get().into_iter().map(entry_view).collect_view()}
            {move || state.pending_table.get().map(pending_table_view)}
            {move || {
                let text = state.draft.get();
                (!text.is_empty()).then(|| view! { <div class="scene draft">{text}</div> })
            }}
        </div>
    }
}

fn entry_view(entry: StoryEntry) -> AnyView {
    match entry {
        // Rendered and sanitised on the server (raw HTML from the model is escaped there).
        StoryEntry::Scene { html, turn } => view! {
            <div class="scene-block">
                <div class="scene" inner_html=html></div>
                {(turn > 0).then(|| view! { <BranchLink turn /> })}
            </div>
        }
        .into_any(),
        StoryEntry::Move { text, by: None } => view! { <p class="move">{text}</p> }.into_any(),
        StoryEntry::Move { text, by: Some(name) } => view! {
            <p class="move seat-move"><span class="mover">{name}</span>" "{text}</p>
        }
        .into_any(),
        StoryEntry::Roll {
            line,
            dice,
            analysis,
            verdict,
            by,
            natural,
        } => roll_view(line, dice, verdict, by, natural, analysis),
        StoryEntry::Table {
            table,
            dice,
            chosen,
            analysis,
        } => rolled_table_view(table, dice, chosen, analysis),
        StoryEntry::Proposal { labels, cause } => view! {
            <p class="chips proposed" data-testid="proposed">
                <span class="chips-label">"Proposed:"</span>
                {labels.into_iter().map(|label| view! { <span class="chip">{label}</span> }).collect_view()}
                {cause.map(|cause| view! { <span class="cause">{cause}</span> })}
            </p>
        }
        .into_any(),
        StoryEntry::Decision { accepted, labels } => {
            let (class, said) = if accepted {
                ("chips decision accepted", "You accepted:")
            } else {
                ("chips decision refused", "You refused:")
            };
            view! {
                <p class=class data-testid="decision">
                    <span class="chips-label">{said}</span>
                    {labels.into_iter().map(|label| view! { <span class="chip">{label}</span> }).collect_view()}
                </p>
            }
            .into_any()
        }
        StoryEntry::Aside { text } => view! {
            <aside class="aside" data-testid="aside">
                <span class="aside-label">"Game master, out of character"</span>
                <p>{text}</p>
            </aside>
        }
        .into_any(),
        StoryEntry::RulesNote { text } => view! {
            <aside class="aside rules-note" data-testid="rules-note">
                <span class="aside-label">"The rules"</span>
                <p>{text}</p>
            </aside>
        }
        .into_any(),
        StoryEntry::Chapter { number, title } => view! {
            <h3 class="chapter" data-testid="chapter">{format!("Chapter {number}: {title}")}</h3>
        }
        .into_any(),
        StoryEntry::Changes { labels } => view! {
            <p class="chips">
                {labels.into_iter().map(|label| view! { <span class="chip">{label}</span> }).collect_view()}
            </p>
        }
        .into_any(),
        StoryEntry::Picture { id, shows } => picture_view(&id, shows),
    }
}

/// A picture the image model drew, fetched from the server (cached by the browser for good).
fn picture_view(id: &PictureId, shows: PictureKind) -> AnyView {
    let src = id.url(&use_play().id.get_value());
    let alt = match shows {
        PictureKind::Portrait => "A portrait of your character",
        PictureKind::Scene => "A picture of the scene",
    };
    view! {
        <figure class="picture" data-testid="picture">
            <img src=src alt=alt loading="lazy" />
        </figure>
    }
    .into_any()
}

/// A roll: its dice tumble in and land on the faces the server rolled (not under
/// `prefers-reduced-motion`, see the style sheet), who rolled is named, what it had to beat
/// (`vs AC 15`, `vs DC 12`) stands out, and a natural 20 or 1 is marked. The line already says
/// "success" or "failure"; the class colours it. What the rules knew before the roll opens
/// under "Why?".
fn roll_view(
    line: String,
    dice: Vec<StoryDie>,
    verdict: Option<Verdict>,
    by: Roller,
    natural: Option<Natural>,
    analysis: Option<String>,
) -> AnyView {
    let verdict = match verdict {
        Some(Verdict::Success) => " success",
        Some(Verdict::Failure) => " failure",
        None => "",
    };
    let (who, label) = match by {
        Roller::Player => ("player", "Your roll"),
        Roller::GameMaster => ("gm", "Game master"),
        Roller::Oracle => ("oracle", "Oracle"),
    };
    let (natural_class, mark) = match natural {
        Some(Natural::Twenty) => (" nat20", Some("Natural 20!")),
        Some(Natural::One) => (" nat1", Some("Natural 1")),
        None => ("", None),
    };
    let class = format!("roll {who}{verdict}{natural_class}");
    let (before, against, after) = split_against(&line);
    view! {
        <p class=class data-testid="roll">
            {dice_view(dice)}
            <span class="roller">{label}</span>
            " "
            <span data-testid="roll-line">
                {before}
                {against.map(|against| view! { <strong class="against" data-testid="against">{against}</strong> })}
                {after}
            </span>
            {mark.map(|mark| view! { <strong class="natural">{mark}</strong> })}
            {analysis.map(analysis_view)}
        </p>
    }
    .into_any()
}

/// `line` split around the first number it had to beat (`vs AC 15`, `vs DC 12`): the text
/// before, that part, the text after; the whole line first when it names none.
fn split_against(line: &str) -> (String, Option<String>, String) {
    let found = [" vs AC ", " vs DC "]
        .iter()
        .filter_map(|marker| line.find(marker).map(|at| (at, marker.len())))
        .min();
    let Some((at, marker)) = found else {
        return (line.to_owned(), None, String::new());
    };
    let digits = line[at + marker..]
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(line.len() - at - marker);
    if digits == 0 {
        return (line.to_owned(), None, String::new());
    }
    let end = at + marker + digits;
    (
        line[..=at].to_owned(),
        Some(line[at + 1..end].to_owned()),
        line[end..].to_owned(),
    )
}

/// "Branch from here": a new campaign that copies this one up to this scene's turn.
#[component]
fn BranchLink(turn: u32) -> impl IntoView {
    let state = use_play();
    let navigate = use_navigate();
    let branch = move |_| {
        let navigate = navigate.clone();
        state.busy.set(true);
        spawn_local(async move {
            match branch_campaign(state.id.get_value(), turn).await {
                Ok(created) => navigate(&format!("/play/{}", created.id), Default::default()),
                Err(error) => {
                    state.failure.set(Some(super::state::Failure {
                        message: error.to_string(),
                        retry: None,
                    }));
                    state.busy.set(false);
                }
            }
        });
    };
    view! {
        <button class="link branch" disabled=move || state.busy.get() on:click=branch>
            "Branch from here"
        </button>
    }
}

#[cfg(test)]
mod tests {
    use super::split_against;

    #[test]
    fn what_a_roll_had_to_beat_is_split_out_of_its_line() {
        let line = "Your shortsword at Goblin: 1d20+4 → [7]+4 = 11 vs AC 15, miss";
        let (before, against, after) = split_against(line);
        assert_eq!(before, "Your shortsword at Goblin: 1d20+4 → [7]+4 = 11 ");
        assert_eq!(against.as_deref(), Some("vs AC 15"));
        assert_eq!(after, ", miss");
        assert_eq!(format!("{before}vs AC 15{after}"), line);

        let check = "Rolled 1d20+2 for Climb (DEX +2): [9]+2 = 11 vs DC 12: failure";
        assert_eq!(split_against(check).1.as_deref(), Some("vs DC 12"));
        assert_eq!(split_against(check).2, ": failure");
        let oracle = "Oracle: Is it raining? (likely, 75%) d100 [12]: yes";
        assert_eq!(
            split_against(oracle),
            (oracle.to_owned(), None, String::new())
        );
        assert_eq!(split_against("ends vs AC 9").1.as_deref(), Some("vs AC 9"));
        assert_eq!(split_against("vs AC x").1, None);
    }
}
