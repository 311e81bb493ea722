//! Resources that decode with the same JSON reader as the server functions.
//!
//! A server function's answer is read with `serde_json::from_slice`, and Leptos's default
//! resource codec reads the same types with `serde_json::from_str`: every type a page loads
//! then compiles its JSON decoder twice into the browser's wasm. [`WireJson`] reads a
//! resource's serialised value from its bytes, so one decoder path serves both.

use codee::{Decoder, Encoder};
use leptos::prelude::*;
use serde::{de::DeserializeOwned, Serialize};

/// JSON both ways, decoded from bytes (the server functions' reader).
pub struct WireJson;

impl<T: Serialize> Encoder<T> for WireJson {
    type Error = serde_json::Error;
    type Encoded = String;

    fn encode(value: &T) -> Result<String, Self::Error> {
        serde_json::to_string(value)
    }
}

impl<T: DeserializeOwned> Decoder<T> for WireJson {
    type Error = serde_json::Error;
    type Encoded = str;

    fn decode(text: &str) -> Result<T, Self::Error> {
        decode(text)
    }
}

/// Reads a JSON value from its bytes: the one decoder path of the browser's code (live
/// updates and streamed turns go through it too).
pub fn decode<T: DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    serde_json::from_slice(text.as_bytes())
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
