//! Identifiers of campaigns and players: random, opaque, and checked when parsed.

use std::{fmt, str::FromStr};

use serde::{Deserialize, Serialize};

/// Why a text is not an identifier.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a valid id")]
pub struct InvalidId;

macro_rules! random_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(try_from = "String", into = "String")]
        pub struct $name(String);

        impl $name {
            /// A new random id (128 bits, 32 lowercase hex digits).
            pub fn random<R: rand::Rng + ?Sized>(rng: &mut R) -> Self {
                Self(format!("{:032x}", rng.random::<u128>()))
            }

            /// The id as text.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl FromStr for $name {
            type Err = InvalidId;

            fn from_str(text: &str) -> Result<Self, InvalidId> {
                if text.len() == 32 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
                    Ok(Self(text.to_owned()))
                } else {
                    Err(InvalidId)
                }
            }
        }

        impl TryFrom<String> for $name {
            type Error = InvalidId;

            fn try_from(text: String) -> Result<Self, InvalidId> {
                text.parse()
            }
        }

        impl From<$name> for String {
            fn from(id: $name) -> String {
                id.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

random_id! {
    /// A campaign's id.
    CampaignId
}

random_id! {
    /// An anonymous player's id (kept in a signed cookie).
    PlayerId
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::StdRng, SeedableRng};

    #[test]
    fn random_ids_round_trip_and_junk_is_refused() {
        let id = CampaignId::random(&mut StdRng::seed_from_u64(1));
        assert_eq!(id.as_str().len(), 32);
        assert_eq!(id.as_str().parse::<CampaignId>(), Ok(id.clone()));
        assert_eq!(serde_json::to_string(&id).unwrap(), format!("\"{id}\""));
        for junk in ["", "xyz", "../etc/passwd", &"A".repeat(32), &"0".repeat(33)] {
            assert_eq!(junk.parse::<PlayerId>(), Err(InvalidId), "{junk}");
        }
    }
}
