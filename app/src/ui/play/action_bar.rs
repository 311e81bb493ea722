//! Below the story: what the game is doing (writing, a failure with Retry, a note), the action
//! buttons and the free-text move (typed, or said: [`super::voice`]); once the character has fallen, the end of the story.

use leptos::prelude::*;

use super::run_turn::{play, retry_actions};
use super::state::{use_play, Retry};
use super::voice::{VoiceButton, VoiceProblem, MOVE_BOX_CHARS};
use crate::wire::view::MoveInput;

/// "The GM is writing…", the last failure with Retry, or a note.
#[component]
pub fn TurnStatus() -> impl IntoView {
    let state = use_play();
    let retry = move |_| match state
        .failure
        .get_untracked()
        .and_then(|failed| failed.retry)
    {
        Some(Retry::Move(input)) => play(state, input),
        Some(Retry::Actions) => retry_actions(state),
        None => {}
    };
    view! {
        {move || state.busy.get().then(|| view! { <p class="writing" aria-live="polite">"The GM is writing…"</p> })}
        {move || state.notice.get().map(|note| view! { <p class="notice" role="status">{note}</p> })}
        {move || {
            state
                .failure
                .get()
                .map(|failed| {
                    view! {
                        <div class="turn-error" role="alert">
                            <p>{failed.message}</p>
                            {failed.retry.is_some().then(|| view! { <button on:click=retry>"Retry"</button> })}
                        </div>
                    }
                })
        }}
    }
}

/// The action buttons and the free-text form.
#[component]
pub fn ActionBar() -> impl IntoView {
    let state = use_play();
    let voice_problem = RwSignal::new(None);
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let typed = state.text.get_untracked();
        if !typed.trim().is_empty() {
            play(state, MoveInput::Text { text: typed });
        }
    };
    let ending = move || {
        let sheet = state.sheet.get();
        sheet.vitality.is_dead().then(|| {
            view! {
                <div class="the-end" data-testid="the-end" role="status">
                    <h2>"The End"</h2>
                    <p>{format!("{} has fallen, and this story is over.", sheet.name)}</p>
                    <p class="meta">
                        "Start it over from the header, undo the last turn, or branch a new campaign from an earlier scene."
                    </p>
                </div>
            }
        })
    };
    view! {
        {ending}
        <div class="action-bar" class:hidden=move || state.sheet.get().vitality.is_dead()>
            <div class="actions">
                <For
                    each=move || state.actions.get()
                    // The whole action, not its id: a change from the panel (a score raised,
                    // a weapon equipped, a poison cured) keeps the ids and changes the badges.
                    key=|action| action.clone()
                    children=move |action| {
                        let id = action.id.clone();
                        view! {
                            <button
                                class="action"
                                disabled=move || state.busy.get() || state.waiting()
                                on:click=move |_| play(state, MoveInput::Action { id: id.clone() })
                            >
                                <span>{action.description}</span>
                                {action.badge.map(|badge| view! {
                                    <span class="badge">
                                        "⚄ " {badge}
                                        {action.chance.map(|chance| view! {
                                            <span class="chance" data-testid="chance" title="The chance of success, worked out by the rules">
                                                {format!(" · {chance}% to succeed")}
                                            </span>
                                        })}
                                    </span>
                                })}
                                {action.stakes.map(|(success, failure)| view! {
                                    <span class="stakes" data-testid="stakes">
                                        <span class="on-success">"✓ " {success}</span>
                                        <span class="on-failure">"✗ " {failure}</span>
                                    </span>
                                })}
                            </button>
                        }
                    }
                />
            </div>
            <form class="free-text" on:submit=submit>
                <textarea
                    aria-label="Your move"
                    placeholder="…or do something else"
                    maxlength=MOVE_BOX_CHARS
                    rows="2"
                    prop:value=state.text
                    on:input=move |event| state.text.set(event_target_value(&event))
                ></textarea>
                <VoiceButton problem=voice_problem />
                <button class="primary" type="submit" disabled=move || state.busy.get() || state.waiting()>
                    "Do it"
                </button>
            </form>
            <VoiceProblem problem=voice_problem />
        </div>
    }
}
