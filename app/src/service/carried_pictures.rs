//! A campaign's pictures as its file carries them: written with the export (the pictures its log
//! names, in base64), read back on import (each decoded within its bounds and checked against
//! the id and the record its log gives), copied with a branch, and stored beside a new campaign.

use std::collections::HashMap;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;

use super::pictures::{checked_picture, picture_ref};
use super::ServiceError;
use crate::campaign::event::{CampaignEvent, StoredEvent};
use crate::campaign::export::PictureFile;
use crate::campaign::picture::{PictureId, PictureRef, MAX_PICTURE_BYTES};
use crate::campaign::store::{CampaignStore, KeptPicture};
use crate::wire::CampaignId;

/// The pictures `events` name, by id.
fn named(events: &[StoredEvent]) -> HashMap<&PictureId, &PictureRef> {
    events
        .iter()
        .filter_map(|stored| match &stored.event {
            CampaignEvent::Pictured { picture } => Some((&picture.id, picture)),
            _ => None,
        })
        .collect()
}

/// Of `kept`, the pictures `events` name.
pub(super) fn named_in(events: &[StoredEvent], kept: Vec<KeptPicture>) -> Vec<KeptPicture> {
    let named = named(events);
    kept.into_iter()
        .filter(|picture| named.contains_key(&picture.id))
        .collect()
}

/// The pictures as the file carries them.
pub(super) fn files(kept: &[KeptPicture]) -> Vec<PictureFile> {
    kept.iter()
        .map(|picture| PictureFile {
            id: picture.id.clone(),
            data: STANDARD.encode(&picture.bytes),
        })
        .collect()
}

/// The file's pictures, each decoded and checked: a picture of its bounds whose digest is its
/// id, named by the log with its format and size; and every picture the log names is there.
pub(super) fn read_files(
    files: &[PictureFile],
    events: &[StoredEvent],
) -> Result<Vec<KeptPicture>, ServiceError> {
    let refuse = |reason: String| ServiceError::invalid("file", reason);
    let named = named(events);
    let most_chars = (MAX_PICTURE_BYTES as usize).div_ceil(3) * 4;
    let mut kept = Vec::with_capacity(files.len());
    for file in files {
        let id = file.id.as_str();
        if file.data.len() > most_chars {
            return Err(refuse(format!("picture {id} is too large")));
        }
        let bytes = STANDARD
            .decode(&file.data)
            .map_err(|_| refuse(format!("picture {id} is not base64")))?;
        let picture =
            checked_picture(bytes).map_err(|error| refuse(format!("picture {id}: {error}")))?;
        let fits = picture.id == file.id
            && named
                .get(&picture.id)
                .is_some_and(|record| picture_ref(&picture, record.kind) == **record);
        if !fits {
            return Err(refuse(format!(
                "picture {id} is not the one the story names"
            )));
        }
        kept.push(picture);
    }
    for id in named.keys() {
        if !kept.iter().any(|picture| picture.id == **id) {
            return Err(refuse(format!(
                "picture {} is named by the story but not in the file",
                id.as_str()
            )));
        }
    }
    Ok(kept)
}

/// Stores `pictures` beside the new campaign `id`; if one cannot be stored, the campaign is
/// deleted again (it is not left without its pictures).
pub(super) async fn store_pictures(
    store: &dyn CampaignStore,
    owner: &crate::wire::PlayerId,
    id: &CampaignId,
    pictures: &[KeptPicture],
) -> Result<(), ServiceError> {
    for picture in pictures {
        if let Err(error) = store.put_picture(id, picture).await {
            if let Err(undone) = store.delete(owner, id).await {
                tracing::error!(%undone, "a campaign whose pictures failed was not deleted");
            }
            return Err(error.into());
        }
    }
    Ok(())
}
