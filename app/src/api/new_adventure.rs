//! `new_adventure`: the server proposes an opening hook for a fresh adventure.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// The hook of a new adventure, chosen by the server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdventureHook {
    /// The one-line premise the adventure starts from.
    pub premise: String,
}

/// The premises the server chooses from until the game master writes its own.
#[cfg(feature = "ssr")]
pub const PREMISES: [&str; 4] = [
    "A lantern flickers at the mouth of a flooded crypt, and something inside is knocking.",
    "The caravan master has vanished, and the map he left is drawn in fresh blood.",
    "A clockwork owl lands on your windowsill with a message from a city that burned a century ago.",
    "The village well has started answering questions, and every answer is a little bit wrong.",
];

/// Starts a new adventure: the server picks its premise.
#[server]
pub async fn new_adventure() -> Result<AdventureHook, ServerFnError> {
    use rand::seq::IndexedRandom;

    let premise = PREMISES
        .choose(&mut rand::rng())
        .ok_or_else(|| ServerFnError::new("no premise available"))?;
    Ok(AdventureHook {
        premise: (*premise).to_owned(),
    })
}
