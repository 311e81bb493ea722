//! The story log: what the player reads, paged (the latest page first, older ones on demand),
//! with a way to branch a new campaign from any scene.

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_navigate;

use super::state::use_play;
use crate::api::{branch_campaign, earlier_story};
use crate::campaign::view::{Roller, StoryEntry, Verdict};
use crate::game::Natural;

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
        StoryEntry::Move { text } => view! { <p class="move">{text}</p> }.into_any(),
        StoryEntry::Roll {
            line,
            verdict,
            by,
            natural,
        } => roll_view(line, verdict, by, natural),
        StoryEntry::Aside { text } => view! {
            <aside class="aside" data-testid="aside">
                <span class="aside-label">"Game master, out of character"</span>
                <p>{text}</p>
            </aside>
        }
        .into_any(),
        StoryEntry::Changes { labels } => view! {
            <p class="chips">
                {labels.into_iter().map(|label| view! { <span class="chip">{label}</span> }).collect_view()}
            </p>
        }
        .into_any(),
    }
}

/// A roll: the die tumbles in (not under `prefers-reduced-motion`, see the style sheet), who
/// rolled is named, and a natural 20 or 1 is marked. The line already says "success" or
/// "failure"; the class colours it.
fn roll_view(
    line: String,
    verdict: Option<Verdict>,
    by: Roller,
    natural: Option<Natural>,
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
    view! {
        <p class=class data-testid="roll">
            <span class="die" aria-hidden="true">"⚄"</span>
            <span class="roller">{label}</span>
            " "
            {line}
            {mark.map(|mark| view! { <strong class="natural">{mark}</strong> })}
        </p>
    }
    .into_any()
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
