//! The story log (what the player reads) and the "what the GM sees" drawer (what the model reads).

use leptos::prelude::*;

use crate::campaign::view::{LlmEntryView, StoryEntry, Verdict};

/// The story log: scenes, moves, rolls and state-change chips, then the scene being written.
#[component]
pub fn StoryLog(story: RwSignal<Vec<StoryEntry>>, draft: RwSignal<String>) -> impl IntoView {
    view! {
        <div class="story-log" data-testid="story">
            {move || story.get().into_iter().map(entry_view).collect_view()}
            {move || {
                let text = draft.get();
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

/// The model's history exactly as sent, with the tokens spent so far.
#[component]
pub fn GmDrawer(
    history: RwSignal<Vec<LlmEntryView>>,
    tokens: RwSignal<(u32, u32)>,
) -> impl IntoView {
    view! {
        <details class="gm-drawer panel">
            <summary>
                "What the GM sees "
                <span class="meta">
                    {move || {
                        let (prompt, completion) = tokens.get();
                        format!("({} messages · {} + {} tokens)", history.read().len(), prompt, completion)
                    }}
                </span>
            </summary>
            <ol class="llm-history">
                {move || {
                    history
                        .get()
                        .into_iter()
                        .map(|entry| {
                            view! {
                                <li class=format!("llm {}", entry.role)>
                                    <span class="role">{entry.role.clone()}</span>
                                    <pre>{entry.content}</pre>
                                    {entry
                                        .tool_calls
                                        .into_iter()
                                        .map(|call| view! { <pre class="tool-call">{call}</pre> })
                                        .collect_view()}
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ol>
        </details>
    }
}
