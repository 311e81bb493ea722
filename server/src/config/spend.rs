//! What the server spends and charges: model calls at once, a phase's deadline, each player's and
//! each client address's rate limits and campaigns ([`Spend`], `DICEBOUND_LLM_CONCURRENCY`,
//! `DICEBOUND_PHASE_DEADLINE_SECS`, `DICEBOUND_TURNS_PER_MINUTE`...), and the prices a story's
//! cost is shown at (`DICEBOUND_PRICE_*`).

use std::num::NonZeroU32;
use std::time::Duration;

use app::service::prices::{Prices, Pricing};
use app::service::LimitSettings;

use crate::llm::bounds::Spend;

use super::error::ConfigError;

/// Reads the spending bounds from `lookup` (see
/// [`Config::from_lookup`](super::Config::from_lookup)).
pub(super) fn spend(lookup: impl Fn(&str) -> Option<String>) -> Result<Spend, ConfigError> {
    let defaults = LimitSettings::default();
    let mut limits = LimitSettings::per_player(
        count(&lookup, "DICEBOUND_TURNS_PER_MINUTE")?.unwrap_or(defaults.turns_per_minute),
        count(&lookup, "DICEBOUND_CAMPAIGNS_PER_HOUR")?.unwrap_or(defaults.campaigns_per_hour),
        count(&lookup, "DICEBOUND_CAMPAIGNS_PER_PLAYER")?
            .map_or(defaults.campaigns_per_player, |kept| kept.get()),
    );
    if let Some(turns) = count(&lookup, "DICEBOUND_TURNS_PER_MINUTE_PER_ADDRESS")? {
        limits.turns_per_minute_per_address = turns;
    }
    if let Some(campaigns) = count(&lookup, "DICEBOUND_CAMPAIGNS_PER_HOUR_PER_ADDRESS")? {
        limits.campaigns_per_hour_per_address = campaigns;
    }
    Ok(Spend {
        model_calls: count(&lookup, "DICEBOUND_LLM_CONCURRENCY")?.map(|calls| calls.get() as usize),
        phase_deadline: count(&lookup, "DICEBOUND_PHASE_DEADLINE_SECS")?
            .map(|secs| Duration::from_secs(u64::from(secs.get()))),
        limits,
    })
}

/// The prices per million tokens: none unless a prompt or completion price is set; a cached
/// token costs a prompt token's price unless its own is set.
pub(super) fn pricing(lookup: impl Fn(&str) -> Option<String>) -> Result<Pricing, ConfigError> {
    let price = |name: &'static str| {
        lookup(name)
            .map(|value| {
                value
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|price| price.is_finite() && *price >= 0.0)
                    .ok_or(ConfigError::Price { name, value })
            })
            .transpose()
    };
    let prompt = price("DICEBOUND_PRICE_PROMPT")?;
    let completion = price("DICEBOUND_PRICE_COMPLETION")?;
    let cached = price("DICEBOUND_PRICE_CACHED")?;
    if prompt.is_none() && completion.is_none() {
        return Ok(Pricing(None));
    }
    let prompt = prompt.unwrap_or(0.0);
    Ok(Pricing(Some(Prices {
        prompt,
        cached: cached.unwrap_or(prompt),
        completion: completion.unwrap_or(0.0),
    })))
}

/// A whole number from 1 up from `name`, if set.
fn count(
    lookup: impl Fn(&str) -> Option<String>,
    name: &'static str,
) -> Result<Option<NonZeroU32>, ConfigError> {
    lookup(name)
        .map(|value| {
            value
                .trim()
                .parse()
                .map_err(|_| ConfigError::Count { name, value })
        })
        .transpose()
}
