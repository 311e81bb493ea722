//! The HTTP status of a server function's error. server_fn sends every error of a server
//! function with `500` and the [`AppError`] as its JSON body; the middleware here reads that
//! (small) body and gives the answer the status its kind means, with `Retry-After` when the
//! player went too fast. The browser's server_fn code reads an error body from any `4xx` or
//! `5xx` answer, so the page sees the same error as before.
//!
//! | kind | status | why |
//! |---|---|---|
//! | not found | `404` | the campaign does not exist, or is someone else's |
//! | invalid | `422` | the request was read, and what it asks is refused; `400` is kept for a request the server could not read at all |
//! | stale | `409` | the campaign moved on since the browser saw it |
//! | busy | `409` | a turn of the campaign is being played (RFC 9110's conflict; `423` is WebDAV's) |
//! | limited | `429` + `Retry-After` | the player's or the address's allowance is spent |
//! | too slow | `504` | the game master's model, behind this server, did not answer in time |
//! | game master unavailable | `502` | that model failed; the server itself is well (as `504`, a gateway's status) |
//! | storage unavailable | `503` | this server cannot reach its own database right now |
//! | not allowed | `403` | the sender may not change the server's settings |
//! | transport | `400` | a request the server could not read (its arguments malformed), or one without the player cookie |

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use http_body::Body as _;
use leptos::server_fn::error::SERVER_FN_ERROR_HEADER;

use app::wire::errors::AppError;

/// The largest error body read to find its kind; a server function's error is a few hundred
/// bytes, a larger body is passed on as it is.
const MAX_ERROR_BODY: u64 = 64 * 1024;

/// The HTTP status an error of this kind is sent with (see the table of the module).
pub fn status_of(error: &AppError) -> StatusCode {
    match error {
        AppError::NotFound => StatusCode::NOT_FOUND,
        AppError::Stale { .. } | AppError::Busy => StatusCode::CONFLICT,
        AppError::Invalid { .. } => StatusCode::UNPROCESSABLE_ENTITY,
        AppError::Limited { .. } => StatusCode::TOO_MANY_REQUESTS,
        AppError::TooSlow { .. } => StatusCode::GATEWAY_TIMEOUT,
        AppError::GameMasterUnavailable { .. } => StatusCode::BAD_GATEWAY,
        AppError::StorageUnavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
        AppError::NotAllowed { .. } => StatusCode::FORBIDDEN,
        AppError::Transport { .. } => StatusCode::BAD_REQUEST,
    }
}

/// Middleware: a server function's error (the `500` server_fn marks with its error header)
/// leaves with its kind's status ([`status_of`]), and a refusal for going too fast with
/// `Retry-After` in seconds. Every other answer passes untouched, a streamed one unread.
pub async fn error_statuses(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    if response.status() != StatusCode::INTERNAL_SERVER_ERROR
        || !response.headers().contains_key(SERVER_FN_ERROR_HEADER)
    {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    // Only a body known to be small is read: one of unknown length is passed on unread.
    if body
        .size_hint()
        .upper()
        .is_none_or(|size| size > MAX_ERROR_BODY)
    {
        return Response::from_parts(parts, body);
    }
    let bytes = match axum::body::to_bytes(body, usize::MAX).await {
        Ok(bytes) => bytes,
        Err(error) => {
            tracing::warn!(%error, "a server function's error body could not be read");
            return Response::from_parts(parts, Body::from(Bytes::new()));
        }
    };
    if let Ok(error) = serde_json::from_slice::<AppError>(&bytes) {
        parts.status = status_of(&error);
        if let AppError::Limited { retry_after_secs } = error {
            parts
                .headers
                .insert(header::RETRY_AFTER, HeaderValue::from(retry_after_secs));
        }
    }
    Response::from_parts(parts, Body::from(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::routing::post;
    use axum::Router;
    use tower::ServiceExt;

    /// One error of each kind, with the status it must leave with. The `match` in
    /// [`status_of`] has no wildcard, so a new kind fails to compile until it has a status;
    /// this list is checked against it to keep the choice written down here too.
    fn every_kind() -> Vec<(AppError, u16)> {
        vec![
            (AppError::NotFound, 404),
            (AppError::Stale { current: 3 }, 409),
            (AppError::invalid("title", "is too long"), 422),
            (AppError::Busy, 409),
            (
                AppError::Limited {
                    retry_after_secs: 7,
                },
                429,
            ),
            (AppError::TooSlow { seconds: 180 }, 504),
            (
                AppError::GameMasterUnavailable {
                    retryable: true,
                    request_id: "0badcafe".into(),
                },
                502,
            ),
            (
                AppError::StorageUnavailable {
                    request_id: "0badcafe".into(),
                },
                503,
            ),
            (
                AppError::NotAllowed {
                    reason: "the admin token".into(),
                },
                403,
            ),
            (
                AppError::Transport {
                    message: "The request was malformed".into(),
                },
                400,
            ),
        ]
    }

    #[test]
    fn every_kind_has_its_status() {
        for (error, status) in every_kind() {
            assert_eq!(status_of(&error).as_u16(), status, "{error:?}");
        }
    }

    /// A router whose one route answers as server_fn answers an error: `500`, its header,
    /// the error as JSON; and another that answers `500` without the header.
    fn router(error: AppError) -> Router {
        let body = serde_json::to_string(&error).unwrap();
        Router::new()
            .route(
                "/api/fails",
                post(move || async move {
                    Response::builder()
                        .status(500)
                        .header(SERVER_FN_ERROR_HEADER, "/api/fails")
                        .header(header::CONTENT_TYPE, "application/json")
                        .body(Body::from(body))
                        .unwrap()
                }),
            )
            .route(
                "/api/crashes",
                post(|| async { (StatusCode::INTERNAL_SERVER_ERROR, "{\"kind\":\"busy\"}") }),
            )
            .layer(axum::middleware::from_fn(error_statuses))
    }

    async fn call(router: Router, path: &str) -> Response {
        let request = Request::post(path).body(Body::empty()).unwrap();
        router.oneshot(request).await.unwrap()
    }

    #[tokio::test]
    async fn a_server_functions_error_leaves_with_its_status_and_the_same_body() {
        for (error, status) in every_kind() {
            let response = call(router(error.clone()), "/api/fails").await;
            assert_eq!(response.status().as_u16(), status, "{error:?}");
            let retry_after = response.headers().get(header::RETRY_AFTER).cloned();
            let body = axum::body::to_bytes(response.into_body(), usize::MAX)
                .await
                .unwrap();
            let sent: AppError = serde_json::from_slice(&body).unwrap();
            assert_eq!(sent, error);
            let expected = matches!(error, AppError::Limited { .. }).then(|| "7".to_owned());
            assert_eq!(
                retry_after.map(|value| value.to_str().unwrap().to_owned()),
                expected
            );
        }
    }

    #[tokio::test]
    async fn a_500_that_is_not_a_server_functions_error_is_left_alone() {
        let response = call(router(AppError::NotFound), "/api/crashes").await;
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
    }
}
