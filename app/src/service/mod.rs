//! The application service (server only): what the server functions call, one `Game` whose work
//! is split by file. Each request loads the campaign's snapshot (O(1) rows), runs the game master,
//! and commits the phase's events, story entries and new snapshot in one transaction; a phase that
//! fails stores nothing. A campaign plays one turn at a time, a roll is saved before it is shown,
//! each phase has a deadline, and each player and each client address has rate limits.
//!
//! - [`start`]: a campaign started, or started over from the same premise and character;
//! - [`play`]: phase 1 (a move, streamed) and phase 2 (the next actions);
//! - [`history`]: undo, redo, a turn told again, new actions;
//! - [`panel`]: what the player changes from the character panel (an item dropped, used,
//!   equipped or put away; an ability score improvement spent);
//! - [`powers`]: spells, class features, rests and hit dice, from the character panel;
//! - [`pictures`]: a portrait or a scene's picture drawn by the operator's image model, checked,
//!   kept beside the log; the settings page's side of the image model (`PictureOffice`);
//! - [`portable`]: export, import and branch (a campaign's pictures carried in its file);
//! - [`storybook`]: a campaign as one HTML page to share (the story and the player's hero);
//! - [`verify`]: an imported file checked against the rules event by event; `verify/turn.rs`
//!   one turn's events, `verify/checks.rs` the checks that need no walk (bounds, effects);
//! - [`between_turns`]: the summary phase and the player's journal edits;
//! - [`approval`]: the player's decisions on the game master's proposed changes, and the
//!   approval switch;
//! - [`recall`]: the story searched, for the rules' recall and for the player;
//! - [`table`]: a table of friends: invitations, seats, a round's moves narrated once;
//! - [`trash`]: a campaign deleted to the trash, kept 30 days, restored or deleted for good;
//! - [`agreement`]: the style, lines and veils changed in play;
//! - `notes.rs`: the player's choice to read the game master's notes (the hidden plan);
//! - [`recovery`]: recovery codes, made and shown once, kept as a digest, revoked, redeemed in
//!   another browser, tries rate limited;
//! - [`live`]: a turn's updates published to the campaign's followers, numbered per campaign from
//!   its first follower on, the last 512 kept for a reconnection; nothing is kept for a campaign
//!   nobody follows; across instances through a `LiveRelay` port (the server's is PostgreSQL's),
//!   which numbers them for all;
//! - [`prices`]: what a story costs: tokens by phase and campaign, priced at the operator's
//!   rates;
//! - [`card`]: characters and worlds brought from role-play tools: a `chara_card_v2`/`v3` card as
//!   JSON or in a PNG's text chunk, or a lorebook, read into a premise and journal entries within
//!   the journal's bounds;
//! - [`question`]: the player's question out of character, answered without changing anything;
//! - [`game_master`]: the game master in use, swapped whole when the operator saves new model
//!   settings, and the port to the server's side of those settings;
//! - [`operator`]: who may see and change them: anyone on a server only this computer reaches,
//!   else whoever gives the admin token, wrong tokens delayed;
//! - [`in_flight`]: one turn at a time per campaign (a lease in the database, or in the process's
//!   memory on a SQLite file only it writes), and the roll kept pending until it is shown;
//! - [`limits`]: each player's and each client address's rate limits, and the campaigns kept;
//! - [`dice`]: the operating system's dice, or seeded ones for tests;
//! - [`error`]: why a request failed, typed;
//! - this module: reading (load, story pages, the model's context, the ledger), listing,
//!   renaming.

mod agreement;
mod approval;
mod between_turns;
pub mod card;
mod carried_pictures;
mod dice;
pub mod error;
pub mod game_master;
mod history;
pub mod in_flight;
pub mod limits;
pub mod live;
mod notes;
pub mod operator;
mod panel;
pub mod pictures;
mod play;
mod portable;
mod powers;
pub mod prices;
mod question;
mod recall;
pub mod recovery;
mod start;
pub mod storybook;
pub mod table;
mod trash;
mod verify;

pub use approval::MAX_DECISIONS;
pub use between_turns::SummaryOutcome;
pub use dice::Dice;
pub use error::ServiceError;
pub use in_flight::TurnsInFlight;
pub use limits::{ClientAddress, LimitSettings, RateLimits};
pub use play::{MoveRequest, TableMove};
pub use portable::MAX_IMPORT_EVENTS;
pub use trash::TRASH_DAYS;
pub use verify::Refusal;

use std::sync::Arc;

use crate::campaign::conversation::SentRequest;
use crate::campaign::state::CampaignState;
use crate::campaign::store::{CampaignRecord, CampaignStore, StoreError};
use crate::gm::{GmSettings, LlmPort};
use crate::wire::present::actions::{action_views, proposal_views};
use crate::wire::present::fight::encounter_view;
use crate::wire::present::map::campaign_map;
use crate::wire::present::sheet::{llm_view, sheet_view};
use crate::wire::present::spine::{director_view, spine_view};
use crate::wire::view::{
    CampaignPage, CampaignSummary, CampaignView, GameMasterView, GmContextView, LayerView,
    LedgerPage, ModelTurnView, ModelView, RequestView, SpendView, StoryPage, TurnUpdate,
    CAMPAIGN_PAGE, STORY_PAGE,
};
use crate::wire::view::{LedgerCheckView, TableView};
use crate::wire::{CampaignId, PlayerId};

/// The game's services, provided to server functions by the server.
#[derive(Clone)]
pub struct GameServices {
    /// The campaign database.
    pub store: Arc<dyn CampaignStore>,
    /// The tables of friends beside the campaigns.
    pub tables: Arc<dyn crate::campaign::table::TableStore>,
    /// The model.
    pub llm: Arc<dyn LlmPort>,
    /// The turn's limits.
    pub gm: Arc<GmSettings>,
    /// Which model is the game master, as the player is told.
    pub master: Arc<GameMasterView>,
    /// The game master each new request takes (`llm`, `gm` and `master` are this request's).
    pub masters: Arc<game_master::MasterSwitch>,
    /// Who may change the game master's settings, and how.
    pub operator: Arc<operator::Operator>,
    /// The campaigns followed live from a second screen.
    pub live: Arc<live::LiveTurns>,
    /// The operator's prices per million tokens, if set.
    pub pricing: prices::Pricing,
    /// The campaigns with a phase running.
    pub in_flight: TurnsInFlight,
    /// What one player may spend.
    pub limits: Arc<RateLimits>,
    /// Where the dice come from.
    pub dice: Arc<Dice>,
    /// The request being served (the server's `request` span), parent of its phases' spans.
    pub span: tracing::Span,
}

impl GameServices {
    /// These services with the game master in use now.
    pub fn refreshed(mut self) -> Self {
        let current = self.masters.current();
        self.llm = current.llm.clone();
        self.gm = current.gm.clone();
        self.master = current.view.clone();
        self
    }

    /// The table of friends over these services.
    pub fn table(&self) -> table::Table<'_> {
        table::Table {
            game: self.game(),
            tables: self.tables.as_ref(),
            live: self.live.as_ref(),
        }
    }

    /// The game over these services.
    pub fn game(&self) -> Game<'_> {
        Game {
            store: self.store.as_ref(),
            llm: self.llm.as_ref(),
            gm: self.gm.as_ref(),
            in_flight: &self.in_flight,
            span: self.span.clone(),
        }
    }
}

/// Receives a running turn's updates.
pub type UpdateSink<'s> = &'s mut (dyn FnMut(TurnUpdate) + Send);

/// The game's dependencies: the database, the model, the turn's limits and the turns running.
pub struct Game<'a> {
    /// The campaign database.
    pub store: &'a dyn CampaignStore,
    /// The model.
    pub llm: &'a dyn LlmPort,
    /// The turn's limits.
    pub gm: &'a GmSettings,
    /// The campaigns with a phase running.
    pub in_flight: &'a TurnsInFlight,
    /// The request's span, parent of each phase's (none outside a request: tests, benches).
    pub span: tracing::Span,
}

impl Game<'_> {
    /// A page of the player's campaigns, most recently played first.
    pub async fn list(&self, owner: &PlayerId, page: u32) -> Result<CampaignPage, ServiceError> {
        let offset = page.saturating_mul(CAMPAIGN_PAGE);
        let mut records = self.store.list(owner, offset, CAMPAIGN_PAGE + 1).await?;
        let more = records.len() > CAMPAIGN_PAGE as usize;
        records.truncate(CAMPAIGN_PAGE as usize);
        Ok(CampaignPage {
            campaigns: records.into_iter().map(summary).collect(),
            page,
            more,
        })
    }

    /// A campaign as the play screen opens it: the latest page of its story, with the actions
    /// generated first if the last scene has none yet (the player left between the phases).
    pub async fn load(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        now: i64,
    ) -> Result<CampaignView, ServiceError> {
        let loaded = self.actions_if_possible(owner, id, now).await?;
        let story = self.story_page(owner, id, loaded.state.story_len).await?;
        Ok(self.view(loaded.record, &loaded.state, story))
    }

    /// The story entries before index `before` (one page), for the "earlier" link.
    pub async fn story_page(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        before: u32,
    ) -> Result<StoryPage, ServiceError> {
        let (start, entries) = self.store.story(owner, id, before, STORY_PAGE).await?;
        Ok(StoryPage { start, entries })
    }

    /// The last request sent to the model and the rules' check of the latest scene, for the
    /// context inspector ("what the GM sees").
    pub async fn gm_context(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
    ) -> Result<GmContextView, ServiceError> {
        let loaded = self.current(owner, id).await?;
        // Priced by the caller, at the operator's prices.
        let pricing = prices::Pricing::default();
        Ok(GmContextView {
            request: loaded.request.as_deref().map(request_view),
            tokens: tokens(&loaded.state),
            turn_spend: pricing.phases(&loaded.state.turn_usage),
            spend: SpendView {
                pictures: loaded.state.pictures.count,
                ..pricing.spend(loaded.state.usage)
            },
            model: model_view(&loaded.state, loaded.request.as_deref()),
            check: loaded
                .state
                .ledger_check
                .as_ref()
                .map(LedgerCheckView::from),
            recalled: loaded
                .state
                .recalled
                .iter()
                .map(recall::found_view)
                .collect(),
            director: director_view(&loaded.state),
        })
    }

    /// A page of the ledger (every change in effect with its cause, and every roll): the rows
    /// before row `before`, or the latest ones.
    pub async fn ledger(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        before: Option<u32>,
    ) -> Result<LedgerPage, ServiceError> {
        let (_, events) = self.store.log(owner, id).await?;
        Ok(crate::wire::present::ledger::ledger_page(&events, before))
    }

    /// Renames one of `owner`'s campaigns: a title longer than
    /// [`MAX_TITLE_CHARS`](crate::campaign::title::MAX_TITLE_CHARS) characters or with nothing
    /// printable is refused; whitespace is folded and unprintable characters dropped. Returns the
    /// title as saved.
    pub async fn rename(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        title: &str,
    ) -> Result<String, ServiceError> {
        if title.chars().count() > crate::campaign::title::MAX_TITLE_CHARS
            || !title.chars().any(|c| !c.is_whitespace() && !c.is_control())
        {
            return Err(ServiceError::invalid(
                "title",
                format!(
                    "a title has 1 to {} printable characters",
                    crate::campaign::title::MAX_TITLE_CHARS
                ),
            ));
        }
        let title = crate::campaign::title::Title::clean(title).into_string();
        self.store.rename(owner, id, &title).await?;
        Ok(title)
    }

    /// Takes the campaign for a phase once `owner` is known to own it: another player who knows
    /// the id learns nothing (not found, never busy) and cannot hold the campaign. Every change
    /// but a move (which reads the campaign before it waits) takes its lease through here.
    pub(super) async fn lease(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
    ) -> Result<in_flight::InFlight, ServiceError> {
        self.store.current(owner, id).await?;
        self.in_flight.take(id).await
    }

    /// The campaign's row and current state: its snapshot, or (for a campaign stored before
    /// snapshots, or with a snapshot of another version) a replay of its log, saved as the new
    /// snapshot.
    pub async fn current(&self, owner: &PlayerId, id: &CampaignId) -> Result<Loaded, ServiceError> {
        let current = self.store.current(owner, id).await?;
        let request = current.request;
        if let Some(state) = current.state {
            return Ok(Loaded {
                record: current.record,
                state,
                request,
            });
        }
        let (record, events) = self.store.log(owner, id).await?;
        let replay = CampaignState::replay(&events)?;
        match self
            .store
            .rebuild(owner, id, record.turn, &replay.story, &replay.state)
            .await
        {
            Ok(()) | Err(StoreError::Stale { .. }) => {}
            Err(error) => return Err(error.into()),
        }
        Ok(Loaded {
            record,
            state: Arc::new(replay.state),
            request,
        })
    }

    fn view(
        &self,
        record: CampaignRecord,
        state: &CampaignState,
        story: StoryPage,
    ) -> CampaignView {
        CampaignView {
            story,
            sheet: sheet_view(&state.sheet),
            actions: action_views(state),
            tokens: tokens(state),
            model: self.llm.model_info().model,
            summary: summary(record),
            journal: state.journal.entries().to_vec(),
            map: campaign_map(state),
            redoable: state.redoable,
            encounter: encounter_view(state),
            approval: state.approval,
            agreement: state.agreement.clone(),
            proposals: proposal_views(state),
            spine: spine_view(&state.spine),
            table: TableView {
                members: crate::wire::present::table::table_members(state, &[]),
                you: 1,
                ..TableView::default()
            },
            pictures: crate::wire::view::PicturesView {
                // Said by the server function, which knows the image model.
                on: false,
                portrait: state.pictures.portrait.clone(),
            },
        }
    }
}

/// A campaign as read for a request: its row, its state and the last request sent for it
/// (shared with the store's kept copy: a change works on its own copy of the state).
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The campaign's row.
    pub record: CampaignRecord,
    /// Its current state.
    pub state: Arc<CampaignState>,
    /// The last request sent to the model, if recorded.
    pub request: Option<Arc<SentRequest>>,
}

/// A recorded request as the context inspector shows it.
fn request_view(request: &SentRequest) -> RequestView {
    RequestView {
        purpose: request.purpose.clone(),
        layers: layer_views(request),
        tools: request.tools.clone(),
        window: request.window,
        messages: request.messages.iter().map(llm_view).collect(),
        bytes: request.bytes,
        shared_front_bytes: request.shared_front_bytes,
        estimated_tokens: request.estimated_tokens,
        reported_tokens: request.reported_tokens,
    }
}

/// A request's layers, with their sizes.
pub(super) fn layer_views(request: &SentRequest) -> Vec<LayerView> {
    request
        .layers
        .iter()
        .map(|layer| LayerView {
            name: layer.name.clone(),
            tokens: layer.tokens,
            bytes: layer.bytes,
        })
        .collect()
}

/// The model's working context: the turns it holds verbatim, the layers of the last request.
fn model_view(state: &CampaignState, request: Option<&SentRequest>) -> ModelView {
    ModelView {
        turns: state
            .context
            .iter()
            .map(|held| ModelTurnView {
                turn: held.turn,
                messages: held.messages.iter().map(llm_view).collect(),
            })
            .collect(),
        layers: request.map(layer_views).unwrap_or_default(),
    }
}

/// Tokens spent so far: (prompt, completion).
fn tokens(state: &CampaignState) -> (u32, u32) {
    (state.usage.prompt_tokens, state.usage.completion_tokens)
}

pub(super) fn summary(record: CampaignRecord) -> CampaignSummary {
    CampaignSummary {
        spend: prices::Pricing::default().spend(record.usage),
        last_played: human_time(record.updated_at),
        id: record.id,
        title: record.title,
        updated_at: record.updated_at,
        turn: record.turn,
    }
}

/// `2026-11-21 14:05 UTC`.
pub(super) fn human_time(seconds: i64) -> String {
    let format = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute] UTC");
    time::OffsetDateTime::from_unix_timestamp(seconds)
        .ok()
        .and_then(|moment| moment.format(&format).ok())
        .unwrap_or_else(|| "unknown".to_owned())
}
