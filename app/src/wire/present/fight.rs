//! The fight under way as the encounter tracker shows it: everyone in initiative order with
//! their hit points, armour class and conditions.

use crate::campaign::state::CampaignState;
use crate::game::combat::{Combatant, Encounter};
use crate::game::CharacterSheet;
use crate::wire::view::{EncounterView, FighterView};

/// The fight under way in `state` as the tracker shows it, if any.
pub fn encounter_view(state: &CampaignState) -> Option<EncounterView> {
    state
        .combat
        .current()
        .map(|encounter| tracker(encounter, &state.sheet, !state.party.is_empty()))
}

/// The tracker of `encounter`, the hero's figures from `sheet` (called by their name at a
/// table of several, where "You" would mean someone else on each screen).
fn tracker(encounter: &Encounter, sheet: &CharacterSheet, party: bool) -> EncounterView {
    let order = encounter
        .order()
        .iter()
        .map(|entry| match entry.combatant() {
            Combatant::Hero => FighterView {
                name: if party {
                    sheet.name().to_string()
                } else {
                    "You".to_owned()
                },
                initiative: entry.total(),
                hero: true,
                hp: (sheet.hit_points().current(), sheet.hit_points().max()),
                armor_class: sheet.armor_class().value(),
                conditions: Vec::new(),
            },
            Combatant::Ally(index) => {
                let ally = &encounter.allies()[index];
                FighterView {
                    name: ally.name().to_string(),
                    initiative: entry.total(),
                    hero: false,
                    hp: (ally.hit_points(), ally.max_hit_points()),
                    armor_class: ally.armor_class().value(),
                    conditions: if ally.is_standing() {
                        Vec::new()
                    } else {
                        vec!["down".to_owned()]
                    },
                }
            }
            Combatant::Foe(index) => {
                let foe = &encounter.foes()[index];
                let mut conditions: Vec<String> =
                    foe.conditions().map(|c| c.name().to_owned()).collect();
                if foe.is_defeated() {
                    conditions.push("down".to_owned());
                } else if foe.has_fled() {
                    conditions.push("fled".to_owned());
                }
                FighterView {
                    name: foe.label().to_string(),
                    initiative: entry.total(),
                    hero: false,
                    hp: (foe.hit_points(), foe.max_hit_points()),
                    armor_class: foe.creature().armor_class().value(),
                    conditions,
                }
            }
        })
        .collect();
    EncounterView {
        round: encounter.round(),
        order,
        turn: encounter.turn(),
    }
}
