//! The story log (what the player reads, paged) and the "what the GM sees" drawer (what the
//! model reads, loaded on open).

use leptos::prelude::*;

use leptos::task::spawn_local;

use super::play::use_play;
use crate::api::{earlier_story, gm_context};
use crate::campaign::view::{GmContextView, LlmEntryView, StoryEntry, Verdict};

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
        StoryEntry::Scene { html } => view! { <div class="scene" inner_html=html></div> }.into_any(),
        StoryEntry::Move { text } => view! { <p class="move">{text}</p> }.into_any(),
        StoryEntry::Roll { line, verdict } => {
            // The line already says "success" or "failure"; the class colours it.
            let class = match verdict {
                Some(Verdict::Success) => "roll success",
                Some(Verdict::Failure) => "roll failure",
                None => "roll",
            };
            view! { <p class=class>"⚄ " {line}</p> }.into_any()
        }
        StoryEntry::Changes { labels } => view! {
            <p class="chips">
                {labels.into_iter().map(|label| view! { <span class="chip">{label}</span> }).collect_view()}
            </p>
        }
        .into_any(),
    }
}

/// What the game master sees: the model's working context, loaded each time the drawer opens,
/// with the tokens spent so far.
#[component]
pub fn GmDrawer() -> impl IntoView {
    let state = use_play();
    let context = RwSignal::new(None::<Result<GmContextView, String>>);
    let toggle = move |event: leptos::ev::Event| {
        if !event_target::<leptos::web_sys::Element>(&event).has_attribute("open") {
            return;
        }
        spawn_local(async move {
            let loaded = gm_context(state.id.get_value()).await;
            context.set(Some(loaded.map_err(|error| error.to_string())));
        });
    };
    view! {
        <details class="gm-drawer panel" on:toggle=toggle>
            <summary>
                "What the GM sees "
                <span class="meta">
                    {move || {
                        let (prompt, completion) = state.tokens.get();
                        format!("({prompt} + {completion} tokens)")
                    }}
                </span>
            </summary>
            {move || match context.get() {
                None => view! { <p class="status">"Loading…"</p> }.into_any(),
                Some(Err(message)) => view! { <p class="error" role="alert">{message}</p> }.into_any(),
                Some(Ok(view)) => {
                    view! { <ol class="llm-history">{view.messages.into_iter().map(llm_entry).collect_view()}</ol> }
                        .into_any()
                }
            }}
        </details>
    }
}

fn llm_entry(entry: LlmEntryView) -> impl IntoView {
    view! {
        <li class=format!("llm {}", entry.role)>
            <span class="role">{entry.role.clone()}</span>
            <pre>{entry.content}</pre>
            {entry.tool_calls.into_iter().map(|call| view! { <pre class="tool-call">{call}</pre> }).collect_view()}
        </li>
    }
}
