//! Which key signs the player cookies, checked against the database it serves.
//!
//! The key comes from `DICEBOUND_COOKIE_SECRET`, else from a key file beside the SQLite
//! database. Its fingerprint is recorded in the database: a start with another key (the file
//! lost or not moved with the database, another secret) would give every player a new
//! identity and hide their campaigns, so it is refused with what to do, unless:
//! - the recorded key is the configured previous one (`DICEBOUND_COOKIE_SECRET_PREVIOUS`): the
//!   key rotates, and cookies signed with the previous key are re-issued under the new one;
//! - no player has a campaign yet;
//! - the operator says so (`DICEBOUND_ACCEPT_NEW_COOKIE_KEY=true`).

use std::path::{Path, PathBuf};

use super::identity::{CookieKey, CookieSecret, PlayerIdentity};
use crate::store::SqlStore;

/// The setting under which the key's fingerprint is kept.
const FINGERPRINT: &str = "cookie_key_fingerprint";

/// The cookie settings read from the environment.
#[derive(Clone, Debug, Default)]
pub struct CookieSecrets {
    /// The secret the key is derived from (`DICEBOUND_COOKIE_SECRET`); else a key file.
    pub current: Option<CookieSecret>,
    /// The secret it replaced (`DICEBOUND_COOKIE_SECRET_PREVIOUS`), while the key rotates.
    pub previous: Option<CookieSecret>,
    /// Whether a key other than the recorded one is accepted
    /// (`DICEBOUND_ACCEPT_NEW_COOKIE_KEY=true`).
    pub accept_new_key: bool,
}

/// Why the cookie key cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// The key file could not be read or created.
    #[error("the cookie key file: {0}")]
    File(#[from] std::io::Error),
    /// The database failed.
    #[error("cannot read the campaign database: {0}")]
    Store(#[from] app::campaign::store::StoreError),
    /// A database shared by instances, and no secret all of them derive the key from.
    #[error(
        "a PostgreSQL database may be served by several instances, and each must sign player \
         cookies with the same key: set DICEBOUND_COOKIE_SECRET (the same secret for every \
         instance, at least 64 characters)"
    )]
    Shared,
    /// The database's players were identified with another key.
    #[error(
        "the campaign database was last served with another cookie key (fingerprint \
         {recorded}; this one is {current}). With this key every player would get a new \
         identity and lose sight of their campaigns. {where_from} To rotate the key on purpose, \
         set the old secret as DICEBOUND_COOKIE_SECRET_PREVIOUS; to give every player a new \
         identity, start once with DICEBOUND_ACCEPT_NEW_COOKIE_KEY=true."
    )]
    Changed {
        /// The recorded key's fingerprint.
        recorded: String,
        /// This key's.
        current: String,
        /// Where the right key is found.
        where_from: String,
    },
}

/// The player identities for the database at `database_url`: its key checked (and recorded)
/// in `store`, cookies secure or not.
pub async fn identity(
    secrets: &CookieSecrets,
    database_url: &str,
    store: &SqlStore,
    secure: bool,
) -> Result<PlayerIdentity, KeyError> {
    let file = key_path(database_url);
    let key = match (&secrets.current, &file) {
        (Some(secret), _) => CookieKey::from_secret(secret),
        (None, Some(path)) => CookieKey::load_or_create(path)?,
        (None, None) if !store.backend().single_process() => return Err(KeyError::Shared),
        (None, None) => CookieKey::generate(),
    };
    let previous: Vec<CookieKey> = secrets
        .previous
        .iter()
        .map(CookieKey::from_secret)
        .collect();
    check(store, &key, &previous, secrets, file.as_deref()).await?;
    Ok(PlayerIdentity::new(key)
        .rotated_from(previous)
        .secure(secure))
}

/// Refuses `key` if the database's players were identified with another one (see the module
/// documentation); records it otherwise.
async fn check(
    store: &SqlStore,
    key: &CookieKey,
    previous: &[CookieKey],
    secrets: &CookieSecrets,
    file: Option<&Path>,
) -> Result<(), KeyError> {
    let current = key.fingerprint();
    let recorded = store.setting(FINGERPRINT).await?;
    match recorded {
        Some(recorded) if recorded == current => return Ok(()),
        Some(recorded) if previous.iter().any(|key| key.fingerprint() == recorded) => {
            tracing::info!("the cookie key rotates: cookies of the previous key are re-issued");
        }
        Some(recorded) if store.has_campaigns().await? && !secrets.accept_new_key => {
            let where_from = match (&secrets.current, file) {
                (Some(_), _) => "Set DICEBOUND_COOKIE_SECRET to the secret used before.".to_owned(),
                (None, Some(path)) => format!(
                    "Put back the key file {} (it lives beside the database and moves with \
                     it), or set DICEBOUND_COOKIE_SECRET to the secret used before.",
                    path.display()
                ),
                (None, None) => String::new(),
            };
            return Err(KeyError::Changed {
                recorded,
                current,
                where_from,
            });
        }
        Some(_) => tracing::warn!("a new cookie key: every player gets a new identity"),
        None => {}
    }
    store.set_setting(FINGERPRINT, &current).await?;
    Ok(())
}

/// The cookie key file beside a SQLite database file; `None` for an in-memory database.
fn key_path(database_url: &str) -> Option<PathBuf> {
    let path = database_url
        .strip_prefix("sqlite://")
        .or_else(|| database_url.strip_prefix("sqlite:"))?;
    let path = path.split('?').next().unwrap_or_default();
    if path.is_empty() || path == ":memory:" {
        return None;
    }
    let mut key = PathBuf::from(path);
    key.set_extension("cookie-key");
    Some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cookie_key_lives_beside_the_database_file() {
        assert_eq!(
            key_path("sqlite://dicebound.db"),
            Some(PathBuf::from("dicebound.cookie-key"))
        );
        assert_eq!(
            key_path("sqlite:///var/lib/game.db?mode=rwc"),
            Some(PathBuf::from("/var/lib/game.cookie-key"))
        );
        assert_eq!(key_path("sqlite::memory:"), None);
        assert_eq!(key_path("postgres://x"), None);
    }
}
