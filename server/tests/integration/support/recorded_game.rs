//! The short campaign a cassette holds: the same seed, form and moves when it is recorded
//! (`examples/record_cassette.rs`, against the bundled model) and when it is replayed
//! (`tests/integration/cassette.rs`), so the replay sends exactly the recorded requests.

use app::campaign::event::CampaignEvent;
use app::campaign::store::CampaignStore;
use app::campaign::timeline::timeline;
use app::campaign::turn_event::{ToolEffect, TurnEvent};
use app::gm::{GmSettings, LlmPort};
use app::service::{Game, MoveRequest, ServiceError, TurnsInFlight};
use app::wire::present::actions::action_views;
use app::wire::view::{MoveInput, NewCampaign};
use app::wire::PlayerId;
use rand::{rngs::StdRng, SeedableRng};
use server::store::SqlStore;

/// The most moves the fight may take before the campaign stops anyway.
pub const MAX_FIGHT_MOVES: u32 = 12;

/// The move that picks the fight (a model without tools: the rules start it).
pub const FIRST_MOVE: &str = "I attack the jackal.";

/// Plays the campaign against `llm` and returns its ledger: every roll and state change, in
/// order, as one line each. After the opening the player attacks the jackal the premise names (3
/// hit points: any hit ends the fight, so the real model's game stays a few turns long), then
/// the wizard casts the first spell the rules offer (else attacks) until the fight is over.
pub async fn play(llm: &dyn LlmPort, gm: &GmSettings) -> Result<Vec<String>, ServiceError> {
    let board = Board::new().await;
    let game = board.game(llm, gm);
    let mut rng = StdRng::seed_from_u64(2026);
    let owner = PlayerId::random(&mut rng);
    let form = NewCampaign::new(
        "A jackal prowls a lantern-lit crypt beneath a drowned village.",
        "Mira",
        "Wizard",
    );
    let id = game
        .create(&owner, &form, 1, &mut rng, &mut |_| {})
        .await?
        .id;
    let mut input = MoveInput::Text {
        text: FIRST_MOVE.into(),
    };
    for turn in 2..=MAX_FIGHT_MOVES + 1 {
        let request = MoveRequest {
            expected_turn: turn - 1,
            input: &input,
        };
        game.play(&owner, &id, request, 1, &mut rng, &mut |_| {})
            .await?;
        game.ensure_actions(&owner, &id, 1).await?;
        let state = game.current(&owner, &id).await?.state;
        if !state.combat.is_running() || state.sheet.vitality().is_dead() {
            break;
        }
        // The wizard's first spell the fight offers, else the first attack.
        let offered = action_views(&state);
        let cast = offered
            .iter()
            .find(|a| a.id.starts_with("fight-") && a.description.starts_with("Cast "));
        let attack = cast
            .or_else(|| offered.iter().find(|a| a.id == "fight-1"))
            .cloned();
        input = match attack {
            Some(action) => MoveInput::Action { id: action.id },
            None => MoveInput::Text {
                text: FIRST_MOVE.into(),
            },
        };
    }
    let (_, log) = board.store.log(&owner, &id).await.expect("the log");
    Ok(ledger(&log))
}

/// A fresh SQLite file and its campaigns' leases, for a game over any model.
pub struct Board {
    /// The campaign database.
    pub store: SqlStore,
    in_flight: TurnsInFlight,
    _dir: tempfile::TempDir,
}

impl Board {
    /// A new, empty database in a folder of its own.
    pub async fn new() -> Self {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let url = format!("sqlite://{}", dir.path().join("game.db").display());
        let store = SqlStore::open(&url).await.expect("the database opens");
        Self {
            in_flight: TurnsInFlight::new(std::sync::Arc::new(store.clone())),
            store,
            _dir: dir,
        }
    }

    /// The game over this database with `llm` as its game master, within `gm`.
    pub fn game<'a>(&'a self, llm: &'a dyn LlmPort, gm: &'a GmSettings) -> Game<'a> {
        Game {
            store: &self.store,
            llm,
            gm,
            in_flight: &self.in_flight,
            span: tracing::Span::none(),
        }
    }
}

fn ledger(log: &[app::campaign::event::StoredEvent]) -> Vec<String> {
    timeline(log)
        .active
        .into_iter()
        .filter_map(|stored| match &stored.event {
            CampaignEvent::Turn(TurnEvent::PlayerRoll { description, .. }) => {
                Some(format!("turn {}: {description}", stored.turn))
            }
            CampaignEvent::Turn(TurnEvent::ToolResult {
                tool,
                effect: Some(effect),
                ..
            }) => Some(format!("turn {}: {tool}: {}", stored.turn, line(effect))),
            CampaignEvent::Turn(TurnEvent::Fought { record, .. }) => Some(format!(
                "turn {}: the fight: {}",
                stored.turn,
                record.exchange.describe()
            )),
            _ => None,
        })
        .collect()
}

fn line(effect: &ToolEffect) -> String {
    match effect {
        ToolEffect::Rolled { reason, roll } => roll.describe(reason),
        ToolEffect::Changed { changes, .. } => changes.labels().join(", "),
        ToolEffect::Noted { change } => format!("{change:?}"),
        ToolEffect::Read => "read the sheet".to_owned(),
        ToolEffect::Checked { reason, check } => check.describe(reason),
        ToolEffect::SanityChecked { reason, check, .. } => check.describe(reason),
        ToolEffect::Hazard { what, hazard, .. } => hazard.describe(what),
        ToolEffect::Asked { reading } => reading.describe(),
        ToolEffect::TableRolled { roll } => roll.describe(),
        ToolEffect::Proposed { id, .. } => format!("proposal {id}"),
        ToolEffect::Aside { message } => format!("to the player: {message}"),
        ToolEffect::Mapped { record } => format!("on the map: {}", record.place.as_str()),
        ToolEffect::Fought { record, .. } => record.exchange.describe(),
        ToolEffect::Spine { change } => format!("the story's plan: {change:?}"),
        ToolEffect::ForMember { name, effect } => format!("{name}: {}", line(effect)),
    }
}
