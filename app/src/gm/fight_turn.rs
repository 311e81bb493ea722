//! The player's side of a fight: the moves the rules offer while one is under way (attack a
//! foe with a carried weapon, dodge, flee, drink a potion), the player's turn played by the
//! rules before the narrator writes a word, and — for a model that gets no tools — a fight the
//! rules start themselves when a failed roll meets a creature the scene names.

use rand::Rng;

use super::tools::{fight_result, ToolTable};
use crate::campaign::turn_event::TurnEvent;
use crate::game::bestiary::{Bestiary, CreatureName};
use crate::game::fight::{weapon_profile, FightMove, FightStep, FoeSpec, USED_IN_FIGHT};
use crate::game::item_kind::ItemKind;
use crate::game::text::ActionDescription;
use crate::game::{Action, ActionList, CharacterSheet, Combat, Slug, StateDelta};

/// The most foes the rules offer an attack on at once (the rest by the model's words).
const ATTACK_CHOICES: usize = 3;

/// The moves a fight allows now, the rules' own; empty when no fight is under way.
pub fn fight_moves(sheet: &CharacterSheet, combat: &Combat) -> Vec<Action> {
    let Some(encounter) = combat.current() else {
        return Vec::new();
    };
    let mut moves = Vec::new();
    let weapon = weapon_profile(sheet, None).ok();
    for foe in encounter.standing().take(ATTACK_CHOICES) {
        let with = weapon.as_ref().map_or("bare hands".to_owned(), |w| {
            format!("your {}", w.name().as_str().to_lowercase())
        });
        let text = format!("Attack {} with {with}", foe.label());
        let target = foe.label().to_string();
        moves.push((
            text,
            FightMove::Attack {
                target,
                weapon: None,
            },
        ));
    }
    moves.push((
        "Dodge: make every attack on you harder".to_owned(),
        FightMove::Dodge,
    ));
    moves.push(("Try to get away".to_owned(), FightMove::Flee));
    let potion =
        sheet.inventory().items().iter().find(|item| {
            matches!(item.kind(), ItemKind::Consumable(_)) && sheet.can_use(item.slug())
        });
    if let Some(item) = potion {
        let text = format!("Use your {}", item.name().as_str().to_lowercase());
        moves.push((
            text,
            FightMove::Use {
                item: item.slug().clone(),
            },
        ));
    }
    moves
        .into_iter()
        .enumerate()
        .filter_map(|(i, (text, fight))| {
            let id = Slug::new(&format!("fight-{}", i + 1)).ok()?;
            let text = ActionDescription::new(&text).ok()?;
            Some(Action::fight_move(id, text, fight))
        })
        .collect()
}

/// `actions` with the fight's moves first, as many of the model's own after them as fit.
pub fn with_fight_moves(
    actions: ActionList,
    sheet: &CharacterSheet,
    combat: &Combat,
) -> ActionList {
    let mut offered = fight_moves(sheet, combat);
    if offered.is_empty() {
        return actions;
    }
    // At least one of the model's own moves stays on offer.
    offered.truncate(ActionList::MAX_ACTIONS - 1);
    let room = ActionList::MAX_ACTIONS - offered.len();
    offered.extend(
        Vec::from(actions)
            .into_iter()
            .filter(|action| {
                action.fight().is_none() && !action.id().as_str().starts_with("fight-")
            })
            .take(room),
    );
    ActionList::try_from(offered).expect("1 to 6 actions with distinct ids")
}

/// What the narrator reads of the player's turn in a fight.
pub struct FightTurn {
    /// The events to log, in order.
    pub events: Vec<TurnEvent>,
    /// The exchange, for the narrator.
    pub line: String,
}

/// Plays the player's turn in the fight under way: the chosen move of the fight (an item used
/// first), or for anything else a turn the fight does not resolve while the foes act. `None`
/// with no fight under way, or when the rules refuse the move (the fight then waits).
pub fn fight_turn<R: Rng + ?Sized>(
    chosen: Option<&FightMove>,
    table: &mut ToolTable,
    rng: &mut R,
) -> Option<FightTurn> {
    if !table.combat.is_running() {
        return None;
    }
    let mut events = Vec::new();
    if let Some(FightMove::Use { item }) = chosen {
        let used = StateDelta::use_item(&table.sheet, item, rng).ok()?;
        let deltas = vec![used];
        let changes = StateDelta::apply_all(&deltas, &mut table.sheet).ok()?;
        events.push(TurnEvent::Ruled {
            cause: USED_IN_FIGHT.to_owned(),
            deltas,
            changes,
        });
    }
    let step = chosen.map_or(FightStep::Pass, FightMove::step);
    play(step, table, rng, events)
}

/// For a model without tools: a fight the rules start when the player's roll failed and the
/// move or the last scene names a creature of the bestiary (the longest name found).
pub fn fight_from_failure<R: Rng + ?Sized>(
    failed: bool,
    scene: &str,
    table: &mut ToolTable,
    rng: &mut R,
) -> Option<FightTurn> {
    if !failed || table.combat.is_running() || table.sheet.vitality().is_dying() {
        return None;
    }
    let name = named_creature(scene)?;
    let step = FightStep::Start {
        foes: vec![FoeSpec {
            name,
            challenge: None,
        }],
    };
    play(step, table, rng, Vec::new())
}

/// Plays `step` after `events`: the events with the fight's, and the narrator's line.
fn play<R: Rng + ?Sized>(
    step: FightStep,
    table: &mut ToolTable,
    rng: &mut R,
    mut events: Vec<TurnEvent>,
) -> Option<FightTurn> {
    let record = step
        .play(&mut table.combat, &table.sheet, &mut |sides| {
            rng.random_range(1..=sides)
        })
        .ok()?;
    let changes = StateDelta::apply_all(&record.deltas(), &mut table.sheet).ok()?;
    let line = fight_result(&record, &table.combat);
    events.push(TurnEvent::Fought { record, changes });
    Some(FightTurn { events, line })
}

/// The bestiary creature `text` names, the longest name first (`giant spider` before
/// `spider`); plurals count (`wolves` is not `wolf`, `goblins` is).
fn named_creature(text: &str) -> Option<CreatureName> {
    let padded = format!(" {} ", words(text));
    Bestiary::srd()
        .creatures()
        .iter()
        .filter(|creature| {
            let name = words(creature.name().as_str());
            padded.contains(&format!(" {name} ")) || padded.contains(&format!(" {name}s "))
        })
        .max_by_key(|creature| creature.name().as_str().len())
        .map(|creature| creature.name().clone())
}

/// `text` in lower case, its words joined by single spaces, punctuation dropped.
fn words(text: &str) -> String {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
