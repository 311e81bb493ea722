//! The player changes the game master's style or the table's lines and veils in play; the
//! next request follows them.

use super::{Game, ServiceError};
use crate::campaign::event::CampaignEvent;
use crate::game::agreement::TableAgreement;
use crate::wire::view::AgreementForm;
use crate::wire::{CampaignId, PlayerId};

impl Game<'_> {
    /// Sets the campaign's style, lines and veils from `form` (refused whole, changing nothing,
    /// when a line or veil is out of bounds); answers with the agreement now.
    pub async fn set_agreement(
        &self,
        owner: &PlayerId,
        id: &CampaignId,
        form: &AgreementForm,
        now: i64,
    ) -> Result<TableAgreement, ServiceError> {
        let agreement = form
            .agreement()
            .map_err(|error| ServiceError::invalid("agreement", error))?;
        let _running = self.lease(owner, id).await?;
        let loaded = self.current(owner, id).await?;
        if loaded.state.agreement == agreement {
            return Ok(agreement);
        }
        let events = vec![CampaignEvent::TableAgreed { agreement }];
        let after = self.append(owner, id, loaded, events, None, now).await?;
        Ok(after.state.agreement.clone())
    }
}
