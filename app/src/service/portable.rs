//! Campaigns that leave and join: export one as a versioned file, import a file (checked against
//! the rules event by event, see [`super::verify`]) as a new campaign of the importing player, and
//! branch a new campaign from any turn of one; the pictures its log names go with it
//! (`carried_pictures.rs`).

use rand::Rng;

use super::carried_pictures::{files, named_in, read_files, store_pictures};
use super::verify::verify;
use super::{summary, Game, ServiceError};
use crate::campaign::event::{CampaignEvent, StoredEvent};
use crate::campaign::export::{CampaignExport, EXPORT_FORMAT, EXPORT_VERSION};
use crate::campaign::state::CampaignState;
use crate::campaign::store::{CampaignRecord, KeptPicture};
use crate::campaign::timeline::timeline;
use crate::campaign::title::Title;
use crate::campaign::turn_event::TurnEvent;
use crate::wire::view::CampaignSummary;
use crate::wire::{CampaignId, PlayerId};

/// The most events an imported file may hold.
pub const MAX_IMPORT_EVENTS: usize = 100_000;

impl Game<'_> {
    /// The campaign as one file.
    pub async fn export(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
    ) -> Result<CampaignExport, ServiceError> {
        let (record, events) = self.store.log(owner, id).await?;
        let pictures = named_in(&events, self.store.pictures(id).await?);
        Ok(CampaignExport {
            format: EXPORT_FORMAT.to_owned(),
            version: EXPORT_VERSION,
            title: record.title,
            pictures: files(&pictures),
            events,
        })
    }

    /// Imports an exported file as a new campaign of `owner`, if every event in it is what the
    /// rules would have produced.
    pub async fn import<R: Rng + Send>(
        &self,
        owner: &PlayerId,
        file: &str,
        now: i64,
        rng: &mut R,
    ) -> Result<CampaignSummary, ServiceError> {
        let export = read_export(file)?;
        verify(&export.events).map_err(|refusal| ServiceError::invalid("file", refusal))?;
        let pictures = read_files(&export.pictures, &export.events)?;
        let title = Title::clean(&export.title);
        let events = export.events.into_iter().map(rendered_here).collect();
        self.store_copy(owner, title, (events, pictures), now, rng)
            .await
    }

    /// A new campaign of `owner` that copies `id` up to turn `turn` (the turns in effect).
    #[tracing::instrument(name = "phase", parent = &self.span, skip_all, fields(phase = "branch", campaign = %id))]
    pub async fn branch<R: Rng + Send>(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        turn: u32,
        now: i64,
        rng: &mut R,
    ) -> Result<CampaignSummary, ServiceError> {
        let (record, events) = self.store.log(owner, id).await?;
        if turn == 0 || turn > record.turn {
            return Err(ServiceError::invalid(
                "turn",
                format!("branch from a turn between 1 and {}", record.turn),
            ));
        }
        let copied: Vec<StoredEvent> = timeline(&events)
            .active
            .into_iter()
            .filter(|stored| stored.turn <= turn)
            .cloned()
            .collect();
        let pictures = named_in(&copied, self.store.pictures(id).await?);
        let title = Title::branch(&record.title, turn);
        self.store_copy(owner, title, (copied, pictures), now, rng)
            .await
    }

    async fn store_copy<R: Rng + Send>(
        &self,
        owner: &PlayerId,
        title: Title,
        (events, pictures): (Vec<StoredEvent>, Vec<KeptPicture>),
        now: i64,
        rng: &mut R,
    ) -> Result<CampaignSummary, ServiceError> {
        let replay = CampaignState::replay(&events)?;
        let record = CampaignRecord {
            id: CampaignId::random(rng),
            owner: owner.clone(),
            title: title.into_string(),
            created_at: now,
            updated_at: now,
            turn: replay.state.turn,
            usage: replay.state.usage,
        };
        self.store
            .create(&record, &events, &replay.story, &replay.state)
            .await?;
        store_pictures(self.store, owner, &record.id, &pictures).await?;
        Ok(summary(record))
    }
}

/// The event with a scene's HTML left out, so that it is rendered here from its Markdown and
/// never taken from a file.
fn rendered_here(mut stored: StoredEvent) -> StoredEvent {
    if let CampaignEvent::Turn(TurnEvent::Narration { html, .. }) = &mut stored.event {
        html.clear();
    }
    stored
}

/// The file as an export of a format this build reads.
fn read_export(file: &str) -> Result<CampaignExport, ServiceError> {
    #[derive(serde::Deserialize)]
    struct Header {
        format: String,
        version: u32,
    }
    let invalid = |reason: String| ServiceError::invalid("file", reason);
    let header: Header = serde_json::from_str(file)
        .map_err(|_| invalid("this is not a Dicebound campaign file".into()))?;
    if header.format != EXPORT_FORMAT {
        return Err(invalid("this is not a Dicebound campaign file".into()));
    }
    if header.version > EXPORT_VERSION {
        return Err(invalid(format!(
            "this file was written by a newer Dicebound (format {}; this one reads up to {EXPORT_VERSION})",
            header.version
        )));
    }
    let export: CampaignExport = serde_json::from_str(file)
        .map_err(|error| invalid(format!("the file is damaged: {error}")))?;
    if export.events.len() > MAX_IMPORT_EVENTS {
        return Err(invalid(format!(
            "the file holds more than {MAX_IMPORT_EVENTS} events"
        )));
    }
    Ok(export)
}
