//! A campaign's pictures: `GET /api/pictures/{campaign}/{id}`, served only to a player at the
//! campaign's table (its host and the friends seated at it; anyone else gets 404), with its
//! media type and `Cache-Control: private, max-age=31536000, immutable` (a picture's id is the
//! digest of its bytes, so it never changes).

use app::campaign::picture::PictureId;
use app::service::{GameServices, ServiceError};
use app::wire::{CampaignId, PlayerId};
use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};

/// Where pictures are served (the cache layer leaves their `Cache-Control` as set here).
pub const PICTURES_PATH: &str = "/api/pictures/";

/// How long a browser keeps a picture.
pub const PICTURE_CACHE: &str = "private, max-age=31536000, immutable";

/// The route, over the game's services.
pub fn routes<S: Clone + Send + Sync + 'static>(services: GameServices) -> Router<S> {
    Router::new()
        .route("/api/pictures/{campaign}/{id}", get(picture))
        .with_state(services)
}

/// The picture, to a player at the campaign's table.
async fn picture(
    State(services): State<GameServices>,
    Extension(player): Extension<PlayerId>,
    Path((campaign, id)): Path<(String, String)>,
) -> Response {
    let (Ok(campaign), Ok(id)) = (campaign.parse::<CampaignId>(), id.parse::<PictureId>()) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let found = match services.table().place(&player, &campaign).await {
        Ok(_) => services.game().picture_bytes(&campaign, &id).await,
        Err(error) => Err(error),
    };
    match found {
        Ok(picture) => (
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_static(picture.format.mime()),
                ),
                (
                    header::CACHE_CONTROL,
                    HeaderValue::from_static(PICTURE_CACHE),
                ),
            ],
            picture.bytes,
        )
            .into_response(),
        Err(ServiceError::NotFound) => StatusCode::NOT_FOUND.into_response(),
        Err(error) => {
            tracing::error!(%error, "a picture could not be read");
            StatusCode::SERVICE_UNAVAILABLE.into_response()
        }
    }
}
