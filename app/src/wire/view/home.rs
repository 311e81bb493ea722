//! The home page's views: the campaigns list a page at a time, the trash, whether a recovery
//! code is set, and which game master tells the stories.

use serde::{Deserialize, Serialize};

use super::*;

/// Campaigns per page of the home page's list.
pub const CAMPAIGN_PAGE: u32 = 20;

/// One page of the home page's list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignPage {
    /// The campaigns, most recently played first.
    pub campaigns: Vec<CampaignSummary>,
    /// Which page this is (0 is the most recent).
    pub page: u32,
    /// Whether older campaigns follow.
    pub more: bool,
}

/// A campaign in the home page's list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignSummary {
    /// Its id.
    pub id: CampaignId,
    /// Its title (the character and the premise).
    pub title: String,
    /// When it was last played, seconds since the Unix epoch.
    pub updated_at: i64,
    /// The same, for people: `2026-11-21 14:05 UTC`.
    pub last_played: String,
    /// How many scenes have been narrated.
    pub turn: u32,
    /// The tokens its story has cost so far.
    #[serde(default)]
    pub spend: SpendView,
}

/// A campaign in the trash, as the home page lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrashedCampaign {
    /// The campaign as it was listed.
    pub campaign: CampaignSummary,
    /// When it was deleted, for people: `2026-11-21 14:05 UTC`.
    pub deleted: String,
    /// Whole days left before it is deleted for good (0 on its last day).
    pub days_left: u32,
}

/// Whether the player has a recovery code.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecoveryStatus {
    /// When their code was made (`2026-11-21 14:05 UTC`), if they have one.
    pub made: Option<String>,
}

/// Which model is the game master, as the player is told.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameMasterView {
    /// The model's name, e.g. `SmolLM2-135M-Instruct`.
    pub model: String,
    /// Where it runs, in words: `bundled, running on this computer`, `Ollama on this computer`.
    pub source: String,
    /// Advice shown with it: for the bundled model, that stories will be rough and how to
    /// connect a stronger one.
    pub advice: Option<String>,
}
