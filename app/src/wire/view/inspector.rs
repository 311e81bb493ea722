//! The drawers beside the story: the context inspector (what the model sees, its last request
//! and its layers, the rules' check of the latest scene, what the story costs) and the ledger
//! (every change and roll with its cause, a page at a time).

use serde::{Deserialize, Serialize};

use super::*;

/// Tokens spent by model calls, and what they cost at the operator's prices.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpendView {
    /// Tokens sent.
    pub prompt: u32,
    /// Of those, the ones the provider served from its cache (when it says).
    pub cached: u32,
    /// Tokens written by the model.
    pub completion: u32,
    /// `$0.0123`, at the prices the operator set; none when no price is set.
    pub cost: Option<String>,
    /// Pictures the image model drew for the story (none in a phase's tally).
    #[serde(default)]
    pub pictures: u32,
}

/// The tokens of one phase of a turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseSpendView {
    /// `narrate`, `actions` or `summary`.
    pub phase: String,
    /// Its tokens.
    pub spend: SpendView,
}

/// One line of the ledger.
///
/// Tagged by its kind's name around the row (`{"roll": {…}}`): see [`AppError`](crate::wire::errors::AppError).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LedgerRow {
    /// Something on the sheet changed.
    Change {
        /// The turn.
        turn: u32,
        /// What changed (`HP`, `Rope`, `State`).
        what: String,
        /// Its value before.
        before: String,
        /// Its value after.
        after: String,
        /// What caused it: an index into its page's [`LedgerPage::causes`].
        cause: u32,
    },
    /// Dice were rolled.
    Roll {
        /// The turn.
        turn: u32,
        /// Whose roll and what for.
        reason: String,
        /// The notation, e.g. `1d20+2`.
        notation: String,
        /// The dice, dropped ones marked: `14, (3 dropped)`.
        dice: String,
        /// The modifier added.
        modifier: i32,
        /// The total.
        total: i32,
        /// The difficulty class, if any.
        dc: Option<u8>,
        /// The verdict or the oracle's answer, if any.
        verdict: Option<String>,
    },
}

/// How many ledger rows the Ledger panel gets at a time.
pub const LEDGER_PAGE: u32 = 100;

/// The most characters of a cause the ledger shows (a longer one is cut, ending with `…`).
pub const MAX_CAUSE_CHARS: usize = 300;

/// A run of consecutive ledger rows, with each of their causes once.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LedgerPage {
    /// The index of the first row (0 when the page reaches the beginning).
    pub start: u32,
    /// The rows, oldest first.
    pub rows: Vec<LedgerRow>,
    /// What caused the page's changes, each once: the tool call as the model made it (at most
    /// [`MAX_CAUSE_CHARS`] characters), or the rule.
    pub causes: Vec<String>,
}

/// One message of the model's history, for the "what the GM sees" drawer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LlmEntryView {
    /// `system`, `user`, `assistant` or `tool`.
    pub role: String,
    /// The text.
    pub content: String,
    /// Tool calls, as `name(arguments)`.
    pub tool_calls: Vec<String>,
}

/// A turn the model holds verbatim, its messages as sent (tool calls and results included).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelTurnView {
    /// The turn.
    pub turn: u32,
    /// Its messages.
    pub messages: Vec<LlmEntryView>,
}

/// The model's working context, the history the model sees beside the one the player sees:
/// the turns it holds verbatim and the layers of its last prompt.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelView {
    /// The turns held verbatim, oldest first.
    pub turns: Vec<ModelTurnView>,
    /// The layers of the last prompt, with their sizes.
    pub layers: Vec<LayerView>,
}

/// What a turn changed in the model's working context.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelChange {
    /// Turns before this one are no longer held verbatim.
    pub from_turn: u32,
    /// The turn the model now holds, if one was added.
    pub added: Option<ModelTurnView>,
    /// The last prompt's layers, when a request was sent.
    pub layers: Option<Vec<LayerView>>,
}

impl ModelView {
    /// This view with `change` applied.
    pub fn apply(&mut self, change: &ModelChange) {
        self.turns.retain(|held| held.turn >= change.from_turn);
        if let Some(added) = &change.added {
            self.turns.retain(|held| held.turn != added.turn);
            self.turns.push(added.clone());
        }
        if let Some(layers) = &change.layers {
            self.layers.clone_from(layers);
        }
    }
}

/// What the game master sees, for the context inspector (loaded on open).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GmContextView {
    /// The last request sent to the model for this campaign, if any was recorded.
    pub request: Option<RequestView>,
    /// The rules' check of the latest turn's scene, if it was checked.
    pub check: Option<LedgerCheckView>,
    /// The older passages the rules recalled into the latest narration, with the words that
    /// brought each back.
    #[serde(default)]
    pub recalled: Vec<FoundView>,
    /// Tokens spent so far: (prompt, completion).
    pub tokens: (u32, u32),
    /// The latest turn's tokens, by phase.
    #[serde(default)]
    pub turn_spend: Vec<PhaseSpendView>,
    /// The whole campaign's tokens and cost.
    #[serde(default)]
    pub spend: SpendView,
    /// The model's working context (the play screen keeps it up to date from each turn's
    /// stream).
    #[serde(default)]
    pub model: ModelView,
    /// The director: turns since the story moved, and the steer.
    #[serde(default)]
    pub director: DirectorView,
}

/// The rules' check of a scene against its turn's events (damage, healing, items, foes down,
/// conditions, XP, verdicts), as the context inspector shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LedgerCheckView {
    /// The turn whose scene was checked.
    pub turn: u32,
    /// How many claims the saved scene made that the rules could check.
    pub claims: u32,
    /// The first draft's contradictions, which the model was asked once to correct (empty when
    /// it agreed, or the model was not asked).
    pub asked: Vec<String>,
    /// The contradictions left in the saved scene, which the player sees as notes beside it
    /// (empty when it agrees with the rules).
    pub notes: Vec<String>,
}

/// One request to the model, exactly as sent, with how its prompt was built.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestView {
    /// What it asked for: `narration`, `actions` or `summary`.
    pub purpose: String,
    /// The prompt's layers in order, with their sizes.
    pub layers: Vec<LayerView>,
    /// The tools offered.
    pub tools: Vec<String>,
    /// The turns held verbatim (first, last), if any.
    pub window: Option<(u32, u32)>,
    /// The messages as sent.
    pub messages: Vec<LlmEntryView>,
    /// The request's size in bytes (messages and tools, as JSON).
    pub bytes: u32,
    /// How many of its first bytes were identical to the previous request's (the share a
    /// provider's prompt cache can reuse).
    pub shared_front_bytes: u32,
    /// The prompt's tokens, estimated before sending.
    pub estimated_tokens: u32,
    /// The prompt's tokens as the provider counted them, when it said.
    pub reported_tokens: Option<u32>,
}

/// One layer of a prompt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayerView {
    /// Its name, e.g. `the story so far`.
    pub name: String,
    /// Its tokens (estimated).
    pub tokens: u32,
    /// Its bytes.
    pub bytes: u32,
}

#[cfg(test)]
mod model_view_tests {
    use super::*;

    fn turn(turn: u32) -> ModelTurnView {
        ModelTurnView {
            turn,
            messages: vec![LlmEntryView {
                role: "user".into(),
                content: format!("move {turn}"),
                tool_calls: Vec::new(),
            }],
        }
    }

    #[test]
    fn the_model_view_follows_each_change() {
        let mut view = ModelView {
            turns: vec![turn(2), turn(3)],
            layers: Vec::new(),
        };
        view.apply(&ModelChange {
            from_turn: 3,
            added: Some(turn(4)),
            layers: None,
        });
        let held: Vec<u32> = view.turns.iter().map(|held| held.turn).collect();
        assert_eq!(held, [3, 4]);
        let layers = vec![LayerView {
            name: "the journal".into(),
            tokens: 12,
            bytes: 40,
        }];
        view.apply(&ModelChange {
            from_turn: 0,
            added: None,
            layers: Some(layers.clone()),
        });
        assert_eq!(view.layers, layers);
        assert_eq!(view.turns.len(), 2, "a layers change keeps the turns");
    }
}
