//! A campaign's storybook as a download: `GET /api/storybook/{id}` answers one self-contained
//! HTML page (`text/html; charset=utf-8`, `Content-Disposition: attachment`) to the campaign's
//! host or a friend seated at it, and `404` to anyone else.

use app::service::storybook::Storybook;
use app::service::{GameServices, ServiceError};
use app::wire::{CampaignId, PlayerId};
use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};

/// The longest file name stem the download is given, in characters.
const MAX_STEM_CHARS: usize = 60;

/// The route, over the game's services.
pub fn routes<S: Clone + Send + Sync + 'static>(services: GameServices) -> Router<S> {
    Router::new()
        .route("/api/storybook/{id}", get(download))
        .with_state(services)
}

/// The storybook of campaign `id`, if the player may read it.
async fn download(
    State(services): State<GameServices>,
    Extension(player): Extension<PlayerId>,
    Path(id): Path<String>,
) -> Response {
    let Ok(id) = id.parse::<CampaignId>() else {
        return StatusCode::NOT_FOUND.into_response();
    };
    match services.table().storybook(&player, &id).await {
        Ok(book) => attachment(book),
        Err(ServiceError::NotFound) => StatusCode::NOT_FOUND.into_response(),
        Err(error @ ServiceError::Invalid { .. }) => {
            (StatusCode::UNPROCESSABLE_ENTITY, error.to_string()).into_response()
        }
        Err(error) => {
            tracing::error!(%error, "a storybook could not be made");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                "The storybook could not be made; try again in a moment.",
            )
                .into_response()
        }
    }
}

/// The page as a download named after the campaign.
fn attachment(book: Storybook) -> Response {
    let disposition = format!(
        "attachment; filename=\"{}.storybook.html\"",
        file_stem(&book.title)
    );
    let disposition = HeaderValue::from_str(&disposition).unwrap_or(HeaderValue::from_static(
        "attachment; filename=\"storybook.html\"",
    ));
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            ),
            (header::CONTENT_DISPOSITION, disposition),
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(
                    "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
                ),
            ),
        ],
        book.html,
    )
        .into_response()
}

/// A file name stem safe in a header and on any disk: the title's ASCII letters and digits,
/// anything else a dash, at most [`MAX_STEM_CHARS`]; `storybook` when nothing is left.
fn file_stem(title: &str) -> String {
    let mapped: String = title
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .take(MAX_STEM_CHARS)
        .collect();
    let mut stem = String::with_capacity(mapped.len());
    for c in mapped.chars() {
        if !(c == '-' && stem.ends_with('-')) {
            stem.push(c);
        }
    }
    let stem = stem.trim_matches('-');
    if stem.is_empty() {
        "storybook".to_owned()
    } else {
        stem.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::file_stem;

    #[test]
    fn a_file_name_keeps_only_safe_characters() {
        assert_eq!(file_stem("The \"Rain\"\r\n; Gate"), "The-Rain-Gate");
        assert_eq!(file_stem("Été à Paris"), "t-Paris");
        assert_eq!(file_stem("\"\\/"), "storybook");
        assert_eq!(file_stem(&"a".repeat(200)).len(), 60);
    }
}
