//! Tests of character creation: presets and custom classes, the standard array and point-buy,
//! skills and spells chosen, typed starting gear, and characters made by older rules.

use super::*;
use crate::game::features::Feature;
use crate::game::sheet::{CharacterSheet, Sanity};
use crate::game::text::{Backstory, LocationName, Slug};

fn draft(class: &str) -> CharacterDraft {
    CharacterDraft {
        name: "Vex".into(),
        class: class.into(),
        ..CharacterDraft::default()
    }
}

fn start() -> LocationName {
    LocationName::new("The beginning").unwrap()
}

#[test]
fn a_preset_brings_its_scores_hit_points_gear_and_abilities() {
    let sheet = draft("rogue").create(start()).unwrap();
    assert_eq!(sheet.class().as_str(), "Rogue");
    assert_eq!(sheet.attributes().dexterity.value(), 15);
    assert_eq!(sheet.attributes().strength.value(), 8);
    // d8 + CON 13 (+1).
    assert_eq!(
        (sheet.hit_points().current(), sheet.hit_points().max()),
        (9, 9)
    );
    let items: Vec<&str> = sheet
        .inventory()
        .items()
        .iter()
        .map(|i| i.name().as_str())
        .collect();
    assert_eq!(
        items,
        [
            "Shortsword",
            "Dagger",
            "Leather armor",
            "Thieves' tools",
            "Healing potion",
            "Torch",
            "Rations"
        ]
    );
    // Its signature abilities are the rules' class features now, not lines of text.
    assert!(sheet.abilities().is_empty());
    let features: Vec<Feature> = sheet.features().into_iter().map(|(f, _)| f).collect();
    assert_eq!(features, [Feature::SneakAttack]);
    assert_eq!(sheet.spellcasting(), None);
    let before = created_before_powers(&sheet);
    let abilities: Vec<&str> = before.abilities().iter().map(|a| a.name.as_str()).collect();
    assert_eq!(abilities, ["Sneak Attack", "Cunning Action"]);
    assert_eq!(sheet.sanity(), None);
    assert_eq!(sheet.stakes(), Stakes::Heroic);
}

#[test]
fn the_player_may_rearrange_the_array_or_buy_points() {
    let mut rogue = draft("Rogue");
    rogue.scores = Some(vec![8, 15, 14, 13, 12, 10]);
    let sheet = rogue.create(start()).unwrap();
    assert_eq!(sheet.attributes().constitution.value(), 14);
    assert_eq!(sheet.hit_points().max(), 10);

    rogue.scores = Some(vec![15, 15, 15, 8, 8, 8]);
    assert_eq!(
        rogue.create(start()).unwrap_err(),
        CreationError::NotTheArray
    );
    rogue.method = ScoreMethod::PointBuy;
    assert_eq!(
        rogue.create(start()).unwrap().attributes().strength.value(),
        15
    );
    rogue.scores = Some(vec![15, 15, 15, 10, 8, 8]);
    assert_eq!(
        rogue.create(start()).unwrap_err(),
        CreationError::OverBudget { spent: 29 }
    );
    rogue.scores = Some(vec![16, 8, 8, 8, 8, 8]);
    assert_eq!(
        rogue.create(start()).unwrap_err().to_string(),
        "with point-buy each score is 8 to 15 (STR is 16)"
    );
    rogue.scores = Some(vec![10; 5]);
    assert!(matches!(
        rogue.create(start()),
        Err(CreationError::ScoreCount { count: 5 })
    ));
}

#[test]
fn a_custom_class_is_a_d8_with_the_common_gear_and_its_own_ability() {
    let mut custom = draft("Lamplighter");
    custom.ability = "Never afraid of the dark".into();
    custom.sanity = true;
    custom.stakes = Stakes::Gritty;
    custom.backstory = "Raised in the lamp-house.".into();
    let sheet = custom.create(start()).unwrap();
    assert_eq!(sheet.class().as_str(), "Lamplighter");
    assert_eq!(sheet.hit_points().max(), 9);
    assert_eq!(sheet.inventory().len(), COMMON_GEAR.len());
    assert_eq!(
        sheet.abilities()[0].name.as_str(),
        "Never afraid of the dark"
    );
    assert_eq!(sheet.sanity().map(Sanity::value), Some(100));
    assert_eq!(sheet.stakes(), Stakes::Gritty);
    assert_eq!(
        sheet.backstory().map(Backstory::as_str),
        Some("Raised in the lamp-house.")
    );
}

#[test]
fn a_sheet_gives_back_the_draft_that_made_it() {
    let mut custom = draft("Lamplighter");
    custom.ability = "Lamp lore".into();
    custom.method = ScoreMethod::PointBuy;
    custom.scores = Some(vec![15, 15, 15, 8, 8, 8]);
    custom.sanity = true;
    for draft in [draft("Wizard"), custom] {
        let sheet = draft.create(start()).unwrap();
        assert_eq!(CharacterDraft::of(&sheet).create(start()).unwrap(), sheet);
    }
}

#[test]
fn skills_are_chosen_from_the_class_s_list_and_saves_come_with_the_class() {
    use crate::game::proficiency::Skill;
    let mut rogue = draft("Rogue");
    rogue.skills = ["Stealth", "sleight of hand", "Perception", "Deception"]
        .map(String::from)
        .to_vec();
    let sheet = rogue.create(start()).unwrap();
    let proficiencies = sheet.proficiencies();
    assert_eq!(
        proficiencies.skills(),
        [
            Skill::Deception,
            Skill::Perception,
            Skill::SleightOfHand,
            Skill::Stealth
        ]
    );
    assert_eq!(
        proficiencies.saves(),
        [Attribute::Dexterity, Attribute::Intelligence]
    );
    // None chosen: the class's first ones.
    let wizard = draft("Wizard").create(start()).unwrap();
    assert_eq!(
        wizard.proficiencies().skills(),
        [Skill::Arcana, Skill::History]
    );
    let refusals = [
        (
            "Wizard",
            vec!["Stealth", "Arcana"],
            "Stealth is not one of this class's skills",
        ),
        (
            "Wizard",
            vec!["Arcana"],
            "choose 2 different skills (got 1)",
        ),
        (
            "Fighter",
            vec!["Athletics", "Lockpicking"],
            "unknown skill \"Lockpicking\"",
        ),
    ];
    for (class, skills, message) in refusals {
        let mut wrong = draft(class);
        wrong.skills = skills.into_iter().map(String::from).collect();
        let error = wrong.create(start()).unwrap_err().to_string();
        assert!(error.contains(message), "{error}");
    }
    // A class of the player's own: any two skills, the saves of its two highest scores.
    let mut own = draft("Lamplighter");
    own.skills = vec!["Arcana".into(), "Stealth".into()];
    own.method = ScoreMethod::PointBuy;
    own.scores = Some(vec![8, 14, 10, 15, 8, 14]);
    let lamplighter = own.create(start()).unwrap();
    assert_eq!(
        lamplighter.proficiencies().saves(),
        [Attribute::Dexterity, Attribute::Intelligence]
    );
    assert_eq!(
        CharacterDraft::of(&lamplighter).create(start()).unwrap(),
        lamplighter
    );
}

#[test]
fn every_preset_offers_enough_skills_for_its_choice() {
    for preset in PRESETS {
        let offers = preset.proficiencies;
        assert!(offers.offered().len() >= offers.choose, "{}", preset.name);
        assert_eq!(
            offers.choose(&offers.default_choice()).unwrap().len(),
            offers.choose
        );
        assert_ne!(offers.saves[0], offers.saves[1], "{}", preset.name);
    }
}

#[test]
fn each_class_starts_with_typed_gear_equipped() {
    // Class, equipped weapon, armour, shield, AC, to hit, damage (suggested scores).
    let expected = [
        (
            "Fighter",
            "Longsword",
            Some("Chain mail"),
            true,
            18,
            4,
            "1d8+2",
        ),
        (
            "Rogue",
            "Shortsword",
            Some("Leather armor"),
            false,
            13,
            4,
            "1d6+2",
        ),
        ("Wizard", "Quarterstaff", None, false, 11, 1, "1d6-1"),
        ("Cleric", "Mace", Some("Scale mail"), true, 16, 3, "1d6+1"),
        (
            "Ranger",
            "Longbow",
            Some("Leather armor"),
            false,
            13,
            4,
            "1d8+2",
        ),
        (
            "Bard",
            "Rapier",
            Some("Leather armor"),
            false,
            13,
            4,
            "1d8+2",
        ),
        ("Lamplighter", "Unarmed strike", None, false, 12, 4, "3"),
    ];
    for (class, weapon, armor, shield, ac, to_hit, damage) in expected {
        let sheet = draft(class).create(start()).unwrap();
        let equipped = sheet.equipped();
        let worn = equipped.armor.map(|i| i.name().as_str());
        assert_eq!(worn, armor, "{class}");
        assert_eq!(equipped.shield.is_some(), shield, "{class}");
        assert_eq!(sheet.armor_class().value(), ac, "{class}");
        let attack = sheet.weapon_attack(None).unwrap();
        assert_eq!(attack.name(), weapon, "{class}");
        assert_eq!(attack.to_hit(), to_hit, "{class}");
        assert_eq!(attack.damage_notation(), damage, "{class}");
        let potion = sheet
            .inventory()
            .items()
            .iter()
            .find(|i| i.name().as_str() == "Healing potion");
        assert_eq!(potion.unwrap().kind().summary(), "heals 2d4+2");
        let gear = preset(class).map_or(&[][..], |p| p.gear_added_with_kinds);
        for added in gear {
            assert!(
                sheet.inventory().get(&Slug::new(added).unwrap()).is_some(),
                "{added}"
            );
        }
    }
}

#[test]
fn a_character_created_before_items_were_typed_still_checks_against_creation() {
    let files = [
        include_str!("../fixtures/fighter-before-typed-items.json"),
        include_str!("../fixtures/rogue-before-typed-items.json"),
    ];
    for old in files {
        let sheet: CharacterSheet = serde_json::from_str(old).unwrap();
        let items = sheet.inventory().items();
        assert!(items.iter().all(|i| i.kind().is_gear() && !i.is_equipped()));
        assert_eq!(serde_json::to_string(&sheet).unwrap(), old.trim());
        // Unarmoured and unarmed: 10 + DEX, 1 + STR.
        let dex = sheet.attributes().dexterity.modifier();
        assert_eq!(i16::from(sheet.armor_class().value()), 10 + i16::from(dex));
        assert_eq!(sheet.weapon_attack(None).unwrap().name(), "Unarmed strike");
        let fresh = CharacterDraft::of(&sheet)
            .create(sheet.location().clone())
            .unwrap();
        assert_ne!(fresh, sheet);
        assert_eq!(
            created_before_typed_items(&created_before_powers(&fresh)),
            sheet
        );
    }
}

#[test]
fn bad_text_is_refused_with_its_field() {
    let long = draft(&"x".repeat(10_000)).create(start()).unwrap_err();
    assert!(
        long.to_string()
            .starts_with("class is 10000 characters long"),
        "{long}"
    );
    let mut blank = draft("Rogue");
    blank.name = "  ".into();
    assert!(blank
        .create(start())
        .unwrap_err()
        .to_string()
        .contains("character name"));
    let mut story = draft("Rogue");
    story.backstory = "a".repeat(Backstory::MAX_CHARS + 1);
    assert!(story
        .create(start())
        .unwrap_err()
        .to_string()
        .contains("backstory"));
}

#[test]
fn point_costs_follow_the_table() {
    let costs: Vec<Option<u32>> = (7..=16).map(point_cost).collect();
    assert_eq!(
        costs,
        [
            None,
            Some(0),
            Some(1),
            Some(2),
            Some(3),
            Some(4),
            Some(5),
            Some(7),
            Some(9),
            None
        ]
    );
    for preset in PRESETS {
        let mut sorted = preset.suggested_scores();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(sorted, STANDARD_ARRAY, "{}", preset.name);
    }
}
