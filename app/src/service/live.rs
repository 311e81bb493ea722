//! Following a campaign live from a second screen: every update a turn streams to the tab that
//! plays it is published here too, numbered per campaign, for the campaign's owner's other tabs
//! and devices (the server's event-stream route). A subscriber that reconnects says the last
//! number it saw and gets what it missed, as far as the last [`KEPT_EVENTS`] go.
//!
//! A campaign nobody has followed since the process started costs nothing here: its updates are
//! numbered and kept only once a subscriber has come (one that never saw a number has nothing to
//! miss), and the channel that queues updates for subscribers is made with the first.
//!
//! One process (a SQLite file) numbers the updates itself. Several instances on one database
//! share them through a [`LiveRelay`], this layer's port (the server's is PostgreSQL's
//! `LISTEN`/`NOTIFY`): a relayed hub hands every update it publishes to the relay, which numbers
//! it once for all instances and gives it back to each one's hub, this one's included, through
//! [`LiveTurns::deliver`]. Every hub then sees a campaign's updates in one order under the same
//! numbers, so a browser that reconnects through another instance says a number that instance
//! knows, or one it does not and is told to reload.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

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

    /// Keeps `event` for subscribers that reconnect and sends it to those here.
    fn push(&mut self, event: LiveEvent) {
        self.next = event.id.saturating_add(1);
        if self.recent.len() == KEPT_EVENTS {
            self.recent.pop_front();
        }
        self.recent.push_back(event.clone());
        // No subscriber is no error: the event is kept for one that comes.
        let _ = self.sender.send(event);
    }

    /// What a relay should deliver next to this channel.
    fn wanted(&self) -> Wanted {
        if self.recent.is_empty() {
            Wanted::Latest
        } else {
            Wanted::From(self.next)
        }
    }
}

/// Where a relayed hub's updates go: to every instance's hub, numbered once for all of them.
pub trait LiveRelay: Send + Sync {
    /// Takes `update` of campaign `id` to every instance's hub, this one's included, numbered
    /// (see [`LiveTurns::deliver`]). It must not wait nor fail the caller (a turn in progress):
    /// what it cannot send it logs.
    fn relay(&self, id: &CampaignId, update: &TurnUpdate);
}

/// Which of a followed campaign's updates a relay should deliver to this hub next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wanted {
    /// None has come yet: the newest only (a new subscriber has missed nothing).
    Latest,
    /// Every update from this number on.
    From(u64),
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

/// Every followed campaign's channel, and the relay to the other instances, if any.
#[derive(Default)]
pub struct LiveTurns {
    channels: Mutex<HashMap<CampaignId, Channel>>,
    relay: Option<Arc<dyn LiveRelay>>,
}

impl LiveTurns {
    /// A hub whose updates go through `relay`, which numbers them and delivers them back.
    pub fn relayed(relay: Arc<dyn LiveRelay>) -> Self {
        Self {
            channels: Mutex::default(),
            relay: Some(relay),
        }
    }

    /// Publishes `update` of campaign `id` to its subscribers (kept for those that reconnect);
    /// nothing for a campaign nobody follows here. A relayed hub hands it to its relay instead,
    /// since others may follow it on another instance.
    pub fn publish(&self, id: &CampaignId, update: &TurnUpdate) {
        if let Some(relay) = &self.relay {
            relay.relay(id, update);
            return;
        }
        let mut channels = self.lock();
        let Some(channel) = channels.get_mut(id) else {
            return;
        };
        let event = LiveEvent {
            id: channel.next,
            update: update.clone(),
        };
        channel.push(event);
    }

    /// Delivers `update` of campaign `id`, numbered `number` by the relay, to its subscribers
    /// here: nothing for a campaign nobody follows here, nor for a number already delivered.
    pub fn deliver(&self, id: &CampaignId, number: u64, update: TurnUpdate) {
        let mut channels = self.lock();
        let Some(channel) = channels.get_mut(id) else {
            return;
        };
        if !channel.recent.is_empty() && number < channel.next {
            return;
        }
        channel.push(LiveEvent { id: number, update });
    }

    /// Which updates of campaign `id` a relay should deliver next; none for a campaign nobody
    /// follows here.
    pub fn wanted(&self, id: &CampaignId) -> Option<Wanted> {
        self.lock().get(id).map(Channel::wanted)
    }

    /// The followed campaigns that have had updates, each with the number it wants next: where
    /// a relay that may have missed some (its connection was lost) takes them up again.
    pub fn resume_points(&self) -> Vec<(CampaignId, u64)> {
        self.lock()
            .iter()
            .filter_map(|(id, channel)| match channel.wanted() {
                Wanted::From(next) => Some((id.clone(), next)),
                Wanted::Latest => None,
            })
            .collect()
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

    /// A relay that keeps what it is handed, as the database would before delivering it.
    #[derive(Default)]
    struct Kept(Mutex<Vec<TurnUpdate>>);

    impl LiveRelay for Kept {
        fn relay(&self, _id: &CampaignId, update: &TurnUpdate) {
            self.0.lock().unwrap().push(update.clone());
        }
    }

    #[tokio::test]
    async fn a_relayed_hub_hands_its_updates_to_the_relay_and_keeps_the_relays_numbers() {
        let relay = Arc::new(Kept::default());
        let live = LiveTurns::relayed(relay.clone());
        let id = CampaignId::random(&mut StdRng::seed_from_u64(4));
        assert_eq!(live.wanted(&id), None, "nobody follows it here");
        let mut first = live.subscribe(&id, None);
        live.publish(&id, &text(1));
        assert_eq!(*relay.0.lock().unwrap(), [text(1)]);
        assert!(
            first.receiver.try_recv().is_err(),
            "not before the relay numbers it"
        );
        assert_eq!(live.wanted(&id), Some(Wanted::Latest));
        assert!(live.resume_points().is_empty());

        // Another instance's updates came first: the relay's numbers are kept.
        live.deliver(&id, 41, text(1));
        live.deliver(&id, 42, text(2));
        live.deliver(&id, 42, text(2));
        let numbers = [
            first.receiver.recv().await.unwrap().id,
            first.receiver.recv().await.unwrap().id,
        ];
        assert_eq!(numbers, [41, 42]);
        assert!(
            first.receiver.try_recv().is_err(),
            "a number delivered twice is sent once"
        );
        assert_eq!(live.wanted(&id), Some(Wanted::From(43)));
        assert_eq!(live.resume_points(), [(id.clone(), 43)]);

        let again = live.subscribe(&id, Some(41));
        assert!(!again.gap);
        assert_eq!(
            again.missed,
            [LiveEvent {
                id: 42,
                update: text(2)
            }]
        );
        assert!(
            live.subscribe(&id, Some(39)).gap,
            "numbers given before this instance followed: load the campaign"
        );
    }
}
