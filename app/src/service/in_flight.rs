//! One turn at a time per campaign (within this server process): a move or an actions request
//! for a campaign that already has one running is answered "busy" instead of a second call to
//! the model.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};

use crate::campaign::CampaignId;

/// The campaigns with a phase running.
#[derive(Clone, Debug, Default)]
pub struct TurnsInFlight(Arc<Mutex<HashSet<CampaignId>>>);

/// Held while a phase runs; dropping it frees the campaign.
#[derive(Debug)]
pub struct InFlight {
    set: TurnsInFlight,
    id: CampaignId,
}

impl TurnsInFlight {
    /// Takes the campaign, or `None` if a phase of it is running.
    pub fn take(&self, id: &CampaignId) -> Option<InFlight> {
        let mut running = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        running.insert(id.clone()).then(|| InFlight {
            set: self.clone(),
            id: id.clone(),
        })
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut running = self.set.0.lock().unwrap_or_else(PoisonError::into_inner);
        running.remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_campaign_is_taken_once_until_released() {
        let turns = TurnsInFlight::default();
        let id: CampaignId = "0123456789abcdef0123456789abcdef".parse().unwrap();
        let held = turns.take(&id).expect("free at first");
        assert!(turns.take(&id).is_none(), "busy while held");
        drop(held);
        assert!(turns.take(&id).is_some(), "free again");
    }
}
