//! The home page: a new adventure (preset or custom premise, name, class) and the saved
//! campaigns (resume, export, delete; import a file).

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_navigate;

use super::files::{ExportButton, ImportForm};
use super::game_master::GameMasterNote;
use crate::api::{list_campaigns, CreateCampaign, DeleteCampaign};
use crate::campaign::view::{CampaignPage, CampaignSummary, NewCampaign, PREMISE_PRESETS};

/// Class suggestions for the form (any class may be typed).
const CLASSES: [&str; 6] = ["Fighter", "Ranger", "Rogue", "Wizard", "Cleric", "Bard"];

/// The home page.
#[component]
pub fn HomePage() -> impl IntoView {
    view! {
        <section class="home">
            <h1 class="title">"Dicebound"</h1>
            <p class="tagline">
                "A solo tabletop adventure. The story is told by an AI; the dice are real."
            </p>
            <GameMasterNote />
            <NewAdventureForm />
            <CampaignList />
        </section>
    }
}

/// The new-adventure form; keeps what was typed when starting fails.
#[component]
fn NewAdventureForm() -> impl IntoView {
    let create = ServerAction::<CreateCampaign>::new();
    let preset = RwSignal::new(0usize);
    let custom = RwSignal::new(String::new());
    let name = RwSignal::new(String::new());
    let class = RwSignal::new(CLASSES[1].to_owned());
    let pending = create.pending();
    let navigate = use_navigate();

    Effect::new(move |_| {
        if let Some(Ok(view)) = create.value().get() {
            navigate(&format!("/play/{}", view.id), Default::default());
        }
    });

    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let premise = match preset.get() {
            index if index < PREMISE_PRESETS.len() => PREMISE_PRESETS[index].to_owned(),
            _ => custom.get(),
        };
        create.dispatch(CreateCampaign {
            form: NewCampaign {
                premise,
                name: name.get(),
                class: class.get(),
            },
        });
    };

    view! {
        <form class="new-adventure panel" on:submit=submit>
            <h2>"New adventure"</h2>
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
                                    on:change=move |_| preset.set(index)
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
            <div class="row">
                <label>
                    "Name"
                    <input
                        type="text"
                        required
                        maxlength="40"
                        placeholder="Mira Thorne"
                        prop:value=name
                        on:input=move |event| name.set(event_target_value(&event))
                    />
                </label>
                <label>
                    "Class"
                    <input
                        type="text"
                        required
                        maxlength="40"
                        list="classes"
                        prop:value=class
                        on:input=move |event| class.set(event_target_value(&event))
                    />
                    <datalist id="classes">
                        {CLASSES.map(|c| view! { <option value=c></option> }).collect_view()}
                    </datalist>
                </label>
            </div>
            <button class="primary" type="submit" disabled=pending>
                {move || if pending.get() { "The GM is writing your opening…" } else { "Begin the adventure" }}
            </button>
            {move || {
                create
                    .value()
                    .get()
                    .and_then(Result::err)
                    .map(|error| {
                        view! { <p class="error" role="alert">{error.to_string()}</p> }
                    })
            }}
        </form>
    }
}

/// The saved campaigns, a page at a time.
#[component]
fn CampaignList() -> impl IntoView {
    let delete = ServerAction::<DeleteCampaign>::new();
    let page = RwSignal::new(0u32);
    let campaigns = Resource::new(
        move || (delete.version().get(), page.get()),
        |(_, page)| list_campaigns(page),
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

/// One saved campaign: resume, export, delete.
#[component]
fn CampaignItem(campaign: CampaignSummary, delete: ServerAction<DeleteCampaign>) -> impl IntoView {
    let id = campaign.id.to_string();
    let href = format!("/play/{id}");
    let title = campaign.title.clone();
    view! {
        <li class="campaign" data-testid="campaign">
            <div>
                <A href=href.clone()>{campaign.title}</A>
                <span class="meta">
                    {format!("turn {}", campaign.turn)}
                    " · last played "
                    {campaign.last_played}
                </span>
            </div>
            <div class="campaign-buttons">
                <A href=href attr:class="button">"Resume"</A>
                <ExportButton id=id.clone() title />
                <button
                    class="danger"
                    on:click=move |_| {
                        delete.dispatch(DeleteCampaign { id: id.clone() });
                    }
                >
                    "Delete"
                </button>
            </div>
        </li>
    }
}
