//! The play screen: the story, the action bar, the header, the character panel, the journal, the
//! map, the ledger and the context inspector drawer ("what the GM sees"). Its parts share one
//! [`PlayState`] through a context. The inspector shows the model's working context, kept as a
//! second signal beside the story: the turns it holds verbatim and its last prompt's layers,
//! updated by each turn's changes.
//!
//! - [`state`]: the shared state, the story and the model's context as separate signals;
//! - [`story`]: the story log, paged, with a branch from any scene;
//! - [`run_turn`]: a turn run from the screen: the move streamed, then the next actions; a
//!   failure acted on by its kind;
//! - [`action_bar`]: what the game is doing, the action buttons and the free-text move; the end
//!   of the story once the character has fallen;
//! - [`header`]: back to the campaigns, the title, the model, Start over;
//! - [`history`]: Undo, Redo, "Tell it again" and "Other actions";
//! - [`dice`]: a roll's dice in their shapes and its *Why?*;
//! - [`outcome_table`]: an outcome table shown while its die rolls, then its row lit;
//! - [`encounter`]: the encounter tracker while a fight is on: round, initiative order, whose
//!   turn, AC, HP bars, `down`/`fled`;
//! - [`character`]: the character panel;
//! - [`improvement`]: an ability score improvement to spend, in the character panel;
//! - [`powers`]: spells with slot pips and cast buttons, class features with use pips, the spell
//!   held, the rest buttons, in the character panel;
//! - [`journal`]: the journal panel; [`map`]: the map the server drew, the character's place
//!   marked, and a travel button to each other place;
//! - [`ledger`]: the ledger drawer, every change with its cause and every roll with its dice;
//! - [`drawer`]: the context inspector: the rules' check of the latest scene, the passages
//!   recalled, the last request to the model with each layer's size;
//! - [`proposals`]: approval mode's waiting changes: Accept, Refuse, Accept all, "Tell it again"
//!   and the switch;
//! - [`agreement`]: the style, lines and veils changed in play;
//! - [`read_aloud`]: the browser's speech synthesis speaking each scene sentence by sentence as
//!   it streams, its voice and speed remembered by the browser;
//! - [`story_search`]: the story searched by its words;
//! - `table_panel.rs`: the table of friends: seats, who has moved, the host's invitations;
//! - [`story_so_far`]: the chapters reached, the revealed clocks, the people met and the
//!   switch to the game master's notes;
//! - [`ask`]: a question to the game master out of character, and its answer;
//! - [`voice`]: push-to-talk beside the move box, the browser's speech recognition typing what
//!   was said into it (its glue fetched on the first press);
//! - `pictures.rs`: the portrait, "Picture this" and "Draw a portrait", when the server has an
//!   image model;
//! - [`live`]: the campaign's event stream followed, so that a turn played in another tab or
//!   device streams in as it is told.

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
mod pictures;
mod powers;
mod proposals;
mod read_aloud;
mod run_turn;
mod state;
mod story;
mod story_search;
mod story_so_far;
mod table_panel;
mod voice;

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
use self::pictures::PicturesPanel;
use self::powers::PowersPanel;
use self::proposals::Proposals;
use self::read_aloud::ReadAloud;
use self::state::PlayState;
use self::story::StoryLog;
use self::story_search::StorySearch;
use self::story_so_far::StorySoFar;
use self::table_panel::TablePanel;
use super::game_master::{load_game_master, GameMasterNote, GameMasterResource};
use crate::api::load_campaign;
use crate::ui::resource::wire_resource;
use crate::wire::view::CampaignView;

/// `/play/:id`: loads the campaign, then shows [`Play`].
#[component]
pub fn PlayPage() -> impl IntoView {
    crate::ui::app::mark_hydrated();
    let params = use_params_map();
    let id = move || params.read().get("id").unwrap_or_default();
    let campaign = wire_resource(id, load_campaign);
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
                    <PowersPanel />
                    <TablePanel />
                    <MapPanel />
                    <StorySoFar />
                    <JournalPanel />
                    <AskTheGm />
                    <PicturesPanel />
                    <AgreementPanel />
                    <StorySearch />
                    <LedgerDrawer />
                    <GmDrawer />
                </aside>
            </div>
        </div>
    }
}
