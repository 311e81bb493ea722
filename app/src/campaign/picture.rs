//! Pictures of the story: a character's portrait or a scene's illustration, drawn by the
//! operator's image model. The log records each picture made (its id is the SHA-256 of its bytes,
//! its kind, its format and size); the bytes live beside the log in the store, are carried by an
//! export and checked again on import. Plain data, the same on the server and in the browser
//! (which shows a picture by its id, from `GET /api/pictures/{campaign}/{id}`).

use serde::{Deserialize, Serialize};

/// The most pictures one campaign keeps.
pub const MAX_PICTURES: u32 = 40;

/// The largest picture, in bytes (decoded).
pub const MAX_PICTURE_BYTES: u32 = 4 * 1024 * 1024;

/// The most bytes of pictures one campaign keeps, so that its export stays importable.
pub const MAX_CAMPAIGN_PICTURE_BYTES: u32 = 16 * 1024 * 1024;

/// The widest or tallest picture, in pixels.
pub const MAX_PICTURE_SIDE: u32 = 4096;

/// What a picture shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PictureKind {
    /// The player's character.
    Portrait,
    /// The latest scene.
    Scene,
}

/// How a picture's bytes are encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PictureFormat {
    /// PNG.
    Png,
    /// JPEG.
    Jpeg,
    /// WebP.
    Webp,
}

impl PictureFormat {
    /// Its media type, for the `Content-Type` it is served with.
    pub fn mime(self) -> &'static str {
        match self {
            Self::Png => "image/png",
            Self::Jpeg => "image/jpeg",
            Self::Webp => "image/webp",
        }
    }
}

/// A picture's id: the lower-case hexadecimal SHA-256 of its bytes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct PictureId(String);

/// Why a text is not a picture id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a picture id is 64 lower-case hexadecimal digits")]
pub struct NotAPictureId;

impl TryFrom<String> for PictureId {
    type Error = NotAPictureId;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        let hex = text.len() == 64
            && text
                .bytes()
                .all(|byte| byte.is_ascii_digit() || (b'a'..=b'f').contains(&byte));
        hex.then_some(Self(text)).ok_or(NotAPictureId)
    }
}

impl std::str::FromStr for PictureId {
    type Err = NotAPictureId;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::try_from(text.to_owned())
    }
}

impl From<PictureId> for String {
    fn from(id: PictureId) -> Self {
        id.0
    }
}

impl PictureId {
    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Where the browser fetches the picture of `campaign` with this id.
    pub fn url(&self, campaign: &str) -> String {
        format!("/api/pictures/{campaign}/{}", self.0)
    }
}

/// A picture as the log records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PictureRef {
    /// Its id (the digest of its bytes).
    pub id: PictureId,
    /// What it shows.
    pub kind: PictureKind,
    /// How it is encoded.
    pub format: PictureFormat,
    /// Its size in bytes.
    pub bytes: u32,
}

/// The pictures a campaign has made so far, within its bounds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PictureTally {
    /// How many.
    pub count: u32,
    /// Their bytes in all.
    pub bytes: u32,
    /// The latest portrait, if any.
    pub portrait: Option<PictureId>,
}

/// Why one more picture does not fit the campaign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PictureBoundError {
    /// [`MAX_PICTURES`] already.
    #[error("a campaign keeps at most {MAX_PICTURES} pictures")]
    TooMany,
    /// Larger than [`MAX_PICTURE_BYTES`], or past [`MAX_CAMPAIGN_PICTURE_BYTES`] in all.
    #[error(
        "a picture is at most {} MiB, and a campaign's pictures {} MiB in all",
        MAX_PICTURE_BYTES / 1024 / 1024,
        MAX_CAMPAIGN_PICTURE_BYTES / 1024 / 1024
    )]
    TooLarge,
}

impl PictureTally {
    /// Whether this tally has room for a picture of `bytes` bytes.
    pub fn room_for(&self, bytes: u32) -> Result<(), PictureBoundError> {
        if self.count >= MAX_PICTURES {
            return Err(PictureBoundError::TooMany);
        }
        let total = self.bytes.checked_add(bytes);
        if bytes > MAX_PICTURE_BYTES || total.is_none_or(|total| total > MAX_CAMPAIGN_PICTURE_BYTES)
        {
            return Err(PictureBoundError::TooLarge);
        }
        Ok(())
    }

    /// Counts `picture` in (its room checked first by [`Self::room_for`]).
    pub fn add(&mut self, picture: &PictureRef) {
        self.count = self.count.saturating_add(1);
        self.bytes = self.bytes.saturating_add(picture.bytes);
        if picture.kind == PictureKind::Portrait {
            self.portrait = Some(picture.id.clone());
        }
    }

    /// Whether nothing has been drawn yet.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picture(bytes: u32) -> PictureRef {
        PictureRef {
            id: "a".repeat(64).parse().unwrap(),
            kind: PictureKind::Portrait,
            format: PictureFormat::Png,
            bytes,
        }
    }

    #[test]
    fn an_id_is_a_hex_digest() {
        assert!("0f".repeat(32).parse::<PictureId>().is_ok());
        assert!("0F".repeat(32).parse::<PictureId>().is_err());
        assert!("../etc/passwd".parse::<PictureId>().is_err());
        assert!("0".repeat(63).parse::<PictureId>().is_err());
    }

    #[test]
    fn a_campaign_keeps_pictures_within_bounds() {
        let mut tally = PictureTally::default();
        assert_eq!(
            tally.room_for(MAX_PICTURE_BYTES + 1),
            Err(PictureBoundError::TooLarge)
        );
        for _ in 0..4 {
            tally.room_for(MAX_PICTURE_BYTES).unwrap();
            tally.add(&picture(MAX_PICTURE_BYTES));
        }
        assert_eq!(tally.room_for(1), Err(PictureBoundError::TooLarge));
        let mut many = PictureTally {
            count: MAX_PICTURES,
            ..PictureTally::default()
        };
        assert_eq!(many.room_for(1), Err(PictureBoundError::TooMany));
        many.count -= 1;
        assert!(many.room_for(1).is_ok());
        assert_eq!(tally.portrait, Some(picture(1).id));
    }
}
