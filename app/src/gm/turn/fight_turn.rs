//! The player's side of a fight: the moves the rules offer while one is under way (attack a
//! foe with a carried weapon, dodge, flee, drink a potion), the player's turn played by the
//! rules before the narrator writes a word, and — for a model that gets no tools — a fight the
//! rules start themselves when a failed roll, or a move that picks a fight, meets a creature the
//! scene names.

use rand::Rng;

use super::power_moves::{feature_moves, spell_moves};
use crate::campaign::turn_event::TurnEvent;
use crate::game::bestiary::{Bestiary, CreatureName};
use crate::game::fight::{weapon_profile, FightMove, FightStep, FoeSpec, USED_IN_FIGHT};
use crate::game::item_kind::ItemKind;
use crate::game::text::ActionDescription;
use crate::game::{Action, ActionList, CharacterSheet, Combat, Slug, StateDelta};
use crate::gm::prose::lexicon::ATTACK_VERBS;
use crate::gm::tools::{fight_result, ToolTable};

/// The most foes the rules offer an attack on at once (the rest by the model's words).
const ATTACK_CHOICES: usize = 3;

/// The moves a fight allows now, the rules' own; empty when no fight is under way.
pub fn fight_moves(sheet: &CharacterSheet, combat: &Combat) -> Vec<Action> {
    let Some(encounter) = combat.current() else {
        return Vec::new();
    };
    let weapon = weapon_profile(sheet, None).ok();
    let attacks: Vec<(String, FightMove)> = encounter
        .standing()
        .take(ATTACK_CHOICES)
        .map(|foe| {
            let with = weapon.as_ref().map_or("bare hands".to_owned(), |w| {
                format!("your {}", w.name().as_str().to_lowercase())
            });
            let text = format!("Attack {} with {with}", foe.label());
            let target = foe.label().to_string();
            let attack = FightMove::Attack {
                target,
                weapon: None,
            };
            (text, attack)
        })
        .collect();
    let mut attacks = attacks.into_iter();
    // The first attack, the hero's spells and a feature, then the rest.
    let mut moves: Vec<(String, FightMove)> = attacks.next().into_iter().collect();
    moves.extend(spell_moves(sheet, encounter));
    moves.extend(feature_moves(sheet, encounter));
    moves.push((
        "Dodge: make every attack on you harder".to_owned(),
        FightMove::Dodge,
    ));
    moves.push(("Try to get away".to_owned(), FightMove::Flee));
    moves.extend(attacks);
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
/// first), or for anything else a turn the fight does not resolve while the foes act; its dice
/// show the `shown` faces first (the same move's, from before an undo or for a retelling).
/// `None` with no fight under way, or when the rules refuse the move (the fight then waits).
pub fn fight_turn<R: Rng + ?Sized>(
    chosen: Option<&FightMove>,
    shown: &[u16],
    table: &mut ToolTable,
    rng: &mut R,
) -> Option<FightTurn> {
    if !table.combat.is_running() {
        return None;
    }
    let mut events = Vec::new();
    if let Some(FightMove::Use { item }) = chosen {
        // An item no longer usable (drunk from the panel meanwhile) leaves the turn spent.
        if let Some(used) = use_item(item, table, rng) {
            events.push(used);
        }
    }
    let step = chosen.map_or(FightStep::Pass, FightMove::step);
    play(step, shown, table, rng, events)
}

/// The carried consumable `item` used up by the rules, if it can be used now.
fn use_item<R: Rng + ?Sized>(item: &Slug, table: &mut ToolTable, rng: &mut R) -> Option<TurnEvent> {
    let deltas = vec![StateDelta::use_item(&table.sheet, item, rng).ok()?];
    let changes = StateDelta::apply_all(&deltas, &mut table.sheet).ok()?;
    Some(TurnEvent::Ruled {
        cause: USED_IN_FIGHT.to_owned(),
        deltas,
        changes,
    })
}

/// Whether the player's move picks a fight (`Attack the goblin`, `I charge the wolves`).
pub fn picks_a_fight(move_text: &str) -> bool {
    let text = words(move_text);
    let mut words = text.split(' ');
    let first = match words.next() {
        Some("i") => words.next(),
        other => other,
    };
    first.is_some_and(|verb| ATTACK_VERBS.contains(&verb))
}

/// For a model without tools: a fight the rules start (`trigger`: the player's roll failed, or
/// the move picks a fight) against a creature of the bestiary that `texts` name — the move
/// first, then the last scene (in each, the longest name found).
pub fn fight_from_the_scene<R: Rng + ?Sized>(
    trigger: bool,
    texts: [&str; 2],
    table: &mut ToolTable,
    rng: &mut R,
) -> Option<FightTurn> {
    if !trigger || table.combat.is_running() || table.sheet.vitality().is_dying() {
        return None;
    }
    let name = texts.into_iter().find_map(named_creature)?;
    let step = FightStep::Start {
        foes: vec![FoeSpec {
            name,
            challenge: None,
        }],
    };
    play(step, &[], table, rng, Vec::new())
}

/// Plays `step` with fresh dice: its events and the narrator's line (none when the rules refuse
/// it).
pub(super) fn play_step<R: Rng + ?Sized>(
    step: FightStep,
    table: &mut ToolTable,
    rng: &mut R,
) -> Option<FightTurn> {
    play(step, &[], table, rng, Vec::new())
}

/// Plays `step` after `events`, its dice showing the `shown` faces first: the events with the
/// fight's, and the narrator's line.
fn play<R: Rng + ?Sized>(
    step: FightStep,
    shown: &[u16],
    table: &mut ToolTable,
    rng: &mut R,
    mut events: Vec<TurnEvent>,
) -> Option<FightTurn> {
    let mut shown = shown.iter().copied();
    let mut face = |sides: u16| {
        shown
            .next()
            .filter(|face| (1..=sides).contains(face))
            .unwrap_or_else(|| rng.random_range(1..=sides))
    };
    let (record, changes) = step
        .play_on_table(
            &mut table.combat,
            &mut table.sheet,
            &mut table.party,
            &mut face,
        )
        .ok()?;
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

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    use super::*;
    use crate::game::creation::tests_support::rogue;
    use crate::game::journal::Journal;
    use crate::game::map::WorldMap;
    use crate::gm::llm::ToolCall;
    use crate::gm::tools::{execute, parse_call};

    fn table() -> ToolTable {
        ToolTable {
            sheet: rogue(),
            journal: Journal::default(),
            map: WorldMap::default(),
            combat: Combat::default(),
            approval: false,
            proposals_made: 0,
            unspent_rolls: Vec::new(),
            spine: crate::game::spine::Spine::default(),
            turn: 2,
            party: Default::default(),
        }
    }

    /// What `start_encounter` with `foes` answers: its result, or why it was refused.
    fn start(table: &mut ToolTable, foes: &str, rng: &mut StdRng) -> String {
        let call = ToolCall {
            id: "c1".into(),
            name: "start_encounter".into(),
            arguments: format!(r#"{{"foes": {foes}}}"#),
        };
        match parse_call(&call) {
            Ok(command) => execute(command, table, rng)
                .map_or_else(|error| error.to_string(), |done| done.result),
            Err(rejection) => rejection.reason,
        }
    }

    #[test]
    fn a_fight_offers_its_moves_first_and_keeps_one_of_the_models() {
        let mut rng = StdRng::seed_from_u64(4);
        let mut table = table();
        assert!(fight_moves(&table.sheet, &table.combat).is_empty());
        start(&mut table, r#"["Goblin", "Goblin", "Wolf"]"#, &mut rng);
        let moves: Vec<String> = fight_moves(&table.sheet, &table.combat)
            .iter()
            .map(|m| m.description().as_str().to_owned())
            .collect();
        let standing: Vec<String> = table
            .combat
            .current()
            .unwrap()
            .standing()
            .map(|f| f.label().to_string())
            .collect();
        assert!(
            moves[0].starts_with(&format!("Attack {} with your ", standing[0])),
            "{moves:?}"
        );
        assert!(moves.iter().any(|m| m.starts_with("Dodge")));
        assert!(moves.iter().any(|m| m == "Try to get away"));
        let model = ActionList::parse_json(
            r#"[{"id": "shout", "description": "Shout for the guards"},
                {"id": "run", "description": "Run for the door"}]"#,
        )
        .unwrap()
        .actions;
        let offered = with_fight_moves(model, &table.sheet, &table.combat);
        assert_eq!(offered.len(), ActionList::MAX_ACTIONS);
        assert_eq!(offered.actions().last().unwrap().id().as_str(), "shout");
    }

    #[test]
    fn the_players_turn_is_the_rules_and_a_potion_heals_only_the_hurt() {
        let mut rng = StdRng::seed_from_u64(9);
        let mut table = table();
        assert!(
            fight_turn(None, &[], &mut table, &mut rng).is_none(),
            "no fight, no turn"
        );
        start(&mut table, r#"["Goblin"]"#, &mut rng);
        let potion = table
            .sheet
            .inventory()
            .items()
            .iter()
            .find(|i| matches!(i.kind(), ItemKind::Consumable(_)))
            .map(|i| i.slug().clone())
            .expect("the rogue carries a potion");
        // At full hit points the potion cannot be used: the turn is spent, the potion kept.
        let full = table.sheet.hit_points().current() == table.sheet.hit_points().max();
        let used = FightMove::Use {
            item: potion.clone(),
        };
        let turn = fight_turn(Some(&used), &[], &mut table, &mut rng).expect("a fight turn");
        let ruled = turn
            .events
            .iter()
            .any(|e| matches!(e, TurnEvent::Ruled { .. }));
        assert_eq!(ruled, !full);
        assert!(matches!(turn.events.last(), Some(TurnEvent::Fought { .. })));
        assert!(
            turn.line.starts_with("The rules resolved:"),
            "{}",
            turn.line
        );
    }

    #[test]
    fn hit_points_and_attack_rolls_are_not_the_models_in_a_fight() {
        let mut rng = StdRng::seed_from_u64(2);
        let mut table = table();
        let attack = ToolCall {
            id: "c2".into(),
            name: "roll_dice".into(),
            arguments: r#"{"dice": "1d20+4", "reason": "Goblin attack"}"#.into(),
        };
        let refused = parse_call(&attack).unwrap_err();
        assert!(
            refused.reason.contains("start_encounter"),
            "{}",
            refused.reason
        );
        assert!(start(&mut table, r#"["Snorlax"]"#, &mut rng).contains("challenge rating"));
        let hag = crate::gm::tools::foe_spec("Bog hag (CR 2)").unwrap();
        assert_eq!(hag.challenge, Some("2".parse().unwrap()));
        let result = start(&mut table, r#"["Goblin"]"#, &mut rng);
        assert!(
            result.starts_with("The rules resolved:\nInitiative:"),
            "{result}"
        );
        assert!(
            table.combat.is_running(),
            "this seed leaves the rogue up: {result}"
        );
        let again = start(&mut table, r#"["Goblin"]"#, &mut rng);
        assert!(again.contains("already on"), "{again}");
        let hurt = ToolCall {
            id: "c3".into(),
            name: "update_character".into(),
            arguments: r#"{"hpChange": -4}"#.into(),
        };
        let command = parse_call(&hurt).unwrap();
        let refused = execute(command, &mut table, &mut rng).unwrap_err();
        assert_eq!(refused, crate::gm::tools::RunError::InAFight);
        assert!(
            refused.to_string().contains("fight is under way"),
            "{refused}"
        );
    }

    #[test]
    fn a_failed_roll_meets_the_creature_the_scene_names() {
        let mut rng = StdRng::seed_from_u64(1);
        let mut table = table();
        assert!(named_creature("Two GIANT spiders drop from the web.")
            .is_some_and(|n| n.as_str() == "Giant Spider"));
        assert!(named_creature("The goblins laugh.").is_some_and(|n| n.as_str() == "Goblin"));
        assert!(named_creature("A massive door.").is_none());
        let mut shadows = table.clone();
        let started = fight_from_the_scene(
            true,
            ["I attack the goblin.", "Shadows crawl over the walls."],
            &mut shadows,
            &mut rng,
        )
        .expect("a fight");
        assert!(started.line.contains("Goblin") && !started.line.contains("Shadow"));
        assert!(picks_a_fight("I attack the goblin!") && picks_a_fight("Charge the wolves"));
        assert!(!picks_a_fight("Talk to the goblin") && !picks_a_fight("Look for a fight"));
        let scene = ["I wait.", "A wolf circles the fire."];
        assert!(fight_from_the_scene(false, scene, &mut table, &mut rng).is_none());
        let started = fight_from_the_scene(true, scene, &mut table, &mut rng).expect("a fight");
        assert!(table.combat.is_running() || started.line.contains("The fight is over"));
        assert!(
            fight_from_the_scene(true, scene, &mut table, &mut rng).is_none(),
            "one at a time"
        );
    }
}
