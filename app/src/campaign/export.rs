//! A campaign as one file: its whole event log with a format name and version, so that it can
//! be kept, moved and imported again (where it is checked against the rules event by event),
//! with the bytes of the pictures its log names.

use serde::{Deserialize, Serialize};

use super::event::StoredEvent;
use super::picture::PictureId;

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
    /// The pictures its log names, each once (none in files from before pictures).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pictures: Vec<PictureFile>,
}

/// A picture in an exported file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PictureFile {
    /// Its id (the digest of its bytes, checked on import).
    pub id: PictureId,
    /// Its bytes, in standard base64.
    pub data: String,
}
