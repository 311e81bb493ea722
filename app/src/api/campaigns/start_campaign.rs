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
    use crate::api::context::{admit_campaign, caller, client, now, streamed};
    use crate::wire::view::TurnUpdate;

    let caller = caller().await?;
    let client = client().await?;
    admit_campaign(&caller.services, &caller.player, &client).await?;
    Ok(streamed(None, move |updates| async move {
        let mut rng = caller.services.dice.for_new_campaign();
        let result = caller
            .game()
            .create(&caller.player, &form, now(), &mut rng, &mut |u| {
                updates.send(u)
            })
            .await;
        match result {
            Ok(summary) => TurnUpdate::Created { summary },
            Err(error) => TurnUpdate::Error {
                error: AppError::from(error),
            },
        }
    }))
}
