//! The share of spell effects the rules decide, over a scripted 20-turn campaign of a Wizard and
//! of a Cleric: the player casts what the rules offer in each fight and in their own words out of
//! one, rests when the slots run out, and the scripted narrator tries, every few turns, to settle a
//! number itself (hit points with no roll behind them). Every spell's damage, healing, save, slot
//! and condition must be an event of the rules, every number the narrator tried must be refused,
//! and the campaign must read back from its log. The figures are printed for the note.

use crate::support::table::{Seat, Table};
use app::campaign::event::CampaignEvent;
use app::campaign::store::CampaignStore;
use app::campaign::turn_event::{ToolEffect, TurnEvent};
use app::game::combat::CombatEvent;
use app::game::{Change, RestKind, StateDelta};
use app::gm::scripted::{Scenario, Step};
use app::wire::present::actions::action_views;
use app::wire::view::{MoveInput, NewCampaign};
use app::wire::CampaignId;
use serde_json::json;

/// How many turns each campaign plays.
const TURNS: u32 = 20;

/// A fight with a kobold, its narration, the narrator's try at a number of its own, and the
/// fight called off with a little experience; again and again.
fn skirmishes() -> Scenario {
    let actions = Step::json(json!({"actions": [
        {"id": "look", "description": "Look around the crossroads", "diceRoll": null, "diceReason": null, "difficultyClass": null, "attribute": null}
    ]}));
    Scenario {
        steps: vec![
            Step::text("Goblins lurk at the crossroads."),
            Step::call("start_encounter", json!({"foes": ["Kobold"]})),
            Step::text("A kobold leaps from the ditch."),
            Step::text("Blades and spells cross in the mud."),
            Step::call("update_character", json!({"hpChange": 9})),
            Step::text("A warm glow knits your wounds."),
            Step::calls(&[
                ("end_encounter", json!({})),
                (
                    "award_experience",
                    json!({"amount": 100, "reason": "Saw off a kobold"}),
                ),
            ]),
            Step::text("The kobolds scatter into the hedges."),
        ],
        actions: vec![actions],
        cycle: true,
        ..Scenario::default()
    }
}

/// What one campaign's log shows of its spells.
#[derive(Debug, Default)]
struct Tally {
    turns: u32,
    casts: u32,
    rules_effects: u32,
    slots_spent: u32,
    narrator_tries: u32,
    narrator_numbers: u32,
}

impl Tally {
    /// The share of spell effects decided by the rules, in percent.
    fn share(&self) -> f64 {
        let all = self.rules_effects + self.narrator_numbers;
        100.0 * f64::from(self.rules_effects) / f64::from(all.max(1))
    }
}

/// The move for the next turn: a cast the fight offers, else its first move; out of a fight, a
/// spell in the player's own words while a slot or cantrip allows, else the model's action.
async fn next_move(seat: &Seat, id: &CampaignId, class: &str) -> MoveInput {
    let state = seat.state(id).await;
    let offered = action_views(&state);
    if state.combat.is_running() {
        let pick = offered
            .iter()
            .find(|a| a.id.starts_with("fight-") && a.description.starts_with("Cast "))
            .or_else(|| offered.iter().find(|a| a.id == "fight-1"))
            .expect("a fight offers its moves");
        return MoveInput::Action {
            id: pick.id.clone(),
        };
    }
    let words = match class {
        "Cleric" => "I cast Cure Wounds on myself",
        _ => "I cast Mage Hand to lift the latch",
    };
    if state.sheet.castable(spell_of(words), None).is_ok() {
        return MoveInput::Text { text: words.into() };
    }
    MoveInput::Action {
        id: offered[0].id.clone(),
    }
}

/// The spell `words` name (one of the two this test types).
fn spell_of(words: &str) -> &'static str {
    if words.contains("Cure Wounds") {
        "Cure Wounds"
    } else {
        "Mage Hand"
    }
}

/// Plays a `class` campaign for [`TURNS`] turns, resting from the panel whenever the 1st-level
/// slots run out or the hero is below half their hit points outside a fight; its tally.
async fn play(class: &str) -> Tally {
    let mut seat = Seat::new(Table::playing(skirmishes()).await, 42);
    let form = NewCampaign::new("Goblins at the crossroads.", "Ilse", class);
    let id = seat.create(&form).await;
    let mut played = 0;
    for turn in 2..=TURNS + 1 {
        let state = seat.state(&id).await;
        if state.sheet.vitality().is_dead() {
            break;
        }
        let hp = state.sheet.hit_points();
        let spent = state.sheet.spell_slots()[0].1 == 0;
        let dying = state.sheet.vitality().is_dying();
        if !state.combat.is_running() && !dying && (spent || hp.current() < hp.max() / 2) {
            let game = seat.game();
            if game
                .rest(&seat.owner, &id, RestKind::Long, 2)
                .await
                .is_err()
            {
                game.rest(&seat.owner, &id, RestKind::Short, 2)
                    .await
                    .unwrap();
            }
        }
        let input = next_move(&seat, &id, class).await;
        seat.play(&id, turn, input).await;
        played = turn - 1;
    }
    Tally {
        turns: played,
        ..tally(&seat, &id).await
    }
}

/// Counts the casts, the spell effects the rules made, the slots spent, and the narrator's tries
/// at a number of its own (refused) and any that landed.
async fn tally(seat: &Seat, id: &CampaignId) -> Tally {
    let (_, log) = seat.table.store.log(&seat.owner, id).await.unwrap();
    let mut tally = Tally::default();
    for stored in &log {
        let CampaignEvent::Turn(event) = &stored.event else {
            continue;
        };
        match event {
            TurnEvent::Fought { record, changes } => {
                for event in &record.exchange.events {
                    match event {
                        CombatEvent::Cast { .. } => tally.casts += 1,
                        CombatEvent::SpellHit { .. }
                        | CombatEvent::SpellSave { .. }
                        | CombatEvent::Healed { .. }
                        | CombatEvent::Pool { .. } => tally.rules_effects += 1,
                        CombatEvent::Attack(attack) if is_spell(attack.weapon().as_str()) => {
                            tally.rules_effects += 1
                        }
                        _ => {}
                    }
                }
                tally.slots_spent += slots_spent(changes.changes());
            }
            TurnEvent::Ruled {
                deltas, changes, ..
            } => {
                for delta in deltas {
                    if let StateDelta::CastSpell { roll, .. } = delta {
                        tally.casts += 1;
                        tally.rules_effects += 1 + u32::from(roll.is_some());
                    }
                }
                tally.slots_spent += slots_spent(changes.changes());
            }
            TurnEvent::ToolResult { tool, effect, .. } if tool == "update_character" => {
                match effect {
                    None => tally.narrator_tries += 1,
                    Some(ToolEffect::Changed { changes, .. }) => {
                        let hp = changes
                            .changes()
                            .iter()
                            .any(|c| matches!(c, Change::Hp { .. }));
                        tally.narrator_tries += 1;
                        tally.narrator_numbers += u32::from(hp);
                    }
                    Some(_) => {}
                }
            }
            _ => {}
        }
    }
    tally
}

/// Whether an attack's name is a spell's (a spell attack).
fn is_spell(name: &str) -> bool {
    app::game::spells::SpellBook::srd().get(name).is_ok()
}

/// The slots a step's changes spent.
fn slots_spent(changes: &[Change]) -> u32 {
    changes
        .iter()
        .map(|change| match change {
            Change::Slots { from, to, .. } if to < from => u32::from(from - to),
            _ => 0,
        })
        .sum()
}

#[tokio::test]
async fn every_spell_effect_of_a_twenty_turn_wizard_and_cleric_is_the_rules() {
    for class in ["Wizard", "Cleric"] {
        let tally = play(class).await;
        println!(
            "{class}, {} turns: {} casts, {} slots spent, {} spell effects by the rules, \
             {} numbers the narrator tried (refused), {} it settled; share decided by the rules \
             {:.0}%",
            tally.turns,
            tally.casts,
            tally.slots_spent,
            tally.rules_effects,
            tally.narrator_tries,
            tally.narrator_numbers,
            tally.share()
        );
        assert_eq!(tally.turns, TURNS, "{class} played on: {tally:?}");
        assert!(tally.casts >= 3, "{class} cast: {tally:?}");
        assert!(tally.narrator_tries > 0, "the narrator tried: {tally:?}");
        assert_eq!(tally.narrator_numbers, 0, "{class}: {tally:?}");
        assert_eq!(tally.share(), 100.0);
    }
}
