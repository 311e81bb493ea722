//! Tests of a fight's steps: played, read back from their faces and refused when their numbers
//! are not the rules', and what each step does to the sheet.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::game::combat::{Combat, CombatEvent};
use crate::game::creation::tests_support::{of_class, rogue};
use crate::game::delta::StateDelta;
use crate::game::sheet::CharacterSheet;

fn goblins(count: usize) -> FightStep {
    let foe = FoeSpec {
        name: CreatureName::new("Goblin").unwrap(),
        challenge: None,
    };
    FightStep::Start {
        foes: vec![foe; count],
    }
}

fn play(step: FightStep, combat: &mut Combat, sheet: &CharacterSheet, seed: u64) -> FightRecord {
    let mut rng = StdRng::seed_from_u64(seed);
    step.play(combat, sheet, &mut |sides| rng.random_range(1..=sides))
        .unwrap()
}

#[test]
fn a_played_step_replays_from_its_faces_and_nothing_else() {
    let sheet = rogue();
    let (mut live, mut read_back) = (Combat::default(), Combat::default());
    let start = play(goblins(2), &mut live, &sheet, 1);
    start.replay(&mut read_back, &sheet).unwrap();
    let attack = FightStep::Attack {
        target: "Goblin 1".into(),
        weapon: None,
    };
    let swing = play(attack, &mut live, &sheet, 2);
    assert!(swing.exchange.attacks().next().is_some());
    swing.replay(&mut read_back, &sheet).unwrap();
    assert_eq!(live, read_back, "the replay reaches the same fight");

    // One more face, one fewer, a face off its die, or a changed number: refused, unchanged.
    let before = read_back.clone();
    let mut longer = swing.clone();
    longer.faces.push(1);
    let mut shorter = swing.clone();
    shorter.faces.pop();
    let mut off_die = swing.clone();
    off_die.faces[0] = 21;
    let mut lied = swing.clone();
    lied.exchange.damage_to_hero += 1;
    let mut combat = start_again(&sheet, &start);
    for (record, expected) in [
        (&longer, "recorded dice were never rolled"),
        (&shorter, "more dice than"),
        (&off_die, "shows 21"),
        (&lied, "not what the rules make"),
    ] {
        let error = record.replay(&mut combat, &sheet).unwrap_err();
        assert!(error.to_string().contains(expected), "{error}");
    }
    assert_eq!(read_back, before);
}

#[test]
fn the_heros_conditions_give_their_edges_to_the_fights_attacks() {
    use crate::game::combat::{Edge, Party};
    use crate::game::text::ConditionName;
    use crate::game::Condition;
    let mut sheet = rogue();
    let conditions = ["Poisoned", "Prone"].map(|name| StateDelta::AddCondition {
        condition: Condition::named(ConditionName::new(name).unwrap()).typed(),
    });
    StateDelta::apply_all(&conditions, &mut sheet).unwrap();
    let mut combat = Combat::default();
    play(goblins(1), &mut combat, &sheet, 1);
    let mut seen = (false, false);
    for seed in 2..12 {
        if !combat.is_running() {
            break;
        }
        let step = FightStep::Attack {
            target: "Goblin".into(),
            weapon: None,
        };
        let record = play(step, &mut combat, &sheet, seed);
        for attack in record.exchange.attacks() {
            if matches!(attack.attacker(), Party::Hero) {
                assert_eq!(
                    attack.edge(),
                    Edge::Disadvantage,
                    "poisoned: the hero's swing"
                );
                assert!(attack.roll().notation().starts_with("2d20kl1"));
                seen.0 = true;
            } else {
                assert_eq!(attack.edge(), Edge::Advantage, "prone: the goblin's swing");
                seen.1 = true;
            }
        }
    }
    assert_eq!(seen, (true, true), "both sides swung");
}

/// The fight as `start` left it.
fn start_again(sheet: &CharacterSheet, start: &FightRecord) -> Combat {
    let mut combat = Combat::default();
    start.replay(&mut combat, sheet).unwrap();
    combat
}

#[test]
fn foes_come_from_the_bestiary_or_their_rating_never_from_the_model() {
    let bestiary = FoeSpec {
        name: CreatureName::new("goblin").unwrap(),
        challenge: Some("10".parse().unwrap()),
    };
    // The bestiary's goblin, whatever rating the model gave.
    assert_eq!(bestiary.creature().unwrap().hit_points(), 7);
    let unknown = FoeSpec {
        name: CreatureName::new("Bog hag").unwrap(),
        challenge: None,
    };
    assert!(matches!(unknown.creature(), Err(FightError::UnknownFoe(_))));
    let rated = FoeSpec {
        challenge: Some("2".parse().unwrap()),
        ..unknown
    };
    let hag = rated.creature().unwrap();
    assert_eq!(hag.challenge(), "2".parse().unwrap());
}

#[test]
fn bad_moves_are_refused_and_change_nothing() {
    let sheet = rogue();
    let mut combat = Combat::default();
    let mut rng = StdRng::seed_from_u64(3);
    let mut face = |sides: u16| rng.random_range(1..=sides);
    let attack = |target: &str, weapon: Option<&str>| FightStep::Attack {
        target: target.into(),
        weapon: weapon.map(|w| Slug::new(w).unwrap()),
    };
    assert!(matches!(
        attack("Goblin", None).play(&mut combat, &sheet, &mut face),
        Err(FightError::Combat(CombatError::NoEncounter))
    ));
    goblins(1).play(&mut combat, &sheet, &mut face).unwrap();
    let before = combat.clone();
    let refusals = [
        attack("Wolf", None),
        attack("Goblin", Some("longbow")),
        goblins(1),
    ];
    for step in refusals {
        assert!(step.play(&mut combat, &sheet, &mut face).is_err());
        assert_eq!(combat, before);
    }
}

#[test]
fn damage_and_experience_are_the_sheets_changes() {
    let sheet = rogue();
    let mut combat = Combat::default();
    // Attack until the fight ends; every hit point lost is a delta, the win is XP.
    let mut record = play(goblins(1), &mut combat, &sheet, 5);
    let mut seed = 6;
    while combat.is_running() {
        let step = FightStep::Attack {
            target: "Goblin".into(),
            weapon: None,
        };
        record = play(step, &mut combat, &sheet, seed);
        seed += 1;
        let deltas = record.deltas();
        let damage = record.exchange.damage_to_hero;
        assert_eq!(
            deltas.contains(&StateDelta::ChangeHp {
                amount: -(damage as i32)
            }),
            damage > 0
        );
    }
    let end = record.exchange.end.clone().expect("the fight ended");
    if end.defeated.is_empty() {
        assert!(!record
            .deltas()
            .iter()
            .any(|d| matches!(d, StateDelta::GainExperience { .. })));
    } else {
        assert!(record
            .deltas()
            .contains(&StateDelta::GainExperience { amount: 50 }));
    }
    assert!(record
        .exchange
        .events
        .iter()
        .any(|e| matches!(e, CombatEvent::Attack(_))));
}

/// Dice showing `faces` in order, then 1s.
fn scripted(faces: &[u16]) -> impl FnMut(u16) -> u16 {
    let mut faces: std::collections::VecDeque<u16> = faces.iter().copied().collect();
    move |_| faces.pop_front().unwrap_or(1)
}

/// A fight against the bestiary's `names` begun on the scripted initiative `faces`.
fn begin(names: &[&str], sheet: &CharacterSheet, faces: &[u16]) -> Combat {
    let foes = names
        .iter()
        .map(|name| FoeSpec {
            name: CreatureName::new(name).unwrap(),
            challenge: None,
        })
        .collect();
    let mut combat = Combat::default();
    FightStep::Start { foes }
        .play(&mut combat, sheet, &mut scripted(faces))
        .unwrap();
    combat
}

/// The step casting `spell` at `targets` with a `slot` (the lowest left when none).
fn cast(spell: &str, targets: &[&str], slot: Option<u8>) -> FightStep {
    FightStep::Cast {
        spell: Slug::new(spell).unwrap(),
        targets: targets.iter().map(|t| t.to_string()).collect(),
        slot: slot.map(|s| SpellLevel::new(s).unwrap()),
    }
}

/// The step using `feature` on the first foe standing.
fn feature(feature: Feature) -> FightStep {
    FightStep::Feature {
        feature,
        target: None,
    }
}

/// A level-`level` character of the preset `class`.
fn at_level(class: &str, level: i64) -> CharacterSheet {
    of_class(class).with_level(crate::game::Level::new(level).unwrap())
}

/// Plays `step` on the scripted `faces` and applies it to `sheet`: the record.
fn play_on(
    step: FightStep,
    combat: &mut Combat,
    sheet: &mut CharacterSheet,
    faces: &[u16],
) -> FightRecord {
    step.play_on(combat, sheet, &mut scripted(faces)).unwrap().0
}

/// Each foe a spell landed on in `record`, with the damage dealt.
fn spell_hits(record: &FightRecord) -> Vec<(String, u32)> {
    let hits = record
        .exchange
        .events
        .iter()
        .filter_map(|event| match event {
            CombatEvent::SpellHit { foe, dealt, .. } => Some((foe.to_string(), *dealt)),
            _ => None,
        });
    hits.collect()
}

/// The delta casting `spell` with a `slot` out of the fight: a slot spent.
fn spend(spell: &str, slot: u8) -> StateDelta {
    StateDelta::CastSpell {
        spell: Slug::new(spell).unwrap(),
        slot: SpellLevel::new(slot).unwrap(),
        roll: None,
    }
}

#[test]
fn magic_missile_with_a_second_level_slot_fires_four_darts_over_the_named_foes() {
    let mut wizard = at_level("Wizard", 3);
    let mut combat = begin(&["Goblin", "Goblin"], &wizard, &[20, 10, 5]);
    let step = cast("magic-missile", &["Goblin 1", "Goblin 2"], Some(2));
    // Four darts of 1d4+1 showing 1, 2, 3, 4: 2, 3, 4, 5 in turn.
    let record = play_on(step, &mut combat, &mut wizard, &[1, 2, 3, 4]);
    assert_eq!(
        spell_hits(&record),
        [
            ("Goblin 1".into(), 2),
            ("Goblin 2".into(), 3),
            ("Goblin 1".into(), 4),
            ("Goblin 2".into(), 5),
        ]
    );
    assert_eq!(record.deltas()[0], spend("magic-missile", 2));
    assert_eq!(wizard.spell_slots()[..2], [(4, 4), (2, 1)]);
    let hp: Vec<u16> = combat
        .current()
        .unwrap()
        .foes()
        .iter()
        .map(|f| f.hit_points())
        .collect();
    assert_eq!(hp, [1, 0]);
}

#[test]
fn a_cast_replays_from_its_faces_but_not_without_its_slot_or_with_its_numbers_edited() {
    let sheet = of_class("Wizard");
    let mut live = begin(&["Goblin", "Goblin"], &sheet, &[20, 10, 5]);
    let mut read_back = live.clone();
    // Burning Hands: 3d6 = 4; Goblin 1 fails (2+2), Goblin 2 saves (18+2) and takes 2.
    let step = cast("burning-hands", &[], None);
    let record = step
        .play(&mut live, &sheet, &mut scripted(&[1, 1, 2, 2, 18]))
        .unwrap();
    assert_eq!(
        spell_hits(&record),
        [("Goblin 1".into(), 4), ("Goblin 2".into(), 2)]
    );
    let before = read_back.clone();
    let mut spent = sheet.clone();
    StateDelta::apply_all(&[spend("magic-missile", 1), spend("sleep", 1)], &mut spent).unwrap();
    let no_slot = record.replay(&mut read_back, &spent).unwrap_err();
    assert_eq!(no_slot.to_string(), "No 1st-level slot left");
    let mut lied = record.clone();
    for event in &mut lied.exchange.events {
        if let CombatEvent::SpellHit { dealt, .. } = event {
            *dealt += 1;
        }
    }
    // A 2 for the first 1: 3d6 = 5, and Goblin 1 takes 5, not 4.
    let mut other_faces = record.clone();
    other_faces.faces[0] = 2;
    for edited in [&lied, &other_faces] {
        let error = edited.replay(&mut read_back, &sheet).unwrap_err();
        assert!(matches!(error, FightError::Differs), "{error}");
    }
    assert_eq!(read_back, before, "the refusals changed nothing");
    record.replay(&mut read_back, &sheet).unwrap();
    assert_eq!(read_back, live);
}

#[test]
fn a_spell_not_known_or_without_a_slot_left_is_refused_and_changes_nothing() {
    let mut wizard = of_class("Wizard");
    let mut combat = begin(&["Goblin"], &wizard, &[20, 5]);
    StateDelta::apply_all(&[spend("magic-missile", 1), spend("sleep", 1)], &mut wizard).unwrap();
    let (combat_before, sheet_before) = (combat.clone(), wizard.clone());
    for (step, refusal) in [
        (cast("cure-wounds", &[], None), "You don't know Cure Wounds"),
        (
            cast("magic-missile", &["Goblin"], None),
            "No 1st-level slot left",
        ),
        (cast("sleep", &[], Some(1)), "No 1st-level slot left"),
    ] {
        let error = step
            .play_on(&mut combat, &mut wizard, &mut scripted(&[4, 4, 4]))
            .unwrap_err();
        assert!(matches!(error, FightError::Power(_)), "{error:?}");
        assert_eq!(error.to_string(), refusal);
        assert_eq!(combat, combat_before);
        assert_eq!(wizard, sheet_before);
    }
}

#[test]
fn a_blow_that_breaks_concentration_ends_it_on_the_sheet_too() {
    // The bard's Faerie Fire outlines the goblin (2+2 vs DC 12); the goblin hits back for
    // 1+2 = 3 and the bard saves CON (+1) against DC 10.
    for (save, kept) in [(9, true), (8, false)] {
        let mut bard = of_class("Bard");
        let mut combat = begin(&["Goblin"], &bard, &[20, 5]);
        let step = cast("faerie-fire", &[], None);
        let record = play_on(step, &mut combat, &mut bard, &[2, 15, 1, save]);
        let mut expected = vec![spend("faerie-fire", 1), StateDelta::ChangeHp { amount: -3 }];
        if !kept {
            expected.push(StateDelta::EndConcentration);
        }
        assert_eq!(record.deltas(), expected, "save {save}");
        let held = bard
            .powers()
            .unwrap()
            .concentration()
            .map(|s| s.name.as_str());
        assert_eq!(held, kept.then_some("Faerie Fire"), "save {save}");
        let goblin = &combat.current().unwrap().foes()[0];
        assert_eq!(
            goblin.has(crate::game::combat::FoeCondition::Outlined),
            kept,
            "save {save}"
        );
    }
}

/// The hero's attacks in `record`: the d20's total, its edge, the damage dealt and how many
/// parts it had.
fn hero_swings(record: &FightRecord) -> Vec<(i32, crate::game::dice::Edge, u32, usize)> {
    use crate::game::combat::Party;
    let swings = record
        .exchange
        .attacks()
        .filter(|a| *a.attacker() == Party::Hero);
    swings
        .map(|a| {
            (
                a.roll().total(),
                a.edge(),
                a.total_damage(),
                a.damage().len(),
            )
        })
        .collect()
}

/// How many times Sneak Attack's one d6 rode a hit in `record`.
fn sneak_attacks(record: &FightRecord) -> usize {
    let events = record.exchange.events.iter();
    events
        .filter(|e| matches!(e, CombatEvent::SneakAttack { dice: 1 }))
        .count()
}

#[test]
fn cunning_action_hides_for_advantage_and_sneak_attack_rides_one_hit() {
    use crate::game::dice::Edge;
    let mut rogue = at_level("Rogue", 2);
    // Hidden (10 + Stealth vs 10 + the orc's WIS 0): 2d20kh1 keeps 12, +4 = 16 vs AC 13;
    // the shortsword's 4+2 and Sneak Attack's 1d6 = 5.
    let mut combat = begin(&["Orc"], &rogue, &[20, 1]);
    let step = feature(Feature::CunningAction);
    let record = play_on(step, &mut combat, &mut rogue, &[10, 12, 3, 4, 5]);
    let hide = record.exchange.events.iter().find_map(|e| match e {
        CombatEvent::Hide { check } => Some(check.is_success()),
        _ => None,
    });
    assert_eq!(hide, Some(true));
    assert_eq!(hero_swings(&record), [(16, Edge::Advantage, 11, 2)]);
    assert_eq!(sneak_attacks(&record), 1);
    assert_eq!(combat.current().unwrap().foes()[0].hit_points(), 4);
    let used = StateDelta::UseFeature {
        feature: Feature::CunningAction,
        roll: None,
    };
    assert_eq!(record.deltas(), [used]);
    // Seen (a 1 on the d20): a plain roll, 15+4 = 19, and no sneak dice on the hit.
    let mut combat = begin(&["Orc"], &rogue, &[20, 1]);
    let step = feature(Feature::CunningAction);
    let record = play_on(step, &mut combat, &mut rogue, &[1, 15, 4]);
    assert_eq!(hero_swings(&record), [(19, Edge::Normal, 6, 1)]);
    assert_eq!(sneak_attacks(&record), 0);
}

#[test]
fn second_wind_heals_before_its_strike_and_a_spent_use_is_refused() {
    let mut fighter = of_class("Fighter");
    let hurt = crate::game::HitPoints::new(3, 12).unwrap();
    fighter = fighter.with_hit_points(hurt);
    let mut combat = begin(&["Orc"], &fighter, &[20, 1]);
    // 1d10+1 = 7 back, then the longsword: 10+4 vs AC 13, 3+2 damage.
    let record = play_on(
        feature(Feature::SecondWind),
        &mut combat,
        &mut fighter,
        &[6, 10, 3],
    );
    let order: Vec<&str> = record
        .exchange
        .events
        .iter()
        .filter_map(|e| match e {
            CombatEvent::Healed { .. } => Some("healed"),
            CombatEvent::Attack(_) => Some("attack"),
            _ => None,
        })
        .collect();
    assert_eq!(order, ["healed", "attack", "attack"], "the orc swings last");
    let roll = match &record.deltas()[..] {
        [StateDelta::UseFeature {
            feature: Feature::SecondWind,
            roll: Some(roll),
        }] => roll.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!((roll.notation(), roll.total()), ("1d10+1", 7));
    assert_eq!(fighter.hit_points().current(), 10);
    assert_eq!(combat.current().unwrap().foes()[0].hit_points(), 10);
    let (combat_before, sheet_before) = (combat.clone(), fighter.clone());
    let again = feature(Feature::SecondWind)
        .play_on(&mut combat, &mut fighter, &mut scripted(&[6, 10, 3]))
        .unwrap_err();
    assert!(
        matches!(again, FightError::Power(PowerError::NoUse { .. })),
        "{again:?}"
    );
    assert_eq!(
        again.to_string(),
        "No use of Second Wind left; a short rest brings it back"
    );
    assert_eq!((combat, fighter), (combat_before, sheet_before));
}

#[test]
fn a_bonus_action_spell_leaves_the_action_for_a_strike_that_the_mark_rides() {
    // Level 2 by experience: the ranger's first slots and spells come with it.
    let mut ranger = of_class("Ranger");
    let level_up = StateDelta::GainExperience { amount: 300 };
    StateDelta::apply_all(&[level_up], &mut ranger).unwrap();
    let mut combat = begin(&["Orc"], &ranger, &[20, 1]);
    // Hunter's Mark on the orc, then the longbow: 15 to hit, 4 on the d8 and 3 on the mark's d6.
    let record = play_on(
        cast("hunters-mark", &[], None),
        &mut combat,
        &mut ranger,
        &[15, 4, 3],
    );
    let swings = hero_swings(&record);
    assert_eq!(swings.len(), 1, "one strike after the spell");
    assert_eq!(
        (swings[0].2, swings[0].3),
        (4 + 2 + 3, 2),
        "the weapon's and the mark's dice"
    );
    assert!(record
        .exchange
        .events
        .iter()
        .any(|e| matches!(e, CombatEvent::Rider { .. })));
    assert_eq!(ranger.spell_slots()[0], (2, 1));
    let held = ranger
        .powers()
        .and_then(|p| p.concentration())
        .map(|s| s.name.clone());
    assert_eq!(held.as_deref(), Some("Hunter's Mark"));
}

#[test]
fn action_surge_makes_two_attacks_in_one_turn() {
    use crate::game::dice::Edge;
    let mut fighter = at_level("Fighter", 2);
    let mut combat = begin(&["Orc"], &fighter, &[20, 1]);
    // 10+4 hits for 3+2; 2+4 misses.
    let record = play_on(
        feature(Feature::ActionSurge),
        &mut combat,
        &mut fighter,
        &[10, 3, 2],
    );
    assert_eq!(
        hero_swings(&record),
        [(14, Edge::Normal, 5, 1), (6, Edge::Normal, 0, 0)]
    );
    assert_eq!(fighter.features()[1], (Feature::ActionSurge, Some((0, 1))));
}

#[test]
fn turn_undead_saves_against_the_clerics_spell_save_dc() {
    let mut cleric = at_level("Cleric", 2);
    assert_eq!(cleric.spell_save_dc(), Some(12));
    // You 20, Skeleton 8, Goblin 7. The skeleton's WIS save: 12-1 = 11, short of 12.
    let mut combat = begin(&["Skeleton", "Goblin"], &cleric, &[20, 6, 5]);
    let step = feature(Feature::ChannelDivinity);
    let record = play_on(step, &mut combat, &mut cleric, &[12]);
    let saves: Vec<(String, i32, u8, bool)> = record
        .exchange
        .events
        .iter()
        .filter_map(|e| match e {
            CombatEvent::SpellSave {
                foe,
                roll,
                dc,
                saved,
            } => Some((foe.to_string(), roll.total(), *dc, *saved)),
            _ => None,
        })
        .collect();
    assert_eq!(saves, [("Skeleton".into(), 11, 12, false)]);
    let foes = combat.current().unwrap().foes();
    assert!(foes[0].has_fled() && foes[1].is_standing());
    assert_eq!(
        cleric.features()[0],
        (Feature::ChannelDivinity, Some((0, 1)))
    );
}
