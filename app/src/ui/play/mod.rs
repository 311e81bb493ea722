//! The play screen: the story log (UI history), the encounter tracker while a fight is on, the
//! action bar, the character panel, the map, the journal, the ledger and the "what the GM sees" drawer (the last request, loaded when opened). Its parts share [`PlayState`]
//! through a context.

mod action_bar;
mod agreement;
mod ask;
mod character;
mod dice;
mod drawer;
mod encounter;
mod header;
mod history;
mod improvement;
mod journal;
mod ledger;
mod live;
mod map;
mod outcome_table;
mod powers;
mod proposals;
mod read_aloud;
mod run_turn;
mod state;
mod story;
mod story_search;

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

use self::action_bar::{ActionBar, TurnStatus};
use self::agreement::AgreementPanel;
use self::ask::AskTheGm;
use self::character::CharacterPanel;
use self::drawer::GmDrawer;
use self::encounter::EncounterTracker;
use self::header::PlayHeader;
use self::history::TurnHistory;
use self::journal::JournalPanel;
use self::ledger::LedgerDrawer;
use self::live::LiveFollow;
use self::map::MapPanel;
use self::proposals::Proposals;
use self::read_aloud::ReadAloud;
use self::state::PlayState;
use self::story::StoryLog;
use self::story_search::StorySearch;
use super::game_master::{load_game_master, GameMasterNote, GameMasterResource};
use crate::api::load_campaign;
use crate::wire::view::CampaignView;

/// `/play/:id`: loads the campaign, then shows [`Play`].
#[component]
pub fn PlayPage() -> impl IntoView {
    let params = use_params_map();
    let id = move || params.read().get("id").unwrap_or_default();
    let campaign = Resource::new(id, load_campaign);
    // Loaded here, not in `Play`: the campaign's part below may be rendered again, and a note
    // made there would be read after it was thrown away.
    let master = load_game_master();

    view! {
        <Suspense fallback=|| view! { <p class="status">"Opening the campaign…"</p> }>
            {move || {
                campaign
                    .get()
                    .map(|result| match result {
                        Ok(view) => view! { <Play initial=view master /> }.into_any(),
                        Err(error) => {
                            view! {
                                <section class="panel missing">
                                    <p class="error" role="alert">{error.to_string()}</p>
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

/// The play screen of a loaded campaign.
#[component]
fn Play(initial: CampaignView, master: GameMasterResource) -> impl IntoView {
    let title = initial.summary.title.clone();
    let model = initial.model.clone();
    let state = PlayState::new(initial);
    provide_context(state);

    view! {
        <div class="play">
            <PlayHeader title=title model=model />
            <GameMasterNote compact=true master />
            <ReadAloud />
            <LiveFollow />
            <div class="play-grid">
                <section class="story-column">
                    <StoryLog />
                    <TurnHistory />
                    <Proposals />
                    <TurnStatus />
                    <EncounterTracker />
                    <ActionBar />
                </section>
                <aside class="side-column">
                    <CharacterPanel />
                    <MapPanel />
                    <JournalPanel />
                    <AskTheGm />
                    <AgreementPanel />
                    <StorySearch />
                    <LedgerDrawer />
                    <GmDrawer />
                </aside>
            </div>
        </div>
    }
}
