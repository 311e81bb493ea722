//! The "what the GM sees" drawer: the model's working context (the LLM history), loaded each
//! time it is opened.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::state::use_play;
use crate::api::gm_context;
use crate::campaign::view::{GmContextView, LlmEntryView};

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
