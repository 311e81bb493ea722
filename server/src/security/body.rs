//! Request body limits: a few tens of KB for every server function, except a campaign file
//! being imported. A body over its limit is refused with `413` and an error the page can show.

use axum::{
    body::Body,
    extract::Request,
    http::{header, StatusCode},
    middleware::Next,
    response::{IntoResponse, Response},
};
use http_body_util::Limited;
use leptos::server_fn::ServerFn;

/// The most bytes a request body may have.
pub const BODY_LIMIT: usize = 64 * 1024;

/// The most bytes of a campaign file to import.
pub const IMPORT_LIMIT: usize = app::api::import_campaign::MAX_IMPORT_BYTES;

/// The most bytes of a character card or lorebook to read: the file in base64, in JSON.
pub const CARD_LIMIT: usize = app::wire::view::MAX_CARD_BYTES / 3 * 4 + 1024;

/// Middleware: refuses a body over its route's limit, whether it says its length or streams.
pub async fn limit_bodies(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let limit = if path == <app::api::ImportCampaign as ServerFn>::PATH {
        IMPORT_LIMIT
    } else if path == <app::api::ReadCard as ServerFn>::PATH {
        CARD_LIMIT
    } else {
        BODY_LIMIT
    };
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|length| length.to_str().ok()?.parse::<usize>().ok());
    if declared.is_some_and(|length| length > limit) {
        return if limit == IMPORT_LIMIT {
            too_large(
                "file",
                format!(
                    "the campaign file is larger than this server imports ({} MiB)",
                    IMPORT_LIMIT / (1024 * 1024)
                ),
            )
        } else {
            too_large(
                "request",
                format!(
                    "it is larger than this server accepts ({} KB)",
                    limit / 1024
                ),
            )
        };
    }
    // A body that streams past the limit fails when read.
    let (parts, body) = request.into_parts();
    let limited = Body::new(Limited::new(body, limit));
    next.run(Request::from_parts(parts, limited)).await
}

/// The `413` answer, with the error as the server functions' browser code reads it.
fn too_large(field: &str, reason: String) -> Response {
    let error = app::wire::errors::AppError::invalid(field, reason);
    let body = serde_json::to_string(&error).unwrap_or_default();
    (
        StatusCode::PAYLOAD_TOO_LARGE,
        [(header::CONTENT_TYPE, "application/json")],
        body,
    )
        .into_response()
}
