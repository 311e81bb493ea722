//! The play screen's header: back to the campaigns, the title, the model, the storybook to
//! download, Start over.

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_navigate;

use super::state::use_play;
use crate::api::RestartCampaign;
use crate::ui::campaign_item::storybook_href;

/// The header, with Start over (asks once for confirmation).
#[component]
pub fn PlayHeader(title: String, model: String) -> impl IntoView {
    let state = use_play();
    let restart = ServerAction::<RestartCampaign>::new();
    let confirm = RwSignal::new(false);
    let navigate = use_navigate();
    Effect::new(move |_| {
        if let Some(Ok(summary)) = restart.value().get() {
            navigate(&format!("/play/{}", summary.id), Default::default());
        }
    });
    let start_over = move |_| {
        if confirm.get_untracked() {
            restart.dispatch(RestartCampaign {
                id: state.id.get_value(),
            });
        } else {
            confirm.set(true);
        }
    };
    view! {
        <header class="play-header">
            <A href="/" attr:class="back">"← Campaigns"</A>
            <h1>{title}</h1>
            <span class="model" title="The model telling this story">"Told by " {model}</span>
            <a
                class="button storybook"
                href=storybook_href(&state.id.get_value())
                download=""
                rel="external"
                data-testid="storybook"
            >
                "Storybook"
            </a>
            <button
                class="danger start-over"
                disabled=move || state.busy.get() || restart.pending().get()
                on:click=start_over
            >
                {move || {
                    if restart.pending().get() {
                        "Starting over…"
                    } else if confirm.get() {
                        "Really start over?"
                    } else {
                        "Start over"
                    }
                }}
            </button>
        </header>
        {move || {
            restart
                .value()
                .get()
                .and_then(Result::err)
                .map(|error| view! { <p class="error" role="alert">{error.to_string()}</p> })
        }}
    }
}
