//! Recovery codes: a player makes one to bring their campaigns to another browser or device.
//! The code is shown once and only its digest is kept; a new one replaces the old; it can be
//! revoked. Redeemed in another browser, that browser becomes the player (its own campaigns
//! come along). 125 random bits make guessing useless, and tries are rate limited besides.

use rand::Rng;
use sha2::{Digest, Sha256};

use super::limits::{ClientAddress, RateLimits};
use super::{Game, ServiceError};
use crate::wire::view::RecoveryStatus;
use crate::wire::PlayerId;

/// The letters a code is written in: no I, O, 0 or 1, which read alike.
const ALPHABET: &[u8; 32] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// The letters of a code (5 bits each: 125 bits).
const CODE_LETTERS: usize = 25;

/// A recovery code. Never printed: its `Debug` is `[redacted]`.
pub struct RecoveryCode(String);

/// Why a typed code is not one.
#[derive(Debug, thiserror::Error)]
#[error(
    "a recovery code is 25 letters and digits in groups of five, like ABCDE-FGHJK-LMNPQ-RSTUV-WXYZ2"
)]
pub struct NotACode;

impl RecoveryCode {
    /// A fresh random code.
    pub fn generate<R: Rng + ?Sized>(rng: &mut R) -> Self {
        Self(
            (0..CODE_LETTERS)
                .map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())]))
                .collect(),
        )
    }

    /// The code typed by a player: case, spaces and dashes do not matter.
    pub fn parse(typed: &str) -> Result<Self, NotACode> {
        if typed.len() > 4 * CODE_LETTERS {
            return Err(NotACode);
        }
        let letters: String = typed
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '-')
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let known = letters.bytes().all(|b| ALPHABET.contains(&b));
        if letters.len() == CODE_LETTERS && known {
            Ok(Self(letters))
        } else {
            Err(NotACode)
        }
    }

    /// The code as shown to its player, in groups of five.
    pub fn shown(&self) -> String {
        self.0
            .as_bytes()
            .chunks(5)
            .map(|group| String::from_utf8_lossy(group).into_owned())
            .collect::<Vec<_>>()
            .join("-")
    }

    /// What the database keeps: the code's SHA-256, in hex.
    pub fn digest(&self) -> String {
        self.digest_as("recovery code")
    }

    /// The digest of the code used as a `kind` of secret (a recovery code, an invitation), so
    /// that one kind's code is never another's.
    pub fn digest_as(&self, kind: &str) -> String {
        Sha256::digest(format!("dicebound {kind} {}", self.0).as_bytes())
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect()
    }

    /// The code's letters, without dashes (for a link).
    pub fn letters(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for RecoveryCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("[redacted]")
    }
}

impl Game<'_> {
    /// Makes the player a new recovery code (the old one stops working); the code, shown once.
    pub async fn new_recovery_code<R: Rng + ?Sized>(
        &self,
        owner: &PlayerId,
        now: i64,
        rng: &mut R,
    ) -> Result<String, ServiceError> {
        let code = RecoveryCode::generate(rng);
        self.store.set_recovery(owner, &code.digest(), now).await?;
        Ok(code.shown())
    }

    /// Whether the player has a recovery code, and since when.
    pub async fn recovery_status(&self, owner: &PlayerId) -> Result<RecoveryStatus, ServiceError> {
        Ok(RecoveryStatus {
            made: self.store.recovery(owner).await?.map(super::human_time),
        })
    }

    /// Revokes the player's recovery code.
    pub async fn revoke_recovery_code(&self, owner: &PlayerId) -> Result<(), ServiceError> {
        self.store.revoke_recovery(owner).await?;
        Ok(())
    }

    /// The player `typed` is the recovery code of, the `newcomer`'s campaigns now theirs; each
    /// try counts against the newcomer's and their address's allowance of tries.
    pub async fn redeem_recovery_code(
        &self,
        newcomer: &PlayerId,
        client: &ClientAddress,
        limits: &RateLimits,
        typed: &str,
    ) -> Result<PlayerId, ServiceError> {
        limits.recovery_try(newcomer, client)?;
        let code =
            RecoveryCode::parse(typed).map_err(|error| ServiceError::invalid("code", error))?;
        self.store
            .redeem(&code.digest(), newcomer)
            .await?
            .ok_or_else(|| {
                ServiceError::invalid("code", "this recovery code is wrong, or was revoked")
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::StdRng, SeedableRng};

    #[test]
    fn a_code_reads_back_however_it_is_typed() {
        let code = RecoveryCode::generate(&mut StdRng::seed_from_u64(7));
        let shown = code.shown();
        assert_eq!(shown.len(), 29);
        assert_eq!(shown.matches('-').count(), 4);
        let typed = format!("  {}  ", shown.to_lowercase().replace('-', " "));
        let read = RecoveryCode::parse(&typed).unwrap();
        assert_eq!(read.digest(), code.digest());
        assert_eq!(format!("{read:?}"), "[redacted]");
    }

    #[test]
    fn what_is_not_a_code_is_refused() {
        for typed in [
            "",
            "ABCDE",
            "IIIII-IIIII-IIIII-IIIII-IIIII",
            &"A".repeat(26),
            &"-".repeat(500),
        ] {
            assert!(RecoveryCode::parse(typed).is_err(), "{typed}");
        }
    }

    #[test]
    fn two_codes_differ_and_so_do_their_digests() {
        let mut rng = StdRng::seed_from_u64(8);
        let (one, two) = (
            RecoveryCode::generate(&mut rng),
            RecoveryCode::generate(&mut rng),
        );
        assert_ne!(one.shown(), two.shown());
        assert_ne!(one.digest(), two.digest());
        assert_eq!(one.digest().len(), 64);
    }
}
