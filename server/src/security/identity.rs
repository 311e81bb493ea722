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
//! The cookie is signed by the `cookie` crate's signed jar (HMAC-SHA256; the value is the
//! base64 MAC followed by the player id) under a 64-byte [`CookieKey`] that outlives restarts
//! (a [`CookieSecret`] from the configuration, else a key file: see
//! [`CookieKey::load_or_create`]; the database records which: see [`super::keys`]). The cookie
//! is `HttpOnly; SameSite=Lax; Path=/` and lasts a year; over HTTPS ([`PlayerIdentity::secure`])
//! it is `Secure` and named [`HOST_COOKIE_NAME`]. Cookies signed with a key the current one
//! replaced ([`PlayerIdentity::rotated_from`]) or under the other name are re-issued.
//!
//! Cookies of the previous format, `<player id>.<HMAC-SHA256 in hex>` (the MAC over
//! `dicebound_player=<id>` under the whole 64-byte key), still verify for one release and are
//! re-issued in the new format, so that players keep their campaigns across the upgrade.

use std::{
    fs::{self, OpenOptions},
    io::{self, Write},
    path::Path,
    sync::Arc,
};

use app::api::context::PLAYER_SWITCH_HEADER;
use app::wire::PlayerId;
use axum::{
    extract::{Request, State},
    http::{header, HeaderValue},
    middleware::Next,
    response::Response,
};
use cookie::{time::Duration, Cookie, CookieJar, Key, SameSite};
use rand::{rngs::OsRng, TryRngCore};
use secrecy::{ExposeSecret, SecretString};
use sha2::{Digest, Sha512};

/// The name of the identity cookie.
pub const COOKIE_NAME: &str = "dicebound_player";

/// Its name over HTTPS: browsers keep a `__Host-` cookie only if it is `Secure`, has `Path=/`
/// and no `Domain`, so a neighbouring subdomain or a plain-HTTP page cannot plant one.
pub const HOST_COOKIE_NAME: &str = "__Host-dicebound_player";

/// How long the identity cookie lives (one year).
pub const MAX_AGE: Duration = Duration::days(365);

/// Length of a signing key, in bytes.
const KEY_LEN: usize = 64;

/// Shortest accepted [`CookieSecret`], in characters.
pub const MIN_SECRET_CHARS: usize = 64;

/// A configured secret that the cookie key is derived from: at least [`MIN_SECRET_CHARS`]
/// characters, never printed (its `Debug` is redacted).
#[derive(Clone, Debug)]
pub struct CookieSecret(SecretString);

/// Why a cookie secret was refused.
#[derive(Debug, thiserror::Error)]
#[error("the cookie secret must be at least {MIN_SECRET_CHARS} characters long")]
pub struct ShortCookieSecret;

impl CookieSecret {
    /// Checks that `secret` is long enough.
    pub fn new(secret: SecretString) -> Result<Self, ShortCookieSecret> {
        if secret.expose_secret().chars().count() < MIN_SECRET_CHARS {
            return Err(ShortCookieSecret);
        }
        Ok(Self(secret))
    }
}

/// The secret key that signs identity cookies (64 bytes). Its `Debug` output is redacted.
#[derive(Clone, Debug)]
pub struct CookieKey(Key);

impl CookieKey {
    /// A fresh random key, for tests and throwaway servers (identities do not survive a restart).
    pub fn generate() -> Self {
        Self(Key::generate())
    }

    /// The key derived from `secret`: the SHA-512 of its text.
    pub fn from_secret(secret: &CookieSecret) -> Self {
        Self(Key::from(&Sha512::digest(
            secret.0.expose_secret().as_bytes(),
        )))
    }

    /// A short public fingerprint of the key (16 hex digits), to recognise it without
    /// revealing it.
    pub fn fingerprint(&self) -> String {
        let digest = Sha512::new()
            .chain_update(b"dicebound cookie key fingerprint\0")
            .chain_update(self.0.master())
            .finalize();
        hex::encode(&digest[..8])
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
                return Ok(Self(Key::from(&key)));
            }
        }
        if bytes.len() == KEY_LEN {
            return Ok(Self(Key::from(bytes)));
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
        Ok(Self(Key::from(&key)))
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

/// The player in a cookie value of the previous format, `<id>.<hex HMAC-SHA256>`, if its MAC
/// (over `dicebound_player=<id>`, under the whole 64-byte key) verifies in constant time.
///
/// Kept for one release so that existing players keep their identity; remove it, and the
/// `hmac` dependency, after that.
fn verify_previous_format(key: &Key, value: &str) -> Option<PlayerId> {
    use hmac::{Hmac, Mac};
    let (id, tag) = value.split_once('.')?;
    let player: PlayerId = id.parse().ok()?;
    let mut expected = [0; 32];
    hex::decode_to_slice(tag, &mut expected).ok()?;
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(key.master()).ok()?;
    mac.update(COOKIE_NAME.as_bytes());
    mac.update(b"=");
    mac.update(player.as_str().as_bytes());
    mac.verify_slice(&expected).ok().map(|()| player)
}

/// The identity a request's cookies prove.
#[derive(Debug, PartialEq)]
enum Proven {
    /// A cookie of the current format.
    Current(PlayerId),
    /// A cookie of the previous format, to be re-issued.
    Previous(PlayerId),
}

/// The state of the [`player_identity`] middleware: the signing key, the keys it replaced, and
/// the cookie's settings.
#[derive(Clone, Debug)]
pub struct PlayerIdentity {
    key: Arc<CookieKey>,
    previous: Arc<Vec<CookieKey>>,
    secure: bool,
}

impl PlayerIdentity {
    /// Identities signed with `key`; the cookie is not marked `Secure` (see [`Self::secure`]).
    pub fn new(key: CookieKey) -> Self {
        Self {
            key: Arc::new(key),
            previous: Arc::default(),
            secure: false,
        }
    }

    /// Also accepts cookies signed with `keys` (the keys this one replaced), re-issuing them
    /// under the current key: the key rotates and players keep their identity.
    pub fn rotated_from(mut self, keys: Vec<CookieKey>) -> Self {
        self.previous = Arc::new(keys);
        self
    }

    /// Marks the cookie `Secure` (sent by browsers over HTTPS only) when `secure` is true. Set it
    /// whenever the site is served over HTTPS, directly or behind a TLS-terminating proxy.
    pub fn secure(mut self, secure: bool) -> Self {
        self.secure = secure;
        self
    }

    /// The cookie's name: [`HOST_COOKIE_NAME`] over HTTPS, else [`COOKIE_NAME`].
    fn cookie_name(&self) -> &'static str {
        if self.secure {
            HOST_COOKIE_NAME
        } else {
            COOKIE_NAME
        }
    }

    /// The player named by the request's identity cookies: the first that verifies under the
    /// current key and name; else the first that verifies otherwise (another name, a previous
    /// key, the previous format), to be re-issued.
    fn player_in(&self, request: &Request) -> Option<Proven> {
        let mut reissue = None;
        for cookie in identity_cookies(request) {
            if let Some(player) = verify(&self.key, &cookie) {
                if cookie.name() == self.cookie_name() {
                    return Some(Proven::Current(player));
                }
                reissue = reissue.or(Some(player));
            }
            reissue = reissue
                .or_else(|| self.previous.iter().find_map(|key| verify(key, &cookie)))
                .or_else(|| verify_previous_format(&self.key.0, cookie.value()));
        }
        reissue.map(Proven::Previous)
    }

    /// The `Set-Cookie` header value that gives `player` to the browser.
    fn set_cookie(&self, player: &PlayerId) -> String {
        let mut jar = CookieJar::new();
        jar.signed_mut(&self.key.0).add(
            Cookie::build((self.cookie_name(), player.to_string()))
                .http_only(true)
                .same_site(SameSite::Lax)
                .path("/")
                .max_age(MAX_AGE)
                .secure(self.secure),
        );
        jar.get(self.cookie_name())
            .map(ToString::to_string)
            .expect("the jar holds the cookie just added")
    }
}

/// The player a signed identity cookie names, if it verifies under `key`.
fn verify(key: &CookieKey, cookie: &Cookie<'static>) -> Option<PlayerId> {
    CookieJar::new()
        .signed(&key.0)
        .verify(cookie.clone())
        .and_then(|verified| verified.value().parse().ok())
}

/// The request's identity cookies (either name), surrounding double quotes removed from values.
fn identity_cookies(request: &Request) -> impl Iterator<Item = Cookie<'static>> + '_ {
    request
        .headers()
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(Cookie::split_parse)
        .filter_map(Result::ok)
        .filter(|cookie| [COOKIE_NAME, HOST_COOKIE_NAME].contains(&cookie.name()))
        .map(|cookie| Cookie::new(cookie.name().to_owned(), cookie.value_trimmed().to_owned()))
}

/// Middleware: puts the request's [`PlayerId`] into its extensions, minting a new one (and
/// setting the cookie on the response) when the request has no valid identity cookie, and
/// re-issuing a cookie of the previous format in the current one.
///
/// Use with `axum::middleware::from_fn_with_state(PlayerIdentity::new(key), player_identity)`.
pub async fn player_identity(
    State(identity): State<PlayerIdentity>,
    mut request: Request,
    next: Next,
) -> Response {
    let (player, issue) = match identity.player_in(&request) {
        Some(Proven::Current(player)) => (player, false),
        Some(Proven::Previous(player)) => (player, true),
        None => (PlayerId::random(&mut rand::rng()), true),
    };
    // The id's first characters tell a player's lines apart; the cookie's signature is never
    // logged, so the id alone proves nothing.
    let short: String = player.as_str().chars().take(8).collect();
    tracing::Span::current().record("player", short.as_str());
    request.extensions_mut().insert(player.clone());
    let mut response = next.run(request).await;
    // A redeemed recovery code makes this browser another player from now on.
    let switched = response
        .headers_mut()
        .remove(PLAYER_SWITCH_HEADER)
        .and_then(|value| value.to_str().ok()?.parse::<PlayerId>().ok());
    let cookie = match switched {
        Some(player) => Some(identity.set_cookie(&player)),
        None => issue.then(|| identity.set_cookie(&player)),
    };
    match cookie.map(HeaderValue::try_from) {
        Some(Ok(value)) => {
            response.headers_mut().append(header::SET_COOKIE, value);
        }
        Some(Err(error)) => tracing::error!(%error, "could not build the identity cookie"),
        None => {}
    }
    response
}

#[cfg(test)]
mod tests {
    use hmac::{Hmac, Mac};

    use super::*;

    /// A request carrying `cookie` in a `Cookie` header.
    fn request(cookie: &str) -> Request {
        Request::builder()
            .header(header::COOKIE, cookie)
            .body(axum::body::Body::empty())
            .unwrap()
    }

    /// The `name=value` pair of a `Set-Cookie` value.
    fn pair(set_cookie: &str) -> &str {
        set_cookie.split(';').next().unwrap()
    }

    /// A cookie value of the previous format for `player` under `key`.
    fn previous_format(key: &[u8; KEY_LEN], player: &PlayerId) -> String {
        let mut mac = Hmac::<sha2::Sha256>::new_from_slice(key).unwrap();
        mac.update(format!("{COOKIE_NAME}={player}").as_bytes());
        format!("{player}.{}", hex::encode(mac.finalize().into_bytes()))
    }

    #[test]
    fn signed_cookies_verify_and_altered_ones_do_not() {
        let identity = PlayerIdentity::new(CookieKey::generate());
        let player = PlayerId::random(&mut rand::rng());
        let set_cookie = identity.set_cookie(&player);
        let good = pair(&set_cookie);
        assert_eq!(
            identity.player_in(&request(good)),
            Some(Proven::Current(player.clone()))
        );
        let quoted = good.replacen('=', "=\"", 1) + "\"";
        assert_eq!(
            identity.player_in(&request(&format!("a=b; {quoted}"))),
            Some(Proven::Current(player.clone()))
        );

        let other = PlayerIdentity::new(CookieKey::generate());
        assert_eq!(other.player_in(&request(good)), None, "other key");
        for forged in [
            format!("{COOKIE_NAME}={player}"),
            format!("{COOKIE_NAME}="),
            format!("{COOKIE_NAME}=."),
            format!("{good}0"),
            good[..good.len() - 1].to_owned(),
        ] {
            assert_eq!(identity.player_in(&request(&forged)), None, "{forged}");
        }
        for i in COOKIE_NAME.len() + 1..good.len() {
            let mut bytes = good.as_bytes().to_vec();
            bytes[i] = if bytes[i] == b'0' { b'1' } else { b'0' };
            let altered = String::from_utf8(bytes).unwrap();
            assert_eq!(identity.player_in(&request(&altered)), None, "{altered}");
        }
    }

    #[test]
    fn the_first_cookie_that_verifies_wins() {
        let identity = PlayerIdentity::new(CookieKey::generate());
        let player = PlayerId::random(&mut rand::rng());
        let good = identity.set_cookie(&player);
        let header = format!("{COOKIE_NAME}=forged; {}", pair(&good));
        assert_eq!(
            identity.player_in(&request(&header)),
            Some(Proven::Current(player))
        );
    }

    #[test]
    fn cookies_of_the_previous_format_still_verify_once() {
        let raw = [7u8; KEY_LEN];
        let identity = PlayerIdentity::new(CookieKey::parse_file(Path::new("key"), &raw).unwrap());
        let player = PlayerId::random(&mut rand::rng());
        let old = format!("{COOKIE_NAME}={}", previous_format(&raw, &player));
        assert_eq!(
            identity.player_in(&request(&old)),
            Some(Proven::Previous(player.clone()))
        );
        // Another key's, or an altered one, does not.
        let foreign = format!("{COOKIE_NAME}={}", previous_format(&[8; KEY_LEN], &player));
        assert_eq!(identity.player_in(&request(&foreign)), None);
        let other = PlayerId::random(&mut rand::rng());
        let swapped = old.replace(player.as_str(), other.as_str());
        assert_eq!(identity.player_in(&request(&swapped)), None);
        // A current cookie beats a previous one.
        let current = identity.set_cookie(&other);
        let both = format!("{old}; {}", pair(&current));
        assert_eq!(
            identity.player_in(&request(&both)),
            Some(Proven::Current(other))
        );
    }

    #[test]
    fn debug_is_redacted() {
        let raw = [0xabu8; KEY_LEN];
        let key = CookieKey::parse_file(Path::new("key"), &raw).unwrap();
        let secret = CookieSecret::new(SecretString::from("s3cr3t".repeat(11))).unwrap();
        let printed = format!("{key:?} {:?} {secret:?}", PlayerIdentity::new(key.clone()));
        assert!(
            !printed.contains("abab") && !printed.contains("171"),
            "{printed}"
        );
        assert!(!printed.contains("s3cr3t"), "{printed}");
    }

    #[test]
    fn secrets_must_be_long_and_give_stable_keys() {
        let secret = |text: String| CookieSecret::new(SecretString::from(text));
        assert!(secret("x".repeat(63)).is_err());
        assert!(secret("é".repeat(64)).is_ok(), "characters, not bytes");
        let a = CookieKey::from_secret(&secret("x".repeat(64)).unwrap());
        let b = CookieKey::from_secret(&secret("x".repeat(64)).unwrap());
        let c = CookieKey::from_secret(&secret("y".repeat(64)).unwrap());
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
        assert_eq!(from_raw.0.master(), raw);
        assert_eq!(from_hex.0.master(), raw);
        // 64 bytes that happen to be hex digits are raw bytes, not a 32-byte hex key.
        let digits = [b'a'; KEY_LEN];
        assert_eq!(
            CookieKey::parse_file(path, &digits).unwrap().0.master(),
            digits
        );
        for junk in [&b""[..], &[1; 63], &[1; 65], "z".repeat(128).as_bytes()] {
            let error = CookieKey::parse_file(path, junk).unwrap_err();
            assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        }
    }
}
