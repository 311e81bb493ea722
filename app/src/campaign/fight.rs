//! A fight's step applied to the campaign state: the step is played again from its recorded
//! dice (a record whose numbers are not the rules' does not apply), the foes' damage and the
//! fight's experience go onto the sheet, and the player sees each roll with the armour class it
//! had to beat, the chips, and the encounter tracker.

use super::shown::Shown;
use super::state::{CampaignState, ProjectionError};
use super::story::{story_dice, Roller, StoryEntry, Verdict};
use crate::game::analysis::{attack_analysis, check_analysis};
use crate::game::combat::{CombatEvent, Party};
use crate::game::fight::{FightError, FightMove, FightRecord};
use crate::game::{Action, AppliedChanges, StateDelta};

impl CampaignState {
    /// Applies one step of a fight and the changes it recorded; nothing changes when the step
    /// or the changes are not what the rules make of its dice.
    pub(super) fn apply_fight(
        &mut self,
        record: &FightRecord,
        recorded: &AppliedChanges,
        updates: &mut Vec<Shown>,
    ) -> Result<(), ProjectionError> {
        let mut combat = self.combat.clone();
        record.replay_at_table(&mut combat, &self.sheet, &self.party)?;
        let mut sheet = self.sheet.clone();
        let changes = StateDelta::apply_all(&record.deltas(), &mut sheet)?;
        if changes != *recorded {
            return Err(FightError::Differs.into());
        }
        let mut party = self.party.clone();
        record.apply_to_party(&mut party)?;
        let party_changed = party != self.party;
        self.combat = combat;
        self.sheet = sheet;
        self.party = party;
        if party_changed {
            updates.push(Shown::Party);
        }
        for event in &record.exchange.events {
            updates.push(self.entry(roll_entry(event)));
        }
        let mut labels = Vec::new();
        if let Some(end) = &record.exchange.end {
            labels.push(end.describe());
        }
        labels.extend(changes.labels());
        if !labels.is_empty() {
            updates.push(self.entry(StoryEntry::Changes { labels }));
        }
        updates.push(Shown::Sheet);
        updates.push(Shown::Encounter);
        Ok(())
    }

    /// Whether `action` can still be chosen: a fight's move only while its fight runs, against
    /// a foe still standing, with an item that still does something (the panel may have used
    /// it meanwhile). A hero whom a condition keeps from acting (stunned, unconscious…) is
    /// offered no roll and no fight move: only words, while the foes act.
    pub fn still_offers(&self, action: &Action) -> bool {
        let helpless = self.sheet.conditions().roll_effects().helpless;
        if helpless && (action.fight().is_some() || action.dice_roll().is_some()) {
            return false;
        }
        let Some(fight) = action.fight() else {
            return true;
        };
        let Some(encounter) = self.combat.current() else {
            return false;
        };
        match fight {
            FightMove::Attack { target, .. } => encounter
                .standing()
                .any(|foe| foe.label().as_str() == target),
            FightMove::Use { item } => self.sheet.can_use(item),
            FightMove::Dodge | FightMove::Flee => true,
            FightMove::Cast {
                spell,
                targets,
                slot,
            } => {
                self.sheet.castable(spell.as_str(), *slot).is_ok()
                    && (targets.is_empty()
                        || encounter
                            .standing()
                            .any(|foe| targets.iter().any(|t| foe.label().as_str() == t)))
            }
            FightMove::Feature { feature, .. } => self.sheet.usable(*feature).is_ok(),
        }
    }
}

/// A fight's event as a line of the story: the hero's attacks and escapes are the player's
/// rolls (a hit is a success), the foes' attacks and the initiative the game master's, and what
/// rolls no dice a chip.
fn roll_entry(event: &CombatEvent) -> StoryEntry {
    let line = event.describe();
    match event {
        CombatEvent::Attack(attack) => {
            let hero = matches!(attack.attacker(), Party::Hero);
            let verdict = if attack.is_hit() {
                Verdict::Success
            } else {
                Verdict::Failure
            };
            StoryEntry::Roll {
                line,
                dice: story_dice(attack.roll()),
                analysis: attack_analysis(attack),
                verdict: hero.then_some(verdict),
                by: if hero {
                    Roller::Player
                } else {
                    Roller::GameMaster
                },
                natural: attack.roll().natural(),
            }
        }
        CombatEvent::Flee { check } => StoryEntry::Roll {
            line,
            dice: story_dice(check.roll()),
            analysis: check_analysis(check, "escaping the fight"),
            verdict: Some(if check.is_success() {
                Verdict::Success
            } else {
                Verdict::Failure
            }),
            by: Roller::Player,
            natural: check.natural(),
        },
        CombatEvent::Initiative { .. } => StoryEntry::Roll {
            line,
            dice: Vec::new(),
            analysis: None,
            verdict: None,
            by: Roller::GameMaster,
            natural: None,
        },
        // No dice: a new round, a dodge, a spent turn, a foe getting up.
        _ => StoryEntry::Changes { labels: vec![line] },
    }
}

#[cfg(test)]
mod tests {
    use crate::campaign::state::CampaignState;
    use crate::game::text::{CharacterName, ClassName, ConditionName, LocationName};
    use crate::game::{ActionList, CharacterSheet, Condition, StateDelta};

    #[test]
    fn a_hero_who_cannot_act_is_offered_no_roll_only_words() {
        let sheet = CharacterSheet::new(
            CharacterName::new("Vex").unwrap(),
            ClassName::new("Fighter").unwrap(),
            LocationName::new("The bridge").unwrap(),
        );
        let mut state = CampaignState::start("A troll.", sheet);
        let offered = ActionList::parse_json(
            r#"{"actions": [
                {"id": "leap", "description": "Leap the gap", "diceRoll": "1d20", "difficultyClass": 12},
                {"id": "call", "description": "Call for help"}
            ]}"#,
        )
        .unwrap();
        state.actions = Some(offered.actions);
        let ids = |state: &CampaignState| -> Vec<String> {
            let offered = state.actions.iter().flat_map(ActionList::actions);
            offered
                .filter(|action| state.still_offers(action))
                .map(|action| action.id().to_string())
                .collect()
        };
        assert_eq!(ids(&state), ["leap", "call"]);
        let stunned = StateDelta::AddCondition {
            condition: Condition::named(ConditionName::new("Stunned").unwrap()).typed(),
        };
        stunned.apply(&mut state.sheet).unwrap();
        assert_eq!(ids(&state), ["call"]);
        // A condition with no such effect takes nothing away.
        let mut poisoned = state.clone();
        poisoned.sheet = CharacterSheet::new(
            CharacterName::new("Vex").unwrap(),
            ClassName::new("Fighter").unwrap(),
            LocationName::new("The bridge").unwrap(),
        );
        let poison = StateDelta::AddCondition {
            condition: Condition::named(ConditionName::new("Poisoned").unwrap()).typed(),
        };
        poison.apply(&mut poisoned.sheet).unwrap();
        assert_eq!(ids(&poisoned), ["leap", "call"]);
    }
}
