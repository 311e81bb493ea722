//! Fights with allies beside the hero, played through [`Combat`] with scripted dice: the order
//! of turns with allies in it, moves out of turn refused, a seat ally's move, a companion's heal
//! and target, the foes' targets, allies falling, the defeat, recorded dice read back, and the
//! stored form of a fight without allies unchanged.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::roller::tests::Scripted;
use super::tests::{attack, goblins, hero, lines};
use super::*;
use crate::game::bestiary::{ArmorClass, AttackName, DamageType};
use crate::game::dice::DiceExpr;
use crate::game::text::CharacterName;

/// A mace: +4 to hit, 1d6+2 bludgeoning.
fn mace() -> AttackProfile {
    AttackProfile::new(
        AttackName::new("mace").unwrap(),
        4,
        DiceExpr::parse("1d6").unwrap(),
        2,
        DamageType::Bludgeoning,
    )
    .unwrap()
}

fn name(text: &str) -> CharacterName {
    CharacterName::new(text).unwrap()
}

/// A seat ally: AC 16, 12 HP, DEX +1.
fn bran() -> Ally {
    Ally::new(
        name("Bran"),
        AllyKind::Seat(1),
        ArmorClass::new(16).unwrap(),
        12,
        1,
        mace(),
    )
}

/// A companion who heals 1d8+3 twice: AC 14, 10 HP, DEX +0.
fn mira() -> Ally {
    Ally::new(
        name("Mira"),
        AllyKind::Companion,
        ArmorClass::new(14).unwrap(),
        10,
        0,
        mace(),
    )
    .with_healing(DiceExpr::parse("1d8+3").unwrap(), 2)
}

/// `ally` at `hp` of its hit points.
fn hurt(ally: Ally, hp: u16) -> Ally {
    Ally {
        hit_points: hp,
        ..ally
    }
}

fn hero_at(hp: u16) -> Hero {
    Hero {
        hit_points: hp,
        ..hero()
    }
}

fn mace_at(target: &str) -> HeroAction {
    HeroAction::Attack {
        target: target.into(),
        weapon: mace(),
    }
}

/// A fight beside `allies` begun with the scripted faces (initiative: hero, allies, foes).
fn begin(foes: usize, hero: &Hero, allies: Vec<Ally>, faces: &[u16]) -> (Combat, Exchange) {
    let mut combat = Combat::default();
    let exchange = combat
        .start_party(goblins(foes), hero, allies, &mut Scripted::new(faces))
        .unwrap();
    (combat, exchange)
}

/// Bran and Mira beside the hero against a goblin; Mira acts first and misses.
fn with_bran_and_mira() -> (Combat, Exchange) {
    // Hero 10+2, Bran 11+1, Mira 15+0, goblin 10+2; Mira's mace rolls 5.
    begin(1, &hero(), vec![bran(), mira()], &[10, 11, 15, 10, 5])
}

/// The fight of [`with_bran_and_mira`] after the hero's miss and the goblin's: Bran's turn.
fn waiting_on_bran() -> Combat {
    let (mut combat, _) = with_bran_and_mira();
    combat
        .act_with(attack("Goblin"), &hero(), &mut Scripted::new(&[2, 3]))
        .unwrap();
    combat
}

#[test]
fn allies_roll_initiative_and_ties_go_hero_then_allies_then_foes() {
    let (combat, exchange) = with_bran_and_mira();
    assert_eq!(
        lines(&exchange),
        [
            "Initiative: Mira 15, you 12, Goblin 12, Bran 12",
            "Mira's mace at Goblin: 1d20+4 → [5]+4 = 9 vs AC 15, miss",
        ]
    );
    let encounter = combat.current().unwrap();
    assert_eq!(encounter.waiting_on(), Combatant::Hero);
    let order: Vec<Combatant> = encounter.order().iter().map(|e| e.combatant()).collect();
    assert_eq!(
        order,
        [
            Combatant::Ally(1),
            Combatant::Hero,
            Combatant::Foe(0),
            Combatant::Ally(0)
        ]
    );
    assert_eq!(
        encounter.describe(),
        "Round 1. Order: Mira, you, Goblin, Bran. Goblin (AC 15): 7/7 HP. \
         Allies: Bran (AC 16): 12/12 HP; Mira (AC 14): 10/10 HP."
    );
    assert!(exchange.ally_changes.is_empty());
}

#[test]
fn the_fight_waits_on_a_seat_and_refuses_moves_out_of_turn() {
    let mut combat = waiting_on_bran();
    assert_eq!(combat.current().unwrap().waiting_on(), Combatant::Ally(0));
    let before = combat.clone();
    let mut dice = Scripted::new(&[20, 8, 8]);
    let err = combat
        .act_with(attack("Goblin"), &hero(), &mut dice)
        .unwrap_err();
    assert_eq!(
        err,
        CombatError::NotYourTurn {
            waiting: "Bran".into()
        }
    );
    assert_eq!(
        err.to_string(),
        "it is not that turn: the fight waits on Bran"
    );
    let err = combat
        .act_as_ally_with(1, HeroAction::Pass, &hero(), &mut dice)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "it is not that turn: the fight waits on Bran"
    );
    let err = combat
        .act_as_ally_with(0, HeroAction::TurnUndead { dc: 13 }, &hero(), &mut dice)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "an ally's turn is an attack, a dodge or a pass, not Turn Undead"
    );
    let err = combat
        .act_as_ally_with(0, mace_at("Orc"), &hero(), &mut dice)
        .unwrap_err();
    assert!(matches!(err, CombatError::NotInFight { .. }));
    assert_eq!(combat, before);
    assert_eq!(dice.0.len(), 3, "no dice were rolled");
    let json = serde_json::to_value(&combat).unwrap();
    assert_eq!(serde_json::from_value::<Combat>(json).unwrap(), combat);
}

#[test]
fn a_seat_hits_a_foe_and_the_foe_strikes_back_at_it() {
    let mut combat = waiting_on_bran();
    // Bran hits (15+4, 3+2); round 2; Mira rolls a natural 1; the hero's turn.
    let exchange = combat
        .act_as_ally_with(
            0,
            mace_at("Goblin"),
            &hero(),
            &mut Scripted::new(&[15, 3, 1]),
        )
        .unwrap();
    assert_eq!(
        lines(&exchange),
        [
            "Bran's mace at Goblin: 1d20+4 → [15]+4 = 19 vs AC 15, hit, 5 bludgeoning; \
             Goblin has 2/7 HP",
            "Round 2",
            "Mira's mace at Goblin: 1d20+4 → [1]+4 = 5 vs AC 15, miss (natural 1)",
        ]
    );
    assert_eq!(combat.current().unwrap().waiting_on(), Combatant::Hero);
    // Bran hurt the goblin last: it strikes Bran (14+4 vs AC 16, 4+2), not the hero.
    let exchange = combat
        .act_with(HeroAction::Pass, &hero(), &mut Scripted::new(&[14, 4]))
        .unwrap();
    assert_eq!(
        lines(&exchange),
        [
            "You spend your turn",
            "Goblin's scimitar at Bran: 1d20+4 → [14]+4 = 18 vs AC 16, hit, 6 slashing; \
             Bran has 6/12 HP",
        ]
    );
    assert_eq!(exchange.damage_to_hero, 0);
    assert_eq!(
        exchange.ally_changes,
        [AllyChange {
            ally: 0,
            name: name("Bran"),
            from: 12,
            to: 6
        }]
    );
    assert_eq!(combat.current().unwrap().allies()[0].hit_points(), 6);
    // Bran dodges; Mira heals Bran, now at half (1d8+3 rolls 5).
    let exchange = combat
        .act_as_ally_with(0, HeroAction::Dodge, &hero(), &mut Scripted::new(&[5]))
        .unwrap();
    assert_eq!(
        lines(&exchange),
        [
            "Bran dodges: attacks against Bran have disadvantage until their next turn",
            "Round 3",
            "Mira heals Bran: 1d8+3 → [5] = 8; Bran has 12/12 HP",
        ]
    );
    let encounter = combat.current().unwrap();
    assert_eq!(encounter.allies()[1].heals_left(), 1);
    assert!(encounter.allies()[0].is_dodging());
    assert_eq!(exchange.ally_changes[0].to, 12);
}

#[test]
fn a_seat_felling_the_last_foe_wins_the_fight() {
    let mut combat = waiting_on_bran();
    // A critical: 2d6+2 rolls 6 and 6.
    let exchange = combat
        .act_as_ally_with(
            0,
            mace_at("Goblin"),
            &hero(),
            &mut Scripted::new(&[20, 6, 6]),
        )
        .unwrap();
    assert_eq!(
        lines(&exchange),
        [
            "Bran's mace at Goblin: 1d20+4 → [20]+4 = 24 vs AC 15, critical hit, 14 bludgeoning; \
             Goblin is down",
            "The fight is over after 1 round: every foe is down. Defeated: Goblin (50 XP).",
        ]
    );
    assert_eq!(exchange.end.unwrap().outcome, Outcome::Victory);
    assert!(!combat.is_running());
}

#[test]
fn a_companion_heals_the_weakest_of_the_party() {
    // Mira acts first (15); the hero is at 10/20, Bran at 5/12: Bran is weaker.
    let faces = [1, 2, 15, 1, 2];
    let (combat, exchange) = begin(1, &hero_at(10), vec![hurt(bran(), 5), mira()], &faces);
    assert_eq!(
        lines(&exchange)[1],
        "Mira heals Bran: 1d8+3 → [2] = 5; Bran has 10/12 HP"
    );
    assert_eq!(exchange.ally_changes[0].to, 10);
    assert_eq!(exchange.hero_hit_points, None);
    assert_eq!(combat.current().unwrap().waiting_on(), Combatant::Hero);
    // At 6/20 the hero is weaker: the hero is healed, and the exchange says to what.
    let (_, exchange) = begin(1, &hero_at(6), vec![hurt(bran(), 5), mira()], &faces);
    assert_eq!(
        lines(&exchange)[1],
        "Mira heals you: 1d8+3 → [2] = 5; you have 11/20 HP"
    );
    assert_eq!(exchange.hero_hit_points, Some(11));
    assert!(exchange.ally_changes.is_empty());
}

#[test]
fn a_companion_strikes_the_foe_that_last_hurt_the_party() {
    // Hero 15+2, Mira 5+0, Goblin 1 10+2, Goblin 2 12+2.
    let (mut combat, exchange) = begin(2, &hero(), vec![mira()], &[15, 5, 10, 12]);
    assert_eq!(
        lines(&exchange),
        ["Initiative: you 17, Goblin 2 14, Goblin 1 12, Mira 5"]
    );
    // Goblin 2 hurts the hero; Goblin 1 misses; Mira (nobody at half) strikes Goblin 2.
    let exchange = combat
        .act_with(
            HeroAction::Pass,
            &hero(),
            &mut Scripted::new(&[10, 3, 1, 15, 3]),
        )
        .unwrap();
    assert_eq!(
        lines(&exchange),
        [
            "You spend your turn",
            "Goblin 2's scimitar: 1d20+4 → [10]+4 = 14 vs AC 13, hit, 5 slashing",
            "Goblin 1's scimitar: 1d20+4 → [1]+4 = 5 vs AC 13, miss (natural 1)",
            "Mira's mace at Goblin 2: 1d20+4 → [15]+4 = 19 vs AC 15, hit, 5 bludgeoning; \
             Goblin 2 has 2/7 HP",
            "Round 2",
        ]
    );
    assert_eq!(exchange.damage_to_hero, 5);
}

#[test]
fn an_ally_falls_and_the_fight_goes_on() {
    let rex = Ally {
        max_hit_points: 12,
        ..Ally::new(
            name("Rex"),
            AllyKind::Companion,
            ArmorClass::new(16).unwrap(),
            3,
            0,
            mace(),
        )
    };
    // Hero 10+2, Rex 15, goblin 12+2: Rex hits the goblin, which strikes back and fells Rex.
    let (mut combat, exchange) = begin(1, &hero(), vec![rex], &[10, 15, 12, 15, 1, 13, 3]);
    assert_eq!(
        lines(&exchange)[1..],
        [
            "Rex's mace at Goblin: 1d20+4 → [15]+4 = 19 vs AC 15, hit, 3 bludgeoning; \
             Goblin has 4/7 HP",
            "Goblin's scimitar at Rex: 1d20+4 → [13]+4 = 17 vs AC 16, hit, 5 slashing; \
             Rex has 0/12 HP",
            "Rex falls.",
        ]
    );
    assert!(exchange.end.is_none());
    assert_eq!(exchange.ally_changes[0].to, 0);
    // Rex's turn passes; the goblin turns on the hero.
    let exchange = combat
        .act_with(HeroAction::Pass, &hero(), &mut Scripted::new(&[1]))
        .unwrap();
    assert_eq!(
        lines(&exchange),
        [
            "You spend your turn",
            "Round 2",
            "Goblin's scimitar: 1d20+4 → [1]+4 = 5 vs AC 13, miss (natural 1)",
        ]
    );
    assert!(combat
        .current()
        .unwrap()
        .describe()
        .ends_with("Allies: Rex: down."));
}

#[test]
fn the_fight_is_lost_only_when_the_hero_and_every_seat_are_down() {
    // Hero 1+2, Bran 10+1, goblin 15+2: the goblin drops the hero (10+4, 4+2).
    let bran = hurt(bran(), 4);
    let (mut combat, exchange) = begin(1, &hero_at(5), vec![bran], &[1, 10, 15, 10, 4]);
    assert_eq!(
        lines(&exchange),
        [
            "Initiative: Goblin 17, Bran 11, you 3",
            "Goblin's scimitar: 1d20+4 → [10]+4 = 14 vs AC 13, hit, 6 slashing",
            "You fall.",
        ]
    );
    assert_eq!(exchange.damage_to_hero, 6);
    assert!(exchange.end.is_none());
    assert_eq!(combat.current().unwrap().waiting_on(), Combatant::Ally(0));
    let down = hero_at(0);
    // The hero's turn is passed over; the goblin turns on Bran (12+4, 2+2) and the fight is lost.
    let exchange = combat
        .act_as_ally_with(0, HeroAction::Pass, &down, &mut Scripted::new(&[12, 2]))
        .unwrap();
    assert_eq!(
        lines(&exchange),
        [
            "Bran spends the turn",
            "Round 2",
            "Goblin's scimitar at Bran: 1d20+4 → [12]+4 = 16 vs AC 16, hit, 4 slashing; \
             Bran has 0/12 HP",
            "Bran falls.",
            "The fight is over after 2 rounds: you are down.",
        ]
    );
    assert_eq!(exchange.end.unwrap().outcome, Outcome::HeroDown);
    assert_eq!(exchange.ally_changes[0].to, 0);
    assert!(!combat.is_running());
}

/// One call of a fight: who moved (none: the start), with what hero, its faces and exchange.
type Step = (Option<Combatant>, Hero, Vec<u16>, Exchange);

/// A fight beside Bran and Mira against three goblins played with `seed`, every step recorded.
fn recorded_fight(seed: u64) -> (Vec<Step>, Combat) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut face = |sides: u16| rng.random_range(1..=sides);
    let mut combat = Combat::default();
    let mut hero = hero();
    let mut dice = FightDice::fresh(&mut face);
    let allies = vec![bran(), mira()];
    let exchange = combat
        .start_with_allies_rolled(goblins(3), &hero, allies, &mut dice)
        .unwrap();
    let mut steps = vec![(None, hero, dice.finish().unwrap(), exchange)];
    while let Some(encounter) = combat.current() {
        let (_, _, _, last) = steps.last().unwrap();
        hero.hit_points = last.hero_hit_points.unwrap_or_else(|| {
            let damage = u16::try_from(last.damage_to_hero).unwrap_or(u16::MAX);
            hero.hit_points.saturating_sub(damage)
        });
        let target = encounter.standing().next().unwrap().label().to_string();
        let who = encounter.waiting_on();
        let mut dice = FightDice::fresh(&mut face);
        let exchange = match who {
            Combatant::Ally(i) => combat.act_as_ally_rolled(i, mace_at(&target), &hero, &mut dice),
            _ => combat.act_rolled(attack(&target), &hero, &mut dice),
        }
        .unwrap();
        steps.push((Some(who), hero, dice.finish().unwrap(), exchange));
    }
    (steps, combat)
}

#[test]
fn recorded_dice_read_back_give_the_same_fight() {
    let (steps, _) = recorded_fight(7);
    let allied = steps
        .iter()
        .flat_map(|(_, _, _, exchange)| &exchange.events)
        .filter(|e| matches!(e, CombatEvent::AllyAttack(_)))
        .count();
    assert!(allied > 0, "the allies fought");
    let mut combat = Combat::default();
    for (who, hero, faces, exchange) in &steps {
        let mut dice = FightDice::recorded(faces);
        let replayed = match who {
            None => {
                combat.start_with_allies_rolled(goblins(3), hero, vec![bran(), mira()], &mut dice)
            }
            Some(Combatant::Ally(i)) => {
                let target = target_of(exchange);
                combat.act_as_ally_rolled(*i, mace_at(&target), hero, &mut dice)
            }
            Some(_) => combat.act_rolled(attack(&target_of(exchange)), hero, &mut dice),
        }
        .unwrap();
        assert_eq!(&replayed, exchange);
        assert_eq!(dice.finish().unwrap(), *faces);
    }
    assert!(!combat.is_running());
}

/// The foe a player's recorded attack was aimed at.
fn target_of(exchange: &Exchange) -> String {
    let attack = match &exchange.events[0] {
        CombatEvent::Attack(attack) | CombatEvent::AllyAttack(attack) => attack,
        other => panic!("a player's move starts with its attack, not {other:?}"),
    };
    match attack.target() {
        Party::Foe(label) => label.to_string(),
        other => panic!("a player attacks a foe, not {other:?}"),
    }
}

#[test]
fn a_fight_without_allies_is_stored_as_before() {
    let (mut combat, _) = super::tests::begin(goblins(2), &[15, 10, 5]);
    // The hero hurts Goblin 1; Goblin 1 hurts the hero.
    combat
        .act_with(
            attack("Goblin 1"),
            &hero(),
            &mut Scripted::new(&[15, 2, 10, 3, 1]),
        )
        .unwrap();
    let json = serde_json::to_string(&combat).unwrap();
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let keys = |object: &serde_json::Value| {
        let mut keys: Vec<String> = object.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        keys
    };
    assert_eq!(
        keys(&value),
        ["foes", "heroDodging", "order", "round", "turn"]
    );
    for foe in value["foes"].as_array().unwrap() {
        assert_eq!(keys(foe), ["creature", "hp", "label"]);
    }
    for entry in value["order"].as_array().unwrap() {
        assert!(entry["combatant"] == "hero" || entry["combatant"].get("foe").is_some());
    }
    // A fight stored before allies existed reads back and is written out byte for byte.
    let back: Combat = serde_json::from_str(&json).unwrap();
    assert_eq!(back, combat);
    assert_eq!(serde_json::to_string(&back).unwrap(), json);
}

#[test]
fn too_many_allies_or_a_shared_name_are_refused() {
    let mut combat = Combat::default();
    let mut dice = Scripted::new(&[]);
    let five = (0..5)
        .map(|i| Ally {
            name: name(&format!("Ally {i}")),
            ..bran()
        })
        .collect();
    let err = combat
        .start_party(goblins(1), &hero(), five, &mut dice)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "at most 4 allies fight beside the hero (got 5)"
    );
    let twins = vec![
        bran(),
        Ally {
            name: name("BRAN"),
            ..mira()
        },
    ];
    let err = combat
        .start_party(goblins(1), &hero(), twins, &mut dice)
        .unwrap_err();
    assert_eq!(
        err,
        CombatError::SameAllyName {
            name: "BRAN".into()
        }
    );
    assert_eq!(combat, Combat::default());
}

#[test]
fn a_stored_fight_with_allies_round_trips_and_tampering_is_refused() {
    let combat = waiting_on_bran();
    let json = serde_json::to_value(&combat).unwrap();
    assert_eq!(
        serde_json::from_value::<Combat>(json.clone()).unwrap(),
        combat
    );
    let tamper = |key: &str, value: serde_json::Value| {
        let mut bad = json.clone();
        bad[key] = value;
        serde_json::from_value::<Combat>(bad)
            .unwrap_err()
            .to_string()
    };
    // Turn 0 is Mira's, a companion's.
    let not_a_player = "it must wait on the hero's or a standing seat ally's turn";
    assert!(tamper("turn", 0.into()).contains(not_a_player));
    assert!(tamper("partyFoe", 3.into()).contains("a grudge names no one in the fight"));
    // Bran, waited on, cannot be down.
    let mut bad = json.clone();
    bad["allies"][0]["hp"] = 0.into();
    let err = serde_json::from_value::<Combat>(bad)
        .unwrap_err()
        .to_string();
    assert!(err.contains(not_a_player), "{err}");
    let mut bad = json.clone();
    bad["allies"][0]["hp"] = 13.into();
    let err = serde_json::from_value::<Combat>(bad)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("its hit points must be within 0..=max"),
        "{err}"
    );
}
