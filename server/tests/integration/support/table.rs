//! A game over a fresh SQLite file and a model (scripted unless a test brings its own), and a
//! player seated at it with seeded dice, for the tests that call the service directly: each keeps
//! its own scenario and campaign on top.

use app::campaign::state::CampaignState;
use app::campaign::store::CampaignStore;
use app::gm::scripted::{Scenario, ScriptedLlm};
use app::gm::{GmSettings, LlmPort};
use app::service::{Game, MoveRequest, ServiceError, TurnsInFlight};
use app::wire::view::{MoveInput, NewCampaign};
use app::wire::{CampaignId, PlayerId};
use rand::{rngs::StdRng, SeedableRng};
use server::store::SqlStore;

/// The time a seat's moves are played at (the tests that read times pass their own).
const NOW: i64 = 2;

/// The database, the model, the turn's limits and the leases of one test's game.
pub struct Table<L = ScriptedLlm> {
    /// The campaign database (a file in a folder of its own).
    pub store: SqlStore,
    /// Its URL, for the tests that reach past the store.
    pub url: String,
    /// The model.
    pub llm: L,
    /// The turn's limits.
    pub gm: GmSettings,
    /// The campaigns' leases.
    pub in_flight: TurnsInFlight,
    _dir: tempfile::TempDir,
}

impl Table {
    /// A table whose scripted model plays `scenario`, within the default limits.
    pub async fn playing(scenario: Scenario) -> Self {
        Self::serving(ScriptedLlm::new(scenario), GmSettings::default()).await
    }
}

impl<L: LlmPort> Table<L> {
    /// A table whose game master is `llm`, within `gm`.
    pub async fn serving(llm: L, gm: GmSettings) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("game.db").display());
        let store = SqlStore::open(&url).await.unwrap();
        Self {
            in_flight: TurnsInFlight::new(std::sync::Arc::new(store.clone())),
            store,
            url,
            llm,
            gm,
            _dir: dir,
        }
    }

    /// The game over it.
    pub fn game(&self) -> Game<'_> {
        Game {
            store: &self.store,
            llm: &self.llm,
            gm: &self.gm,
            in_flight: &self.in_flight,
            span: tracing::Span::none(),
        }
    }

    /// A new campaign of `form` for `owner`, its opening played with `rng`'s dice.
    pub async fn open_campaign(
        &self,
        owner: &PlayerId,
        form: &NewCampaign,
        rng: &mut StdRng,
    ) -> CampaignId {
        let game = self.game();
        game.create(owner, form, 1, rng, &mut |_| {})
            .await
            .unwrap()
            .id
    }

    /// Plays turn `turn` of `owner`'s campaign `id` with `input`, then offers its actions.
    pub async fn play_turn(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        turn: u32,
        input: &MoveInput,
        rng: &mut StdRng,
    ) -> Result<(), ServiceError> {
        let request = MoveRequest {
            expected_turn: turn - 1,
            input,
        };
        let game = self.game();
        game.play(owner, id, request, NOW, rng, &mut |_| {}).await?;
        game.ensure_actions(owner, id, NOW).await?;
        Ok(())
    }
}

/// One player at a table, with dice from a seed: the moves every service test makes.
pub struct Seat {
    /// The table.
    pub table: Table,
    /// The player (the first draw of the seeded dice).
    pub owner: PlayerId,
    /// The dice of every move.
    pub rng: StdRng,
}

impl Seat {
    /// A player at `table`, with dice seeded with `seed`.
    pub fn new(table: Table, seed: u64) -> Self {
        let mut rng = StdRng::seed_from_u64(seed);
        Self {
            table,
            owner: PlayerId::random(&mut rng),
            rng,
        }
    }

    /// The game of the table.
    pub fn game(&self) -> Game<'_> {
        self.table.game()
    }

    /// A new campaign of `form`, its opening played.
    pub async fn create(&mut self, form: &NewCampaign) -> CampaignId {
        let table = &self.table;
        table.open_campaign(&self.owner, form, &mut self.rng).await
    }

    /// Plays turn `turn` of `id` with `input`, then offers its actions.
    pub async fn try_play(
        &mut self,
        id: &CampaignId,
        turn: u32,
        input: MoveInput,
    ) -> Result<(), ServiceError> {
        let table = &self.table;
        table
            .play_turn(&self.owner, id, turn, &input, &mut self.rng)
            .await
    }

    /// Plays turn `turn` of `id` with `input`, which must be played, then offers its actions.
    pub async fn play(&mut self, id: &CampaignId, turn: u32, input: MoveInput) {
        self.try_play(id, turn, input).await.unwrap();
    }

    /// The state of `id` from its snapshot, checked against a replay of its whole log.
    pub async fn state(&self, id: &CampaignId) -> CampaignState {
        let state = self.game().current(&self.owner, id).await.unwrap().state;
        let (_, log) = self.table.store.log(&self.owner, id).await.unwrap();
        let replay = CampaignState::replay(&log).unwrap().state;
        assert_eq!(replay, *state, "snapshot = replay");
        std::sync::Arc::unwrap_or_clone(state)
    }
}
