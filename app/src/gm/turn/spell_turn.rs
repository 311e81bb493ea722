//! A spell the player casts in their own words or by an offered action, played by the rules
//! before the narrator writes: in a fight it is the fight's cast move (at the foes the words
//! name); outside one the slot is spent, healing is rolled and applied, and the narrator is told
//! the spell is cast. A cast the hero cannot make never gets here: the move is refused first.

use rand::Rng;

use crate::campaign::turn_event::TurnEvent;
use crate::game::fight::FightMove;
use crate::game::spell_words::checked_cast;
use crate::game::spells::SpellEffect;
use crate::game::StateDelta;
use crate::gm::tools::ToolTable;

/// Why a spell was cast, in the ledger.
pub const CAST_BY_THE_RULES: &str = "Cast by the rules";

/// The fight's cast move the typed `words` ask for, with a fight under way: the spell at the
/// foes the words name (none named: the first it reaches).
pub fn typed_fight_cast(words: &str, table: &ToolTable) -> Option<FightMove> {
    let encounter = table.combat.current()?;
    let (spell, slot) = checked_cast(words, &table.sheet)?.ok()?;
    let lower = words.to_lowercase();
    let targets = encounter
        .standing()
        .filter(|foe| {
            lower.contains(&foe.label().as_str().to_lowercase())
                || lower.contains(&foe.creature().name().as_str().to_lowercase())
        })
        .map(|foe| foe.label().to_string())
        .collect();
    Some(FightMove::Cast {
        spell: spell.slug(),
        targets,
        slot: Some(slot),
    })
}

/// Outside a fight, the spell `words` cast, by the rules: the event to log and the narrator's
/// line; `None` when the words cast nothing (or a fight is under way).
pub fn spell_turn<R: Rng + ?Sized>(
    words: &str,
    table: &mut ToolTable,
    rng: &mut R,
) -> Option<(TurnEvent, String)> {
    if table.combat.is_running() {
        return None;
    }
    let (spell, slot) = checked_cast(words, &table.sheet)?.ok()?;
    let roll = table
        .sheet
        .healing_dice(spell, slot)
        .map(|dice| dice.roll(rng));
    let delta = StateDelta::CastSpell {
        spell: spell.slug(),
        slot,
        roll: roll.clone(),
    };
    let changes = StateDelta::apply_all(std::slice::from_ref(&delta), &mut table.sheet).ok()?;
    let spent = if slot.is_cantrip() {
        "a cantrip".to_owned()
    } else {
        format!("a {} slot", slot.ordinal())
    };
    let mut line = format!("The rules resolved: you cast {} ({spent})", spell.name);
    match (&roll, &spell.effect) {
        (Some(roll), _) => line.push_str(&format!(
            ": {} heals {} HP",
            roll.describe("healing"),
            roll.total().max(0)
        )),
        (None, SpellEffect::Utility) => line.push_str("; tell what it does"),
        (None, _) => line.push_str("; no foe is near, so it strikes nothing that counts"),
    }
    if spell.concentration {
        line.push_str("; you concentrate on it");
    }
    let event = TurnEvent::Ruled {
        cause: CAST_BY_THE_RULES.to_owned(),
        deltas: vec![delta],
        changes,
    };
    Some((event, line))
}
