//! One turn at a time per campaign (within this server process): a move or an actions request
//! for a campaign that already has one running is answered "busy" instead of a second call to
//! the model. Summaries (which run between turns, beside them) are counted apart: one at a time.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};

use crate::campaign::CampaignId;

/// What runs for a campaign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Work {
    /// A phase of a turn.
    Turn,
    /// A summary.
    Summary,
}

/// The campaigns with a phase (or a summary) running.
#[derive(Clone, Debug, Default)]
pub struct TurnsInFlight(Arc<Mutex<HashSet<(CampaignId, Work)>>>);

/// Held while a phase runs; dropping it frees the campaign.
#[derive(Debug)]
pub struct InFlight {
    set: TurnsInFlight,
    key: (CampaignId, Work),
}

impl TurnsInFlight {
    /// Takes the campaign, or `None` if a phase of it is running.
    pub fn take(&self, id: &CampaignId) -> Option<InFlight> {
        self.take_for(id, Work::Turn)
    }

    /// Takes the campaign's summary, or `None` if one is being written.
    pub fn take_summary(&self, id: &CampaignId) -> Option<InFlight> {
        self.take_for(id, Work::Summary)
    }

    fn take_for(&self, id: &CampaignId, work: Work) -> Option<InFlight> {
        let key = (id.clone(), work);
        let mut running = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        running.insert(key.clone()).then(|| InFlight {
            set: self.clone(),
            key,
        })
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut running = self.set.0.lock().unwrap_or_else(PoisonError::into_inner);
        running.remove(&self.key);
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
        let summary = turns
            .take_summary(&id)
            .expect("a summary runs beside a turn");
        assert!(turns.take_summary(&id).is_none(), "one summary at a time");
        drop((held, summary));
        assert!(turns.take(&id).is_some(), "free again");
    }
}
