//! Pictures of the story, when the operator has an image model: a portrait of the character or
//! a picture of the latest scene, drawn from the prompt the rules compose (`gm::picture`), its
//! bytes checked (a PNG, JPEG or WebP within the bounds of `campaign::picture`), kept beside the
//! log and recorded by a `Pictured` event of the current turn. A failure anywhere (the endpoint,
//! the answer, the bounds, the table's lines) is an error that changes nothing. The settings
//! page's side of the image model is the [`PictureOffice`] port, which the server implements.

use std::sync::Arc;

use futures::future::BoxFuture;
use sha2::{Digest, Sha256};

use super::game_master::OfficeError;
use super::{Game, ServiceError};
use crate::campaign::event::CampaignEvent;
use crate::campaign::picture::{
    PictureFormat, PictureId, PictureKind, PictureRef, MAX_PICTURE_BYTES, MAX_PICTURE_SIDE,
};
use crate::campaign::store::KeptPicture;
use crate::gm::picture::{picture_prompt, ImageError, ImagePort};
use crate::wire::picture_settings::{PictureSettingsForm, PictureSettingsView};
use crate::wire::view::TurnUpdate;
use crate::wire::{CampaignId, PlayerId};

/// The server's side of the image model: what is set, saving it, and the model in use.
pub trait PictureOffice: Send + Sync {
    /// The image model's settings in effect.
    fn settings(&self) -> BoxFuture<'_, Result<PictureSettingsView, OfficeError>>;

    /// Stores the form's image model (an empty endpoint turns pictures off) and uses it from
    /// the next request on.
    fn save(
        &self,
        form: PictureSettingsForm,
    ) -> BoxFuture<'_, Result<PictureSettingsView, OfficeError>>;

    /// The image model in use, if the operator set one.
    fn painter(&self) -> Option<Arc<dyn ImagePort>>;
}

/// `bytes` as a picture to keep: a PNG, JPEG or WebP of at most [`MAX_PICTURE_BYTES`] bytes
/// and [`MAX_PICTURE_SIDE`] pixels a side, named by its digest.
pub fn checked_picture(bytes: Vec<u8>) -> Result<KeptPicture, ImageError> {
    if bytes.len() > MAX_PICTURE_BYTES as usize {
        return Err(ImageError::TooLarge {
            max_bytes: MAX_PICTURE_BYTES,
        });
    }
    let format = match imagesize::image_type(&bytes) {
        Ok(imagesize::ImageType::Png) => PictureFormat::Png,
        Ok(imagesize::ImageType::Jpeg) => PictureFormat::Jpeg,
        Ok(imagesize::ImageType::Webp) => PictureFormat::Webp,
        _ => return Err(ImageError::NotAnImage),
    };
    let size = imagesize::blob_size(&bytes).map_err(|_| ImageError::NotAnImage)?;
    let side = MAX_PICTURE_SIDE as usize;
    if size.width == 0 || size.height == 0 || size.width > side || size.height > side {
        return Err(ImageError::NotAnImage);
    }
    let id = hex_digest(&bytes)
        .parse::<PictureId>()
        .map_err(|_| ImageError::NotAnImage)?;
    Ok(KeptPicture { id, format, bytes })
}

/// The lower-case hexadecimal SHA-256 of `bytes`.
fn hex_digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// The log's record of a kept picture of `kind`.
pub fn picture_ref(kept: &KeptPicture, kind: PictureKind) -> PictureRef {
    PictureRef {
        id: kept.id.clone(),
        kind,
        format: kept.format,
        // Checked against MAX_PICTURE_BYTES, which fits.
        bytes: u32::try_from(kept.bytes.len()).unwrap_or(u32::MAX),
    }
}

impl Game<'_> {
    /// Draws a picture of `kind` with `painter`, keeps it and adds it to the story; answers
    /// with what the player sees change. The campaign is held meanwhile (no turn runs), and a
    /// refusal or failure changes nothing.
    #[tracing::instrument(name = "phase", parent = &self.span, skip_all, fields(phase = "picture", campaign = %id))]
    pub async fn picture(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        kind: PictureKind,
        painter: &dyn ImagePort,
        now: i64,
    ) -> Result<Vec<TurnUpdate>, ServiceError> {
        let invalid = |error: ImageError| ServiceError::invalid("picture", error);
        let _running = self.lease(owner, id).await?;
        let loaded = self.current(owner, id).await?;
        let prompt = picture_prompt(&loaded.state, kind)
            .map_err(|refused| ServiceError::invalid("picture", refused))?;
        let tally = &loaded.state.pictures;
        tally
            .room_for(0)
            .map_err(|full| ServiceError::invalid("picture", full))?;
        let kept =
            checked_picture(painter.draw(&prompt).await.map_err(invalid)?).map_err(invalid)?;
        let picture = picture_ref(&kept, kind);
        tally
            .room_for(picture.bytes)
            .map_err(|full| ServiceError::invalid("picture", full))?;
        self.store.put_picture(id, &kept).await?;
        let events = vec![CampaignEvent::Pictured { picture }];
        let (_, seen) = self.append_seen(owner, id, loaded, events, now).await?;
        tracing::info!(kind = ?kind, bytes = kept.bytes.len(), "a picture was drawn");
        Ok(seen)
    }

    /// The picture `picture` of campaign `id`, for a player the caller has checked may see it.
    pub async fn picture_bytes(
        &self,
        id: &CampaignId,
        picture: &PictureId,
    ) -> Result<KeptPicture, ServiceError> {
        self.store
            .picture(id, picture)
            .await?
            .ok_or(ServiceError::NotFound)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 1×1 PNG made by the `png` crate.
    fn tiny_png() -> Vec<u8> {
        let mut bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut bytes, 1, 1);
        encoder.set_color(png::ColorType::Rgb);
        let mut writer = encoder.write_header().unwrap();
        writer.write_image_data(&[200, 40, 40]).unwrap();
        writer.finish().unwrap();
        bytes
    }

    #[test]
    fn a_picture_is_an_image_within_bounds() {
        let kept = checked_picture(tiny_png()).unwrap();
        assert_eq!(kept.format, PictureFormat::Png);
        assert_eq!(kept.id.as_str(), hex_digest(&kept.bytes));
        assert_eq!(
            checked_picture(b"<html>no</html>".to_vec()),
            Err(ImageError::NotAnImage)
        );
        let mut large = tiny_png();
        large.resize(MAX_PICTURE_BYTES as usize + 1, 0);
        assert!(matches!(
            checked_picture(large),
            Err(ImageError::TooLarge { .. })
        ));
    }
}
