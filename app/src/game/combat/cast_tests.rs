//! Spells and class features in a fight, played through [`Combat`] with scripted dice and spells
//! cast from the spell book's figures: saves that halve or spare the damage, darts that never
//! miss, Sleep's pool, concentration held, replaced and broken by a blow, conditions that run out
//! with their rounds, and Turn Undead.

use super::roller::tests::Scripted;
use super::*;
use crate::game::bestiary::{ArmorClass, AttackName, Bestiary, Damage, DamageType};
use crate::game::dice::DiceExpr;
use crate::game::spells::{SpellBook, SpellEffect, SpellLevel};

fn creature(name: &str) -> Creature {
    Bestiary::srd().get(name).unwrap().clone()
}

/// AC 13, 20 HP, DEX +2, CON save +0.
fn hero() -> Hero {
    Hero::new(ArmorClass::new(13).unwrap(), 20, 2)
}

/// A fight against the bestiary's `foes` begun with the scripted initiative faces (the hero's
/// first).
fn begin(foes: &[&str], faces: &[u16]) -> Combat {
    let mut combat = Combat::default();
    let creatures = foes.iter().map(|name| creature(name)).collect();
    combat
        .start_with(creatures, &hero(), &mut Scripted::new(faces))
        .unwrap();
    combat
}

/// The book's spell `name` cast with a `slot` by a level-1 caster with attack +4 and DC 12.
fn cast(name: &str, slot: u8) -> SpellCast {
    let spell = SpellBook::srd().get(name).unwrap();
    let slot = SpellLevel::new(slot).unwrap();
    let figures = spell.figures(slot, 1).unwrap();
    let dice = || figures.dice.clone().unwrap();
    let effect = match &spell.effect {
        SpellEffect::Damage { damage_type, .. } => CastEffect::Damage {
            damage: Damage::new(dice(), *damage_type).unwrap(),
            beams: figures.beams,
        },
        SpellEffect::HitPointPool { .. } => CastEffect::Pool { dice: dice() },
        SpellEffect::Condition => CastEffect::Condition,
        other => panic!("{name}: no fight test casts {other:?}"),
    };
    SpellCast {
        spell: spell.name.clone(),
        attack_name: AttackName::new(&spell.name.to_lowercase()).unwrap(),
        slot,
        delivery: spell.delivery,
        effect,
        condition: spell.condition,
        attack_bonus: 4,
        save_dc: 12,
        concentration: spell.concentration,
        reach: figures.targets,
    }
}

/// The hero casts `spell` at `targets` on the scripted `faces`, as `hero` (then the foes act).
fn cast_as(
    combat: &mut Combat,
    hero: &Hero,
    spell: SpellCast,
    targets: &[&str],
    faces: &[u16],
) -> Exchange {
    let action = HeroAction::Cast {
        cast: spell,
        targets: targets.iter().map(|t| t.to_string()).collect(),
        strike: None,
    };
    combat
        .act_with(action, hero, &mut Scripted::new(faces))
        .unwrap()
}

/// Each foe's save in `exchange`: who, the total, the DC and whether it saved.
fn saves(exchange: &Exchange) -> Vec<(String, i32, u8, bool)> {
    let saves = exchange.events.iter().filter_map(|event| match event {
        CombatEvent::SpellSave {
            foe,
            roll,
            dc,
            saved,
        } => Some((foe.to_string(), roll.total(), *dc, *saved)),
        _ => None,
    });
    saves.collect()
}

/// A spell landing on a foe: who, the damage dealt, its hit points before and after, and the
/// condition put on it.
type Landed = (String, u32, Option<(u16, u16)>, Option<FoeCondition>);

/// Each foe a spell landed on in `exchange`, in order.
fn landed(exchange: &Exchange) -> Vec<Landed> {
    let hits = exchange.events.iter().filter_map(|event| match event {
        CombatEvent::SpellHit {
            foe,
            dealt,
            hp,
            condition,
            ..
        } => Some((
            foe.to_string(),
            *dealt,
            hp.map(|hp| (hp.from, hp.to)),
            *condition,
        )),
        _ => None,
    });
    hits.collect()
}

/// The foe labelled `label`.
fn foe<'a>(combat: &'a Combat, label: &str) -> &'a Foe {
    let encounter = combat.current().unwrap();
    encounter
        .foes()
        .iter()
        .find(|foe| foe.label().as_str() == label)
        .unwrap()
}

/// Which foes lost their turn to a condition in `exchange`.
fn lost_turns(exchange: &Exchange) -> Vec<String> {
    let lost = exchange.events.iter().filter_map(|event| match event {
        CombatEvent::LosesTurn { foe, .. } => Some(foe.to_string()),
        _ => None,
    });
    lost.collect()
}

/// The conditions lifted in `exchange`, by foe.
fn lifted(exchange: &Exchange) -> Vec<(String, FoeCondition)> {
    let ends = exchange.events.iter().filter_map(|event| match event {
        CombatEvent::ConditionEnds { foe, condition } => Some((foe.to_string(), *condition)),
        _ => None,
    });
    ends.collect()
}

#[test]
fn a_saving_foe_takes_half_the_damage_rounded_down_and_a_failing_one_all_of_it() {
    // You 17, Orc 11, Bandit 6 (both DEX +1).
    let mut combat = begin(&["Orc", "Bandit"], &[15, 10, 5]);
    // One roll of 3d6 = 9 for both; the orc saves (15+1), the bandit fails (3+1).
    let burning = cast("Burning Hands", 1);
    let exchange = cast_as(
        &mut combat,
        &hero(),
        burning,
        &["Orc", "Bandit"],
        &[4, 3, 2, 15, 3],
    );
    assert_eq!(
        saves(&exchange),
        [
            ("Orc".into(), 16, 12, true),
            ("Bandit".into(), 4, 12, false)
        ]
    );
    assert_eq!(
        landed(&exchange),
        [
            ("Orc".into(), 4, Some((15, 11)), None),
            ("Bandit".into(), 9, Some((11, 2)), None),
        ]
    );
    let lines: Vec<String> = exchange.events.iter().map(CombatEvent::describe).collect();
    assert!(
        lines.contains(
            &"Burning Hands hits Orc: 3d6 → [4, 3, 2] = 9 fire, 4 dealt; Orc has 11/15 HP".into()
        ),
        "{lines:#?}"
    );
    assert_eq!(foe(&combat, "Orc").hit_points(), 11);
    assert_eq!(foe(&combat, "Bandit").hit_points(), 2);
}

#[test]
fn a_cantrip_that_spares_a_saver_deals_it_nothing() {
    let mut combat = begin(&["Orc", "Bandit"], &[15, 10, 5]);
    // Sacred Flame rolls 8; the bandit's DEX save 11+1 meets DC 12.
    let flame = cast("Sacred Flame", 0);
    let exchange = cast_as(&mut combat, &hero(), flame, &["Bandit"], &[8, 11]);
    assert_eq!(saves(&exchange), [("Bandit".into(), 12, 12, true)]);
    assert_eq!(
        landed(&exchange),
        [("Bandit".into(), 0, Some((11, 11)), None)]
    );
    // A failed save (10+1) takes the whole 1d8.
    let flame = cast("Sacred Flame", 0);
    let exchange = cast_as(&mut combat, &hero(), flame, &["Bandit"], &[8, 10]);
    assert_eq!(
        landed(&exchange),
        [("Bandit".into(), 8, Some((11, 3)), None)]
    );
}

#[test]
fn magic_missiles_darts_never_miss_each_rolls_its_own_damage_and_they_spread_over_the_targets() {
    let mut combat = begin(&["Goblin", "Goblin"], &[15, 10, 5]);
    // Three darts of 1d4+1 in turn at Goblin 1, Goblin 2, Goblin 1: 4, 2 and 5.
    let missile = cast("Magic Missile", 1);
    let exchange = cast_as(
        &mut combat,
        &hero(),
        missile,
        &["Goblin 1", "Goblin 2"],
        &[3, 1, 4],
    );
    assert_eq!(
        landed(&exchange),
        [
            ("Goblin 1".into(), 4, Some((7, 3)), None),
            ("Goblin 2".into(), 2, Some((7, 5)), None),
            ("Goblin 1".into(), 5, Some((3, 0)), None),
        ]
    );
    let darts: Vec<String> = exchange
        .events
        .iter()
        .filter_map(|event| match event {
            CombatEvent::SpellHit {
                damage: Some(damage),
                ..
            } => Some(damage.roll().notation().to_owned()),
            _ => None,
        })
        .collect();
    assert_eq!(darts, ["1d4+1", "1d4+1", "1d4+1"]);
    // No attack roll: the only attack is Goblin 2's (a natural 1 from the script's end).
    assert_eq!(exchange.attacks().count(), 1);
    assert!(foe(&combat, "Goblin 1").is_defeated());
}

#[test]
fn sleep_fells_the_weakest_foes_first_while_its_pool_covers_them_and_a_blow_wakes_a_sleeper() {
    // You 22, Orc 16, Goblin 12, Kobold 7.
    let mut combat = begin(&["Orc", "Goblin", "Kobold"], &[20, 15, 10, 5]);
    // 5d8 = 12: the kobold (5 HP), then the goblin (7, exactly what is left); not the orc (15).
    let exchange = cast_as(
        &mut combat,
        &hero(),
        cast("Sleep", 1),
        &[],
        &[3, 3, 2, 2, 2],
    );
    let pool = exchange.events.iter().find_map(|event| match event {
        CombatEvent::Pool { roll, .. } => Some(roll.total()),
        _ => None,
    });
    assert_eq!(pool, Some(12));
    let asleep = Some(FoeCondition::Unconscious);
    assert_eq!(
        landed(&exchange),
        [
            ("Kobold".into(), 0, None, asleep),
            ("Goblin".into(), 0, None, asleep)
        ]
    );
    assert!(!foe(&combat, "Orc").has(FoeCondition::Unconscious));
    assert_eq!(lost_turns(&exchange), ["Goblin", "Kobold"]);
    assert_eq!(exchange.attacks().count(), 1, "only the orc swings");
    // A longsword blow (advantage on a sleeper: 15+5 vs AC 12, 1+3 damage) wakes the kobold.
    let longsword = AttackProfile::new(
        AttackName::new("longsword").unwrap(),
        5,
        DiceExpr::parse("1d8").unwrap(),
        3,
        DamageType::Slashing,
    )
    .unwrap();
    let blow = HeroAction::Attack {
        target: "Kobold".into(),
        weapon: longsword,
    };
    let exchange = combat
        .act_with(blow, &hero(), &mut Scripted::new(&[10, 15, 1]))
        .unwrap();
    let first = exchange.attacks().next().unwrap();
    assert_eq!((first.roll().total(), first.total_damage()), (20, 4));
    assert_eq!(foe(&combat, "Kobold").hit_points(), 1);
    assert!(!foe(&combat, "Kobold").has(FoeCondition::Unconscious));
    assert_eq!(lost_turns(&exchange), ["Goblin"], "the kobold acts again");
}

#[test]
fn a_second_concentration_spell_ends_the_first_and_lifts_its_conditions() {
    let mut combat = begin(&["Goblin", "Goblin"], &[15, 10, 5]);
    // Faerie Fire: both goblins fail (5+2 vs DC 12) and are outlined.
    let exchange = cast_as(&mut combat, &hero(), cast("Faerie Fire", 1), &[], &[5, 5]);
    let outlined = Some(FoeCondition::Outlined);
    assert_eq!(
        landed(&exchange),
        [
            ("Goblin 1".into(), 0, None, outlined),
            ("Goblin 2".into(), 0, None, outlined)
        ]
    );
    let held = |combat: &Combat| {
        combat
            .current()
            .unwrap()
            .held_spell()
            .map(|s| s.map(String::from))
    };
    assert_eq!(held(&combat), Some(Some("Faerie Fire".into())));
    // Hold Person on Goblin 1 (2-1 vs DC 12): Faerie Fire ends first, then it is paralysed.
    let hold = cast("Hold Person", 2);
    let exchange = cast_as(&mut combat, &hero(), hold, &["Goblin 1"], &[2]);
    let outline_ends = [
        ("Goblin 1".into(), FoeCondition::Outlined),
        ("Goblin 2".into(), FoeCondition::Outlined),
    ];
    assert_eq!(lifted(&exchange), outline_ends);
    let order: Vec<&str> = exchange
        .events
        .iter()
        .map(|event| match event {
            CombatEvent::Cast { .. } => "cast",
            CombatEvent::ConditionEnds { .. } => "ends",
            CombatEvent::SpellSave { .. } => "save",
            CombatEvent::SpellHit { .. } => "hit",
            _ => "other",
        })
        .take(5)
        .collect();
    assert_eq!(order, ["cast", "ends", "ends", "save", "hit"]);
    assert_eq!(held(&combat), Some(Some("Hold Person".into())));
    let conditions = |label| foe(&combat, label).conditions().collect::<Vec<_>>();
    assert_eq!(conditions("Goblin 1"), [FoeCondition::Paralyzed]);
    assert!(conditions("Goblin 2").is_empty());
    assert_eq!(lost_turns(&exchange), ["Goblin 1"]);
}

#[test]
fn a_blow_calls_for_a_con_save_against_half_its_damage_at_least_dc_10() {
    let tough = Hero {
        hit_points: 40,
        max_hit_points: 40,
        ..hero()
    };
    // The orc's greataxe: a hit for 3+3 = 6 (DC 10), or a critical for 12+12+3 = 27 (DC 13).
    let cases: [(&[u16], u8, u16, bool); 4] = [
        (&[15, 3], 10, 10, true),
        (&[15, 3], 10, 9, false),
        (&[20, 12, 12], 13, 13, true),
        (&[20, 12, 12], 13, 12, false),
    ];
    for (blow, dc, save, kept) in cases {
        // You 17, Goblin 12, Orc 6. Hold Person paralyses the goblin (2-1 vs DC 12).
        let mut combat = begin(&["Goblin", "Orc"], &[15, 10, 5]);
        let mut faces = vec![2];
        faces.extend_from_slice(blow);
        faces.push(save);
        let exchange = cast_as(&mut combat, &tough, cast("Hold Person", 2), &[], &faces);
        let check = exchange.events.iter().find_map(|event| match event {
            CombatEvent::Concentration {
                spell,
                roll,
                dc,
                kept,
            } => Some((spell.clone(), roll.total(), *dc, *kept)),
            _ => None,
        });
        let case = format!("save {save} vs DC {dc}");
        assert_eq!(
            check,
            Some((Some("Hold Person".into()), i32::from(save), dc, kept)),
            "{case}"
        );
        let encounter = combat.current().unwrap();
        assert_eq!(encounter.held_spell().is_some(), kept, "{case}");
        assert_eq!(
            foe(&combat, "Goblin").has(FoeCondition::Paralyzed),
            kept,
            "{case}"
        );
        let ends = lifted(&exchange);
        let expected: &[(String, FoeCondition)] = if kept {
            &[]
        } else {
            &[("Goblin".into(), FoeCondition::Paralyzed)]
        };
        assert_eq!(ends, expected, "{case}");
    }
}

#[test]
fn a_spells_condition_ends_at_the_start_of_the_round_its_rounds_run_out() {
    // You 17, Goblin 12. Sleep (10 rounds) in round 1 lasts until round 11 begins.
    let mut combat = begin(&["Goblin"], &[15, 10]);
    cast_as(
        &mut combat,
        &hero(),
        cast("Sleep", 1),
        &[],
        &[2, 2, 2, 2, 2],
    );
    for round in 2..10 {
        assert!(foe(&combat, "Goblin").has(FoeCondition::Unconscious));
        let exchange = combat
            .act_with(HeroAction::Pass, &hero(), &mut Scripted::new(&[]))
            .unwrap();
        assert_eq!(lost_turns(&exchange), ["Goblin"], "round {round}");
        assert!(lifted(&exchange).is_empty(), "round {round}");
    }
    // The pass of round 10: the goblin sleeps through it and wakes as round 11 begins.
    let exchange = combat
        .act_with(HeroAction::Pass, &hero(), &mut Scripted::new(&[]))
        .unwrap();
    let tail = &exchange.events[exchange.events.len() - 3..];
    assert_eq!(
        tail,
        [
            CombatEvent::LosesTurn {
                foe: FoeLabel::new("Goblin").unwrap(),
                condition: FoeCondition::Unconscious
            },
            CombatEvent::Round { round: 11 },
            CombatEvent::ConditionEnds {
                foe: FoeLabel::new("Goblin").unwrap(),
                condition: FoeCondition::Unconscious
            },
        ]
    );
    let exchange = combat
        .act_with(HeroAction::Pass, &hero(), &mut Scripted::new(&[]))
        .unwrap();
    assert!(lost_turns(&exchange).is_empty());
    assert_eq!(
        exchange.attacks().count(),
        1,
        "the goblin is awake and swings"
    );
}

#[test]
fn turn_undead_sends_off_the_undead_that_fail_and_leaves_the_living_alone() {
    // You 22, Skeleton 17, Zombie 8, Goblin 7.
    let mut combat = begin(&["Skeleton", "Zombie", "Goblin"], &[20, 15, 10, 5]);
    // Both undead roll 13 on WIS: the skeleton's 13-1 meets DC 12, the zombie's 13-2 does not.
    let exchange = combat
        .act_with(
            HeroAction::TurnUndead { dc: 12 },
            &hero(),
            &mut Scripted::new(&[13, 13]),
        )
        .unwrap();
    assert_eq!(exchange.events[0], CombatEvent::Turning);
    assert_eq!(
        saves(&exchange),
        [
            ("Skeleton".into(), 12, 12, true),
            ("Zombie".into(), 11, 12, false)
        ]
    );
    assert!(exchange.events.contains(&CombatEvent::Turned {
        foe: FoeLabel::new("Zombie").unwrap()
    }));
    assert!(foe(&combat, "Zombie").has_fled());
    assert!(foe(&combat, "Skeleton").is_standing());
    let goblin = foe(&combat, "Goblin");
    assert!(goblin.is_standing() && goblin.hit_points() == 7);
    // The skeleton and the goblin swing; the zombie is gone.
    let attackers: Vec<String> = exchange
        .attacks()
        .filter_map(|attack| match attack.attacker() {
            Party::Foe(label) => Some(label.to_string()),
            Party::Hero | Party::Ally(_) => None,
        })
        .collect();
    assert_eq!(attackers, ["Skeleton", "Goblin"]);
}
