//! The home page: a new adventure (preset or custom premise, the character (see `creation`); its opening streams
//! in as it is written) and the saved campaigns (resume, export, delete; import a file).

use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_navigate;

use super::agreement::{AgreementChoice, AgreementDraft};
use super::campaign_item::CampaignItem;
use super::card::CardPicker;
use super::creation::{CharacterFields, CompanionDraft, CompanionFields, CreationForm};
use super::files::ImportForm;
use super::game_master::GameMasterNote;
use super::recovery::RecoveryPanel;
use super::trash::Trash;
use super::updates::read_updates;
use crate::api::{list_campaigns, start_campaign, DeleteCampaign, DeleteForever, RestoreCampaign};
use crate::game::agreement::TableAgreement;
use crate::ui::resource::wire_resource;
use crate::wire::errors::AppError;
use crate::wire::view::{
    CampaignPage, CardView, NewCampaign, TurnUpdate, HORROR_PRESET, PREMISE_PRESETS,
};

/// The home page.
#[component]
pub fn HomePage() -> impl IntoView {
    crate::ui::app::mark_hydrated();
    view! {
        <section class="home">
            <h1 class="title">"Dicebound"</h1>
            <p class="tagline">
                "A solo tabletop adventure. The story is told by an AI; the dice are real."
            </p>
            <GameMasterNote />
            <NewAdventureForm />
            <CampaignList />
            <RecoveryPanel />
        </section>
    }
}

/// The new-adventure form; keeps what was typed when starting fails. The opening scene streams
/// in below it as the game master writes it; the play screen opens once it is saved.
#[component]
fn NewAdventureForm() -> impl IntoView {
    let preset = RwSignal::new(0usize);
    let custom = RwSignal::new(String::new());
    let character = CreationForm::default();
    let starting = RwSignal::new(false);
    let approval = RwSignal::new(false);
    let agreement = AgreementDraft::new(&TableAgreement::default());
    let brought = RwSignal::new(None::<CardView>);
    let companion = CompanionDraft::default();
    // A card's character travels with the hero as a companion unless the player clears it.
    Effect::new(move |_| {
        if let Some(name) = brought.get().and_then(|card| card.name) {
            companion.name.set(name);
        }
    });
    let on_premise = Callback::new(move |premise: String| {
        preset.set(PREMISE_PRESETS.len());
        custom.set(premise);
    });
    let opening = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let navigate = use_navigate();

    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        if starting.get_untracked() {
            return;
        }
        let premise = match preset.get_untracked() {
            index if index < PREMISE_PRESETS.len() => PREMISE_PRESETS[index].to_owned(),
            _ => custom.get_untracked(),
        };
        let form = NewCampaign {
            premise,
            character: character.draft(),
            approval: approval.get_untracked(),
            agreement: agreement.form(),
            brought: brought
                .get_untracked()
                .map(|card| card.entries)
                .unwrap_or_default(),
            companions: vec![companion.form()],
        };
        starting.set(true);
        error.set(None);
        opening.set(String::new());
        let navigate = navigate.clone();
        spawn_local(async move {
            match stream_opening(form, opening).await {
                Ok(id) => navigate(&format!("/play/{id}"), Default::default()),
                Err(failure) => {
                    error.set(Some(failure.to_string()));
                    starting.set(false);
                }
            }
        });
    };

    view! {
        <form class="new-adventure panel" on:submit=submit>
            <h2>"New adventure"</h2>
            <PremiseChoice preset custom on_horror=move || character.track_sanity() />
            <CardPicker brought on_premise />
            <CharacterFields form=character />
            <CompanionFields draft=companion />
            <AgreementChoice draft=agreement />
            <label class="approval-switch">
                <input
                    type="checkbox"
                    data-testid="approval-mode"
                    prop:checked=approval
                    on:change=move |event| approval.set(event_target_checked(&event))
                />
                " Approve the game master's changes to my character, journal and map before they apply"
            </label>
            <button class="primary" type="submit" disabled=starting>
                {move || if starting.get() { "The GM is writing your opening…" } else { "Begin the adventure" }}
            </button>
            {move || {
                error.get().map(|error| view! { <p class="error" role="alert">{error}</p> })
            }}
            {move || starting.get().then(|| view! { <OpeningPreview opening /> })}
        </form>
    }
}

/// Starts the campaign, showing its opening as it streams into `opening`; its id once saved.
async fn stream_opening(form: NewCampaign, opening: RwSignal<String>) -> Result<String, AppError> {
    let stream = start_campaign(form).await?;
    let mut created = None;
    read_updates(stream, |update| match update {
        TurnUpdate::Narrative { text } => {
            opening.update(|shown| shown.push_str(&text));
            false
        }
        TurnUpdate::NarrativeReplaced { text } => {
            opening.set(text);
            false
        }
        TurnUpdate::Created { summary } => {
            created = Some(summary.id.to_string());
            true
        }
        _ => false,
    })
    .await?;
    created.ok_or_else(|| AppError::Transport {
        message: "The server did not say which campaign it started.".to_owned(),
    })
}

/// The opening scene as it is written, or what is happening until its first words arrive.
#[component]
fn OpeningPreview(opening: RwSignal<String>) -> impl IntoView {
    view! {
        <div class="opening-preview" aria-live="polite" data-testid="opening-preview">
            {move || {
                let text = opening.get();
                if text.is_empty() {
                    view! {
                        <p class="status">
                            "The game master is reading your premise… the first words can take a few seconds while the model gets going."
                        </p>
                    }
                        .into_any()
                } else {
                    view! { <div class="scene draft">{text}</div> }.into_any()
                }
            }}
        </div>
    }
}

/// The premise: one of the presets, or the player's own.
#[component]
fn PremiseChoice(
    preset: RwSignal<usize>,
    custom: RwSignal<String>,
    /// Called when the horror premise is chosen.
    on_horror: impl Fn() + Copy + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <fieldset class="premises">
            <legend>"Premise"</legend>
            {PREMISE_PRESETS
                .iter()
                .enumerate()
                .map(|(index, text)| {
                    view! {
                        <label class="premise-option">
                            <input
                                type="radio"
                                name="premise"
                                prop:checked=move || preset.get() == index
                                on:change=move |_| {
                                    preset.set(index);
                                    if index == HORROR_PRESET {
                                        on_horror();
                                    }
                                }
                            />
                            <span>{*text}</span>
                        </label>
                    }
                })
                .collect_view()}
            <label class="premise-option">
                <input
                    type="radio"
                    name="premise"
                    prop:checked=move || preset.get() == PREMISE_PRESETS.len()
                    on:change=move |_| preset.set(PREMISE_PRESETS.len())
                />
                <input
                    type="text"
                    class="custom-premise"
                    placeholder="Or write your own premise…"
                    maxlength="300"
                    prop:value=custom
                    on:input=move |event| {
                        custom.set(event_target_value(&event));
                        preset.set(PREMISE_PRESETS.len());
                    }
                />
            </label>
        </fieldset>
    }
}

/// The saved campaigns, a page at a time.
#[component]
fn CampaignList() -> impl IntoView {
    let delete = ServerAction::<DeleteCampaign>::new();
    let restore = ServerAction::<RestoreCampaign>::new();
    let forever = ServerAction::<DeleteForever>::new();
    let page = RwSignal::new(0u32);
    let campaigns = wire_resource(
        move || (delete.version().get(), restore.version().get(), page.get()),
        |(_, _, page)| list_campaigns(page),
    );

    view! {
        <section class="campaigns panel">
            <h2>"Your campaigns"</h2>
            <ImportForm />
            <Suspense fallback=|| view! { <p class="status">"Loading…"</p> }>
                {move || {
                    campaigns
                        .get()
                        .map(|result| match result {
                            Err(error) => {
                                view! { <p class="error" role="alert">{error.to_string()}</p> }
                                    .into_any()
                            }
                            Ok(list) if list.campaigns.is_empty() && list.page == 0 => {
                                view! { <p class="status">"No campaigns yet."</p> }.into_any()
                            }
                            Ok(list) => {
                                let pager = (list.page > 0 || list.more)
                                    .then(|| view! { <Pager list=list.clone() page /> });
                                view! {
                                    <ul class="campaign-list">
                                        {list
                                            .campaigns
                                            .into_iter()
                                            .map(|campaign| view! { <CampaignItem campaign delete /> })
                                            .collect_view()}
                                    </ul>
                                    {pager}
                                }
                                    .into_any()
                            }
                        })
                }}
            </Suspense>
            <Trash delete restore forever />
        </section>
    }
}

/// Links to the newer and older pages of the list.
#[component]
fn Pager(list: CampaignPage, page: RwSignal<u32>) -> impl IntoView {
    let current = list.page;
    view! {
        <nav class="pager" aria-label="Campaign pages">
            <button disabled=current == 0 on:click=move |_| page.set(current.saturating_sub(1))>
                "Newer"
            </button>
            <span class="meta">{format!("page {}", current + 1)}</span>
            <button disabled=!list.more on:click=move |_| page.set(current + 1)>
                "Older"
            </button>
        </nav>
    }
}
