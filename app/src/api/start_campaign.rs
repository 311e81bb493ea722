//! `start_campaign`: a new adventure, its opening scene streamed as it is written (JSON lines of
//! [`TurnUpdate`](crate::wire::view::TurnUpdate)), ending with `created` (the campaign, once
//! saved with its first actions) or `error` (nothing was saved).

use leptos::prelude::*;
use leptos::server_fn::codec::{Json, StreamingText, TextStream};

use crate::wire::errors::AppError;
use crate::wire::view::NewCampaign;

/// Starts a campaign from the new-adventure form, streaming its opening scene.
#[server(input = Json, output = StreamingText)]
pub async fn start_campaign(form: NewCampaign) -> Result<TextStream<AppError>, AppError> {
    use super::context::{admit_campaign, client, now, player, services, streamed, to_app_error};
    use crate::wire::view::TurnUpdate;

    let player = player().await?;
    let client = client().await?;
    let services = services().await?;
    admit_campaign(&services, &player, &client).await?;
    Ok(streamed(None, move |updates| async move {
        let mut rng = services.dice.for_new_campaign();
        let result = services
            .game()
            .create(&player, &form, now(), &mut rng, &mut |u| updates.send(u))
            .await;
        match result {
            Ok(summary) => TurnUpdate::Created { summary },
            Err(error) => TurnUpdate::Error {
                error: to_app_error(error),
            },
        }
    }))
}
