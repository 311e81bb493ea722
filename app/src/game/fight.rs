//! A fight as the campaign log keeps it: each step (a fight begun, the hero's move, a fight
//! called off) with the faces of every die the rules rolled for it and the exchange they gave.
//! The step is played from the character sheet — its armour class, hit points, DEX and carried
//! weapons — and the running [`Combat`]; reading the log back plays it again with the recorded
//! faces, so a record whose numbers are not the rules' is refused.

use serde::{Deserialize, Serialize};

use super::attributes::Attribute;
use super::bestiary::Damage;
use super::bestiary::{
    AttackName, Bestiary, ChallengeRating, Creature, CreatureError, CreatureName, UnknownFoe,
};
use super::combat::{
    AttackProfile, CastEffect, Combat, CombatError, CombatEvent, DiceRecordError, Exchange,
    FightDice, Hero, HeroAction, SpellCast, MAX_FOES,
};
use super::delta::{AppliedChanges, DeltaError, StateDelta};
use super::dice::{Check, DiceExpr, DifficultyClass};
use super::equipment::AttackError;
use super::features::{self, Feature};
use super::powers::PowerError;
use super::proficiency::Skill;
use super::progression::MAX_AWARD;
use super::sheet::CharacterSheet;
use super::spellcasting;
use super::spells::{CastingTime, Spell, SpellEffect, SpellLevel};
use super::text::Slug;

/// A foe asked for by name: a bestiary creature, or (with a challenge rating) one the bestiary
/// lacks whose figures the rules derive from the rating.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FoeSpec {
    /// The creature's name.
    pub name: CreatureName,
    /// Its challenge rating, used only when the bestiary lacks the name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge: Option<ChallengeRating>,
}

impl FoeSpec {
    /// The creature: the bestiary's (whatever rating was given), else one made from the rating.
    pub fn creature(&self) -> Result<Creature, FightError> {
        match (Bestiary::srd().get(self.name.as_str()), self.challenge) {
            (Ok(creature), _) => Ok(creature.clone()),
            (Err(_), Some(rating)) => Ok(Creature::from_rating(self.name.as_str(), rating)?),
            (Err(unknown), None) => Err(FightError::UnknownFoe(unknown)),
        }
    }
}

/// One step of a fight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "step",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum FightStep {
    /// A fight begins against these foes (1 to [`MAX_FOES`]).
    Start {
        /// The foes.
        foes: Vec<FoeSpec>,
    },
    /// The hero attacks a foe with a carried weapon (the equipped one, or bare hands, when
    /// `weapon` is `None`).
    Attack {
        /// The foe's label (`Goblin 2`) or kind.
        target: String,
        /// The weapon's slug.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        weapon: Option<Slug>,
    },
    /// The hero dodges.
    Dodge,
    /// The hero tries to get away: DEX against 10 + the best DEX among the foes standing.
    Flee,
    /// The hero spends the turn on something the fight does not resolve.
    Pass,
    /// The fight is called off (a truce, a surrender).
    Stop,
    /// The hero casts a known spell with `slot` (the lowest left of its level when none) at the
    /// foes named (none: the first it can reach; a spell on the hero needs none).
    Cast {
        /// The spell's slug.
        spell: Slug,
        /// The foes, by label or kind.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        targets: Vec<String>,
        /// The slot's level.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        slot: Option<SpellLevel>,
    },
    /// The hero uses a class feature (striking `target`, or the first foe standing, for the
    /// features that strike).
    Feature {
        /// The feature.
        feature: Feature,
        /// The foe.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<String>,
    },
}

/// A move the rules offer the player in a fight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "move",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum FightMove {
    /// Attack a foe with a carried weapon (the equipped one when `None`).
    Attack {
        /// The foe's label.
        target: String,
        /// The weapon's slug.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        weapon: Option<Slug>,
    },
    /// Dodge.
    Dodge,
    /// Try to get away.
    Flee,
    /// Use a carried consumable (it takes the turn).
    Use {
        /// The item's slug.
        item: Slug,
    },
    /// Cast a known spell.
    Cast {
        /// The spell's slug.
        spell: Slug,
        /// The foes.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        targets: Vec<String>,
        /// The slot's level (the lowest left when none).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        slot: Option<SpellLevel>,
    },
    /// Use a class feature.
    Feature {
        /// The feature.
        feature: Feature,
        /// The foe.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<String>,
    },
}

/// Why a consumable was used up in a fight, in the ledger.
pub const USED_IN_FIGHT: &str = "Used in the fight";

impl FightMove {
    /// The fight's step for this move (using an item spends the turn).
    pub fn step(&self) -> FightStep {
        match self {
            FightMove::Attack { target, weapon } => FightStep::Attack {
                target: target.clone(),
                weapon: weapon.clone(),
            },
            FightMove::Dodge => FightStep::Dodge,
            FightMove::Flee => FightStep::Flee,
            FightMove::Use { .. } => FightStep::Pass,
            FightMove::Cast {
                spell,
                targets,
                slot,
            } => FightStep::Cast {
                spell: spell.clone(),
                targets: targets.clone(),
                slot: *slot,
            },
            FightMove::Feature { feature, target } => FightStep::Feature {
                feature: *feature,
                target: target.clone(),
            },
        }
    }
}

/// A step played: the step, every face its dice showed, and what happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FightRecord {
    /// The step.
    pub step: FightStep,
    /// Every face the rules' dice showed, in the order rolled.
    #[serde(default)]
    pub faces: Vec<u16>,
    /// What happened.
    pub exchange: Exchange,
}

/// A fight step the rules refuse, or a record that is not theirs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FightError {
    /// A foe the bestiary lacks, asked for without a rating.
    #[error(transparent)]
    UnknownFoe(#[from] UnknownFoe),
    /// A foe the rules cannot make from its name and rating.
    #[error("that foe cannot be made: {0}")]
    Foe(#[from] CreatureError),
    /// The fight refuses the move.
    #[error(transparent)]
    Combat(#[from] CombatError),
    /// A weapon the character does not carry, or something that is not a weapon.
    #[error(transparent)]
    Weapon(#[from] AttackError),
    /// Recorded dice the rules did not roll.
    #[error("its dice: {0}")]
    Dice(#[from] DiceRecordError),
    /// A change the sheet refuses (the character has fallen).
    #[error(transparent)]
    Sheet(#[from] DeltaError),
    /// Recorded numbers that differ from what the rules make of the recorded dice.
    #[error("its numbers are not what the rules make of its dice")]
    Differs,
    /// A spell or feature the hero cannot use now.
    #[error(transparent)]
    Power(#[from] PowerError),
    /// A spell that cannot be cast in a fight (it takes minutes).
    #[error("{0} takes minutes to cast; not in a fight")]
    TooSlow(String),
    /// A feature that does nothing in a fight.
    #[error("{0} is not used as a move in a fight")]
    NotAFightMove(&'static str),
}

/// The hero's figures in a fight, from the sheet (its conditions' edges on attacks included).
pub fn hero(sheet: &CharacterSheet) -> Hero {
    let effects = sheet.conditions().roll_effects();
    let sneak = sheet
        .features()
        .iter()
        .any(|(feature, _)| *feature == Feature::SneakAttack);
    Hero {
        attack_edge: effects.attacks,
        defence_edge: effects.against,
        max_hit_points: sheet.hit_points().max(),
        concentration_save: sheet.save_bonus(Attribute::Constitution),
        concentrating: sheet.powers().is_some_and(|p| p.concentration().is_some()),
        sneak_attack_dice: if sneak {
            sheet.level().value().div_ceil(2)
        } else {
            0
        },
        ..Hero::new(
            sheet.armor_class(),
            sheet.hit_points().current(),
            sheet.attributes().dexterity.modifier(),
        )
    }
}

/// The attack with the carried weapon `slug` (or the equipped one), as the fight uses it. Bare
/// hands strike like an improvised weapon: 1d4 bludgeoning.
pub fn weapon_profile(
    sheet: &CharacterSheet,
    slug: Option<&Slug>,
) -> Result<AttackProfile, FightError> {
    let attack = sheet.weapon_attack(slug)?;
    let dice = match attack.damage_dice() {
        Some(dice) => dice.clone(),
        None => DiceExpr::parse("1d4").expect("1d4 is dice"),
    };
    let profile = AttackProfile::new(
        AttackName::new(&attack.name().to_lowercase()).map_err(CreatureError::from)?,
        attack.to_hit(),
        dice,
        attack.damage_bonus(),
        attack.damage_type(),
    )?;
    Ok(profile)
}

/// The escape check: d20 + DEX against 10 + the best DEX modifier among the foes standing.
fn escape_check(combat: &Combat, sheet: &CharacterSheet, dice: &mut FightDice<'_>) -> Check {
    let best = combat
        .current()
        .into_iter()
        .flat_map(|encounter| encounter.standing())
        .map(|foe| foe.creature().abilities().get(Attribute::Dexterity))
        .max()
        .unwrap_or(0);
    let dc = DifficultyClass::new(10 + i64::from(best)).expect("10 ± 10 is a DC");
    let bonus = sheet.attributes().bonus(Attribute::Dexterity);
    Check::new(dice.roll(&DiceExpr::d20(), Some(bonus)), dc)
}

/// A known `spell` as the fight casts it with a `slot`: its figures for the slot and the
/// caster's level, the caster's attack bonus and save DC.
fn spell_cast(
    sheet: &CharacterSheet,
    spell: &Spell,
    slot: SpellLevel,
) -> Result<SpellCast, FightError> {
    if let CastingTime::Minutes(_) = spell.casting_time {
        return Err(FightError::TooSlow(spell.name.clone()));
    }
    let figures =
        spell
            .figures(slot, sheet.level().value())
            .map_err(|low| PowerError::SlotTooLow {
                spell: low.spell,
                level: low.level.ordinal(),
            })?;
    let dice = || figures.dice.clone().ok_or(FightError::Differs);
    let effect = match &spell.effect {
        SpellEffect::Damage { damage_type, .. } => CastEffect::Damage {
            damage: Damage::new(dice()?, *damage_type).map_err(CombatError::from)?,
            beams: figures.beams,
        },
        SpellEffect::Healing { .. } => CastEffect::Healing {
            dice: sheet.healing_dice(spell, slot).ok_or(FightError::Differs)?,
        },
        SpellEffect::HitPointPool { .. } => CastEffect::Pool { dice: dice()? },
        SpellEffect::Condition => CastEffect::Condition,
        SpellEffect::Rider { dice, on } => CastEffect::Rider {
            dice: dice.clone(),
            on: *on,
        },
        SpellEffect::ArmorBonus { bonus } => CastEffect::Ward { bonus: *bonus },
        SpellEffect::Utility => CastEffect::Utility,
    };
    Ok(SpellCast {
        spell: spell.name.clone(),
        attack_name: AttackName::new(&spell.name.to_lowercase()).map_err(CreatureError::from)?,
        slot,
        delivery: spell.delivery,
        effect,
        condition: spell.condition,
        attack_bonus: sheet.spell_attack_bonus().unwrap_or(0),
        save_dc: sheet.spell_save_dc().unwrap_or(8),
        concentration: spell.concentration,
        reach: figures.targets,
    })
}

/// The fight's action for a class `feature` used on `target` (or the first foe standing).
fn feature_action(
    feature: Feature,
    target: Option<&String>,
    combat: &Combat,
    sheet: &CharacterSheet,
    dice: &mut FightDice<'_>,
) -> Result<HeroAction, FightError> {
    sheet.usable(feature)?;
    let first = combat
        .current()
        .and_then(|encounter| encounter.standing().next())
        .map(|foe| foe.label().to_string());
    let target = target.cloned().or(first).ok_or(CombatError::NoEncounter)?;
    let strike = |strikes: u8,
                  heal: Option<DiceExpr>,
                  hide: Option<Check>|
     -> Result<HeroAction, FightError> {
        Ok(HeroAction::Strike {
            target: target.clone(),
            weapon: weapon_profile(sheet, None)?,
            strikes,
            heal,
            hide,
        })
    };
    match feature {
        Feature::SecondWind => strike(1, Some(features::second_wind_dice(sheet.level())), None),
        Feature::ActionSurge => strike(2, None, None),
        Feature::CunningAction => strike(1, None, Some(hide_check(combat, sheet, dice))),
        Feature::ChannelDivinity => Ok(HeroAction::TurnUndead {
            dc: spellcasting::save_dc(
                sheet.proficiency_bonus(),
                sheet.attributes().get(Attribute::Wisdom).modifier(),
            ),
        }),
        other => Err(FightError::NotAFightMove(other.name())),
    }
}

/// Hiding (Cunning Action): d20 + Stealth against 10 + the best WIS modifier among the foes
/// standing (their passive Perception).
fn hide_check(combat: &Combat, sheet: &CharacterSheet, dice: &mut FightDice<'_>) -> Check {
    let best = combat
        .current()
        .into_iter()
        .flat_map(|encounter| encounter.standing())
        .map(|foe| foe.creature().abilities().get(Attribute::Wisdom))
        .max()
        .unwrap_or(0);
    let dc = DifficultyClass::new(10 + i64::from(best)).expect("10 ± 10 is a DC");
    let bonus = sheet.check_bonus(Attribute::Dexterity, Some(Skill::Stealth));
    Check::new(dice.roll(&DiceExpr::d20(), Some(bonus)), dc)
}

impl FightStep {
    /// Plays the step on `combat` for the character of `sheet` with `dice`: the exchange.
    fn play_with(
        &self,
        combat: &mut Combat,
        sheet: &CharacterSheet,
        dice: &mut FightDice<'_>,
    ) -> Result<Exchange, FightError> {
        let hero = hero(sheet);
        let action = match self {
            FightStep::Start { foes } => {
                if foes.len() > MAX_FOES {
                    return Err(CombatError::TooManyFoes { count: foes.len() }.into());
                }
                let creatures = foes
                    .iter()
                    .map(FoeSpec::creature)
                    .collect::<Result<Vec<_>, _>>()?;
                return Ok(combat.start_rolled(creatures, &hero, dice)?);
            }
            FightStep::Stop => {
                let end = combat.stop()?;
                return Ok(Exchange {
                    end: Some(end),
                    ..Exchange::default()
                });
            }
            FightStep::Attack { target, weapon } => HeroAction::Attack {
                target: target.clone(),
                weapon: weapon_profile(sheet, weapon.as_ref())?,
            },
            FightStep::Dodge => HeroAction::Dodge,
            FightStep::Flee => HeroAction::Flee {
                escape: escape_check(combat, sheet, dice),
            },
            FightStep::Pass => HeroAction::Pass,
            FightStep::Cast {
                spell,
                targets,
                slot,
            } => {
                let (spell, slot) = sheet.castable(spell.as_str(), *slot)?;
                HeroAction::Cast {
                    cast: spell_cast(sheet, spell, slot)?,
                    targets: targets.clone(),
                }
            }
            FightStep::Feature { feature, target } => {
                feature_action(*feature, target.as_ref(), combat, sheet, dice)?
            }
        };
        Ok(combat.act_rolled(action, &hero, dice)?)
    }

    /// Plays the step with fresh dice (`rng` gives a face for a die of so many sides). Refused, changing nothing, when the rules
    /// refuse it.
    pub fn play(
        self,
        combat: &mut Combat,
        sheet: &CharacterSheet,
        rng: &mut dyn FnMut(u16) -> u16,
    ) -> Result<FightRecord, FightError> {
        let mut after = combat.clone();
        let mut dice = FightDice::fresh(rng);
        let exchange = self.play_with(&mut after, sheet, &mut dice)?;
        let faces = dice.finish()?;
        *combat = after;
        Ok(FightRecord {
            step: self,
            faces,
            exchange,
        })
    }
}

impl FightStep {
    /// Plays the step with fresh dice and applies what it does to `sheet` (the foes' damage, a
    /// won fight's experience): the record and the changes. Both or neither: refused, `combat`
    /// and `sheet` stay as they were.
    pub fn play_on(
        self,
        combat: &mut Combat,
        sheet: &mut CharacterSheet,
        rng: &mut dyn FnMut(u16) -> u16,
    ) -> Result<(FightRecord, AppliedChanges), FightError> {
        let mut after = combat.clone();
        let record = self.play(&mut after, sheet, rng)?;
        let changes = StateDelta::apply_all(&record.deltas(), sheet)?;
        *combat = after;
        Ok((record, changes))
    }
}

impl FightRecord {
    /// Plays the record's step again on `combat` with its recorded faces; refused, changing
    /// nothing, unless that gives exactly the recorded exchange.
    pub fn replay(&self, combat: &mut Combat, sheet: &CharacterSheet) -> Result<(), FightError> {
        let mut after = combat.clone();
        let mut dice = FightDice::recorded(&self.faces);
        let exchange = self.step.play_with(&mut after, sheet, &mut dice)?;
        dice.finish()?;
        if exchange != self.exchange {
            return Err(FightError::Differs);
        }
        *combat = after;
        Ok(())
    }

    /// What the step does to the sheet: the spell's slot or the feature's use (and its
    /// healing), the foes' damage, concentration lost, and the experience of a won fight.
    pub fn deltas(&self) -> Vec<StateDelta> {
        let mut deltas = Vec::new();
        let healed = self.exchange.events.iter().find_map(|event| match event {
            CombatEvent::Healed { roll } => Some(roll.clone()),
            _ => None,
        });
        let slot = self.exchange.events.iter().find_map(|event| match event {
            CombatEvent::Cast { slot, .. } => Some(*slot),
            _ => None,
        });
        match (&self.step, slot) {
            (FightStep::Cast { spell, .. }, Some(slot)) => deltas.push(StateDelta::CastSpell {
                spell: spell.clone(),
                slot,
                roll: healed,
            }),
            (FightStep::Feature { feature, .. }, _) => deltas.push(StateDelta::UseFeature {
                feature: *feature,
                roll: healed,
            }),
            _ => {}
        }
        let damage = self.exchange.damage_to_hero;
        if damage > 0 {
            deltas.push(StateDelta::ChangeHp {
                amount: -i32::try_from(damage).unwrap_or(i32::MAX),
            });
        }
        let lost = self
            .exchange
            .events
            .iter()
            .any(|event| matches!(event, CombatEvent::Concentration { kept: false, .. }));
        if lost || self.exchange.end.is_some() {
            deltas.push(StateDelta::EndConcentration);
        }
        if let Some(end) = &self.exchange.end {
            if end.xp > 0 {
                deltas.push(StateDelta::GainExperience {
                    amount: end.xp.min(MAX_AWARD),
                });
            }
        }
        deltas
    }
}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::game::combat::CombatEvent;
    use crate::game::creation::tests_support::rogue;

    fn goblins(count: usize) -> FightStep {
        let foe = FoeSpec {
            name: CreatureName::new("Goblin").unwrap(),
            challenge: None,
        };
        FightStep::Start {
            foes: vec![foe; count],
        }
    }

    fn play(
        step: FightStep,
        combat: &mut Combat,
        sheet: &CharacterSheet,
        seed: u64,
    ) -> FightRecord {
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
}
