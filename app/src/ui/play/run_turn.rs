//! Running a turn from the play screen: stream the move, then fetch the next actions; on a
//! failure act on its kind (a stale turn is fetched in place, a retryable one offers Retry).

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::state::{Failure, PlayState, Retry};
use crate::api::{load_campaign, next_actions, play_turn};
use crate::ui::updates::read_updates;
use crate::wire::errors::AppError;
use crate::wire::view::{MoveInput, TurnUpdate};

/// Plays a move (unless a request is running).
pub fn play(state: PlayState, input: MoveInput) {
    if state.busy.get_untracked() {
        return;
    }
    state.busy.set(true);
    state.failure.set(None);
    state.notice.set(None);
    state.draft.set(String::new());
    state.narration.set((String::new(), false));
    let before = (
        state.story.get_untracked(),
        state.story_start.get_untracked(),
        state.sheet.get_untracked(),
        state.encounter.get_untracked(),
        state.map.get_untracked(),
    );
    spawn_local(async move {
        let id = state.id.get_value();
        match stream_turn(&state, id, input.clone()).await {
            Ok(false) => state.text.set(String::new()),
            Ok(true) => {
                // Clear the box only if it still holds the move just played.
                if let MoveInput::Text { text: played } = &input {
                    state.text.update(|typed| {
                        if typed == played {
                            typed.clear();
                        }
                    });
                }
                state.actions.set(Vec::new());
                fetch_actions(state).await;
            }
            Err(error) => {
                state.draft.set(String::new());
                state.pending_table.set(None);
                state.story.set(before.0);
                state.story_start.set(before.1);
                state.sheet.set(before.2);
                state.encounter.set(before.3);
                state.map.set(before.4);
                recover(state, error, Retry::Move(input)).await;
            }
        }
        state.busy.set(false);
    });
}

/// Asks for the current turn's actions again (Retry after phase 2 failed).
pub fn retry_actions(state: PlayState) {
    state.failure.set(None);
    state.busy.set(true);
    spawn_local(async move {
        fetch_actions(state).await;
        state.busy.set(false);
    });
}

async fn fetch_actions(state: PlayState) {
    match next_actions(state.id.get_value()).await {
        Ok(view) => state.set_actions(view),
        Err(error) => {
            let message =
                format!("Your move was saved, but the next actions could not be prepared. {error}");
            state.failure.set(Some(Failure {
                message,
                retry: Some(Retry::Actions),
            }));
        }
    }
}

/// After a failed move: a stale page catches up in place; a dropped connection checks whether
/// the move was saved after all; anything else is shown, with Retry where it can help.
async fn recover(state: PlayState, error: AppError, retry: Retry) {
    match error {
        AppError::Stale { .. } => {
            catch_up(
                state,
                "This campaign moved on in another tab; here is where it stands now.",
            )
            .await
        }
        AppError::Transport { .. } if caught_up(state).await => {}
        error => state.failure.set(Some(Failure {
            message: error.to_string(),
            retry: error.is_retryable().then_some(retry),
        })),
    }
}

/// Shows why a request failed: a stale page catches up in place; anything else is shown.
pub(super) async fn show_error(state: PlayState, error: AppError) {
    match error {
        AppError::Stale { .. } => {
            catch_up(
                state,
                "This campaign moved on in another tab; here is where it stands now.",
            )
            .await
        }
        error => state.failure.set(Some(Failure {
            message: error.to_string(),
            retry: None,
        })),
    }
}

/// Loads the campaign as saved and shows it, with a note.
pub async fn catch_up(state: PlayState, note: &str) {
    match load_campaign(state.id.get_value()).await {
        Ok(view) => {
            state.replace(view);
            state.notice.set(Some(note.to_owned()));
        }
        Err(error) => state.failure.set(Some(Failure {
            message: error.to_string(),
            retry: None,
        })),
    }
}

/// Whether the campaign moved on while the connection was down (then it is shown).
async fn caught_up(state: PlayState) -> bool {
    match load_campaign(state.id.get_value()).await {
        Ok(view) if view.summary.turn != state.turn.get_untracked() => {
            state.replace(view);
            true
        }
        _ => false,
    }
}

/// Runs a turn, applying each streamed update; ends when the turn is saved (`true`) or the move
/// waits for the rest of the table (`false`), or with why not.
async fn stream_turn(state: &PlayState, id: String, input: MoveInput) -> Result<bool, AppError> {
    let stream = play_turn(id, state.turn.get_untracked(), input).await?;
    let mut narrated = false;
    read_updates(stream, |update| {
        narrated = matches!(update, TurnUpdate::Done { .. });
        let last = narrated || matches!(update, TurnUpdate::RoundWaiting { .. });
        state.update(update);
        last
    })
    .await?;
    Ok(narrated)
}
