//! Refuses state-changing requests that come from another site (cross-site request forgery).
//!
//! The rule, applied by [`refuse_cross_site`] to every method except `GET`, `HEAD` and
//! `OPTIONS` (which must not change state, and are never blocked):
//!
//! 1. If the request has an `Origin` header, it must name this server: scheme `http` or `https`
//!    (either is accepted, since behind a TLS-terminating proxy the server cannot tell which the
//!    browser used), and the same host and port as the request's `Host` header (or, in HTTP/2,
//!    its `:authority`). Hosts compare case-insensitively; a missing port means the scheme's
//!    default (80 or 443), and a `Host` without a port matches the default port of the
//!    `Origin`'s scheme. Anything else — another host or port, `null` (sandboxed frames,
//!    `file:` pages), another scheme, or a request with no host to compare to — is refused.
//! 2. Without `Origin`, a `Sec-Fetch-Site: cross-site` header is refused.
//! 3. Otherwise the request passes: non-browser clients (curl, tests) send neither header,
//!    and every current browser sends `Origin` with every `POST`.
//!
//! A refusal is `403 Forbidden` with the plain-text body [`REFUSAL`].
//!
//! Behind a reverse proxy, the proxy must pass the browser's `Host` through unchanged (nginx:
//! `proxy_set_header Host $host;`), otherwise every browser `POST` is refused.

use axum::{
    extract::Request,
    http::{header, uri::Authority, HeaderMap, Method, StatusCode},
    middleware::Next,
    response::{IntoResponse, Response},
};

/// The body of a refused request's `403 Forbidden` response.
pub const REFUSAL: &str = "Cross-site request refused";

/// Middleware: answers `403 Forbidden` to state-changing requests from another site (see the
/// module documentation for the exact rule) and passes everything else on.
///
/// Use with `axum::middleware::from_fn(refuse_cross_site)`.
pub async fn refuse_cross_site(request: Request, next: Next) -> Response {
    if is_cross_site(&request) {
        tracing::warn!(
            method = %request.method(),
            path = request.uri().path(),
            origin = ?request.headers().get(header::ORIGIN),
            "refused a cross-site request"
        );
        return (StatusCode::FORBIDDEN, REFUSAL).into_response();
    }
    next.run(request).await
}

/// Whether the request changes state and comes from another site.
fn is_cross_site(request: &Request) -> bool {
    let method = request.method();
    if method == Method::GET || method == Method::HEAD || method == Method::OPTIONS {
        return false;
    }
    let headers = request.headers();
    let mut origins = headers.get_all(header::ORIGIN).iter().peekable();
    if origins.peek().is_some() {
        let Some(own) = own_authority(request) else {
            return true;
        };
        return !origins.all(|origin| origin.to_str().is_ok_and(|o| same_origin(o, &own)));
    }
    fetched_cross_site(headers)
}

/// The authority the client addressed: the `Host` header, or the URI's (HTTP/2 `:authority`).
fn own_authority(request: &Request) -> Option<Authority> {
    match request.headers().get(header::HOST) {
        Some(host) => host.to_str().ok()?.parse().ok(),
        None => request.uri().authority().cloned(),
    }
}

/// Whether the serialized origin `origin` (`scheme://host[:port]`) names the server at `own`.
fn same_origin(origin: &str, own: &Authority) -> bool {
    let Some((scheme, rest)) = origin.split_once("://") else {
        return false;
    };
    let default_port = match scheme.to_ascii_lowercase().as_str() {
        "http" => 80,
        "https" => 443,
        _ => return false,
    };
    if rest.contains(['@', '/', '?', '#']) {
        return false;
    }
    let Ok(authority) = rest.parse::<Authority>() else {
        return false;
    };
    let origin_port = authority.port_u16().unwrap_or(default_port);
    let own_port = own.port_u16().unwrap_or(default_port);
    authority.host().eq_ignore_ascii_case(own.host()) && origin_port == own_port
}

/// Whether the browser says the request was made by another site (`Sec-Fetch-Site`).
fn fetched_cross_site(headers: &HeaderMap) -> bool {
    headers
        .get_all("sec-fetch-site")
        .iter()
        .any(|value| value.as_bytes().eq_ignore_ascii_case(b"cross-site"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(method: Method, headers: &[(&str, &str)]) -> Request {
        let mut builder = Request::builder().method(method).uri("/api/x");
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        builder.body(axum::body::Body::empty()).unwrap()
    }

    #[test]
    fn origins_match_the_host_by_host_and_port_in_either_scheme() {
        let own = |host: &str| host.parse::<Authority>().unwrap();
        for (origin, host) in [
            ("http://example.com", "example.com"),
            ("https://example.com", "example.com"),
            ("https://Example.COM", "example.com"),
            ("https://example.com", "example.com:443"),
            ("http://example.com", "example.com:80"),
            ("http://127.0.0.1:3000", "127.0.0.1:3000"),
            ("https://127.0.0.1:3000", "127.0.0.1:3000"),
            ("http://[::1]:3000", "[::1]:3000"),
        ] {
            assert!(same_origin(origin, &own(host)), "{origin} vs {host}");
        }
        for (origin, host) in [
            ("https://evil.example", "example.com"),
            ("https://example.com.evil.example", "example.com"),
            ("http://example.com:8080", "example.com"),
            ("http://example.com", "example.com:8080"),
            ("http://127.0.0.1:3001", "127.0.0.1:3000"),
            ("null", "example.com"),
            ("", "example.com"),
            ("example.com", "example.com"),
            ("ftp://example.com", "example.com"),
            ("chrome-extension://example.com", "example.com"),
            ("https://user@example.com", "example.com"),
            ("https://example.com/", "example.com"),
        ] {
            assert!(!same_origin(origin, &own(host)), "{origin} vs {host}");
        }
    }

    #[test]
    fn only_unsafe_cross_site_requests_are_refused() {
        let foreign = [("host", "a.test"), ("origin", "https://b.test")];
        let same = [("host", "a.test"), ("origin", "https://a.test")];
        for method in [Method::GET, Method::HEAD, Method::OPTIONS] {
            assert!(!is_cross_site(&request(method, &foreign)));
        }
        for method in [Method::POST, Method::PUT, Method::PATCH, Method::DELETE] {
            assert!(is_cross_site(&request(method.clone(), &foreign)));
            assert!(!is_cross_site(&request(method, &same)));
        }
        let post = |headers: &[(&str, &str)]| is_cross_site(&request(Method::POST, headers));
        assert!(!post(&[("host", "a.test")]), "neither header: curl");
        assert!(post(&[("origin", "https://a.test")]), "no host to compare");
        assert!(post(&[
            ("host", "a.test"),
            ("origin", "https://a.test"),
            ("origin", "https://b.test"),
        ]));
        assert!(post(&[
            ("host", "a.test"),
            ("sec-fetch-site", "cross-site")
        ]));
        for site in ["same-origin", "same-site", "none"] {
            assert!(!post(&[("host", "a.test"), ("sec-fetch-site", site)]));
        }
        // Origin decides when present.
        assert!(!post(&[
            ("host", "a.test"),
            ("origin", "https://a.test"),
            ("sec-fetch-site", "cross-site"),
        ]));
    }

    #[test]
    fn http2_requests_use_the_uri_authority() {
        let request = Request::builder()
            .method(Method::POST)
            .uri("https://a.test/api/x")
            .header("origin", "https://a.test")
            .body(axum::body::Body::empty())
            .unwrap();
        assert!(!is_cross_site(&request));
    }
}
