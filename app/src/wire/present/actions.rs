//! The action buttons and the proposals waiting for the player, as the play screen shows them:
//! each button's badge and chance are the rules' figures for the state now.

use crate::campaign::state::CampaignState;
use crate::game::dice::{Chance, DiceExpr, DifficultyClass, Edge};
use crate::game::fight::{weapon_profile, FightMove};
use crate::game::stakes::DEATH_SAVE_DC;
use crate::game::{Action, ActionList};
use crate::wire::view::{ActionView, ProposalView};

/// The proposals waiting for the player in `state`.
pub fn proposal_views(state: &CampaignState) -> Vec<ProposalView> {
    state
        .proposals
        .iter()
        .map(|proposal| ProposalView {
            id: proposal.id,
            labels: proposal.labels.clone(),
            cause: proposal.cause.clone(),
        })
        .collect()
}

/// The action buttons (empty until generated; a fight's moves that no longer apply left
/// out).
pub fn action_views(state: &CampaignState) -> Vec<ActionView> {
    state
        .actions
        .iter()
        .flat_map(ActionList::actions)
        .filter(|action| state.still_offers(action))
        .map(|action| ActionView {
            id: action.id().to_string(),
            description: action.description().as_str().to_owned(),
            badge: badge(state, action),
            chance: chance(state, action).map(Chance::percent),
            stakes: action.stakes().map(|stakes| {
                (
                    stakes.success.as_str().to_owned(),
                    stakes.failure.as_str().to_owned(),
                )
            }),
        })
        .collect()
}

/// An action button's badge: its dice with the edge the character's conditions give, or
/// for an attack of the fight, the attack roll's; while the character is dying, the death
/// save every move rolls.
fn badge(state: &CampaignState, action: &Action) -> Option<String> {
    if state.sheet.vitality().is_dying() {
        // Whatever the move, the roll it makes is the death save.
        return Some(format!("1d20 death save vs DC {DEATH_SAVE_DC}"));
    }
    let effects = state.sheet.conditions().roll_effects();
    match action.fight() {
        Some(FightMove::Attack { weapon, .. }) => {
            let profile = weapon_profile(&state.sheet, weapon.as_ref()).ok()?;
            let d20 = DiceExpr::parse(effects.attacks.d20()).ok()?;
            let notation = d20.notation_with_bonus(i32::from(profile.to_hit_bonus()));
            Some(match effects.attacks.word() {
                Some(word) => format!("{notation} to hit ({word})"),
                None => format!("{notation} to hit"),
            })
        }
        _ => action.badge(&state.sheet, effects.checks),
    }
}

/// The chance an action's roll succeeds, worked out by the rules: a check against its DC, or
/// an attack of the fight against its target's armour class (with the edge the hero's
/// conditions and the foe's give); while the character is dying, the death save's.
fn chance(state: &CampaignState, action: &Action) -> Option<Chance> {
    if state.sheet.vitality().is_dying() {
        let dc = DifficultyClass::new(i64::from(DEATH_SAVE_DC)).ok()?;
        return Chance::to_meet(&DiceExpr::d20(), 0, dc);
    }
    let effects = state.sheet.conditions().roll_effects();
    let Some(FightMove::Attack { target, weapon }) = action.fight() else {
        return action.chance(&state.sheet, effects.checks);
    };
    let profile = weapon_profile(&state.sheet, weapon.as_ref()).ok()?;
    let foe = state
        .combat
        .current()?
        .standing()
        .find(|foe| foe.label().as_str() == target)?;
    let edge = Edge::combine([effects.attacks, foe.edge_against_it()]);
    let armor_class = foe.creature().armor_class().value();
    Some(Chance::to_hit(
        edge,
        i32::from(profile.to_hit_bonus()),
        armor_class,
    ))
}
