//! Serves only the host names the server is meant to be reached at, so that a page on another
//! name that resolves to this machine (DNS rebinding) cannot drive the game: `localhost`, any IP
//! address (a literal address cannot be rebound), and the configured public hosts. Any other
//! `Host` is answered `421 Misdirected Request`.

use std::net::IpAddr;
use std::sync::Arc;

use axum::{
    extract::{Request, State},
    http::{header, uri::Authority, StatusCode},
    middleware::Next,
    response::{IntoResponse, Response},
};

/// The body of a refused request's `421` answer.
pub const MISDIRECTED: &str = "This server does not serve that host name";

/// The host names served besides `localhost` and IP addresses (lower case, without port).
#[derive(Clone, Debug, Default)]
pub struct AllowedHosts(Arc<Vec<String>>);

impl AllowedHosts {
    /// These public host names (`dice.example.org`; a port, if given, is ignored).
    pub fn new(hosts: &[String]) -> Self {
        let names = hosts
            .iter()
            .filter_map(|host| host.parse::<Authority>().ok())
            .map(|authority| authority.host().to_ascii_lowercase())
            .collect();
        Self(Arc::new(names))
    }

    /// Whether a request addressed to `authority` is served.
    pub fn allows(&self, authority: &Authority) -> bool {
        let host = authority.host().to_ascii_lowercase();
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        host == "localhost" || bare.parse::<IpAddr>().is_ok() || self.0.contains(&host)
    }
}

/// Middleware: answers `421` to a request for a host name this server does not serve, or with
/// no host at all.
pub async fn refuse_foreign_host(
    State(allowed): State<AllowedHosts>,
    request: Request,
    next: Next,
) -> Response {
    let authority = match request.headers().get(header::HOST) {
        Some(host) => host.to_str().ok().and_then(|host| host.parse().ok()),
        None => request.uri().authority().cloned(),
    };
    if authority.is_some_and(|authority| allowed.allows(&authority)) {
        return next.run(request).await;
    }
    tracing::warn!(host = ?request.headers().get(header::HOST), "refused a foreign host");
    (StatusCode::MISDIRECTED_REQUEST, MISDIRECTED).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allows(hosts: &[&str], host: &str) -> bool {
        let hosts: Vec<String> = hosts.iter().map(|h| (*h).to_owned()).collect();
        AllowedHosts::new(&hosts).allows(&host.parse().unwrap())
    }

    #[test]
    fn localhost_addresses_and_configured_names_are_served_and_no_other_name() {
        for served in [
            "localhost:3000",
            "127.0.0.1:3000",
            "[::1]:3000",
            "10.0.0.5",
            "LOCALHOST",
        ] {
            assert!(allows(&[], served), "{served}");
        }
        assert!(allows(&["Dice.Example.org"], "dice.example.org:443"));
        for refused in [
            "evil.example",
            "localhost.evil.example",
            "127.0.0.1.nip.io:3000",
        ] {
            assert!(!allows(&["dice.example.org"], refused), "{refused}");
        }
    }
}
