//! The play screen: the story log (UI history), the action bar, the character panel and the
//! "what the GM sees" drawer (LLM history). The two histories are separate signals.

use futures::StreamExt;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_params_map};

use super::character::CharacterPanel;
use super::game_master::GameMasterNote;
use super::home::error_text;
use super::story::{GmDrawer, StoryLog};
use crate::api::{load_campaign, next_actions, play_turn, RestartCampaign};
use crate::campaign::view::{CampaignView, MoveInput, TurnUpdate};

/// `/play/:id`: loads the campaign, then shows [`Play`].
#[component]
pub fn PlayPage() -> impl IntoView {
    let params = use_params_map();
    let id = move || params.read().get("id").unwrap_or_default();
    let campaign = Resource::new(id, load_campaign);

    view! {
        <Suspense fallback=|| view! { <p class="status">"Opening the campaign…"</p> }>
            {move || {
                campaign
                    .get()
                    .map(|result| match result {
                        Ok(view) => view! { <Play initial=view /> }.into_any(),
                        Err(error) => {
                            view! {
                                <section class="panel missing">
                                    <p class="error" role="alert">{error_text(&error)}</p>
                                    <A href="/">"Back to your campaigns"</A>
                                </section>
                            }
                                .into_any()
                        }
                    })
            }}
        </Suspense>
    }
}

/// A failed request: what to tell the player and what Retry does.
#[derive(Clone, Debug, PartialEq)]
struct Failure {
    message: String,
    retry: Retry,
}

/// What Retry does after a failure.
#[derive(Clone, Debug, PartialEq)]
enum Retry {
    /// Play the move again (it was not saved).
    Move(MoveInput),
    /// Ask for the next actions again (the move was saved).
    Actions,
}

/// The play screen of a loaded campaign.
#[component]
fn Play(initial: CampaignView) -> impl IntoView {
    let id = initial.summary.id.to_string();
    let title = initial.summary.title.clone();
    let model = initial.model.clone();
    let turn = RwSignal::new(initial.summary.turn);
    // The two histories: what the player reads, and what the model reads.
    let story = RwSignal::new(initial.story);
    let llm_history = RwSignal::new(initial.llm_history);
    let tokens = RwSignal::new(initial.tokens);
    let sheet = RwSignal::new(initial.sheet);
    let actions = RwSignal::new(initial.actions);
    let draft = RwSignal::new(String::new());
    let busy = RwSignal::new(false);
    let failure = RwSignal::new(None::<Failure>);
    let text = RwSignal::new(String::new());

    let apply = move |view: CampaignView| {
        turn.set(view.summary.turn);
        story.set(view.story);
        llm_history.set(view.llm_history);
        tokens.set(view.tokens);
        sheet.set(view.sheet);
        actions.set(view.actions);
    };

    let run = {
        let id = id.clone();
        move |input: MoveInput| {
            if busy.get_untracked() {
                return;
            }
            busy.set(true);
            failure.set(None);
            draft.set(String::new());
            let before = (story.get_untracked(), sheet.get_untracked());
            let id = id.clone();
            spawn_local(async move {
                let on_update = move |update: TurnUpdate| match update {
                    TurnUpdate::Narrative { text } => draft.update(|d| d.push_str(&text)),
                    TurnUpdate::NarrativeReplaced { text } => draft.set(text),
                    TurnUpdate::Entry { entry } => story.update(|s| s.push(entry)),
                    TurnUpdate::Sheet { sheet: now } => sheet.set(now),
                    TurnUpdate::Done { .. } | TurnUpdate::Error { .. } => {}
                };
                match stream_turn(id.clone(), turn.get_untracked(), input.clone(), on_update).await
                {
                    Ok(view) => {
                        draft.set(String::new());
                        // Clear the box only if it still holds the move just played.
                        if let MoveInput::Text { text: played } = &input {
                            text.update(|typed| {
                                if typed == played {
                                    typed.clear();
                                }
                            });
                        }
                        apply(view);
                        match next_actions(id).await {
                            Ok(view) => apply(view),
                            Err(error) => failure.set(Some(Failure {
                                message: format!(
                                    "Your move was saved, but the next actions could not be prepared: {}",
                                    error_text(&error)
                                ),
                                retry: Retry::Actions,
                            })),
                        }
                    }
                    Err(message) => {
                        draft.set(String::new());
                        story.set(before.0);
                        sheet.set(before.1);
                        // The connection may have dropped after the server saved the move, or
                        // another tab may have played: catch up with what is saved.
                        let played_from = turn.get_untracked();
                        match load_campaign(id).await {
                            Ok(view) if view.summary.turn != played_from => apply(view),
                            _ => failure.set(Some(Failure {
                                message,
                                retry: Retry::Move(input),
                            })),
                        }
                    }
                }
                busy.set(false);
            });
        }
    };

    let choose = {
        let run = run.clone();
        move |action_id: String| run(MoveInput::Action { id: action_id })
    };
    let submit_text = {
        let run = run.clone();
        move |event: leptos::ev::SubmitEvent| {
            event.prevent_default();
            let typed = text.get_untracked();
            if !typed.trim().is_empty() {
                run(MoveInput::Text { text: typed });
            }
        }
    };
    let restart = ServerAction::<RestartCampaign>::new();
    let confirm_restart = RwSignal::new(false);
    let navigate = use_navigate();
    Effect::new(move |_| {
        if let Some(Ok(view)) = restart.value().get() {
            navigate(&format!("/play/{}", view.summary.id), Default::default());
        }
    });
    let restart_id = id.clone();
    let start_over = move |_| {
        if confirm_restart.get_untracked() {
            restart.dispatch(RestartCampaign {
                id: restart_id.clone(),
            });
        } else {
            confirm_restart.set(true);
        }
    };

    let actions_id = id.clone();
    let retry = move |_| match failure.get_untracked().map(|failed| failed.retry) {
        Some(Retry::Move(input)) => run(input),
        Some(Retry::Actions) => {
            failure.set(None);
            busy.set(true);
            let id = actions_id.clone();
            spawn_local(async move {
                match next_actions(id).await {
                    Ok(view) => apply(view),
                    Err(error) => failure.set(Some(Failure {
                        message: format!(
                            "The next actions could not be prepared: {}",
                            error_text(&error)
                        ),
                        retry: Retry::Actions,
                    })),
                }
                busy.set(false);
            });
        }
        None => {}
    };

    view! {
        <div class="play">
            <header class="play-header">
                <A href="/" attr:class="back">"← Campaigns"</A>
                <h1>{title}</h1>
                <span class="model" title="The model telling this story">"Told by " {model}</span>
                <button
                    class="danger start-over"
                    disabled=move || busy.get() || restart.pending().get()
                    on:click=start_over
                >
                    {move || {
                        if restart.pending().get() {
                            "Starting over…"
                        } else if confirm_restart.get() {
                            "Really start over?"
                        } else {
                            "Start over"
                        }
                    }}
                </button>
            </header>
            <GameMasterNote compact=true />
            <div class="play-grid">
                <section class="story-column">
                    <StoryLog story=story draft=draft />
                    {move || busy.get().then(|| view! { <p class="writing" aria-live="polite">"The GM is writing…"</p> })}
                    {move || {
                        restart
                            .value()
                            .get()
                            .and_then(Result::err)
                            .map(|error| view! { <p class="error" role="alert">{error_text(&error)}</p> })
                    }}
                    {move || {
                        failure
                            .get()
                            .map(|failed| {
                                view! {
                                    <div class="turn-error" role="alert">
                                        <p>{failed.message}</p>
                                        <button on:click=retry.clone()>"Retry"</button>
                                    </div>
                                }
                            })
                    }}
                    <div class="action-bar">
                        <div class="actions">
                            <For
                                each=move || actions.get()
                                key=|action| action.id.clone()
                                children=move |action| {
                                    let choose = choose.clone();
                                    let action_id = action.id.clone();
                                    view! {
                                        <button
                                            class="action"
                                            disabled=move || busy.get()
                                            on:click=move |_| choose(action_id.clone())
                                        >
                                            <span>{action.description}</span>
                                            {action.badge.map(|badge| view! { <span class="badge">"⚄ " {badge}</span> })}
                                        </button>
                                    }
                                }
                            />
                        </div>
                        <form class="free-text" on:submit=submit_text>
                            <textarea
                                aria-label="Your move"
                                placeholder="…or do something else"
                                maxlength="2000"
                                rows="2"
                                prop:value=text
                                on:input=move |event| text.set(event_target_value(&event))
                            ></textarea>
                            <button class="primary" type="submit" disabled=move || busy.get()>
                                "Do it"
                            </button>
                        </form>
                    </div>
                </section>
                <aside class="side-column">
                    <CharacterPanel sheet=sheet />
                    <GmDrawer history=llm_history tokens=tokens />
                </aside>
            </div>
        </div>
    }
}

/// Runs a turn, passing each streamed update on; ends with the campaign as saved, or with the
/// message to show.
async fn stream_turn(
    id: String,
    turn: u32,
    input: MoveInput,
    on_update: impl Fn(TurnUpdate),
) -> Result<CampaignView, String> {
    let stream = play_turn(id, turn, input)
        .await
        .map_err(|error| error_text(&error))?;
    let mut stream = stream.into_inner();
    let mut buffer = String::new();
    while let Some(chunk) = stream.next().await {
        buffer.push_str(&chunk.map_err(|error| error_text(&error))?);
        while let Some(newline) = buffer.find('\n') {
            let line: String = buffer.drain(..=newline).collect();
            let update: TurnUpdate = serde_json::from_str(line.trim())
                .map_err(|_| "The server sent an answer the page cannot read.".to_owned())?;
            match update {
                TurnUpdate::Done { view } => return Ok(*view),
                TurnUpdate::Error { message } => return Err(message),
                other => on_update(other),
            }
        }
    }
    Err(
        "The connection closed before the turn was finished. Nothing was lost: try again."
            .to_owned(),
    )
}
