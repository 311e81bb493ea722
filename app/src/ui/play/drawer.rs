//! The "what the GM sees" drawer (the context inspector): the rules' check of the latest scene
//! against the turn's events, the older passages recalled into its narration, and the last request sent to the model, exactly as sent, with each
//! layer's size, the tools, the verbatim window and how much of its front the provider could
//! reuse from the call before. Loaded each time it is opened; its body is code the browser
//! fetches the first time the drawer opens (the release build splits
//! the wasm: `cargo leptos build --split`).

// `#[lazy]` expands to the wasm-split loader's extern calls.
#![allow(unsafe_code)]

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::state::use_play;
use crate::api::gm_context;
use crate::ui::spend::spend_text;
use crate::wire::view::{
    DirectorView, FoundView, GmContextView, LedgerCheckView, LlmEntryView, PhaseSpendView,
    RequestView, SpendView,
};

/// What the game master sees: the model's working context, loaded each time the drawer opens,
/// with the tokens spent so far.
#[component]
pub fn GmDrawer() -> impl IntoView {
    let state = use_play();
    let open = RwSignal::new(false);
    let toggle = move |event: leptos::ev::Event| {
        open.set(event_target::<leptos::web_sys::Element>(&event).has_attribute("open"));
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
            {move || open.get().then(|| Suspend::new(gm_drawer_body()))}
        </details>
    }
}

/// The drawer's body: its code is a chunk of its own in the split build
/// (`lazy_chunks`, app/build.rs; loaded with the rest without `--split`).
#[cfg_attr(lazy_chunks, lazy)]
async fn gm_drawer_body() -> AnyView {
    view! { <GmDrawerBody /> }.into_any()
}

/// The context as loaded when mounted.
#[component]
fn GmDrawerBody() -> impl IntoView {
    let state = use_play();
    let context = RwSignal::new(None::<Result<GmContextView, String>>);
    spawn_local(async move {
        let loaded = gm_context(state.id.get_value()).await;
        if let Ok(loaded) = &loaded {
            state.model.set(Some(loaded.model.clone()));
        }
        context.set(Some(loaded.map_err(|error| error.to_string())));
    });
    view! {
            {move || match context.get() {
                None => view! { <p class="status">"Loading…"</p> }.into_any(),
                Some(Err(message)) => view! { <p class="error" role="alert">{message}</p> }.into_any(),
                Some(Ok(GmContextView { request, check, recalled, turn_spend, spend, director, .. })) => {
                    let request = match request {
                        None => view! { <p class="meta">"No request has been sent yet."</p> }.into_any(),
                        Some(request) => request_view(request).into_any(),
                    };
                    view! { {spend_view(turn_spend, spend)} {director_view(director)} <ModelWindow /> {check.map(check_view)} {recalled_view(recalled)} {request} }.into_any()
                }
            }}
    }
}

/// The director: how long the story has stood still, the steer due and the latest one given.
fn director_view(director: DirectorView) -> impl IntoView {
    view! {
        <section class="director" data-testid="director">
            <h3>"The director"</h3>
            <p>{format!("Turns since the story moved: {} (a steer after {}).", director.idle, director.threshold)}</p>
            {director.due.map(|due| view! { <p data-testid="steer-due">{format!("Steer for the next scene: {due}")}</p> })}
            {director.last.map(|last| view! { <p class="meta" data-testid="steer-last">{format!("Latest steer: {last}")}</p> })}
        </section>
    }
}

/// The model's working context as the play screen keeps it: the turns it holds verbatim, each
/// with its messages, and its last prompt's layers; each turn's changes arrive with its stream.
#[component]
fn ModelWindow() -> impl IntoView {
    let state = use_play();
    move || {
        state.model.get().map(|model| {
            let held = match (model.turns.first(), model.turns.last()) {
                (Some(first), Some(last)) => {
                    format!(
                        "The model holds turns {} to {} verbatim.",
                        first.turn, last.turn
                    )
                }
                _ => "The model holds no turn verbatim yet.".to_owned(),
            };
            let layers = model
                .layers
                .iter()
                .map(|layer| format!("{} {}", layer.name, layer.tokens))
                .collect::<Vec<_>>()
                .join(" · ");
            view! {
                <section class="model-window" data-testid="model-window">
                    <p class="meta">{held}</p>
                    <p class="meta">{format!("Its last prompt, in tokens: {layers}")}</p>
                    <ol>
                        {model.turns.into_iter().map(|turn| view! {
                            <li data-testid="model-turn">
                                <strong>{format!("Turn {}", turn.turn)}</strong>
                                {turn.messages.into_iter().map(|message| view! {
                                    <p class=format!("llm {}", message.role)>
                                        {format!("{}: {}", message.role, message.content)}
                                        {message.tool_calls.join(", ")}
                                    </p>
                                }).collect_view()}
                            </li>
                        }).collect_view()}
                    </ol>
                </section>
            }
        })
    }
}

/// What the latest turn's model calls cost, by phase, and the whole campaign.
fn spend_view(turn: Vec<PhaseSpendView>, campaign: SpendView) -> impl IntoView {
    view! {
        <section class="spend" data-testid="spend">
            <p class="meta">
                {turn
                    .iter()
                    .map(|phase| format!("{}: {}", phase.phase, spend_text(&phase.spend)))
                    .collect::<Vec<_>>()
                    .join(" · ")}
            </p>
            <p class="meta">{format!("This campaign: {}", spend_text(&campaign))}</p>
        </section>
    }
}

/// The older passages the rules recalled into the latest narration, each with its turn and the
/// words that brought it back.
fn recalled_view(recalled: Vec<FoundView>) -> impl IntoView {
    let heading = if recalled.is_empty() {
        "Recalled from earlier in the story: nothing for the latest scene."
    } else {
        "Recalled from earlier in the story for the latest scene:"
    };
    view! {
        <section class="recalled" data-testid="recalled">
            <p class="meta">{heading}</p>
            <ul>
                {recalled
                    .into_iter()
                    .map(|passage| view! { <li>{found_line(passage)}</li> })
                    .collect_view()}
            </ul>
        </section>
    }
}

/// A found passage: its turn, its text and the words it matched.
pub fn found_line(passage: FoundView) -> impl IntoView {
    view! {
        <strong>{format!("Turn {}", passage.turn)}</strong>
        ": "
        <span>{passage.text}</span>
        " "
        <span class="meta">{format!("(matched: {})", passage.words.join(", "))}</span>
    }
}

/// The rules' check of the latest scene: the claims they could check, the first draft sent
/// back to the model (with the contradictions it was asked to correct), and the notes left for
/// the player.
fn check_view(check: LedgerCheckView) -> impl IntoView {
    let claims = match check.claims {
        1 => "1 claim".to_owned(),
        count => format!("{count} claims"),
    };
    let asked = if check.asked.is_empty() {
        view! { <p data-testid="check-asked">"The first draft was not sent back."</p> }.into_any()
    } else {
        view! {
            <p data-testid="check-asked">"The first draft was sent back once, to correct:"</p>
            {notes_list(check.asked)}
        }
        .into_any()
    };
    let notes = if check.notes.is_empty() {
        view! { <p data-testid="check-notes">"The scene agrees with the rules."</p> }.into_any()
    } else {
        view! {
            <p data-testid="check-notes">"Left for the player:"</p>
            {notes_list(check.notes)}
        }
        .into_any()
    };
    view! {
        <section class="ledger-check" data-testid="ledger-check">
            <p class="meta" data-testid="check-claims">
                {format!("Ledger check of turn {}: {claims} in the scene the rules could check.", check.turn)}
            </p>
            {asked}
            {notes}
        </section>
    }
}

/// The ledger check's notes, one per contradiction.
fn notes_list(notes: Vec<String>) -> impl IntoView {
    view! { <ul class="check-notes">{notes.into_iter().map(|note| view! { <li>{note}</li> }).collect_view()}</ul> }
}

fn request_view(request: RequestView) -> impl IntoView {
    let shared = if request.bytes == 0 {
        0
    } else {
        u64::from(request.shared_front_bytes) * 100 / u64::from(request.bytes)
    };
    let window = match request.window {
        Some((first, last)) if first == last => format!("turn {first}"),
        Some((first, last)) => format!("turns {first}–{last}"),
        None => "none".to_owned(),
    };
    let reported = request
        .reported_tokens
        .map(|tokens| format!(", {tokens} as the provider counted"))
        .unwrap_or_default();
    view! {
        <div class="inspector" data-testid="inspector">
            <p class="meta">
                {format!(
                    "Last request ({}): {} bytes, about {} tokens{reported}. Same front as the call before: {} bytes ({shared}%).",
                    request.purpose,
                    request.bytes,
                    request.estimated_tokens,
                    request.shared_front_bytes,
                )}
            </p>
            <table class="layers">
                <thead><tr><th>"Layer"</th><th>"Tokens"</th><th>"Bytes"</th></tr></thead>
                <tbody>
                    {request
                        .layers
                        .into_iter()
                        .map(|layer| view! { <tr><td>{layer.name}</td><td>{layer.tokens}</td><td>{layer.bytes}</td></tr> })
                        .collect_view()}
                </tbody>
            </table>
            <p class="meta">{format!("Verbatim: {window}. Tools: {}.", if request.tools.is_empty() { "none".to_owned() } else { request.tools.join(", ") })}</p>
            // It scrolls on its own: focusable, so that the keyboard can scroll it too.
            <ol class="llm-history" tabindex="0" aria-label="The messages sent, in order">
                {request.messages.into_iter().map(llm_entry).collect_view()}
            </ol>
        </div>
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
