//! Taking the latest turn back: Undo, Redo, "Tell it again" (the same move and dice, a new
//! telling; confirmed, since it discards the current one) and "Other actions".

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::run_turn::show_error;
use super::state::{use_play, PlayState};
use crate::api::{new_actions, redo_turn, retell_turn, undo_turn};
use crate::wire::errors::AppError;
use crate::wire::view::CampaignView;

/// Which way a turn is taken back.
#[derive(Clone, Copy)]
enum Rewind {
    Undo,
    Redo,
    Retell,
    NewActions,
}

/// The buttons under the latest turn.
#[component]
pub fn TurnHistory() -> impl IntoView {
    let state = use_play();
    let idle = move || !state.busy.get();
    view! {
        <div class="turn-history" aria-label="The latest turn">
            <Show when=move || { state.turn.get() >= 2 }>
                <button class="link" disabled=move || !idle() on:click=move |_| rewind(state, Rewind::Undo)>
                    "Undo turn"
                </button>
            </Show>
            <Show when=move || { state.redoable.get() > 0 }>
                <button class="link" disabled=move || !idle() on:click=move |_| rewind(state, Rewind::Redo)>
                    "Redo"
                </button>
            </Show>
            <button class="link" disabled=move || !idle() on:click=move |_| rewind(state, Rewind::Retell)>
                "Tell it again"
            </button>
            <button class="link" disabled=move || !idle() on:click=move |_| rewind(state, Rewind::NewActions)>
                "Other actions"
            </button>
        </div>
    }
}

/// Tells the latest scene again (after the player refused a change it relied on).
pub(super) fn tell_again(state: PlayState) {
    rewind(state, Rewind::Retell);
}

fn rewind(state: PlayState, how: Rewind) {
    if state.busy.get_untracked() || !confirmed(how) {
        return;
    }
    state.busy.set(true);
    state.failure.set(None);
    state.notice.set(None);
    spawn_local(async move {
        let (id, turn) = (state.id.get_value(), state.turn.get_untracked());
        let answer: Result<CampaignView, AppError> = match how {
            Rewind::Undo => undo_turn(id, turn).await,
            Rewind::Redo => redo_turn(id, turn).await,
            Rewind::Retell => retell_turn(id, turn).await,
            Rewind::NewActions => new_actions(id, turn).await,
        };
        match answer {
            Ok(view) => state.replace(view),
            Err(error) => show_error(state, error).await,
        }
        state.busy.set(false);
    });
}

/// Telling a scene again discards the current telling: the player confirms it first.
fn confirmed(how: Rewind) -> bool {
    match how {
        Rewind::Retell => window()
            .confirm_with_message("Tell this scene again? The current telling is discarded.")
            .unwrap_or(false),
        _ => true,
    }
}
