//! Resources that decode with the same JSON reader as the server functions.
//!
//! A server function's answer is read with [`decode`] (`wire/codec.rs`), and Leptos's default
//! resource codec would read the same types with `serde_json::from_str`: every type a page loads
//! would then compile two JSON readers into the browser's wasm. [`WireJson`] reads a resource's
//! serialised value with [`decode`] too, so one reader serves both.

use codee::{Decoder, Encoder};
use leptos::prelude::*;
use serde::{de::DeserializeOwned, Serialize};

use crate::wire::codec::{decode, DecodeError};

/// JSON both ways, read with the server functions' reader ([`decode`]).
pub struct WireJson;

impl<T: Serialize> Encoder<T> for WireJson {
    type Error = serde_json::Error;
    type Encoded = String;

    fn encode(value: &T) -> Result<String, Self::Error> {
        serde_json::to_string(value)
    }
}

impl<T: DeserializeOwned> Decoder<T> for WireJson {
    type Error = DecodeError;
    type Encoded = str;

    fn decode(text: &str) -> Result<T, Self::Error> {
        decode(text)
    }
}

/// A resource loaded on the server and hydrated with [`WireJson`].
pub type WireResource<T> = Resource<T, WireJson>;

/// A resource that reloads when `source` changes (as `Resource::new`), decoded with [`WireJson`].
pub fn wire_resource<T, S, Fut>(
    source: impl Fn() -> S + Send + Sync + 'static,
    fetcher: impl Fn(S) -> Fut + Send + Sync + 'static,
) -> WireResource<T>
where
    T: Serialize + DeserializeOwned + Send + Sync + 'static,
    S: PartialEq + Clone + Send + Sync + 'static,
    Fut: std::future::Future<Output = T> + Send + 'static,
{
    Resource::new_with_options(source, fetcher, false)
}
