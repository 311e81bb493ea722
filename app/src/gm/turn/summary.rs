//! The summary phase, between turns: the oldest verbatim turns folded into "the story so far".

use super::stream::reported;
use super::TurnError;
use crate::campaign::conversation::SentRequest;
use crate::campaign::state::CampaignState;
use crate::gm::llm::{LlmPort, Purpose, TokenUsage};
use crate::gm::prompt::layers;
use crate::gm::settings::GmSettings;

/// A new summary written by the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summarized {
    /// The last turn it covers.
    pub through_turn: u32,
    /// The summary.
    pub text: String,
    /// The tokens it cost.
    pub usage: TokenUsage,
    /// The request sent.
    pub sent: SentRequest,
}

/// The summary phase (between turns): when `state`'s verbatim turns no longer fit a
/// narration's window, asks the model to fold the oldest into "the story so far". `Ok(None)`
/// when nothing needs folding.
pub async fn summarize(
    llm: &dyn LlmPort,
    settings: &GmSettings,
    state: &CampaignState,
    previous: Option<&SentRequest>,
) -> Result<Option<Summarized>, TurnError> {
    let tools = settings.tools_for(state, &state.combat);
    let Some(plan) = layers::summary_plan(state, settings, &tools) else {
        return Ok(None);
    };
    // The narration's tools size the window to fold; the summary calls none, so sends none.
    let (layered, mut request) = layers::summary_request(state, settings, &plan);
    request.purpose = Purpose::Summary;
    let mut sent = layers::record(Purpose::Summary.label(), &request, &layered, previous);
    let reply = llm.complete(request).await?;
    let usage = reply.usage.unwrap_or_default();
    sent.reported_tokens = reported(usage);
    let text = layers::clean_summary(&reply.text).ok_or(TurnError::EmptySummary)?;
    Ok(Some(Summarized {
        through_turn: plan.through_turn,
        text,
        usage,
        sent,
    }))
}
