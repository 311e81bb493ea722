//! A game over a fresh SQLite file and a scripted model, for the tests that call the service
//! directly (`portable.rs`, `history.rs`, `panel.rs`): each keeps its own campaign on top.

use app::gm::scripted::{Scenario, ScriptedLlm};
use app::gm::GmSettings;
use app::service::{Game, TurnsInFlight};
use server::store::SqlStore;

/// The database, the model, the turn's limits and the leases of one test's game.
pub struct Table {
    /// The campaign database (a file in a folder of its own).
    pub store: SqlStore,
    /// The scripted model.
    pub llm: ScriptedLlm,
    /// The turn's limits.
    pub gm: GmSettings,
    /// The campaigns' leases.
    pub in_flight: TurnsInFlight,
    _dir: tempfile::TempDir,
}

impl Table {
    /// A table whose model plays `scenario`.
    pub async fn playing(scenario: Scenario) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("game.db").display());
        let store = SqlStore::open(&url).await.unwrap();
        Self {
            in_flight: TurnsInFlight::new(std::sync::Arc::new(store.clone())),
            store,
            llm: ScriptedLlm::new(scenario),
            gm: GmSettings::default(),
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
}
