//! The address each request comes from, for the rate limits that a new cookie does not reset.
//!
//! It is the connection's peer, unless the peer is one of the operator's [`TrustedProxies`]
//! (`DICEBOUND_TRUSTED_PROXIES`): then it is read from `X-Forwarded-For`, right to left, as the
//! first address that is not a trusted proxy. Entries to the left of it were written by the
//! client and are never believed, so a client cannot name itself a fresh address; without the
//! setting the header is ignored altogether. [`client_address`] puts the result into the
//! request's extensions as a [`ClientAddress`] (IPv6 clients counted by their /64).

use std::net::{IpAddr, SocketAddr};
use std::str::FromStr;
use std::sync::{Arc, Once};

use app::service::ClientAddress;
use axum::{
    extract::{ConnectInfo, Request, State},
    http::HeaderMap,
    middleware::Next,
    response::Response,
};
use ipnet::IpNet;

/// The forwarded-for header proxies (nginx, Caddy, HAProxy) append the address they serve to.
const X_FORWARDED_FOR: &str = "x-forwarded-for";

/// The reverse proxies whose `X-Forwarded-For` is believed: addresses and networks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrustedProxies(Arc<Vec<IpNet>>);

/// An entry of `DICEBOUND_TRUSTED_PROXIES` that is neither an IP address nor a network.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error(
    "DICEBOUND_TRUSTED_PROXIES must list IP addresses or networks (10.0.0.0/8, ::1), \
     not {0:?}"
)]
pub struct BadProxy(pub String);

impl FromStr for TrustedProxies {
    type Err = BadProxy;

    /// Comma-separated addresses (`127.0.0.1`, `::1`) and networks (`10.0.0.0/8`).
    fn from_str(list: &str) -> Result<Self, BadProxy> {
        list.split(',')
            .map(str::trim)
            .filter(|entry| !entry.is_empty())
            .map(|entry| {
                entry
                    .parse::<IpNet>()
                    .or_else(|_| entry.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| BadProxy(entry.to_owned()))
            })
            .collect::<Result<_, _>>()
            .map(|nets| Self(Arc::new(nets)))
    }
}

impl TrustedProxies {
    /// Whether `address` is one of the trusted proxies.
    fn trusts(&self, address: IpAddr) -> bool {
        let address = address.to_canonical();
        self.0.iter().any(|net| net.contains(&address))
    }

    /// Whether no proxy is trusted.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The client of a request from `peer` with these headers: `peer` itself unless it is
    /// trusted; else, walking `X-Forwarded-For` from the right, the first address that is not a
    /// trusted proxy (the left-most, if all are). An entry that is not an address stops the
    /// walk at the proxy that passed it on.
    pub fn client_of(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let mut client = peer.to_canonical();
        if !self.trusts(client) {
            return client;
        }
        let hops: Vec<&str> = headers
            .get_all(X_FORWARDED_FOR)
            .iter()
            .flat_map(|value| value.to_str().unwrap_or_default().split(','))
            .collect();
        for hop in hops.into_iter().rev() {
            let Some(address) = forwarded_address(hop) else {
                break;
            };
            client = address;
            if !self.trusts(address) {
                break;
            }
        }
        client
    }
}

/// The address of an `X-Forwarded-For` entry (`192.0.2.1`, `2001:db8::1`, with or without a
/// port: `192.0.2.1:5000`, `[2001:db8::1]:5000`).
fn forwarded_address(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim();
    hop.parse::<IpAddr>()
        .or_else(|_| hop.parse::<SocketAddr>().map(|socket| socket.ip()))
        .ok()
        .map(|address| address.to_canonical())
}

/// Middleware: puts the request's [`ClientAddress`] into its extensions (see the module's
/// documentation). The connection loop provides the peer's address as [`ConnectInfo`].
///
/// Use with `axum::middleware::from_fn_with_state(proxies, client_address)`.
pub async fn client_address(
    State(proxies): State<TrustedProxies>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    mut request: Request,
    next: Next,
) -> Response {
    let client = proxies.client_of(peer.ip(), request.headers());
    if !proxies.trusts(peer.ip()) && request.headers().contains_key(X_FORWARDED_FOR) {
        warn_of_an_untrusted_proxy(peer.ip());
    }
    request.extensions_mut().insert(ClientAddress::from(client));
    next.run(request).await
}

/// Logs, once, that a peer that is not trusted sent `X-Forwarded-For`: if it is the operator's
/// proxy, every player behind it shares one address's allowance.
fn warn_of_an_untrusted_proxy(peer: IpAddr) {
    static WARNED: Once = Once::new();
    WARNED.call_once(|| {
        tracing::warn!(
            %peer,
            "a request came with X-Forwarded-For from an address that is not a trusted proxy, \
             so the header was ignored; if this is your reverse proxy, every player behind it \
             shares one address's rate limits: list it in DICEBOUND_TRUSTED_PROXIES"
        );
    });
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn forwarded(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append(X_FORWARDED_FOR, HeaderValue::from_str(value).unwrap());
        }
        headers
    }

    fn trusting(list: &str) -> TrustedProxies {
        list.parse().unwrap()
    }

    #[test]
    fn without_trusted_proxies_the_header_is_ignored() {
        let spoofed = forwarded(&["203.0.113.9"]);
        assert_eq!(
            TrustedProxies::default().client_of(ip("198.51.100.1"), &spoofed),
            ip("198.51.100.1")
        );
        let proxies = trusting("10.0.0.1");
        assert_eq!(
            proxies.client_of(ip("198.51.100.1"), &spoofed),
            ip("198.51.100.1"),
            "a peer that is not the proxy"
        );
    }

    #[test]
    fn behind_trusted_proxies_the_right_most_untrusted_address_is_the_client() {
        let proxies = trusting("10.0.0.0/8, ::1");
        let peer = ip("10.0.0.1");
        for (header, client) in [
            (&["203.0.113.9"][..], "203.0.113.9"),
            (&["198.51.100.7, 203.0.113.9"], "203.0.113.9"),
            (&["198.51.100.7", "203.0.113.9, 10.0.0.2"], "203.0.113.9"),
            (&["203.0.113.9:5000"], "203.0.113.9"),
            (&["[2001:db8::1]:443"], "2001:db8::1"),
            (&["::ffff:203.0.113.9"], "203.0.113.9"),
            (&["10.1.1.1, 10.0.0.2"], "10.1.1.1"),
            (&["203.0.113.9, unknown"], "10.0.0.1"),
            (&["203.0.113.9, unknown, 10.0.0.2"], "10.0.0.2"),
            (&[], "10.0.0.1"),
        ] {
            assert_eq!(
                proxies.client_of(peer, &forwarded(header)),
                ip(client),
                "{header:?}"
            );
        }
        let mapped_peer = ip("::ffff:10.0.0.1");
        assert_eq!(
            proxies.client_of(mapped_peer, &forwarded(&["203.0.113.9"])),
            ip("203.0.113.9")
        );
        assert_eq!(
            proxies.client_of(ip("::1"), &forwarded(&["2001:db8::7"])),
            ip("2001:db8::7")
        );
    }

    #[test]
    fn the_setting_lists_addresses_and_networks() {
        assert_eq!(trusting(""), TrustedProxies::default());
        let proxies = trusting(" 127.0.0.1 ,fd00::/8,");
        assert!(proxies.trusts(ip("127.0.0.1")) && proxies.trusts(ip("fd12::3")));
        assert!(!proxies.trusts(ip("127.0.0.2")));
        for bad in ["localhost", "10.0.0.0/33", "10.0.0.1:80"] {
            assert_eq!(bad.parse::<TrustedProxies>(), Err(BadProxy(bad.to_owned())));
        }
    }
}
