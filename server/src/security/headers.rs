//! Response headers every answer carries: no content-type sniffing, no referrer sent to links
//! the model wrote, and no caching of anything but the built assets (pages and server function
//! answers carry a player's campaign).

use axum::extract::Request;
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use tower_http::compression::predicate::{DefaultPredicate, NotForContentType, Predicate};
use tower_http::compression::CompressionLayer;
use tower_http::set_header::SetResponseHeaderLayer;

/// Where the built, fingerprint-free assets are served (wasm, JS, CSS): cacheable.
const ASSETS: &str = "/pkg/";

/// `X-Content-Type-Options: nosniff` on every answer.
pub fn nosniff() -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    )
}

/// `Referrer-Policy: no-referrer` on every answer.
pub fn no_referrer() -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    )
}

/// `Cache-Control: no-store` on every answer but the assets'; an asset whose name carries its
/// content's hash (`dicebound.BcWtNtYeII_DwiCKhm3rnw.wasm`, a release build) may be kept for a
/// year, as it never changes under that name. Except the JS module that starts the wasm: the
/// split build rewrites it after its name was hashed (it imports the chunks' loader by the
/// loader's final name), so a browser asks again whether it changed.
pub async fn no_store(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let cache = match path.strip_prefix(ASSETS) {
        Some(name) if hashed(name) && rewritten_after_hashing(name) => Some("no-cache"),
        Some(name) if hashed(name) => Some("public, max-age=31536000, immutable"),
        Some(_) => None,
        // A picture is served with its own long-lived caching (its id is its digest).
        None if path.starts_with(crate::pictures::PICTURES_PATH) => None,
        None => Some("no-store"),
    };
    let mut response = next.run(request).await;
    if let Some(cache) = cache {
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    }
    response
}

/// Whether a file name has a content hash between its name and its extension (cargo-leptos
/// writes 22 characters of base64url).
fn hashed(name: &str) -> bool {
    let parts: Vec<&str> = name.split('.').collect();
    parts.len() >= 3
        && parts[1].len() >= 16
        && parts[1]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Whether `name` is the main JS module, which the build rewrites after hashing its name (the
/// chunks' loader, `__wasm_split.<hash>.js`, is hashed again once rewritten).
fn rewritten_after_hashing(name: &str) -> bool {
    let name = name.trim_end_matches(".br").trim_end_matches(".gz");
    name.ends_with(".js") && !name.starts_with("__wasm_split.")
}

/// Pages and server function answers compressed (brotli or gzip, as the browser accepts), except
/// the streamed ones (sent as `application/octet-stream` or `text/plain`): a turn's narration
/// must reach the player as it is written, and a compressor holds text back until it has enough.
/// Assets already compressed at build keep their encoding.
pub fn compress_dynamic() -> CompressionLayer<impl Predicate> {
    let predicate = DefaultPredicate::new()
        .and(NotForContentType::const_new("application/octet-stream"))
        .and(NotForContentType::const_new("text/plain"));
    CompressionLayer::new().compress_when(predicate)
}

#[cfg(test)]
mod tests {
    use super::hashed;

    #[test]
    fn only_names_with_a_content_hash_count_as_hashed() {
        assert!(hashed("dicebound.BcWtNtYeII_DwiCKhm3rnw.wasm"));
        assert!(hashed("dicebound.8smBAXeDwtzEEsvhZmpSHQ.js.br"));
        assert!(!hashed("dicebound.wasm"));
        assert!(!hashed("dicebound.wasm.gz"));
        assert!(!hashed("dicebound.d.ts"));
        assert!(!hashed("dicebound.not/a-hash!!!!!!!!!!!.js"));
    }

    #[test]
    fn only_the_main_js_module_is_asked_for_again() {
        use super::rewritten_after_hashing;
        assert!(rewritten_after_hashing(
            "dicebound.8smBAXeDwtzEEsvhZmpSHQ.js"
        ));
        assert!(rewritten_after_hashing(
            "dicebound.8smBAXeDwtzEEsvhZmpSHQ.js.br"
        ));
        assert!(!rewritten_after_hashing(
            "__wasm_split.oE9JlX0ke_LtfPFLR9VbGw.js"
        ));
        assert!(!rewritten_after_hashing(
            "dicebound.gsR-KAjQq5C0CUcoJ1ijlw.wasm"
        ));
        assert!(!rewritten_after_hashing(
            "chunk_5.PW-4s6aTgroYzTxCTUju5Q.wasm"
        ));
    }
}
