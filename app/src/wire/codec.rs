//! The one JSON reader of the browser's code: server functions' answers, resources, streamed
//! turns and live updates all decode through [`decode`].
//!
//! In the browser, the text is parsed by the browser's own `JSON.parse` and the value read into
//! its Rust type by `serde-wasm-bindgen`: serde's generated reader of each type then walks a
//! parsed value instead of carrying `serde_json`'s text parser inlined into it, which made every
//! wire type cost several KiB of the page (issue 50). The server (and native tests) read with
//! `serde_json`. Both sides write with `serde_json`, so what travels is unchanged.

use leptos::server_fn::codec::Post;
use leptos::server_fn::{Bytes, ContentType, Decodes, Encodes, Format, FormatType};
use serde::{de::DeserializeOwned, Serialize};

/// JSON in a `POST` body, read with [`decode`]: every server function's answer.
pub type Wire = Post<WireEncoding>;

/// JSON both ways, written by `serde_json` and read by [`decode`].
pub struct WireEncoding;

impl ContentType for WireEncoding {
    const CONTENT_TYPE: &'static str = "application/json";
}

impl FormatType for WireEncoding {
    const FORMAT_TYPE: Format = Format::Text;
}

impl<T: Serialize> Encodes<T> for WireEncoding {
    type Error = serde_json::Error;

    fn encode(output: &T) -> Result<Bytes, Self::Error> {
        serde_json::to_vec(output).map(Bytes::from)
    }
}

impl<T: DeserializeOwned> Decodes<T> for WireEncoding {
    type Error = DecodeError;

    fn decode(bytes: Bytes) -> Result<T, Self::Error> {
        let text = std::str::from_utf8(&bytes).map_err(|_| DecodeError::NotText)?;
        decode(text)
    }
}

/// Why a JSON text could not be read as the type asked for.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    /// The bytes are not UTF-8.
    #[error("the answer is not text")]
    NotText,
    /// The text is not JSON (the browser's parser refused it).
    #[error("the answer is not JSON")]
    NotJson,
    /// The text is JSON, but not of the expected shape (or, on the server, not JSON).
    #[error(transparent)]
    Shape(#[from] ShapeError),
}

/// The reader's own account of a value of the wrong shape.
#[cfg(target_arch = "wasm32")]
pub type ShapeError = serde_wasm_bindgen::Error;

/// The reader's own account of a value of the wrong shape.
#[cfg(not(target_arch = "wasm32"))]
pub type ShapeError = serde_json::Error;

/// Reads a value of `T` from a JSON text.
#[cfg(target_arch = "wasm32")]
pub fn decode<T: DeserializeOwned>(text: &str) -> Result<T, DecodeError> {
    let value = web_sys::js_sys::JSON::parse(text).map_err(|_| DecodeError::NotJson)?;
    Ok(serde_wasm_bindgen::from_value(value)?)
}

/// Reads a value of `T` from a JSON text.
#[cfg(not(target_arch = "wasm32"))]
pub fn decode<T: DeserializeOwned>(text: &str) -> Result<T, DecodeError> {
    Ok(serde_json::from_str(text)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::errors::AppError;

    #[test]
    fn an_answer_travels_as_serde_json_writes_it_and_reads_back_the_same() {
        let error = AppError::Stale { current: 3 };
        let bytes = <WireEncoding as Encodes<AppError>>::encode(&error).unwrap();
        assert_eq!(bytes, serde_json::to_vec(&error).unwrap());
        let read: AppError = <WireEncoding as Decodes<AppError>>::decode(bytes).unwrap();
        assert_eq!(read, error);
    }

    #[test]
    fn bytes_that_are_not_text_or_not_of_the_shape_are_refused() {
        let not_text = Bytes::from_static(&[0xff, 0xfe]);
        assert!(matches!(
            <WireEncoding as Decodes<AppError>>::decode(not_text),
            Err(DecodeError::NotText)
        ));
        assert!(matches!(
            decode::<AppError>(r#"{"stale": {"current": "three"}}"#),
            Err(DecodeError::Shape(_))
        ));
    }
}
