//! `draw_picture`: a portrait of the character or a picture of the latest scene, drawn by the
//! operator's image model and added to the story.

use leptos::prelude::*;

use crate::campaign::picture::PictureKind;
use crate::wire::errors::AppError;
use crate::wire::view::TurnUpdate;

/// Draws a picture of `kind` for the campaign; counted in the player's limits on model
/// requests. Answers with what the player sees change; refused when the server has no image
/// model.
#[server(input = leptos::server_fn::codec::Json, output = crate::wire::codec::Wire)]
pub async fn draw_picture(id: String, kind: PictureKind) -> Result<Vec<TurnUpdate>, AppError> {
    use crate::api::context::{admit_turn, caller, campaign_id, client, now};
    use crate::service::ServiceError;
    let caller = caller().await?;
    let client = client().await?;
    let id = campaign_id(&id)?;
    let painter = caller.services.operator.pictures.painter().ok_or_else(|| {
        AppError::from(ServiceError::invalid(
            "picture",
            "this server has no image model",
        ))
    })?;
    admit_turn(&caller.services, &caller.player, &client)?;
    Ok(caller
        .game()
        .picture(&caller.player, &id, kind, painter.as_ref(), now())
        .await?)
}
