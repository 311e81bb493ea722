//! A campaign as one file: its whole event log with a format name and version, so that it can
//! be kept, moved and imported again (where it is checked against the rules event by event).

use serde::{Deserialize, Serialize};

use super::event::StoredEvent;

/// The `format` every export names.
pub const EXPORT_FORMAT: &str = "dicebound-campaign";

/// The format version this build writes and reads.
pub const EXPORT_VERSION: u32 = 1;

/// An exported campaign.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignExport {
    /// Always [`EXPORT_FORMAT`].
    pub format: String,
    /// The format version it was written in.
    pub version: u32,
    /// The campaign's title.
    pub title: String,
    /// Its whole log, oldest first (undone turns and their markers included).
    pub events: Vec<StoredEvent>,
}
