//! Following a campaign live from a second screen: every update a turn streams to the tab that
//! plays it is published here too, numbered per campaign, for the campaign's owner's other tabs
//! and devices (the server's event-stream route). A subscriber that reconnects says the last
//! number it saw and gets what it missed, as far as the last [`KEPT_EVENTS`] go.
//!
//! A campaign nobody has followed since the process started costs nothing here: its updates are
//! numbered and kept only once a subscriber has come (one that never saw a number has nothing to
//! miss), and the channel that queues updates for subscribers is made with the first.
//!
//! The hub lives in one server process: on several instances behind a proxy, a second screen
//! follows the turns played through its own instance.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use tokio::sync::broadcast;

use crate::wire::view::TurnUpdate;
use crate::wire::CampaignId;

/// The updates kept per campaign for a subscriber that reconnects.
pub const KEPT_EVENTS: usize = 512;

/// Updates waiting for a slow subscriber before it misses some (and is told to reload).
const QUEUED_EVENTS: usize = 1_024;

/// Campaigns followed at once, past which the quiet ones are forgotten.
const FOLLOWED_CAMPAIGNS: usize = 10_000;

/// One published update and its number in its campaign.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveEvent {
    /// Its number: one more than the campaign's last.
    pub id: u64,
    /// The update, as the playing tab got it.
    pub update: TurnUpdate,
}

/// One followed campaign's channel.
struct Channel {
    sender: broadcast::Sender<LiveEvent>,
    recent: VecDeque<LiveEvent>,
    next: u64,
}

impl Channel {
    fn new() -> Self {
        Self {
            sender: broadcast::channel(QUEUED_EVENTS).0,
            recent: VecDeque::new(),
            next: 1,
        }
    }
}

/// What a new subscriber gets: the updates it missed, then the live ones.
pub struct Subscription {
    /// The updates after the one it last saw (none for a fresh subscriber).
    pub missed: Vec<LiveEvent>,
    /// Whether some it missed are no longer kept (it should load the campaign again).
    pub gap: bool,
    /// The updates from now on.
    pub receiver: broadcast::Receiver<LiveEvent>,
}

/// Every followed campaign's channel.
#[derive(Default)]
pub struct LiveTurns {
    channels: Mutex<HashMap<CampaignId, Channel>>,
}

impl LiveTurns {
    /// Publishes `update` of campaign `id` to its subscribers (kept for those that reconnect);
    /// nothing for a campaign nobody follows.
    pub fn publish(&self, id: &CampaignId, update: &TurnUpdate) {
        let mut channels = self.lock();
        let Some(channel) = channels.get_mut(id) else {
            return;
        };
        let event = LiveEvent {
            id: channel.next,
            update: update.clone(),
        };
        channel.next += 1;
        if channel.recent.len() == KEPT_EVENTS {
            channel.recent.pop_front();
        }
        channel.recent.push_back(event.clone());
        // No subscriber is no error: the event is kept for one that comes.
        let _ = channel.sender.send(event);
    }

    /// Subscribes to campaign `id`'s updates after number `after` (the `Last-Event-ID` of a
    /// reconnecting browser), if given.
    pub fn subscribe(&self, id: &CampaignId, after: Option<u64>) -> Subscription {
        let mut channels = self.lock();
        if channels.len() >= FOLLOWED_CAMPAIGNS && !channels.contains_key(id) {
            channels.retain(|_, channel| channel.sender.receiver_count() > 0);
        }
        let channel = channels.entry(id.clone()).or_insert_with(Channel::new);
        let receiver = channel.sender.subscribe();
        let Some(after) = after else {
            return Subscription {
                missed: Vec::new(),
                gap: false,
                receiver,
            };
        };
        let oldest = channel
            .recent
            .front()
            .map_or(channel.next, |event| event.id);
        Subscription {
            missed: channel
                .recent
                .iter()
                .filter(|event| event.id > after)
                .cloned()
                .collect(),
            // Numbers this process never gave (a restart) or no longer keeps.
            gap: after >= channel.next || after.saturating_add(1) < oldest,
            receiver,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<CampaignId, Channel>> {
        self.channels
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::StdRng, SeedableRng};

    fn text(n: u32) -> TurnUpdate {
        TurnUpdate::Narrative {
            text: format!("part {n}"),
        }
    }

    #[tokio::test]
    async fn a_subscriber_gets_the_updates_in_order_and_a_late_one_what_it_missed() {
        let live = LiveTurns::default();
        let id = CampaignId::random(&mut StdRng::seed_from_u64(1));
        let mut first = live.subscribe(&id, None);
        for n in 1..=3 {
            live.publish(&id, &text(n));
        }
        for n in 1..=3u64 {
            let event = first.receiver.recv().await.unwrap();
            assert_eq!(event.id, n);
        }
        let again = live.subscribe(&id, Some(1));
        assert!(!again.gap);
        let missed: Vec<u64> = again.missed.iter().map(|event| event.id).collect();
        assert_eq!(missed, [2, 3]);
        assert_eq!(again.missed[1].update, text(3));
        // A number this process never gave (it restarted) is a gap.
        assert!(live.subscribe(&id, Some(99)).gap);
    }

    #[tokio::test]
    async fn only_the_last_updates_are_kept() {
        let live = LiveTurns::default();
        let id = CampaignId::random(&mut StdRng::seed_from_u64(2));
        drop(live.subscribe(&id, None));
        for n in 0..(KEPT_EVENTS as u32 + 10) {
            live.publish(&id, &text(n));
        }
        let late = live.subscribe(&id, Some(1));
        assert!(late.gap);
        assert_eq!(late.missed.len(), KEPT_EVENTS);
        assert!(!live.subscribe(&id, Some(20)).gap);
    }

    #[tokio::test]
    async fn a_campaign_nobody_follows_keeps_nothing() {
        let live = LiveTurns::default();
        let id = CampaignId::random(&mut StdRng::seed_from_u64(3));
        for n in 1..=3 {
            live.publish(&id, &text(n));
        }
        assert!(
            live.lock().is_empty(),
            "no channel for an unfollowed campaign"
        );
        let late = live.subscribe(&id, Some(1));
        assert!(late.gap, "numbers never given: load the campaign");
        assert!(late.missed.is_empty());
        live.publish(&id, &text(4));
        let followed = live.subscribe(&id, Some(0));
        assert_eq!(
            followed.missed.len(),
            1,
            "kept from the first subscriber on"
        );
        assert_eq!(followed.missed[0].id, 1);
    }
}
