//! The player's question out of character: answered by the game master from the campaign as it
//! is, changing nothing and kept nowhere (not in the story, not in the model's story context).

use super::{Game, ServiceError};
use crate::gm::turn::question::{answer, Question};
use crate::wire::view::AnswerView;
use crate::wire::{CampaignId, PlayerId};

impl Game<'_> {
    /// The game master's answer to what the player asks about one of their campaigns.
    #[tracing::instrument(name = "phase", parent = &self.span, skip_all, fields(phase = "question", campaign = %id))]
    pub async fn ask(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        typed: &str,
    ) -> Result<AnswerView, ServiceError> {
        let question =
            Question::parse(typed).map_err(|error| ServiceError::invalid("question", error))?;
        let loaded = self.current(owner, id).await?;
        let text = self
            .in_time(answer(self.llm, self.gm, &loaded.state, &question))
            .await?;
        Ok(AnswerView {
            question: question.as_str().to_owned(),
            answer: text,
            turn: loaded.record.turn,
        })
    }
}
