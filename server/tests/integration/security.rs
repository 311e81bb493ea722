//! Wire-level tests of the security middleware: the identity cookie and the cross-site refusal.

use std::{net::SocketAddr, path::Path};

use app::wire::PlayerId;
use axum::{middleware, routing::get, Extension, Router};
use reqwest::{header, Client, Response, StatusCode};
use server::security::{
    identity::{
        player_identity, CookieKey, CookieSecret, PlayerIdentity, COOKIE_NAME, HOST_COOKIE_NAME,
    },
    origin::{refuse_cross_site, REFUSAL},
};

/// Answers with the player's id.
async fn echo(Extension(player): Extension<PlayerId>) -> String {
    player.to_string()
}

/// Serves a tiny app behind both layers, wired as the real router wires them, on a free port.
async fn spawn(identity: PlayerIdentity) -> SocketAddr {
    let router = Router::new()
        .route("/", get(echo).post(echo))
        .layer(middleware::from_fn_with_state(identity, player_identity))
        .layer(middleware::from_fn(refuse_cross_site));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a free loopback port");
    let addr = listener.local_addr().expect("a bound address");
    tokio::spawn(async move { axum::serve(listener, router).await });
    addr
}

/// The `Set-Cookie` headers of a response.
fn set_cookies(response: &Response) -> Vec<String> {
    response
        .headers()
        .get_all(header::SET_COOKIE)
        .iter()
        .map(|value| value.to_str().expect("an ASCII Set-Cookie").to_owned())
        .collect()
}

/// `name=value` of the single identity `Set-Cookie`, ready for a `Cookie` header.
fn identity_cookie(response: &Response) -> String {
    let cookies = set_cookies(response);
    assert_eq!(cookies.len(), 1, "{cookies:?}");
    let pair = cookies[0].split(';').next().unwrap().to_owned();
    assert!(pair.starts_with(&format!("{COOKIE_NAME}=")), "{pair}");
    pair
}

/// GET `/` with an optional `Cookie` header.
async fn visit(addr: SocketAddr, cookie: Option<&str>) -> Response {
    let mut request = Client::new().get(format!("http://{addr}/"));
    if let Some(cookie) = cookie {
        request = request.header(header::COOKIE, cookie);
    }
    let response = request.send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response
}

/// The player id in a response body, checked to be one.
async fn player(response: Response) -> PlayerId {
    response.text().await.unwrap().parse().expect("a player id")
}

#[tokio::test]
async fn first_visit_gets_a_cookie_and_returning_visits_keep_the_id() {
    let addr = spawn(PlayerIdentity::new(CookieKey::generate())).await;

    let first = visit(addr, None).await;
    let cookie = identity_cookie(&first);
    let id = player(first).await;

    let second = visit(addr, Some(&cookie)).await;
    assert!(set_cookies(&second).is_empty(), "no new cookie");
    assert_eq!(player(second).await, id);

    // Among other cookies, in any order.
    let mixed = format!("theme=dark; {cookie}; lang=en");
    let third = visit(addr, Some(&mixed)).await;
    assert!(set_cookies(&third).is_empty());
    assert_eq!(player(third).await, id);

    // Another visitor gets another id.
    assert_ne!(player(visit(addr, None).await).await, id);
}

#[tokio::test]
async fn the_cookie_is_http_only_lax_site_wide_and_lasts_a_year() {
    let addr = spawn(PlayerIdentity::new(CookieKey::generate())).await;
    let response = visit(addr, None).await;
    let cookie = &set_cookies(&response)[0];
    let attributes: Vec<&str> = cookie.split(';').skip(1).map(str::trim).collect();
    for expected in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=31536000"] {
        assert!(
            attributes.contains(&expected),
            "{expected} missing: {cookie}"
        );
    }
    assert!(!attributes.contains(&"Secure"), "{cookie}");

    let addr = spawn(PlayerIdentity::new(CookieKey::generate()).secure(true)).await;
    let response = visit(addr, None).await;
    let cookie = &set_cookies(&response)[0];
    assert!(cookie.split(';').any(|a| a.trim() == "Secure"), "{cookie}");
}

#[tokio::test]
async fn tampered_unsigned_or_foreign_cookies_are_replaced() {
    let addr = spawn(PlayerIdentity::new(CookieKey::generate())).await;
    let first = visit(addr, None).await;
    let cookie = identity_cookie(&first);
    let id = player(first).await;

    let other = PlayerId::random(&mut rand::rng());
    // The value is the MAC (44 base64 characters) followed by the id.
    let value = cookie.strip_prefix(&format!("{COOKIE_NAME}=")).unwrap();
    assert_eq!(value.len(), 44 + 32, "{value}");
    let tag = &value[..44];
    let mut flipped = cookie.clone().into_bytes();
    let last = flipped.len() - 1;
    flipped[last] = if flipped[last] == b'0' { b'1' } else { b'0' };
    let foreign_key = {
        let elsewhere = spawn(PlayerIdentity::new(CookieKey::generate())).await;
        identity_cookie(&visit(elsewhere, None).await)
    };
    for forged in [
        String::from_utf8(flipped).unwrap(),
        format!("{COOKIE_NAME}={tag}{other}"),
        format!("{COOKIE_NAME}={other}.{tag}"),
        format!("{COOKIE_NAME}={other}"),
        format!("{COOKIE_NAME}={id}"),
        format!("{COOKIE_NAME}=garbage"),
        format!("{COOKIE_NAME}="),
        foreign_key,
    ] {
        let response = visit(addr, Some(&forged)).await;
        let replacement = identity_cookie(&response);
        assert_ne!(replacement, forged);
        let new_id = player(response).await;
        assert_ne!(new_id, id, "{forged}");
        assert_ne!(new_id, other, "{forged}");
        // The replacement is a good cookie.
        assert_eq!(player(visit(addr, Some(&replacement)).await).await, new_id);
    }
}

#[tokio::test]
async fn the_key_file_is_created_private_and_reused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data").join("cookie.key");

    let key = CookieKey::load_or_create(&path).unwrap();
    assert!(path.exists());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "mode {mode:o}");
    }
    let contents = std::fs::read_to_string(&path).unwrap();
    assert_eq!(contents.trim().len(), 128, "hex key: {contents}");

    let before = spawn(PlayerIdentity::new(key)).await;
    let first = visit(before, None).await;
    let cookie = identity_cookie(&first);
    let id = player(first).await;

    // A restart reads the same key: the identity still verifies.
    let after = spawn(PlayerIdentity::new(
        CookieKey::load_or_create(&path).unwrap(),
    ))
    .await;
    let again = visit(after, Some(&cookie)).await;
    assert!(set_cookies(&again).is_empty());
    assert_eq!(player(again).await, id);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        contents,
        "untouched"
    );

    // A fresh key does not.
    let elsewhere = spawn(PlayerIdentity::new(CookieKey::generate())).await;
    assert_ne!(player(visit(elsewhere, Some(&cookie)).await).await, id);
}

/// A cookie of the format before the `cookie` crate: `<id>.<hex HMAC-SHA256>` over
/// `dicebound_player=<id>` under the whole 64-byte key.
fn previous_format_cookie(key: &[u8; 64], player: &PlayerId) -> String {
    use hmac::{Hmac, Mac};
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(key).unwrap();
    mac.update(format!("{COOKIE_NAME}={player}").as_bytes());
    let tag = hex::encode(mac.finalize().into_bytes());
    format!("{COOKIE_NAME}={player}.{tag}")
}

#[tokio::test]
async fn cookies_of_the_previous_format_keep_the_player_and_are_reissued() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cookie.key");
    let raw = [42u8; 64];
    std::fs::write(&path, hex::encode(raw)).unwrap();
    let addr = spawn(PlayerIdentity::new(
        CookieKey::load_or_create(&path).unwrap(),
    ))
    .await;
    let player_before = PlayerId::random(&mut rand::rng());

    let upgraded = visit(addr, Some(&previous_format_cookie(&raw, &player_before))).await;
    let reissued = identity_cookie(&upgraded);
    assert!(!reissued.contains('.'), "the new format: {reissued}");
    assert_eq!(player(upgraded).await, player_before);

    let again = visit(addr, Some(&reissued)).await;
    assert!(set_cookies(&again).is_empty());
    assert_eq!(player(again).await, player_before);

    // Signed with another key: a new player.
    let foreign = previous_format_cookie(&[43; 64], &player_before);
    assert_ne!(
        player(visit(addr, Some(&foreign)).await).await,
        player_before
    );
}

#[test]
fn a_malformed_key_file_is_an_error_and_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cookie.key");
    std::fs::write(&path, "too short").unwrap();
    let error = CookieKey::load_or_create(&path).unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::InvalidData);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "too short");

    let raw = [42u8; 64];
    std::fs::write(&path, raw).unwrap();
    assert!(CookieKey::load_or_create(Path::new(&path)).is_ok());
}

/// POST `/` with the given extra headers.
async fn post(addr: SocketAddr, headers: &[(&str, &str)]) -> Response {
    let mut request = Client::new().post(format!("http://{addr}/"));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().await.unwrap()
}

#[tokio::test]
async fn cross_site_posts_are_refused_and_same_site_ones_pass() {
    let addr = spawn(PlayerIdentity::new(CookieKey::generate())).await;
    let own = format!("http://{addr}");
    let own_https = format!("https://{addr}");

    let refused = post(addr, &[("origin", "https://evil.example")]).await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    assert!(
        set_cookies(&refused).is_empty(),
        "no identity for refused requests"
    );
    assert_eq!(refused.text().await.unwrap(), REFUSAL);

    let other_port = format!("http://127.0.0.1:{}", addr.port().wrapping_add(1));
    let refused = post(addr, &[("origin", other_port.as_str())]).await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    assert_eq!(post(addr, &[("origin", "null")]).await.status(), 403);

    let refused = post(addr, &[("sec-fetch-site", "cross-site")]).await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    assert_eq!(refused.text().await.unwrap(), REFUSAL);

    for headers in [
        &[("origin", own.as_str())][..],
        &[("origin", own_https.as_str())],
        &[("origin", own.as_str()), ("sec-fetch-site", "same-origin")],
        &[("sec-fetch-site", "same-origin")],
        &[("sec-fetch-site", "none")],
        &[],
    ] {
        let response = post(addr, headers).await;
        assert_eq!(response.status(), StatusCode::OK, "{headers:?}");
        player(response).await;
    }
}

#[tokio::test]
async fn gets_are_never_refused() {
    let addr = spawn(PlayerIdentity::new(CookieKey::generate())).await;
    let response = Client::new()
        .get(format!("http://{addr}/"))
        .header("origin", "https://evil.example")
        .header("sec-fetch-site", "cross-site")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    player(response).await;
}

fn key(fill: &str) -> CookieKey {
    CookieKey::from_secret(&CookieSecret::new(fill.repeat(64).into()).unwrap())
}

#[tokio::test]
async fn over_https_the_cookie_is_a_host_cookie_and_a_plain_one_is_reissued_as_one() {
    let plain = spawn(PlayerIdentity::new(key("a"))).await;
    let first = visit(plain, None).await;
    let cookie = identity_cookie(&first);
    let id = player(first).await;
    let https = spawn(PlayerIdentity::new(key("a")).secure(true)).await;

    let upgraded = visit(https, Some(&cookie)).await;

    let issued = set_cookies(&upgraded);
    assert_eq!(issued.len(), 1, "{issued:?}");
    let host_cookie = &issued[0];
    assert!(
        host_cookie.starts_with(&format!("{HOST_COOKIE_NAME}=")),
        "{host_cookie}"
    );
    for attribute in ["Secure", "Path=/", "HttpOnly"] {
        assert!(host_cookie.contains(attribute), "{host_cookie}");
    }
    assert!(!host_cookie.contains("Domain"), "{host_cookie}");
    assert_eq!(player(upgraded).await, id);
    let pair = host_cookie.split(';').next().unwrap();
    let again = visit(https, Some(pair)).await;
    assert!(set_cookies(&again).is_empty(), "a host cookie is kept");
    assert_eq!(player(again).await, id);
}

#[tokio::test]
async fn a_rotated_key_keeps_every_player_and_reissues_their_cookies() {
    let before = spawn(PlayerIdentity::new(key("old"))).await;
    let first = visit(before, None).await;
    let cookie = identity_cookie(&first);
    let id = player(first).await;

    let rotating = spawn(PlayerIdentity::new(key("new")).rotated_from(vec![key("old")])).await;
    let reissued = visit(rotating, Some(&cookie)).await;
    let cookie = identity_cookie(&reissued);
    assert_eq!(player(reissued).await, id);

    let after = spawn(PlayerIdentity::new(key("new"))).await;
    let again = visit(after, Some(&cookie)).await;
    assert!(set_cookies(&again).is_empty(), "signed with the new key");
    assert_eq!(player(again).await, id);
    let stranger = spawn(PlayerIdentity::new(key("other")).rotated_from(vec![key("new")])).await;
    assert_ne!(
        player(visit(stranger, Some(&identity_cookie(&visit(before, None).await))).await).await,
        id,
        "a key not rotated from is not trusted"
    );
}
