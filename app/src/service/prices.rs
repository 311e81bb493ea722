//! What a story costs: tokens as the players see them, and dollars at the prices the operator
//! sets (none by default, and then tokens only).

use crate::campaign::conversation::TokenUsage;
use crate::campaign::state::PhaseUsage;
use crate::campaign::turn_event::Phase;
use crate::wire::view::{CampaignPage, GmContextView, PhaseSpendView, SpendView};

/// Dollars per million tokens.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prices {
    /// A prompt token.
    pub prompt: f64,
    /// A prompt token the provider served from its cache.
    pub cached: f64,
    /// A completion token.
    pub completion: f64,
}

impl Prices {
    /// What `spend` costs, in dollars.
    pub fn dollars(&self, spend: &SpendView) -> f64 {
        let fresh = f64::from(spend.prompt.saturating_sub(spend.cached));
        (fresh * self.prompt
            + f64::from(spend.cached) * self.cached
            + f64::from(spend.completion) * self.completion)
            / 1_000_000.0
    }
}

/// The operator's prices, if any.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pricing(pub Option<Prices>);

impl Pricing {
    /// `usage` as the player sees it, priced.
    pub fn spend(&self, usage: TokenUsage) -> SpendView {
        let mut spend = SpendView {
            prompt: usage.prompt_tokens,
            cached: usage.cached_tokens.min(usage.prompt_tokens),
            completion: usage.completion_tokens,
            cost: None,
            pictures: 0,
        };
        self.price(&mut spend);
        spend
    }

    /// Sets what `spend` costs, when there are prices.
    pub fn price(&self, spend: &mut SpendView) {
        spend.cost = self.0.map(|prices| dollars_text(prices.dollars(spend)));
    }

    /// Prices every campaign of `page`.
    pub fn price_page(&self, page: &mut CampaignPage) {
        for campaign in &mut page.campaigns {
            self.price(&mut campaign.spend);
        }
    }

    /// Prices the inspector's tallies.
    pub fn price_context(&self, context: &mut GmContextView) {
        self.price(&mut context.spend);
        for phase in &mut context.turn_spend {
            self.price(&mut phase.spend);
        }
    }

    /// A turn's tokens by phase, priced.
    pub fn phases(&self, usage: &[PhaseUsage]) -> Vec<PhaseSpendView> {
        usage
            .iter()
            .map(|noted| PhaseSpendView {
                phase: phase_name(noted.phase).to_owned(),
                spend: self.spend(noted.usage),
            })
            .collect()
    }
}

fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Narrate => "narrate",
        Phase::Actions => "actions",
        Phase::Summary => "summary",
    }
}

/// `$0.0018`, `$1.25`.
fn dollars_text(dollars: f64) -> String {
    if dollars >= 1.0 {
        format!("${dollars:.2}")
    } else {
        format!("${dollars:.4}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cached_tokens_are_priced_apart() {
        let pricing = Pricing(Some(Prices {
            prompt: 1.0,
            cached: 0.5,
            completion: 4.0,
        }));
        let spend = pricing.spend(TokenUsage {
            prompt_tokens: 2_000,
            cached_tokens: 1_200,
            completion_tokens: 100,
        });
        // 800 fresh at $1, 1,200 cached at $0.50, 100 written at $4, per million.
        assert_eq!(spend.cost.as_deref(), Some("$0.0018"));
        assert_eq!(
            (spend.prompt, spend.cached, spend.completion),
            (2_000, 1_200, 100)
        );
        let big = pricing.spend(TokenUsage {
            prompt_tokens: 2_000_000,
            cached_tokens: 0,
            completion_tokens: 0,
        });
        assert_eq!(big.cost.as_deref(), Some("$2.00"));
        assert_eq!(Pricing::default().spend(TokenUsage::default()).cost, None);
    }
}
