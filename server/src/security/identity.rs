//! Anonymous player identity, kept in a signed cookie.
//!
//! On every request [`player_identity`] looks for the cookie [`COOKIE_NAME`]. If its signature
//! verifies and it holds a valid [`PlayerId`], that id is the player; otherwise (first visit, a
//! tampered or unsigned cookie, a cookie signed with another key) a new random id is made and
//! sent back in a `Set-Cookie` header. Either way the request reaches the handler with the
//! [`PlayerId`] in its extensions:
//!
//! ```text
//! // An axum handler:
//! async fn handler(Extension(player): Extension<PlayerId>) -> String { player.to_string() }
//!
//! // A Leptos server function (SSR side):
//! let axum::Extension(player) = leptos_axum::extract::<axum::Extension<PlayerId>>().await?;
//! ```
//!
//! The cookie value is `<player id>.<HMAC-SHA256>` (both lowercase hex); the MAC covers the
//! cookie's name and the id, under a 64-byte [`CookieKey`] that outlives restarts (see
//! [`CookieKey::from_env_or_file`]). The cookie is `HttpOnly; SameSite=Lax; Path=/`, lasts a
//! year, and is `Secure` when [`PlayerIdentity::secure`] is set (serve over HTTPS).

use std::{
    fmt,
    fs::{self, OpenOptions},
    io::{self, Write},
    path::Path,
    sync::Arc,
};

use app::campaign::PlayerId;
use axum::{
    extract::{Request, State},
    http::{header, HeaderValue},
    middleware::Next,
    response::Response,
};
use hmac::{Hmac, Mac};
use rand::{rngs::OsRng, RngCore, TryRngCore};
use sha2::{Digest, Sha256, Sha512};

/// The name of the identity cookie.
pub const COOKIE_NAME: &str = "dicebound_player";

/// The environment variable that, when set and non-empty, supplies the signing secret instead
/// of the key file (at least 64 characters).
pub const SECRET_ENV: &str = "DICEBOUND_COOKIE_SECRET";

/// How long the identity cookie lives, in seconds (one year).
pub const MAX_AGE_SECS: u64 = 365 * 24 * 60 * 60;

/// Length of a signing key, in bytes.
const KEY_LEN: usize = 64;

/// Shortest accepted [`SECRET_ENV`], in characters.
const MIN_SECRET_CHARS: usize = 64;

type HmacSha256 = Hmac<Sha256>;

/// The secret key that signs identity cookies (64 bytes). Its `Debug` output is redacted.
#[derive(Clone)]
pub struct CookieKey([u8; KEY_LEN]);

impl fmt::Debug for CookieKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

impl CookieKey {
    /// A fresh random key, for tests and throwaway servers (identities do not survive a restart).
    pub fn generate() -> Self {
        let mut key = [0; KEY_LEN];
        rand::rng().fill_bytes(&mut key);
        Self(key)
    }

    /// The key from [`SECRET_ENV`] if that variable is set and non-empty, otherwise
    /// [`CookieKey::load_or_create`] on `path`.
    ///
    /// The secret must be at least 64 characters; a shorter one (or one that is not Unicode) is
    /// an error rather than a silent fallback to the file. The key is the SHA-512 of the secret.
    pub fn from_env_or_file(path: &Path) -> io::Result<Self> {
        match std::env::var_os(SECRET_ENV) {
            Some(secret) if !secret.is_empty() => {
                let secret = secret.into_string().map_err(|_| {
                    io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!("{SECRET_ENV} is not valid Unicode"),
                    )
                })?;
                Self::from_secret(&secret)
            }
            _ => Self::load_or_create(path),
        }
    }

    /// Reads the key file at `path`, or creates it with a fresh key from the operating system's
    /// random source, so that players keep their identity across restarts.
    ///
    /// The file holds either 128 hex digits (surrounding whitespace ignored; this is what a new
    /// file contains) or exactly 64 raw bytes; anything else is an `InvalidData` error (the file
    /// is never overwritten). A new file is created with mode `0600` on unix, along with its
    /// missing parent folders.
    pub fn load_or_create(path: &Path) -> io::Result<Self> {
        match fs::read(path) {
            Ok(bytes) => Self::parse_file(path, &bytes),
            Err(error) if error.kind() == io::ErrorKind::NotFound => match Self::create(path) {
                // Another process created it first: use theirs.
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
                    Self::parse_file(path, &fs::read(path)?)
                }
                created => created,
            },
            Err(error) => Err(error),
        }
    }

    /// The key derived from a long secret (see [`CookieKey::from_env_or_file`]).
    fn from_secret(secret: &str) -> io::Result<Self> {
        if secret.chars().count() < MIN_SECRET_CHARS {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{SECRET_ENV} must be at least {MIN_SECRET_CHARS} characters long"),
            ));
        }
        Ok(Self(Sha512::digest(secret.as_bytes()).into()))
    }

    /// Parses a key file's contents: 128 hex digits, or 64 raw bytes.
    fn parse_file(path: &Path, bytes: &[u8]) -> io::Result<Self> {
        warn_if_readable_by_others(path);
        let mut key = [0; KEY_LEN];
        let as_hex = std::str::from_utf8(bytes)
            .ok()
            .map(str::trim)
            .filter(|text| text.len() == 2 * KEY_LEN);
        if let Some(text) = as_hex {
            if hex::decode_to_slice(text, &mut key).is_ok() {
                return Ok(Self(key));
            }
        }
        if bytes.len() == KEY_LEN {
            key.copy_from_slice(bytes);
            return Ok(Self(key));
        }
        Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "cookie key file {} must hold {} hex digits or {KEY_LEN} raw bytes",
                path.display(),
                2 * KEY_LEN
            ),
        ))
    }

    /// Creates the key file (failing with `AlreadyExists` if it exists) holding a new key in hex.
    fn create(path: &Path) -> io::Result<Self> {
        let mut key = [0; KEY_LEN];
        OsRng.try_fill_bytes(&mut key).map_err(io::Error::other)?;
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            fs::create_dir_all(parent)?;
        }
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(path)?;
        let written = file
            .write_all(format!("{}\n", hex::encode(key)).as_bytes())
            .and_then(|()| file.sync_all());
        if let Err(error) = written {
            // Leave no half-written key behind: the next start would refuse it.
            let _ = fs::remove_file(path);
            return Err(error);
        }
        tracing::info!(path = %path.display(), "created a new cookie signing key");
        Ok(Self(key))
    }

    /// The HMAC of `id` under this key, bound to the cookie's name.
    fn mac(&self, id: &str) -> HmacSha256 {
        // The key is exactly SHA-256's block size, which HMAC takes as is.
        let mut mac = <HmacSha256 as Mac>::new(&self.0.into());
        mac.update(COOKIE_NAME.as_bytes());
        mac.update(b"=");
        mac.update(id.as_bytes());
        mac
    }

    /// The signed cookie value for `player`: `<id>.<mac in hex>`.
    fn sign(&self, player: &PlayerId) -> String {
        let tag = self.mac(player.as_str()).finalize().into_bytes();
        format!("{player}.{}", hex::encode(tag))
    }

    /// The player in a signed cookie value, if the signature verifies (in constant time).
    fn verify(&self, value: &str) -> Option<PlayerId> {
        let (id, tag) = value.split_once('.')?;
        let player: PlayerId = id.parse().ok()?;
        let mut expected = [0; 32];
        hex::decode_to_slice(tag, &mut expected).ok()?;
        self.mac(player.as_str())
            .verify_slice(&expected)
            .ok()
            .map(|()| player)
    }
}

/// Logs a warning when a key file can be read by other users (unix only).
fn warn_if_readable_by_others(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if let Ok(metadata) = fs::metadata(path) {
            let mode = metadata.permissions().mode() & 0o777;
            if mode & 0o077 != 0 {
                tracing::warn!(
                    path = %path.display(),
                    mode = format_args!("{mode:o}"),
                    "the cookie key file is readable by other users; chmod 600 it"
                );
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// The state of the [`player_identity`] middleware: the signing key and the cookie's settings.
#[derive(Clone, Debug)]
pub struct PlayerIdentity {
    key: Arc<CookieKey>,
    secure: bool,
}

impl PlayerIdentity {
    /// Identities signed with `key`; the cookie is not marked `Secure` (see [`Self::secure`]).
    pub fn new(key: CookieKey) -> Self {
        Self {
            key: Arc::new(key),
            secure: false,
        }
    }

    /// Marks the cookie `Secure` (sent by browsers over HTTPS only) when `secure` is true. Set it
    /// whenever the site is served over HTTPS, directly or behind a TLS-terminating proxy.
    pub fn secure(mut self, secure: bool) -> Self {
        self.secure = secure;
        self
    }

    /// The player named by the request's identity cookie, if one verifies.
    fn player_in(&self, request: &Request) -> Option<PlayerId> {
        request
            .headers()
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|cookies| cookies.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .filter(|(name, _)| *name == COOKIE_NAME)
            .find_map(|(_, value)| self.key.verify(value.trim_matches('"')))
    }

    /// The `Set-Cookie` header value that gives `player` to the browser.
    fn set_cookie(&self, player: &PlayerId) -> String {
        let secure = if self.secure { "; Secure" } else { "" };
        format!(
            "{COOKIE_NAME}={}; HttpOnly; SameSite=Lax; Path=/; Max-Age={MAX_AGE_SECS}{secure}",
            self.key.sign(player)
        )
    }
}

/// Middleware: puts the request's [`PlayerId`] into its extensions, minting a new one (and
/// setting the cookie on the response) when the request has no valid identity cookie.
///
/// Use with `axum::middleware::from_fn_with_state(PlayerIdentity::new(key), player_identity)`.
pub async fn player_identity(
    State(identity): State<PlayerIdentity>,
    mut request: Request,
    next: Next,
) -> Response {
    if let Some(player) = identity.player_in(&request) {
        request.extensions_mut().insert(player);
        return next.run(request).await;
    }
    let player = PlayerId::random(&mut rand::rng());
    let cookie = identity.set_cookie(&player);
    request.extensions_mut().insert(player);
    let mut response = next.run(request).await;
    match HeaderValue::try_from(cookie) {
        Ok(value) => {
            response.headers_mut().append(header::SET_COOKIE, value);
        }
        Err(error) => tracing::error!(%error, "could not build the identity cookie"),
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_values_verify_and_altered_ones_do_not() {
        let key = CookieKey::generate();
        let player = PlayerId::random(&mut rand::rng());
        let value = key.sign(&player);
        assert_eq!(key.verify(&value), Some(player.clone()));

        assert_eq!(CookieKey::generate().verify(&value), None, "other key");
        assert_eq!(key.verify(player.as_str()), None, "unsigned");
        assert_eq!(key.verify(""), None);
        assert_eq!(key.verify("."), None);
        assert_eq!(key.verify(&format!("{value}00")), None, "longer tag");
        assert_eq!(key.verify(&value[..value.len() - 2]), None, "shorter tag");
        let other = PlayerId::random(&mut rand::rng());
        let (_, tag) = value.split_once('.').unwrap();
        assert_eq!(key.verify(&format!("{other}.{tag}")), None, "swapped id");
        for i in 0..value.len() {
            let mut bytes = value.clone().into_bytes();
            bytes[i] = if bytes[i] == b'0' { b'1' } else { b'0' };
            let altered = String::from_utf8(bytes).unwrap();
            assert_eq!(key.verify(&altered), None, "{altered}");
        }
    }

    #[test]
    fn debug_is_redacted() {
        let key = CookieKey::generate();
        assert_eq!(format!("{key:?}"), "[redacted]");
        assert_eq!(
            format!("{:?}", PlayerIdentity::new(key)),
            "PlayerIdentity { key: [redacted], secure: false }"
        );
    }

    #[test]
    fn secrets_must_be_long_and_give_stable_keys() {
        assert!(CookieKey::from_secret(&"x".repeat(63)).is_err());
        let a = CookieKey::from_secret(&"x".repeat(64)).unwrap();
        let b = CookieKey::from_secret(&"x".repeat(64)).unwrap();
        let c = CookieKey::from_secret(&"y".repeat(64)).unwrap();
        assert_eq!(a.0, b.0);
        assert_ne!(a.0, c.0);
    }

    #[test]
    fn key_files_in_hex_or_raw_bytes_are_read_and_junk_is_refused() {
        let path = Path::new("key");
        let raw = [7u8; KEY_LEN];
        let from_raw = CookieKey::parse_file(path, &raw).unwrap();
        let from_hex =
            CookieKey::parse_file(path, format!("  {}\r\n", hex::encode(raw)).as_bytes()).unwrap();
        assert_eq!(from_raw.0, raw);
        assert_eq!(from_hex.0, raw);
        // 64 bytes that happen to be hex digits are raw bytes, not a 32-byte hex key.
        let digits = [b'a'; KEY_LEN];
        assert_eq!(CookieKey::parse_file(path, &digits).unwrap().0, digits);
        for junk in [&b""[..], &[1; 63], &[1; 65], "z".repeat(128).as_bytes()] {
            let error = CookieKey::parse_file(path, junk).unwrap_err();
            assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        }
    }
}
