//! What one played turn shows of the model, counted from the turn's events as the log keeps
//! them: whether the rules were used where they were due, what the prose claimed that the rules
//! did not do, failures that cost nothing, turns the rules played no part in, the action lists'
//! repairs, the scene's voice, and the tokens and time spent.

use std::collections::HashSet;
use std::time::Duration;

use app::campaign::turn_event::{ToolEffect, TurnEvent};
use app::game::CharacterSheet;
use app::gm::prose::ledger_check::{Claim, Contradiction, LedgerCheck, RulesRecord};
use app::gm::prose::metrics::{good_voice, repetition};
use serde::{Deserialize, Serialize};

use crate::pace::Pace;
use crate::persona::Due;

/// The counts of a number of turns (one persona's game, or all of them).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// Turns played.
    pub turns: u32,
    /// Moves that failed (the model or the service gave an error; nothing was saved).
    pub failed_turns: u32,
    /// Risky typed moves, which the rules owe a roll.
    pub rolls_due: u32,
    /// Of those, the moves the rules rolled for (a check, or a fight's step).
    pub rolls_made: u32,
    /// Items the player used by a typed move, which the sheet owes a change.
    pub items_due: u32,
    /// Of those, the moves after which the sheet carries fewer of something.
    pub items_used: u32,
    /// Changes to the hero the scenes claim (damage, healing, items, conditions, XP, levels).
    pub changes_claimed: u32,
    /// Of those, the claims the rules made true (a tool or the rules changed the sheet).
    pub changes_made: u32,
    /// Claims the ledger check denied in the first draft of a scene.
    pub contradictions: u32,
    /// Claims it still denied in the scene as saved (the player saw the rules' note).
    pub contradictions_left: u32,
    /// Scenes the model was asked to correct.
    pub corrections_asked: u32,
    /// The model's tool calls.
    pub tool_calls: u32,
    /// Of those, the calls the rules refused.
    pub tool_calls_refused: u32,
    /// Turns with a failed roll of the player's.
    pub failed_rolls: u32,
    /// Of those, the turns in which the failure cost nothing (no damage, no item lost, no
    /// condition, no fight).
    pub free_failures: u32,
    /// Turns in which the rules did nothing: no roll, no change, no fight, no oracle.
    pub unresolved_turns: u32,
    /// Impossible asks (the rules lawyer's).
    pub impossible_asks: u32,
    /// Of those, the asks after which the hero had gained something anyway (an item, hit
    /// points, experience, a level).
    pub impossible_granted: u32,
    /// Action lists offered.
    pub action_lists: u32,
    /// Of those, lists the model's second answer made (its first was unusable).
    pub lists_repaired: u32,
    /// Of those, lists the rules made because neither answer was usable.
    pub lists_rejected: u32,
    /// Scenes written.
    pub scenes: u32,
    /// Of those, scenes in the second person with no narrator talking about itself.
    pub good_voice: u32,
    /// Of those, scenes with no sentence twice and varied wording.
    pub unrepeated: u32,
    /// Prompt tokens, as the provider reported them.
    pub prompt_tokens: u64,
    /// Of those, the tokens the provider read from its cache.
    pub cached_tokens: u64,
    /// Completion tokens.
    pub completion_tokens: u64,
    /// Each turn's time from the move to the first narrative text, in milliseconds.
    pub first_text_ms: Vec<u64>,
    /// Each turn's time from the move to its next actions, in milliseconds.
    pub turn_ms: Vec<u64>,
    /// The story's pace: runs of turns it stood still, scenes that repeat.
    #[serde(default)]
    pub pace: Pace,
}

/// One played turn: its events, the sheet before it, and how long it took.
#[derive(Clone, Debug)]
pub struct PlayedTurn<'a> {
    /// The turn's events, in order.
    pub events: &'a [TurnEvent],
    /// The hero as the turn found them.
    pub before: &'a CharacterSheet,
    /// What the rules owed the move.
    pub due: Due,
    /// From the move to the first narrative text.
    pub first_text: Option<Duration>,
    /// From the move to the next actions.
    pub took: Duration,
}

impl Tally {
    /// Counts one played turn.
    pub fn add_turn(&mut self, turn: &PlayedTurn<'_>) {
        let rules = RulesRecord::from_events(turn.events);
        self.turns += 1;
        self.owed(turn.due, &rules);
        self.claims(turn.events, turn.before);
        let failed = rules.checks.iter().any(|check| !check.success);
        self.failed_rolls += u32::from(failed);
        let complicated = turn
            .events
            .iter()
            .any(|event| matches!(event, TurnEvent::Complicated { .. }));
        self.free_failures += u32::from(failed && !complicated && !costs(&rules));
        self.unresolved_turns += u32::from(!resolved(turn.events));
        for event in turn.events {
            self.event(event);
        }
        self.pace.add_turn(turn.events);
        self.first_text_ms.extend(turn.first_text.map(millis));
        self.turn_ms.push(millis(turn.took));
    }

    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &Tally) {
        let Tally {
            turns,
            failed_turns,
            rolls_due,
            rolls_made,
            items_due,
            items_used,
            changes_claimed,
            changes_made,
            contradictions,
            contradictions_left,
            corrections_asked,
            tool_calls,
            tool_calls_refused,
            failed_rolls,
            free_failures,
            unresolved_turns,
            impossible_asks,
            impossible_granted,
            action_lists,
            lists_repaired,
            lists_rejected,
            scenes,
            good_voice,
            unrepeated,
            prompt_tokens,
            cached_tokens,
            completion_tokens,
            first_text_ms,
            turn_ms,
            pace,
        } = other;
        let counts = [
            (&mut self.turns, turns),
            (&mut self.failed_turns, failed_turns),
            (&mut self.rolls_due, rolls_due),
            (&mut self.rolls_made, rolls_made),
            (&mut self.items_due, items_due),
            (&mut self.items_used, items_used),
            (&mut self.changes_claimed, changes_claimed),
            (&mut self.changes_made, changes_made),
            (&mut self.contradictions, contradictions),
            (&mut self.contradictions_left, contradictions_left),
            (&mut self.corrections_asked, corrections_asked),
            (&mut self.tool_calls, tool_calls),
            (&mut self.tool_calls_refused, tool_calls_refused),
            (&mut self.failed_rolls, failed_rolls),
            (&mut self.free_failures, free_failures),
            (&mut self.unresolved_turns, unresolved_turns),
            (&mut self.impossible_asks, impossible_asks),
            (&mut self.impossible_granted, impossible_granted),
            (&mut self.action_lists, action_lists),
            (&mut self.lists_repaired, lists_repaired),
            (&mut self.lists_rejected, lists_rejected),
            (&mut self.scenes, scenes),
            (&mut self.good_voice, good_voice),
            (&mut self.unrepeated, unrepeated),
        ];
        for (mine, theirs) in counts {
            *mine += *theirs;
        }
        self.prompt_tokens += prompt_tokens;
        self.cached_tokens += cached_tokens;
        self.completion_tokens += completion_tokens;
        self.first_text_ms.extend(first_text_ms);
        self.turn_ms.extend(turn_ms);
        self.pace.add(pace);
    }

    /// What the move was owed, and whether the rules gave it.
    fn owed(&mut self, due: Due, rules: &RulesRecord) {
        match due {
            Due::Nothing => {}
            Due::Roll => {
                self.rolls_due += 1;
                self.rolls_made += u32::from(!rules.checks.is_empty() || rules.fought);
            }
            Due::Change => {
                self.items_due += 1;
                self.items_used += u32::from(rules.items.iter().any(|item| !item.is_gain()));
            }
            Due::Refusal => {
                self.impossible_asks += 1;
                let gained = rules.items.iter().any(|item| item.is_gain())
                    || rules.healing.total() > 0
                    || rules.experience.total() > 0
                    || rules.level_after.is_some();
                self.impossible_granted += u32::from(gained);
            }
        }
    }

    /// The scene's claims of changes to the hero, and those the rules deny.
    fn claims(&mut self, events: &[TurnEvent], before: &CharacterSheet) {
        let check = LedgerCheck::of_turn(events, before);
        // A claim made twice (`you find a key, and you pocket the key`) counts once, as its
        // contradiction does.
        let claimed: HashSet<&Claim> = check
            .claims()
            .iter()
            .filter(|c| changes_the_hero(c))
            .collect();
        let claimed = claimed.len();
        let missing = check
            .contradictions()
            .iter()
            .filter(|c| nothing_changed(c))
            .count();
        self.changes_claimed += count(claimed);
        self.changes_made += count(claimed.saturating_sub(missing));
    }

    /// Counts what one event shows: the ledger check, tool calls, action lists, the scene,
    /// tokens.
    fn event(&mut self, event: &TurnEvent) {
        match event {
            TurnEvent::LedgerChecked { notes, asked, .. } => {
                let first_draft = if asked.is_empty() { notes } else { asked };
                self.contradictions += count(first_draft.len());
                self.contradictions_left += count(notes.len());
                self.corrections_asked += u32::from(!asked.is_empty());
            }
            TurnEvent::ToolCalled { .. } => self.tool_calls += 1,
            TurnEvent::ToolResult { effect: None, .. } => self.tool_calls_refused += 1,
            TurnEvent::ActionsOffered {
                fallback, repaired, ..
            } => {
                self.action_lists += 1;
                self.lists_repaired += u32::from(*repaired);
                self.lists_rejected += u32::from(*fallback);
            }
            TurnEvent::Narration { text, .. } => {
                self.scenes += 1;
                self.good_voice += u32::from(good_voice(text));
                let (repeated, distinct) = repetition(text);
                self.unrepeated += u32::from(!repeated && distinct >= 0.8);
            }
            TurnEvent::Usage { usage, .. } => {
                self.prompt_tokens += u64::from(usage.prompt_tokens);
                self.cached_tokens += u64::from(usage.cached_tokens);
                self.completion_tokens += u64::from(usage.completion_tokens);
            }
            _ => {}
        }
    }
}

/// Whether a claim is of a change to the hero's sheet.
fn changes_the_hero(claim: &Claim) -> bool {
    match claim {
        Claim::Damage(amount) => *amount > 0,
        Claim::Healing(_)
        | Claim::ItemGained { .. }
        | Claim::ItemLost { .. }
        | Claim::ConditionGained(_)
        | Claim::ConditionLost(_)
        | Claim::Experience(_)
        | Claim::Level(_) => true,
        _ => false,
    }
}

/// Whether a contradiction says a claimed change never happened at all (not merely a wrong
/// amount).
fn nothing_changed(contradiction: &Contradiction) -> bool {
    match contradiction {
        Contradiction::Damage { claimed, rules } => *claimed > 0 && *rules == 0,
        Contradiction::Healing { rules, .. } | Contradiction::Experience { rules, .. } => {
            *rules == 0
        }
        Contradiction::ItemGained { .. }
        | Contradiction::ItemLost { .. }
        | Contradiction::ConditionGained { .. }
        | Contradiction::ConditionLost { .. }
        | Contradiction::Level { .. } => true,
        _ => false,
    }
}

/// Whether the turn cost the hero something: damage, an item lost, a condition, a fight.
fn costs(rules: &RulesRecord) -> bool {
    rules.damage.total() > 0
        || rules.items.iter().any(|item| !item.is_gain())
        || !rules.conditions_added.is_empty()
        || rules.fight_began
}

/// Whether the rules played any part in the turn: a roll, a change, a fight, the oracle.
fn resolved(events: &[TurnEvent]) -> bool {
    events.iter().any(|event| match event {
        TurnEvent::PlayerRoll { .. } | TurnEvent::Ruled { .. } | TurnEvent::Fought { .. } => true,
        TurnEvent::ToolResult {
            effect: Some(effect),
            ..
        } => match effect {
            ToolEffect::Changed { changes, .. } => !changes.is_empty(),
            ToolEffect::Rolled { .. }
            | ToolEffect::Checked { .. }
            | ToolEffect::SanityChecked { .. }
            | ToolEffect::Hazard { .. }
            | ToolEffect::Asked { .. }
            | ToolEffect::TableRolled { .. }
            | ToolEffect::Proposed { .. }
            | ToolEffect::ForMember { .. }
            | ToolEffect::Fought { .. } => true,
            ToolEffect::Read
            | ToolEffect::Noted { .. }
            | ToolEffect::Aside { .. }
            | ToolEffect::Mapped { .. }
            | ToolEffect::Spine { .. } => false,
        },
        _ => false,
    })
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn millis(time: Duration) -> u64 {
    u64::try_from(time.as_millis()).unwrap_or(u64::MAX)
}
